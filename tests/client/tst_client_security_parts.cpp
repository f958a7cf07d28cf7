// The client's security decisions without a server: the endpoint choice (EndpointSelection.h), the
// downgrade comparison of CreateSession's serverEndpoints, the legacy token secret, the Session
// signatures and identity tokens (SessionSecurity.h), and the checks of a certificate accepted once
// (ServerTrust.h).
#include "ClientTestUtil.h"

#include "ua/client/discovery/EndpointSelection.h"
#include "ua/client/discovery/ServerTrust.h"
#include "ua/client/session/SessionSecurity.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/AsymmetricCrypto.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

UserTokenPolicy token(const char* id, UserTokenType type, const char* policy = nullptr) {
    UserTokenPolicy t;
    t.policyId = String(id);
    t.tokenType = type;
    if (policy) t.securityPolicyUri = String(policy);
    return t;
}

EndpointDescription endpoint(const char* policy, MessageSecurityMode mode, uint8_t level,
                             std::vector<UserTokenPolicy> tokens, const char* cert = "CERT") {
    EndpointDescription e;
    e.endpointUrl = String("opc.tcp://server:4840");
    e.server.applicationUri = String("urn:server");
    e.securityPolicyUri = String(policy);
    e.securityMode = mode;
    e.securityLevel = level;
    e.serverCertificate = ByteString(cert); // on None too: the encrypted token policies need it
    e.userIdentityTokens = Array<UserTokenPolicy>(std::move(tokens));
    e.transportProfileUri = String(kTransportProfileUaTcp);
    return e;
}

// 0 None (anonymous; username plain and username encrypted by Basic256Sha256), 1 Basic256Sha256 Sign,
// 2 Basic256Sha256 SignAndEncrypt, 3 Aes256 SignAndEncrypt (anonymous only), 4 Basic256 SignAndEncrypt
// (deprecated), 5 Aes256 SignAndEncrypt over HTTPS (not UA-TCP).
Array<EndpointDescription> sampleEndpoints() {
    const auto anon = token("anonymous", UserTokenType::Anonymous);
    const auto user = token("username", UserTokenType::UserName);
    Array<EndpointDescription> list;
    list.push_back(endpoint(kSecurityPolicyNone, MessageSecurityMode::None, 0,
                            {anon, token("plain", UserTokenType::UserName, kSecurityPolicyNone),
                             token("encrypted", UserTokenType::UserName, kSecurityPolicyBasic256Sha256)}));
    list.push_back(endpoint(kSecurityPolicyBasic256Sha256, MessageSecurityMode::Sign, 2, {anon, user}));
    list.push_back(
        endpoint(kSecurityPolicyBasic256Sha256, MessageSecurityMode::SignAndEncrypt, 12, {anon, user}));
    list.push_back(
        endpoint(kSecurityPolicyAes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt, 14, {anon}));
    list.push_back(endpoint(kSecurityPolicyBasic256, MessageSecurityMode::SignAndEncrypt, 11, {anon, user}));
    auto https =
        endpoint(kSecurityPolicyAes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt, 200, {anon, user});
    https.transportProfileUri = String("http://opcfoundation.org/UA-Profile/Transport/https-uabinary");
    list.push_back(https);
    return list;
}

} // namespace

class TestClientSecurityParts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void selectsTheEndpoint_data();
    void selectsTheEndpoint();
    void prefersAnEncryptedPasswordOnANoneChannel();
    void eccEndpointsWhenNamedOrAlone();
    void comparesEndpoints();
    void legacyTokenSecret();
    void serverSignature();
    void clientAndUserSignatures();
    void encryptedPassword();
    void plainPasswordWithPolicyNone();
    void acceptedOnceChecks();

private:
    QTemporaryDir m_tmp;
    Certificate m_cert; // names host "myhost" and 10.1.2.3, URI urn:test:server
    PrivateKey m_key;
    Certificate m_otherCert;
    PrivateKey m_otherKey;
};

