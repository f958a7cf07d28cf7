// Session security and user identity (OPC 10000-4 5.7.2 CreateSession, 5.7.3 ActivateSession, 7.41
// user identity tokens; OPC 10000-3 Roles) against our server in process:
// - node-opcua's client as the real peer: Basic256Sha256 SignAndEncrypt (and the other policies, and
//   the None endpoint) with a username, anonymous and an X509 user token; a wrong password, an
//   unknown user and the lockout; writes refused for anonymous and allowed for an Operator.
// - our own ClientSecureChannel with crafted requests for what node-opcua will not send: a tampered
//   or replayed client signature, a short client nonce, a foreign client certificate, a wrong
//   ApplicationUri, broken user tokens, a Session moved to another channel.
// After every bad input another client is still served.
#include "SecureTestClient.h"
#include "PkiTestUtil.h"

#include "ua/pki/CertificateStore.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/services/CertificateSignatures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

constexpr uint32_t kIterations = 2000; // PBKDF2 work in the tests (the default is far higher)
constexpr uint32_t kLockoutAttempts = 3;

ByteString bytes(const std::vector<uint8_t>& v) {
    return ByteString(reinterpret_cast<const char*>(v.data()), v.size());
}
ByteString bytes(const std::string& s) { return ByteString(s); }
std::vector<uint8_t> concat(const ByteString& a, const ByteString& b) {
    std::vector<uint8_t> out(a.str().begin(), a.str().end());
    out.insert(out.end(), b.str().begin(), b.str().end());
    return out;
}

// An application or user certificate with its key, made by a CertificateStore of its own.
struct SessionIdentity {
    Certificate certificate;
    PrivateKey key;
};

SessionIdentity makeSessionIdentity(const QString& dir, const std::string& uri, const std::string& name) {
    CertificateStore store(dir.toStdString());
    CertificateRequest r;
    r.applicationUri = uri;
    r.applicationName = name;
    r.hostNames = {"127.0.0.1"};
    std::string error;
    if (!store.ensureOwnCertificate(r, &error))
        qWarning("certificate for %s: %s", name.c_str(), error.c_str());
    return {store.ownCertificate(), store.ownPrivateKey()};
}

} // namespace

class TestSessionSecurity : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void nodeOpcuaClientLogsIn();
    void serverSignatureVerifies();
    void signaturesCoverTheLeafOfAChain();
    void trustingAllClientsWaivesOnlyTheTrustList();
    void tamperedClientSignatureIsRefused();
    void shortClientNonceIsRefused();
    void foreignCertificateOrUriIsRefused();
    void userTokensAreChecked();
    void sessionMovesOnlyWithSameCertificateAndUser();
    void anonymousOnlyWhereAllowed();
    void anotherClientIsStillServed();

private:
    // An open Basic256Sha256 SignAndEncrypt channel of the raw client (who: its certificate).
    std::unique_ptr<SecureTestClient> channel(const SessionIdentity& who,
                                              MessageSecurityMode mode = MessageSecurityMode::SignAndEncrypt,
                                              Server* server = nullptr);
    CreateSessionRequest createRequest(const SessionIdentity& who, std::size_t nonceBytes = 32) const;
    // CreateSession with a valid request; returns the response (authenticationToken set on c).
    CreateSessionResponse createSession(SecureTestClient& c, const SessionIdentity& who);
    SignatureData clientSignature(const SessionIdentity& who, const ByteString& serverCertificate,
                                  const ByteString& nonce) const;
    ExtensionObject userNameToken(const std::string& user, const std::string& password,
                                  const ByteString& nonce, const char* policyId = "username") const;

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    SessionIdentity m_client;       // the raw client's application certificate
    SessionIdentity m_otherClient;  // another application
    SessionIdentity m_user;         // an X509 user (dave, Operator)
    SessionIdentity m_strangerUser; // an X509 user nobody trusts
    const SecurityPolicy* m_policy = nullptr;
};