void TestClientSecurityParts::initTestCase() {
    QVERIFY(m_tmp.isValid());
    CertificateStore store(m_tmp.filePath(QStringLiteral("a")).toStdString());
    CertificateRequest req;
    req.applicationUri = "urn:test:server";
    req.applicationName = "Test Server";
    req.hostNames = {"myhost", "10.1.2.3"};
    std::string error;
    QVERIFY2(store.ensureOwnCertificate(req, &error), error.c_str());
    m_cert = store.ownCertificate();
    m_key = store.ownPrivateKey();
    CertificateStore other(m_tmp.filePath(QStringLiteral("b")).toStdString());
    req.applicationUri = "urn:test:other";
    QVERIFY(other.ensureOwnCertificate(req));
    m_otherCert = other.ownCertificate();
    m_otherKey = other.ownPrivateKey();
}

void TestClientSecurityParts::selectsTheEndpoint_data() {
    QTest::addColumn<QString>("policy");
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("tokenType");
    QTest::addColumn<bool>("haveCertificate");
    QTest::addColumn<bool>("allowDeprecated");
    QTest::addColumn<uint32_t>("status");
    QTest::addColumn<int>("index");
    const int best = int(MessageSecurityMode::Invalid);
    const int anon = int(UserTokenType::Anonymous), user = int(UserTokenType::UserName),
              x509 = int(UserTokenType::Certificate);
    const uint32_t good = status::Good.code;
    QTest::newRow("best: Aes256 SignAndEncrypt, not the https one")
        << QString() << best << anon << true << false << good << 3;
    QTest::newRow("best without a certificate: None")
        << QString() << best << anon << false << false << good << 0;
    QTest::newRow("best for a user: Basic256Sha256 SignAndEncrypt")
        << QString() << best << user << true << false << good << 2;
    QTest::newRow("Basic256Sha256 Sign")
        << QString(kSecurityPolicyBasic256Sha256) << int(MessageSecurityMode::Sign) << anon << true << false
        << good << 1;
    QTest::newRow("mode only") << QString() << int(MessageSecurityMode::Sign) << user << true << false << good
                               << 1;
    QTest::newRow("policy only") << QString(kSecurityPolicyBasic256Sha256) << best << anon << true << false
                                 << good << 2;
    QTest::newRow("deprecated refused") << QString(kSecurityPolicyBasic256) << best << anon << true << false
                                        << status::BadSecurityPolicyRejected.code << 0;
    QTest::newRow("deprecated allowed")
        << QString(kSecurityPolicyBasic256) << best << anon << true << true << good << 4;
    QTest::newRow("secure without a certificate")
        << QString(kSecurityPolicyBasic256Sha256) << best << anon << false << false
        << status::BadSecurityPolicyRejected.code << 0;
    QTest::newRow("Aes256 has no user token") << QString(kSecurityPolicyAes256Sha256RsaPss) << best << user
                                              << true << false << status::BadIdentityTokenRejected.code << 0;
    QTest::newRow("nobody takes X509")
        << QString() << best << x509 << true << false << status::BadIdentityTokenRejected.code << 0;
    QTest::newRow("unknown policy") << QStringLiteral("http://example.com/Policy#X") << best << anon << true
                                    << false << status::BadSecurityPolicyRejected.code << 0;
}

void TestClientSecurityParts::selectsTheEndpoint() {
    QFETCH(QString, policy);
    QFETCH(int, mode);
    QFETCH(int, tokenType);
    QFETCH(bool, haveCertificate);
    QFETCH(bool, allowDeprecated);
    QFETCH(uint32_t, status);
    QFETCH(int, index);
    EndpointWanted w;
    w.securityPolicyUri = policy.toStdString();
    w.mode = MessageSecurityMode(mode);
    w.tokenType = UserTokenType(tokenType);
    w.haveCertificate = haveCertificate;
    w.allowDeprecated = allowDeprecated;
    const auto list = sampleEndpoints();
    const EndpointChoice c = selectEndpoint(list, w);
    QCOMPARE(c.status, StatusCode(status));
    if (c.status.isBad()) return;
    QCOMPARE(int(c.endpointIndex), index);
    QVERIFY(c.channelPolicy);
    QCOMPARE(c.channelPolicy->uri, list[c.endpointIndex].securityPolicyUri.view());
    QCOMPARE(list[c.endpointIndex].userIdentityTokens[c.tokenIndex].tokenType, UserTokenType(tokenType));
    QVERIFY(c.tokenPolicy);
}