void TestSessionSecurity::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_policy = &securityPolicy(SecurityPolicyId::Basic256Sha256);
    m_client = makeSessionIdentity(m_dir.filePath("client"), "urn:ua-workbench:test:raw-client", "raw client");
    m_otherClient =
        makeSessionIdentity(m_dir.filePath("other"), "urn:ua-workbench:test:other-client", "other client");
    m_user = makeSessionIdentity(m_dir.filePath("dave"), "urn:ua-workbench:test:user:dave", "dave");
    m_strangerUser = makeSessionIdentity(m_dir.filePath("eve"), "urn:ua-workbench:test:user:eve", "eve");
    QVERIFY(!m_client.certificate.isNull() && !m_user.certificate.isNull() && !m_user.key.isNull());

    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.pkiDir = m_dir.filePath("pki");
    cfg.security.trustAllClients = true;
    UserDatabase& users = cfg.security.users;
    users.setUser("alice", "alice-pw", roleBit(Role::Operator), kIterations);
    users.setUser("bob", "bob-pw", kNoRoles, kIterations);
    users.setUser("carol", "carol-pw", roleBit(Role::Operator), kIterations);
    UserRecord dave;
    dave.name = "dave";
    dave.roles = roleBit(Role::Operator);
    dave.certificateThumbprint = m_user.certificate.thumbprintHex();
    users.users.push_back(dave);
    users.maxFailedAuthenticationAttempts = kLockoutAttempts;
    users.lockoutSeconds = 600;
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    QVERIFY(m_server->userCertificateStore());
    QVERIFY(m_server->userCertificateStore()->addTrusted(m_user.certificate));
}

void TestSessionSecurity::cleanupTestCase() { m_server.reset(); }

std::unique_ptr<SecureTestClient> TestSessionSecurity::channel(const SessionIdentity& who, MessageSecurityMode mode,
                                                               Server* server) {
    if (!server) server = m_server.get();
    auto c = std::make_unique<SecureTestClient>();
    ClientChannelSecurity sec;
    sec.policy =
        mode == MessageSecurityMode::None ? SecurityPolicyId::None : SecurityPolicyId::Basic256Sha256;
    sec.mode = mode;
    if (mode != MessageSecurityMode::None) {
        sec.clientCertificateChain = who.certificate.der();
        sec.clientKey = who.key;
        sec.serverCertificate = server->certificateStore()->ownCertificate();
    }
    if (!c->open(server->port(), server->endpointUrl().toStdString(), sec)) {
        qWarning("channel: %s", c->error().c_str());
        return nullptr;
    }
    return c;
}

CreateSessionRequest TestSessionSecurity::createRequest(const SessionIdentity& who, std::size_t nonceBytes) const {
    CreateSessionRequest r;
    r.clientDescription.applicationUri = String(who.certificate.applicationUri());
    r.clientDescription.applicationType = ApplicationType::Client;
    r.endpointUrl = String::fromQString(m_server->endpointUrl());
    r.sessionName = String("raw");
    r.clientNonce = bytes(crypto::randomBytes(nonceBytes));
    r.clientCertificate = bytes(who.certificate.der());
    r.requestedSessionTimeout = 60000;
    return r;
}

CreateSessionResponse TestSessionSecurity::createSession(SecureTestClient& c, const SessionIdentity& who) {
    CreateSessionResponse resp;
    const StatusCode s = c.call(createRequest(who), resp);
    if (s.isBad()) qWarning("CreateSession: %s", s.name().c_str());
    c.authenticationToken = resp.authenticationToken;
    return resp;
}

SignatureData TestSessionSecurity::clientSignature(const SessionIdentity& who, const ByteString& serverCertificate,
                                                   const ByteString& nonce) const {
    const std::vector<uint8_t> data = concat(serverCertificate, nonce);
    std::vector<uint8_t> sig;
    crypto::asymmetricSign(*m_policy, who.key.get(), data.data(), data.size(), sig);
    SignatureData s;
    s.algorithm = String(m_policy->asymmetricSignatureUri);
    s.signature = bytes(sig);
    return s;
}