void TestClientSecurityParts::prefersAnEncryptedPasswordOnANoneChannel() {
    EndpointWanted w;
    w.mode = MessageSecurityMode::None;
    w.tokenType = UserTokenType::UserName;
    const auto list = sampleEndpoints();
    const EndpointChoice c = selectEndpoint(list, w);
    QCOMPARE(c.status, status::Good);
    QCOMPARE(int(c.endpointIndex), 0);
    QCOMPARE(list[0].userIdentityTokens[c.tokenIndex].policyId, String("encrypted"));
    QCOMPARE(c.tokenPolicy->id, SecurityPolicyId::Basic256Sha256);
    QCOMPARE(c.channelPolicy->id, SecurityPolicyId::None);
    // Without the server's certificate on the endpoint only the plain token policy is usable.
    auto noCertificate = list;
    noCertificate[0].serverCertificate = ByteString();
    const EndpointChoice plain = selectEndpoint(noCertificate, w);
    QCOMPARE(plain.status, status::Good);
    QCOMPARE(noCertificate[0].userIdentityTokens[plain.tokenIndex].policyId, String("plain"));
    // An empty token securityPolicyUri means the endpoint's policy (7.41).
    QCOMPARE(tokenSecurityPolicy(list[1].userIdentityTokens[1], list[1])->id,
             SecurityPolicyId::Basic256Sha256);
}

void TestClientSecurityParts::eccEndpointsWhenNamedOrAlone() {
    // docs/Security.md "ECC security policies": "best" prefers the current RSA policies; an ECC one
    // is taken when named, or when nothing better is offered; a UserName token under an ECC policy
    // (an EccEncryptedSecret) only on a channel of that same policy (its EphemeralKey is signed with
    // the channel's certificate).
    const auto anon = token("anonymous", UserTokenType::Anonymous);
    const auto user = token("username", UserTokenType::UserName);
    Array<EndpointDescription> list;
    list.push_back(endpoint(kSecurityPolicyAes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt, 14, {anon, user}));
    list.push_back(endpoint(kSecurityPolicyEccNistP256, MessageSecurityMode::SignAndEncrypt, 15, {anon, user}));
    list.push_back(endpoint(kSecurityPolicyEccNistP384, MessageSecurityMode::SignAndEncrypt, 16, {anon}));
    EndpointWanted best;
    best.haveCertificate = true;
    EndpointChoice c = selectEndpoint(list, best);
    QCOMPARE(c.status, status::Good);
    QCOMPARE(int(c.endpointIndex), 0);
    EndpointWanted named = best;
    named.securityPolicyUri = kSecurityPolicyEccNistP256;
    c = selectEndpoint(list, named);
    QCOMPARE(c.status, status::Good);
    QCOMPARE(int(c.endpointIndex), 1);
    QCOMPARE(c.channelPolicy->id, SecurityPolicyId::EccNistP256);
    QCOMPARE(c.tokenPolicy->id, SecurityPolicyId::EccNistP256);  // the anonymous token
    named.tokenType = UserTokenType::UserName;
    c = selectEndpoint(list, named);
    QCOMPARE(c.status, status::Good);
    QCOMPARE(int(c.tokenIndex), 1);
    QCOMPARE(c.tokenPolicy->id, SecurityPolicyId::EccNistP256);
    // A password under ECC_nistP384 on an ECC_nistP256 channel (or an RSA one) is not made.
    auto p384User = user;
    p384User.securityPolicyUri = String(kSecurityPolicyEccNistP384);
    Array<EndpointDescription> mixed;
    mixed.push_back(endpoint(kSecurityPolicyEccNistP256, MessageSecurityMode::SignAndEncrypt, 15, {anon, p384User}));
    mixed.push_back(endpoint(kSecurityPolicyBasic256Sha256, MessageSecurityMode::SignAndEncrypt, 12, {anon, p384User}));
    EndpointWanted password = best;
    password.tokenType = UserTokenType::UserName;
    QCOMPARE(selectEndpoint(mixed, password).status, status::BadIdentityTokenRejected);
    // Only ECC (and None) offered: the best is ECC_nistP384 over ECC_nistP256.
    Array<EndpointDescription> eccOnly;
    eccOnly.push_back(endpoint(kSecurityPolicyNone, MessageSecurityMode::None, 0, {anon}));
    eccOnly.push_back(list[1]);
    eccOnly.push_back(list[2]);
    c = selectEndpoint(eccOnly, best);
    QCOMPARE(c.status, status::Good);
    QCOMPARE(int(c.endpointIndex), 2);
}