ExtensionObject TestSessionSecurity::userNameToken(const std::string& user, const std::string& password,
                                                   const ByteString& nonce, const char* policyId) const {
    // The legacy secret (7.41.2.2): UInt32 length, password, server nonce; encrypted for the server.
    std::vector<uint8_t> plain(4);
    const uint32_t length = uint32_t(password.size() + nonce.size());
    for (int i = 0; i < 4; ++i)
        plain[std::size_t(i)] = uint8_t(length >> (8 * i));
    plain.insert(plain.end(), password.begin(), password.end());
    plain.insert(plain.end(), nonce.str().begin(), nonce.str().end());
    std::vector<uint8_t> secret;
    crypto::asymmetricEncrypt(*m_policy, m_server->certificateStore()->ownCertificate().publicKey(),
                              plain.data(), plain.size(), secret);
    UserNameIdentityToken t;
    t.policyId = String(policyId);
    t.userName = String(user);
    t.password = bytes(secret);
    t.encryptionAlgorithm = String(m_policy->asymmetricEncryptionUri);
    return ExtensionObject::make(t);
}

void TestSessionSecurity::nodeOpcuaClientLogsIn() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    const QString cert = m_dir.filePath("dave.der"), key = m_dir.filePath("dave.pem");
    {
        QFile f(cert);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(m_user.certificate.der().data(), qint64(m_user.certificate.der().size()));
    }
    QVERIFY(m_user.key.savePem(key.toStdString()));
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE),
               {QStringLiteral("session_security.js"), m_server->endpointUrl(), cert, key,
                QString::number(kLockoutAttempts)});
    QVERIFY(node.waitForStarted());
    QElapsedTimer t;
    t.start();
    while (node.state() != QProcess::NotRunning && t.elapsed() < 240000)
        QTest::qWait(50);
    if (node.state() != QProcess::NotRunning) node.kill();
    node.waitForFinished();
    const QByteArray out = node.readAllStandardOutput();
    const QString diagnostics =
        QString::fromUtf8(out.left(3000)) + QString::fromUtf8(node.readAllStandardError().right(3000));
    const QJsonObject s = QJsonDocument::fromJson(out).object().value("scenarios").toObject();
    QVERIFY2(!s.isEmpty(), qPrintable(diagnostics));
    qInfo("node-opcua: %s", QJsonDocument(s).toJson(QJsonDocument::Compact).constData());
    const auto show = [&](const char* name) {
        return qPrintable(QString("%1: %2").arg(
            name, QString::fromUtf8(QJsonDocument(s.value(name).toObject()).toJson(QJsonDocument::Compact))));
    };

    // An Operator writes, over each policy and over the None endpoint (password encrypted by the
    // UserTokenPolicy's Basic256Sha256).
    for (const char* name : {"operatorSignAndEncrypt", "operatorSign", "operatorPss", "operatorNone",
                             "x509User", "afterwards"}) {
        const QJsonObject r = s.value(name).toObject();
        QVERIFY2(r.value("session").toString() == "Good", show(name));
        QVERIFY2(r.value("read").toString() == "Good", show(name));
        QVERIFY2(r.value("write").toString() == "Good", show(name));
        QVERIFY2(r.value("userAccessLevel").toInt() & 0x02, show(name)); // CurrentWrite
    }
    QCOMPARE(s.value("operatorSignAndEncrypt").toObject().value("readBack").toInt(), 4242);
    QCOMPARE(s.value("x509User").toObject().value("readBack").toInt(), 4646);
    // Anonymous and a user without a writing Role read but may not write.
    for (const char* name : {"anonymousSignAndEncrypt", "plainUserSignAndEncrypt"}) {
        const QJsonObject r = s.value(name).toObject();
        QVERIFY2(r.value("session").toString() == "Good" && r.value("read").toString() == "Good", show(name));
        QVERIFY2(r.value("write").toString() == "BadUserAccessDenied", show(name));
        QVERIFY2(!(r.value("userAccessLevel").toInt() & 0x02) && (r.value("userAccessLevel").toInt() & 0x01),
                 show(name));
    }
    QVERIFY2(s.value("wrongPassword").toObject().value("session").toString() == "BadUserAccessDenied",
             show("wrongPassword"));
    QVERIFY2(s.value("unknownUser").toObject().value("session").toString() == "BadUserAccessDenied",
             show("unknownUser"));
    const QJsonArray lockout = s.value("lockout").toArray();
    QCOMPARE(lockout.size(), int(kLockoutAttempts));
    for (const QJsonValue& v : lockout)
        QCOMPARE(v.toString(), QString("BadUserAccessDenied"));
    QVERIFY2(s.value("lockedOutRightPassword").toObject().value("session").toString() ==
                 "BadUserAccessDenied",
             show("lockedOutRightPassword"));
    QVERIFY(m_server->userStore().isLockedOut("carol", Server::monotonicMs()));
    QVERIFY(!m_server->userStore().isLockedOut("alice", Server::monotonicMs()));
    QCOMPARE(node.exitCode(), 0);
}

void TestSessionSecurity::serverSignatureVerifies() {
    auto c = channel(m_client);
    QVERIFY(c);
    const CreateSessionRequest req = createRequest(m_client);
    CreateSessionResponse resp;
    COMPARE_STATUS(c->call(req, resp), status::Good);
    QCOMPARE(resp.serverNonce.size(), std::size_t(32));
    QCOMPARE(resp.serverCertificate.str(), m_server->certificateStore()->ownCertificate().der());
    QCOMPARE(resp.serverSignature.algorithm.view(), m_policy->asymmetricSignatureUri);
    const std::vector<uint8_t> data = concat(req.clientCertificate, req.clientNonce);
    const Certificate server = Certificate::fromDer(resp.serverCertificate.str());
    QVERIFY(crypto::asymmetricVerify(*m_policy, server.publicKey(), data.data(), data.size(),
                                     reinterpret_cast<const uint8_t*>(resp.serverSignature.signature.data()),
                                     resp.serverSignature.signature.size()));
}

// 5.7.2.2 / 5.7.3.2: a client whose certificate comes with its CA: the server signs the leaf +
// clientNonce; a signature over the server's leaf, or (backward compatibility) over its whole
// chain, is accepted.
void TestSessionSecurity::signaturesCoverTheLeafOfAChain() {
    const PrivateKey caKey = PrivateKey::generateRsa(2048), leafKey = PrivateKey::generateRsa(2048);
    const Certificate ca = pkitest::issue(pkitest::caSpec("Session chain CA"), caKey);
    pkitest::CertSpec spec;
    spec.cn = "chain client";
    spec.uri = "urn:ua-workbench:test:chain-client";
    spec.dns = {"127.0.0.1"};
    const Certificate leaf = pkitest::issue(spec, leafKey, ca, caKey);
    const std::string chain = leaf.der() + ca.der();
    // Trusting all clients waives the trust list only: the CA's CRL must be known (Table 106).
    QVERIFY(m_server->certificateStore()->addIssuer(ca));
    QVERIFY(m_server->certificateStore()->addIssuerCrl(pkitest::crl(ca, caKey)));
    SecureTestClient c;
    ClientChannelSecurity sec;
    sec.policy = SecurityPolicyId::Basic256Sha256;
    sec.mode = MessageSecurityMode::SignAndEncrypt;
    sec.clientCertificateChain = chain;
    sec.clientKey = leafKey;
    sec.serverCertificate = m_server->certificateStore()->ownCertificate();
    QVERIFY2(c.open(m_server->port(), m_server->endpointUrl().toStdString(), sec), c.error().c_str());
    CreateSessionRequest req = createRequest(m_client);
    req.clientDescription.applicationUri = String(spec.uri);
    req.clientCertificate = bytes(chain);
    CreateSessionResponse created;
    COMPARE_STATUS(c.call(req, created), status::Good);
    c.authenticationToken = created.authenticationToken;
    const Certificate server = Certificate::fromDer(created.serverCertificate.str());
    const auto signedOver = [&](const std::string& certificate) {
        const std::vector<uint8_t> data = concat(bytes(certificate), req.clientNonce);
        return crypto::asymmetricVerify(*m_policy, server.publicKey(), data.data(), data.size(),
                                        reinterpret_cast<const uint8_t*>(created.serverSignature.signature.data()),
                                        created.serverSignature.signature.size());
    };
    QVERIFY(signedOver(leaf.der()));
    QVERIFY(!signedOver(chain));
    // ActivateSession signed by the leaf's key over the server's certificate.
    ActivateSessionRequest a;
    a.clientSignature = clientSignature(SessionIdentity{leaf, leafKey}, created.serverCertificate, created.serverNonce);
    ActivateSessionResponse resp;
    COMPARE_STATUS(c.call(a, resp), status::Good);

    // The verifier with a server certificate that is itself a chain: the leaf's signature, and
    // the whole chain's, are accepted; another certificate's, or another nonce's, not.
    const ByteString serverChain = bytes(chain), nonce = bytes(crypto::randomBytes(32));
    const auto sign = [&](const std::string& over, const ByteString& n) {
        const std::vector<uint8_t> data = concat(bytes(over), n);
        std::vector<uint8_t> sig;
        crypto::asymmetricSign(*m_policy, m_client.key.get(), data.data(), data.size(), sig);
        return bytes(sig);
    };
    EVP_PKEY* key = m_client.certificate.publicKey();
    QVERIFY(verifyCertificateAndNonce(*m_policy, key, serverChain, nonce, sign(leaf.der(), nonce)));
    QVERIFY(verifyCertificateAndNonce(*m_policy, key, serverChain, nonce, sign(chain, nonce)));
    QVERIFY(!verifyCertificateAndNonce(*m_policy, key, serverChain, nonce, sign(ca.der(), nonce)));
    QVERIFY(!verifyCertificateAndNonce(*m_policy, key, serverChain, bytes(crypto::randomBytes(32)), sign(leaf.der(), nonce)));
    QCOMPARE(leafDerOf(serverChain), leaf.der());
}