void TestClientSecurityParts::comparesEndpoints() {
    const auto a = sampleEndpoints();
    QCOMPARE(compareEndpoints(a, a), status::Good);
    auto reordered = a;
    std::reverse(reordered.begin(), reordered.end());
    QCOMPARE(compareEndpoints(a, reordered), status::Good);
    auto otherUrl = a;
    for (auto& e : otherUrl)
        e.endpointUrl = String("opc.tcp://elsewhere:4840");
    QCOMPARE(compareEndpoints(a, otherUrl), status::Good);
    auto noCertificates = a;
    for (auto& e : noCertificates)
        e.serverCertificate = ByteString();
    QCOMPARE(compareEndpoints(a, noCertificates), status::Good);
    auto renamed = a;
    renamed[1].userIdentityTokens[0].policyId = String("anonymous_7"); // only a name
    QCOMPARE(compareEndpoints(a, renamed), status::Good);
    auto withoutHttps = a;
    withoutHttps.pop_back();
    QCOMPARE(compareEndpoints(a, withoutHttps), status::Good); // only UA-TCP endpoints are compared

    auto dropped = a;
    dropped.erase(dropped.begin() + 3); // the strongest endpoint hidden from GetEndpoints...
    QCOMPARE(compareEndpoints(dropped, a), status::BadSecurityChecksFailed); // ...shows in CreateSession
    QCOMPARE(compareEndpoints(a, dropped), status::BadSecurityChecksFailed);
    auto mode = a;
    mode[2].securityMode = MessageSecurityMode::Sign;
    QCOMPARE(compareEndpoints(a, mode), status::BadSecurityChecksFailed);
    auto tokens = a;
    tokens[1].userIdentityTokens[1].securityPolicyUri = String(kSecurityPolicyNone);
    QCOMPARE(compareEndpoints(a, tokens), status::BadSecurityChecksFailed);
    auto cert = a;
    cert[1].serverCertificate = ByteString("OTHER");
    QCOMPARE(compareEndpoints(a, cert), status::BadSecurityChecksFailed);
    auto uri = a;
    uri[0].server.applicationUri = String("urn:impostor");
    QCOMPARE(compareEndpoints(a, uri), status::BadSecurityChecksFailed);
    QCOMPARE(compareEndpoints(a, Array<EndpointDescription>()), status::BadSecurityChecksFailed);
}

void TestClientSecurityParts::legacyTokenSecret() {
    const auto bytes = ua::legacyTokenSecret("abc", ByteString("12"));
    const std::vector<uint8_t> expected{5, 0, 0, 0, 'a', 'b', 'c', '1', '2'};
    QCOMPARE(bytes, expected);
    QCOMPARE(ua::legacyTokenSecret("", ByteString()), (std::vector<uint8_t>{0, 0, 0, 0}));
}