// 6.1.3 Table 106 with trustAllClients (this server): an unknown certificate is accepted, an expired
// one is refused Bad_CertificateTimeInvalid, and a self-signed one without keyCertSign (OPC 10000-6
// 6.2.2) Bad_CertificateUseNotAllowed, also from trusted/; a good client is served afterwards.
void TestSessionSecurity::trustingAllClientsWaivesOnlyTheTrustList() {
    const auto openWith = [&](const Certificate& cert, const PrivateKey& key, SecureTestClient& c) {
        ClientChannelSecurity sec;
        sec.policy = SecurityPolicyId::Basic256Sha256;
        sec.mode = MessageSecurityMode::SignAndEncrypt;
        sec.clientCertificateChain = cert.der();
        sec.clientKey = key;
        sec.serverCertificate = m_server->certificateStore()->ownCertificate();
        return c.open(m_server->port(), m_server->endpointUrl().toStdString(), sec);
    };
    const PrivateKey key = PrivateKey::generateRsa(2048);
    pkitest::CertSpec spec;
    spec.cn = "expired client";
    spec.uri = "urn:ua-workbench:test:expired-client";
    spec.dns = {"127.0.0.1"};
    spec.notBeforeDays = -30;
    spec.notAfterDays = -1;
    {
        SecureTestClient c;
        QVERIFY(!openWith(pkitest::issue(spec, key), key, c));
        COMPARE_STATUS(c.openError(), status::BadCertificateTimeInvalid);
    }
    spec.cn = "no certsign client";
    spec.notBeforeDays = -1;
    spec.notAfterDays = 365;
    spec.keyUsage = "digitalSignature,nonRepudiation,keyEncipherment,dataEncipherment";
    const Certificate noCertSign = pkitest::issue(spec, key);
    QVERIFY(m_server->certificateStore()->addTrusted(noCertSign));
    {
        SecureTestClient c;
        QVERIFY(!openWith(noCertSign, key, c));
        COMPARE_STATUS(c.openError(), status::BadCertificateUseNotAllowed);
    }
    spec.cn = "unknown client";
    spec.keyUsage.clear();
    {
        SecureTestClient c;
        QVERIFY2(openWith(pkitest::issue(spec, key), key, c), c.error().c_str());
    }
    auto good = channel(m_client);
    QVERIFY(good);
}

void TestSessionSecurity::tamperedClientSignatureIsRefused() {
    auto c = channel(m_client);
    QVERIFY(c);
    const CreateSessionResponse created = createSession(*c, m_client);
    ActivateSessionRequest a;
    a.clientSignature = clientSignature(m_client, created.serverCertificate, created.serverNonce);
    std::string tampered = a.clientSignature.signature.str();
    tampered[tampered.size() / 2] ^= 0x01;
    ActivateSessionRequest bad = a;
    bad.clientSignature.signature = ByteString(tampered);
    ActivateSessionResponse resp;
    COMPARE_STATUS(c->call(bad, resp), status::BadApplicationSignatureInvalid);
    // Signed by another key.
    bad.clientSignature = clientSignature(m_otherClient, created.serverCertificate, created.serverNonce);
    COMPARE_STATUS(c->call(bad, resp), status::BadApplicationSignatureInvalid);
    // A valid signature under another algorithm's name.
    bad = a;
    bad.clientSignature.algorithm = String("http://www.w3.org/2000/09/xmldsig#rsa-sha1");
    COMPARE_STATUS(c->call(bad, resp), status::BadApplicationSignatureInvalid);
    // No signature at all.
    bad.clientSignature = SignatureData();
    COMPARE_STATUS(c->call(bad, resp), status::BadApplicationSignatureInvalid);
    // The Session is still there: the right signature activates it and a new nonce comes back.
    COMPARE_STATUS(c->call(a, resp), status::Good);
    QCOMPARE(resp.serverNonce.size(), std::size_t(32));
    QVERIFY(resp.serverNonce != created.serverNonce);
    // The old nonce was used: replaying the same signature fails.
    COMPARE_STATUS(c->call(a, resp), status::BadApplicationSignatureInvalid);
    ReadRequest r;
    ReadValueId v;
    v.nodeId = NodeId(1, 1005);
    v.attributeId = uint32_t(AttributeId::Value);
    r.nodesToRead.push_back(v);
    ReadResponse rr;
    COMPARE_STATUS(c->call(r, rr), status::Good);
    QCOMPARE(rr.results.size(), std::size_t(1));
    COMPARE_STATUS(rr.results[0].status, status::Good);
}

void TestSessionSecurity::shortClientNonceIsRefused() {
    auto c = channel(m_client);
    QVERIFY(c);
    CreateSessionResponse resp;
    COMPARE_STATUS(c->call(createRequest(m_client, 16), resp), status::BadNonceInvalid);
    COMPARE_STATUS(c->call(createRequest(m_client, 0), resp), status::BadNonceInvalid);
    COMPARE_STATUS(c->call(createRequest(m_client, 129), resp), status::BadNonceInvalid);
    // The channel still serves: a 32-byte nonce works.
    COMPARE_STATUS(c->call(createRequest(m_client, 32), resp), status::Good);
}

void TestSessionSecurity::foreignCertificateOrUriIsRefused() {
    auto c = channel(m_client);
    QVERIFY(c);
    CreateSessionResponse resp;
    CreateSessionRequest r = createRequest(m_client);
    r.clientCertificate = bytes(m_otherClient.certificate.der());
    r.clientDescription.applicationUri = String(m_otherClient.certificate.applicationUri());
    COMPARE_STATUS(c->call(r, resp), status::BadCertificateInvalid);
    r.clientCertificate = ByteString();
    COMPARE_STATUS(c->call(r, resp), status::BadCertificateInvalid);
    r = createRequest(m_client);
    r.clientDescription.applicationUri = String("urn:somebody:else");
    COMPARE_STATUS(c->call(r, resp), status::BadCertificateUriInvalid);
}