void TestClientSecurityParts::serverSignature() {
    // The server signs our certificate + our nonce; makeSignature makes exactly that data's signature.
    const SecurityPolicy& policy = securityPolicy(SecurityPolicyId::Basic256Sha256);
    const ByteString nonce("0123456789abcdef0123456789abcdef");
    SignatureData sig;
    QCOMPARE(makeSignature(policy, m_key, m_otherCert.der(), nonce, sig), status::Good);
    QCOMPARE(sig.algorithm.view(), policy.asymmetricSignatureUri);
    QCOMPARE(verifyServerSignature(policy, m_cert, m_otherCert.der(), nonce, sig), status::Good);
    // Our chain (leaf + issuer) sent: the leaf is what 1.05 servers sign.
    const std::string chain = m_otherCert.der() + m_cert.der();
    QCOMPARE(verifyServerSignature(policy, m_cert, chain, nonce, sig), status::Good);
    // Older servers sign the whole chain.
    SignatureData chainSig;
    QCOMPARE(makeSignature(policy, m_key, chain, nonce, chainSig), status::Good);
    QCOMPARE(verifyServerSignature(policy, m_cert, chain, nonce, chainSig), status::Good);

    QCOMPARE(verifyServerSignature(policy, m_cert, m_otherCert.der(),
                                   ByteString("another nonce.................."), sig),
             status::BadApplicationSignatureInvalid);
    QCOMPARE(verifyServerSignature(policy, m_otherCert, m_otherCert.der(), nonce, sig),
             status::BadApplicationSignatureInvalid);
    SignatureData tampered = sig;
    std::string bytes = tampered.signature.str();
    bytes[10] = char(bytes[10] ^ 1);
    tampered.signature = ByteString(bytes);
    QCOMPARE(verifyServerSignature(policy, m_cert, m_otherCert.der(), nonce, tampered),
             status::BadApplicationSignatureInvalid);
    SignatureData wrongAlgorithm = sig;
    wrongAlgorithm.algorithm = String("http://www.w3.org/2000/09/xmldsig#rsa-sha1");
    QCOMPARE(verifyServerSignature(policy, m_cert, m_otherCert.der(), nonce, wrongAlgorithm),
             status::BadApplicationSignatureInvalid);
    QCOMPARE(verifyServerSignature(policy, m_cert, m_otherCert.der(), nonce, SignatureData()),
             status::BadApplicationSignatureInvalid);
    // PSS: a signature differs each time but verifies.
    const SecurityPolicy& pss = securityPolicy(SecurityPolicyId::Aes256Sha256RsaPss);
    SignatureData pssSig;
    QCOMPARE(makeSignature(pss, m_key, m_otherCert.der(), nonce, pssSig), status::Good);
    QCOMPARE(verifyServerSignature(pss, m_cert, m_otherCert.der(), nonce, pssSig), status::Good);
    QCOMPARE(verifyServerSignature(policy, m_cert, m_otherCert.der(), nonce, pssSig),
             status::BadApplicationSignatureInvalid);
}

void TestClientSecurityParts::clientAndUserSignatures() {
    const SecurityPolicy& policy = securityPolicy(SecurityPolicyId::Aes128Sha256RsaOaep);
    const ByteString nonce("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345");
    SignatureData unused;
    QCOMPARE(makeSignature(policy, m_key, m_cert.der(), ByteString(), unused), status::BadNonceInvalid);

    // X509IdentityToken: the user's certificate, signed server certificate + nonce by the user's key.
    ExtensionObject tok;
    SignatureData userSig;
    const UserIdentity user = UserIdentity::fromCertificate(m_otherCert, m_otherKey);
    QCOMPARE(makeIdentityToken(user, token("x509", UserTokenType::Certificate), policy, m_cert, nonce, tok,
                               userSig),
             status::Good);
    const X509IdentityToken* x = tok.get<X509IdentityToken>();
    QVERIFY(x);
    QCOMPARE(x->policyId, String("x509"));
    QCOMPARE(x->certificateData.str(), m_otherCert.der());
    QCOMPARE(userSig.algorithm.view(), policy.asymmetricSignatureUri);
    const std::string data = m_cert.der() + nonce.str();
    QVERIFY(crypto::asymmetricVerify(
        policy, m_otherCert.publicKey(), reinterpret_cast<const uint8_t*>(data.data()), data.size(),
        reinterpret_cast<const uint8_t*>(userSig.signature.data()), userSig.signature.size()));
    QCOMPARE(makeIdentityToken(UserIdentity::fromCertificate(m_otherCert, PrivateKey()),
                               token("x509", UserTokenType::Certificate), policy, m_cert, nonce, tok,
                               userSig),
             status::BadIdentityTokenInvalid);

    const UserIdentity anonymous;
    QCOMPARE(makeIdentityToken(anonymous, token("anon", UserTokenType::Anonymous), policy, m_cert, nonce, tok,
                               userSig),
             status::Good);
    QVERIFY(tok.get<AnonymousIdentityToken>());
    QCOMPARE(tok.get<AnonymousIdentityToken>()->policyId, String("anon"));
    QVERIFY(userSig.signature.isNull());
}