void TestSessionSecurity::userTokensAreChecked() {
    auto c = channel(m_client);
    QVERIFY(c);
    const CreateSessionResponse created = createSession(*c, m_client);
    ByteString nonce = created.serverNonce;
    ActivateSessionResponse resp;
    const auto activate = [&](ExtensionObject token, SignatureData userSig = {}) {
        ActivateSessionRequest a;
        a.clientSignature = clientSignature(m_client, created.serverCertificate, nonce);
        a.userIdentityToken = std::move(token);
        a.userTokenSignature = std::move(userSig);
        const StatusCode s = c->call(a, resp);
        if (s.isGood()) nonce = resp.serverNonce;
        return s;
    };
    // A secret encrypted with a stale nonce, a wrong algorithm name, an unknown policyId, a
    // policyId of another token type, no encryption at all.
    COMPARE_STATUS(activate(userNameToken("alice", "alice-pw", ByteString(std::string(32, 'x')))),
                   status::BadIdentityTokenInvalid);
    ExtensionObject x = userNameToken("alice", "alice-pw", nonce);
    UserNameIdentityToken wrongAlgorithm = *x.get<UserNameIdentityToken>();
    wrongAlgorithm.encryptionAlgorithm = String("http://www.w3.org/2001/04/xmlenc#rsa-1_5");
    COMPARE_STATUS(activate(ExtensionObject::make(wrongAlgorithm)), status::BadIdentityTokenInvalid);
    COMPARE_STATUS(activate(userNameToken("alice", "alice-pw", nonce, "no-such-policy")),
                   status::BadIdentityTokenInvalid);
    COMPARE_STATUS(activate(userNameToken("alice", "alice-pw", nonce, "anonymous")),
                   status::BadIdentityTokenInvalid);
    UserNameIdentityToken plain;
    plain.policyId = String("username");
    plain.userName = String("alice");
    plain.password = ByteString("alice-pw");
    COMPARE_STATUS(activate(ExtensionObject::make(plain)), status::BadIdentityTokenInvalid);
    COMPARE_STATUS(activate(userNameToken("alice", "wrong", nonce)), status::BadUserAccessDenied);

    // Anonymous: reads, may not write.
    COMPARE_STATUS(activate(ExtensionObject()), status::Good);
    WriteRequest w;
    WriteValue wv;
    wv.nodeId = NodeId(1, 1006);
    wv.attributeId = uint32_t(AttributeId::Value);
    wv.value = DataValue(Variant(int32_t(5)));
    w.nodesToWrite.push_back(wv);
    WriteResponse wr;
    COMPARE_STATUS(c->call(w, wr), status::Good);
    COMPARE_STATUS(wr.results.at(0), status::BadUserAccessDenied);
    // A non-writable attribute stays Bad_NotWritable whoever asks.
    WriteRequest w2 = w;
    w2.nodesToWrite[0].nodeId = NodeId(2259); // ServerStatus.State
    COMPARE_STATUS(c->call(w2, wr), status::Good);
    COMPARE_STATUS(wr.results.at(0), status::BadNotWritable);

    // The same Session changes its user to an Operator on the same channel: now it writes.
    COMPARE_STATUS(activate(userNameToken("alice", "alice-pw", nonce)), status::Good);
    COMPARE_STATUS(c->call(w, wr), status::Good);
    COMPARE_STATUS(wr.results.at(0), status::Good);

    // X509 user tokens: a broken signature, an untrusted certificate, then the trusted one.
    X509IdentityToken xt;
    xt.policyId = String("certificate");
    xt.certificateData = bytes(m_user.certificate.der());
    SignatureData userSig = clientSignature(m_user, created.serverCertificate, nonce);
    std::string broken = userSig.signature.str();
    broken[3] ^= 0x40;
    SignatureData brokenSig = userSig;
    brokenSig.signature = ByteString(broken);
    COMPARE_STATUS(activate(ExtensionObject::make(xt), brokenSig), status::BadUserSignatureInvalid);
    COMPARE_STATUS(activate(ExtensionObject::make(xt), SignatureData()), status::BadUserSignatureInvalid);
    X509IdentityToken stranger = xt;
    stranger.certificateData = bytes(m_strangerUser.certificate.der());
    COMPARE_STATUS(activate(ExtensionObject::make(stranger),
                            clientSignature(m_strangerUser, created.serverCertificate, nonce)),
                   status::BadIdentityTokenRejected);
    COMPARE_STATUS(activate(ExtensionObject::make(xt), userSig), status::Good);
    COMPARE_STATUS(c->call(w, wr), status::Good);
    COMPARE_STATUS(wr.results.at(0), status::Good);
}

void TestSessionSecurity::sessionMovesOnlyWithSameCertificateAndUser() {
    auto c = channel(m_client);
    QVERIFY(c);
    const CreateSessionResponse created = createSession(*c, m_client);
    ActivateSessionRequest a;
    a.clientSignature = clientSignature(m_client, created.serverCertificate, created.serverNonce);
    a.userIdentityToken = userNameToken("alice", "alice-pw", created.serverNonce);
    ActivateSessionResponse resp;
    COMPARE_STATUS(c->call(a, resp), status::Good);
    ByteString nonce = resp.serverNonce;

    // Another application's channel may not take the Session over.
    auto foreign = channel(m_otherClient);
    QVERIFY(foreign);
    foreign->authenticationToken = c->authenticationToken;
    ActivateSessionRequest f;
    f.clientSignature = clientSignature(m_otherClient, created.serverCertificate, nonce);
    f.userIdentityToken = userNameToken("alice", "alice-pw", nonce);
    COMPARE_STATUS(foreign->call(f, resp), status::BadSecurityChecksFailed);

    // A new channel of the same application, another user: refused.
    auto second = channel(m_client);
    QVERIFY(second);
    second->authenticationToken = c->authenticationToken;
    ActivateSessionRequest m;
    m.clientSignature = clientSignature(m_client, created.serverCertificate, nonce);
    m.userIdentityToken = userNameToken("bob", "bob-pw", nonce);
    COMPARE_STATUS(second->call(m, resp), status::BadIdentityChangeNotSupported);
    // The same user: the Session moves, the old channel loses it.
    m.userIdentityToken = userNameToken("alice", "alice-pw", nonce);
    COMPARE_STATUS(second->call(m, resp), status::Good);
    ReadRequest r;
    ReadValueId v;
    v.nodeId = NodeId(2259);
    v.attributeId = uint32_t(AttributeId::Value);
    r.nodesToRead.push_back(v);
    ReadResponse rr;
    COMPARE_STATUS(second->call(r, rr), status::Good);
    COMPARE_STATUS(c->call(r, rr), status::BadSessionIdInvalid);
}

void TestSessionSecurity::anonymousOnlyWhereAllowed() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.pkiDir = m_dir.filePath("pki-noanon");
    cfg.security.trustAllClients = true;
    cfg.security.allowAnonymous = false;
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    auto c = channel(m_client, MessageSecurityMode::SignAndEncrypt, &server);
    QVERIFY(c);
    CreateSessionRequest req = createRequest(m_client);
    req.endpointUrl = String::fromQString(server.endpointUrl());
    CreateSessionResponse created;
    COMPARE_STATUS(c->call(req, created), status::Good);
    c->authenticationToken = created.authenticationToken;
    ActivateSessionRequest a;
    a.clientSignature = clientSignature(m_client, created.serverCertificate, created.serverNonce);
    ActivateSessionResponse resp;
    COMPARE_STATUS(c->call(a, resp), status::BadIdentityTokenRejected); // null token = anonymous
    AnonymousIdentityToken anon;
    anon.policyId = String("anonymous");
    a.userIdentityToken = ExtensionObject::make(anon);
    COMPARE_STATUS(c->call(a, resp), status::BadIdentityTokenRejected);
    // The Session was not activated: a Read is refused.
    ReadRequest r;
    ReadValueId v;
    v.nodeId = NodeId(2259);
    v.attributeId = uint32_t(AttributeId::Value);
    r.nodesToRead.push_back(v);
    ReadResponse rr;
    COMPARE_STATUS(c->call(r, rr), status::BadSessionNotActivated);
}

void TestSessionSecurity::anotherClientIsStillServed() {
    // After all of the above, a fresh None client and a fresh secure client are served.
    auto plain = channel(m_client, MessageSecurityMode::None);
    QVERIFY(plain);
    CreateSessionRequest req = createRequest(m_client);
    req.clientCertificate = ByteString();
    CreateSessionResponse created;
    COMPARE_STATUS(plain->call(req, created), status::Good);
    QVERIFY(created.serverSignature.signature.isEmpty());
    QCOMPARE(created.serverCertificate.str(), m_server->certificateStore()->ownCertificate().der());
    plain->authenticationToken = created.authenticationToken;
    ActivateSessionRequest a;
    a.userIdentityToken = userNameToken("alice", "alice-pw", created.serverNonce);
    ActivateSessionResponse resp;
    COMPARE_STATUS(plain->call(a, resp), status::Good);
    auto secure = channel(m_client);
    QVERIFY(secure);
    const CreateSessionResponse s = createSession(*secure, m_client);
    QCOMPARE(s.serverNonce.size(), std::size_t(32));
}

UA_TEST_GUILESS_MAIN(TestSessionSecurity)
#include "tst_session_security.moc"