void TestClientSecurityParts::encryptedPassword() {
    const ByteString nonce("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345");
    for (auto id : {SecurityPolicyId::Basic256Sha256, SecurityPolicyId::Aes128Sha256RsaOaep,
                    SecurityPolicyId::Aes256Sha256RsaPss}) {
        const SecurityPolicy& policy = securityPolicy(id);
        ExtensionObject t;
        SignatureData sig;
        const auto user = UserIdentity::fromUserName(QStringLiteral("operator"), QStringLiteral("pässwörd"));
        QCOMPARE(makeIdentityToken(user, token("un", UserTokenType::UserName), policy, m_cert, nonce, t, sig),
                 status::Good);
        const UserNameIdentityToken* u = t.get<UserNameIdentityToken>();
        QVERIFY(u);
        QCOMPARE(u->policyId, String("un"));
        QCOMPARE(u->userName, String("operator"));
        QCOMPARE(u->encryptionAlgorithm.view(), policy.asymmetricEncryptionUri);
        QCOMPARE(u->password.size() % crypto::rsaKeyBytes(m_cert.publicKey()), std::size_t(0));
        std::vector<uint8_t> plain;
        QCOMPARE(crypto::asymmetricDecrypt(policy, m_key.get(),
                                           reinterpret_cast<const uint8_t*>(u->password.data()),
                                           u->password.size(), plain),
                 status::Good);
        QCOMPARE(plain, ua::legacyTokenSecret(QStringLiteral("pässwörd").toUtf8().toStdString(), nonce));
        QVERIFY(sig.signature.isNull());
    }
    ExtensionObject t;
    SignatureData sig;
    const SecurityPolicy& policy = securityPolicy(SecurityPolicyId::Basic256Sha256);
    QCOMPARE(makeIdentityToken(UserIdentity::fromUserName(QStringLiteral("u"), QStringLiteral("p")),
                               token("un", UserTokenType::UserName), policy, Certificate(), nonce, t, sig),
             status::BadCertificateInvalid);
    QCOMPARE(makeIdentityToken(UserIdentity::fromUserName(QStringLiteral("u"), QStringLiteral("p")),
                               token("un", UserTokenType::UserName), policy, m_cert, ByteString(), t, sig),
             status::BadNonceInvalid);
}

void TestClientSecurityParts::plainPasswordWithPolicyNone() {
    ExtensionObject t;
    SignatureData sig;
    QCOMPARE(makeIdentityToken(UserIdentity::fromUserName(QStringLiteral("u"), QStringLiteral("secret")),
                               token("un", UserTokenType::UserName), securityPolicy(SecurityPolicyId::None),
                               Certificate(), ByteString(), t, sig),
             status::Good);
    QCOMPARE(t.get<UserNameIdentityToken>()->password, ByteString("secret"));
    QVERIFY(t.get<UserNameIdentityToken>()->encryptionAlgorithm.isEmpty());
}

void TestClientSecurityParts::acceptedOnceChecks() {
    QVERIFY(certificateNamesHost(m_cert, QStringLiteral("myhost")));
    QVERIFY(certificateNamesHost(m_cert, QStringLiteral("MYHOST")));
    QVERIFY(certificateNamesHost(m_cert, QStringLiteral("10.1.2.3")));
    QVERIFY(!certificateNamesHost(m_cert, QStringLiteral("10.1.2.4")));
    QVERIFY(!certificateNamesHost(m_cert, QStringLiteral("otherhost")));
    QVERIFY(!certificateNamesHost(m_cert, QStringLiteral("myhost.example.com")));

    ServerCertificateExpectations e;
    e.applicationUri = "urn:test:server";
    e.hostName = QStringLiteral("myhost");
    e.policy = &securityPolicy(SecurityPolicyId::Basic256Sha256);
    QCOMPARE(checkAcceptedCertificate(m_cert, e), status::Good);
    e.hostName = QStringLiteral("10.1.2.3");
    QCOMPARE(checkAcceptedCertificate(m_cert, e), status::Good);
    e.hostName = QStringLiteral("localhost");
    QCOMPARE(checkAcceptedCertificate(m_cert, e), status::BadCertificateHostNameInvalid);
    e.hostName = QStringLiteral("myhost");
    e.applicationUri = "urn:test:impostor";
    QCOMPARE(checkAcceptedCertificate(m_cert, e), status::BadCertificateUriInvalid);
    QCOMPARE(checkAcceptedCertificate(Certificate(), e), status::BadCertificateInvalid);
}

UA_TEST_MAIN(TestClientSecurityParts)
#include "tst_client_security_parts.moc"
