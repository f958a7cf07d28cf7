// Passwords under the ECC policies (OPC 10000-6 6.8.2, OPC 10000-4 7.15 and 7.40.2.5) against our
// server in process, with crafted requests on our ClientSecureChannel (no npm peer speaks ECC):
// - CreateSession and ActivateSession return an EphemeralKey signed by the channel's ECC certificate
//   when the request names the policy, none when it names none, Bad_SecurityPolicyRejected in its
//   place for a policy that is not the channel's;
// - a password sealed in an EccEncryptedSecret to the latest key logs in; a second activation uses
//   the key of the first one's response; a used key, another signer, another Certificate, a stale
//   serverNonce, bytes that are no EccEncryptedSecret, a Session that asked for no key: each
//   Bad_IdentityTokenInvalid; a wrong password in a good secret Bad_UserAccessDenied;
// and after every bad input the same client logs in.
#include "SecureTestClient.h"

#include "ua/client/session/SessionSecurity.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/EccEncryptedSecret.h"
#include "ua/secure/EccSessionKeys.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QTemporaryDir>
#include <functional>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

// Names unlike tst_session_security.cpp's: the folder's unity build joins the two files.
namespace {

constexpr uint32_t kEccTestIterations = 2000;  // PBKDF2 work in the tests

ByteString byteStringOf(const std::vector<uint8_t>& v) { return ByteString(reinterpret_cast<const char*>(v.data()), v.size()); }
std::vector<uint8_t> vec(const ByteString& b) { return {b.data(), b.data() + b.size()}; }

KeyType keyTypeOf(const SecurityPolicy& p) { return p.curve == EccCurve::NistP256 ? KeyType::EccNistP256 : KeyType::EccNistP384; }

struct Identity {
    Certificate certificate;
    PrivateKey key;
};

Identity makeIdentity(const QString& dir, const std::string& uri, KeyType type) {
    CertificateStore store(dir.toStdString());
    CertificateRequest r;
    r.applicationUri = uri;
    r.applicationName = "ecc raw client";
    r.hostNames = {"127.0.0.1"};
    r.keyType = type;
    std::string error;
    if (!store.ensureOwnCertificate(r, &error)) qWarning("certificate: %s", error.c_str());
    return {store.ownCertificate(type), store.ownPrivateKey(type)};
}

// A raw Session's state: what CreateSession / ActivateSession returned last.
struct RawSession {
    std::unique_ptr<SecureTestClient> client;
    ByteString serverCertificate;  // as CreateSession returned it
    ByteString serverNonce;
    EphemeralKeyType key;          // the latest EphemeralKey
};

} // namespace

class TestEccUserTokens : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { m_server.reset(); }
    void createSessionReturnsASignedKey_data();
    void createSessionReturnsASignedKey();
    void passwordInAnEccSecretLogsIn_data();
    void passwordInAnEccSecretLogsIn();
    void badSecretsAreRefused();
    void x509UserSignsWithEcdsa();

private:
    const SecurityPolicy& policy(int id) const { return securityPolicy(SecurityPolicyId(id)); }
    const Identity& clientOf(const SecurityPolicy& p) const { return p.curve == EccCurve::NistP256 ? m_p256 : m_p384; }
    std::unique_ptr<SecureTestClient> channel(const SecurityPolicy& p);
    // CreateSession, asking for a key of ecdhPolicy (none when empty); the response in *out.
    StatusCode create(RawSession& s, const SecurityPolicy& p, std::string_view ecdhPolicy, CreateSessionResponse* out = nullptr);
    // ActivateSession as user with password sealed by seal (after the defaults are set in it).
    StatusCode activate(RawSession& s, const SecurityPolicy& p, const std::string& user, const std::string& password,
                        const std::function<void(crypto::EccSecretToSeal&)>& change = {},
                        ActivateSessionResponse* out = nullptr, bool askForKey = true);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    Identity m_p256, m_p384, m_stranger;
    Identity m_dave;     // an ECC P-256 user certificate, trusted, of user dave
    Identity m_rsaUser;  // an RSA user certificate, trusted, of user erin
};

void TestEccUserTokens::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_p256 = makeIdentity(m_dir.filePath("client"), "urn:ua-workbench:test:ecc-raw-client", KeyType::EccNistP256);
    m_p384 = makeIdentity(m_dir.filePath("client"), "urn:ua-workbench:test:ecc-raw-client", KeyType::EccNistP384);
    m_stranger = makeIdentity(m_dir.filePath("stranger"), "urn:ua-workbench:test:ecc-raw-client", KeyType::EccNistP256);
    m_dave = makeIdentity(m_dir.filePath("dave"), "urn:ua-workbench:test:user:dave", KeyType::EccNistP256);
    m_rsaUser = makeIdentity(m_dir.filePath("erin"), "urn:ua-workbench:test:user:erin", KeyType::Rsa);
    QVERIFY(!m_p256.certificate.isNull() && !m_p384.certificate.isNull() && !m_stranger.key.isNull());
    QVERIFY(!m_dave.key.isNull() && !m_rsaUser.key.isNull());

    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.demoNamespace = false;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = m_dir.filePath("pki");
    cfg.security.trustAllClients = true;
    cfg.security.endpoints = {
        {SecurityPolicyId::None, MessageSecurityMode::None},
        {SecurityPolicyId::EccNistP256, MessageSecurityMode::Sign},
        {SecurityPolicyId::EccNistP256, MessageSecurityMode::SignAndEncrypt},
        {SecurityPolicyId::EccNistP384, MessageSecurityMode::SignAndEncrypt},
    };
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), kEccTestIterations);
    cfg.security.users.setUser("carol", "carol-pw", kNoRoles, kEccTestIterations);
    cfg.security.users.maxFailedAuthenticationAttempts = 1000;
    for (const auto& [name, who] : {std::pair<std::string, const Identity*>{"dave", &m_dave}, {"erin", &m_rsaUser}}) {
        UserRecord u;
        u.name = name;
        u.roles = roleBit(Role::Operator);
        u.certificateThumbprint = who->certificate.thumbprintHex();
        cfg.security.users.users.push_back(u);
    }
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    QVERIFY(m_server->userCertificateStore());
    QVERIFY(m_server->userCertificateStore()->addTrusted(m_dave.certificate));
    QVERIFY(m_server->userCertificateStore()->addTrusted(m_rsaUser.certificate));
}

std::unique_ptr<SecureTestClient> TestEccUserTokens::channel(const SecurityPolicy& p) {
    auto c = std::make_unique<SecureTestClient>();
    ClientChannelSecurity sec;
    sec.policy = p.id;
    sec.mode = p.curve == EccCurve::NistP256 ? MessageSecurityMode::Sign : MessageSecurityMode::SignAndEncrypt;
    sec.clientCertificateChain = clientOf(p).certificate.der();
    sec.clientKey = clientOf(p).key;
    sec.serverCertificate = m_server->certificateStore()->ownCertificate(keyTypeOf(p));
    if (!c->open(m_server->port(), m_server->endpointUrl().toStdString(), sec)) {
        qWarning("channel: %s", c->error().c_str());
        return nullptr;
    }
    return c;
}

StatusCode TestEccUserTokens::create(RawSession& s, const SecurityPolicy& p, std::string_view ecdhPolicy,
                                     CreateSessionResponse* out) {
    s.client = channel(p);
    if (!s.client) return status::BadCommunicationError;
    CreateSessionRequest r;
    r.clientDescription.applicationUri = String(clientOf(p).certificate.applicationUri());
    r.clientDescription.applicationType = ApplicationType::Client;
    r.endpointUrl = String::fromQString(m_server->endpointUrl());
    r.sessionName = String("ecc raw");
    r.clientNonce = byteStringOf(crypto::randomBytes(32));
    r.clientCertificate = ByteString(clientOf(p).certificate.der());
    r.requestedSessionTimeout = 60000;
    if (!ecdhPolicy.empty()) r.requestHeader.additionalHeader = ecdhKeyRequest(ecdhPolicy);
    CreateSessionResponse resp;
    const StatusCode st = s.client->call(r, resp);
    s.client->authenticationToken = resp.authenticationToken;
    s.serverCertificate = resp.serverCertificate;
    s.serverNonce = resp.serverNonce;
    if (!ecdhPolicy.empty()) ecdhKeyOf(resp.responseHeader.additionalHeader, ecdhPolicy, s.key);
    if (out) *out = std::move(resp);
    return st;
}

StatusCode TestEccUserTokens::activate(RawSession& s, const SecurityPolicy& p, const std::string& user,
                                       const std::string& password, const std::function<void(crypto::EccSecretToSeal&)>& change,
                                       ActivateSessionResponse* out, bool askForKey) {
    ActivateSessionRequest req;
    if (StatusCode sig = makeSignature(p, clientOf(p).key, s.serverCertificate.view(), s.serverNonce, req.clientSignature);
        sig.isBad())
        return sig;
    crypto::EccSecretToSeal in;
    in.policy = &p;
    in.signingKey = clientOf(p).key.get();
    in.receiverPublicKey = vec(s.key.publicKey);
    in.nonce = s.serverNonce.view();
    in.secret = password;
    in.signingTime = DateTime::now();
    if (change) change(in);
    std::vector<uint8_t> sealed;
    if (StatusCode st = crypto::sealEccSecret(in, sealed); st.isBad()) return st;
    UserNameIdentityToken t;
    t.policyId = String("username");
    t.userName = String(user);
    t.password = byteStringOf(sealed);
    req.userIdentityToken = ExtensionObject::make(t);
    if (askForKey) req.requestHeader.additionalHeader = ecdhKeyRequest(p.uri);
    ActivateSessionResponse resp;
    const StatusCode st = s.client->call(req, resp);
    if (st.isGood()) {
        s.serverNonce = resp.serverNonce;
        if (askForKey) ecdhKeyOf(resp.responseHeader.additionalHeader, p.uri, s.key);
    }
    if (out) *out = std::move(resp);
    return st;
}

void TestEccUserTokens::createSessionReturnsASignedKey_data() {
    QTest::addColumn<int>("policy");
    QTest::addRow("ECC_nistP256") << int(SecurityPolicyId::EccNistP256);
    QTest::addRow("ECC_nistP384") << int(SecurityPolicyId::EccNistP384);
}

void TestEccUserTokens::createSessionReturnsASignedKey() {
    QFETCH(int, policy);
    const SecurityPolicy& p = this->policy(policy);
    const Certificate serverCertificate = m_server->certificateStore()->ownCertificate(keyTypeOf(p));
    // The endpoint offers the password under its own ECC policy.
    bool offered = false;
    for (const EndpointDescription& e : m_server->endpoints())
        if (e.securityPolicyUri.view() == p.uri)
            for (const UserTokenPolicy& t : e.userIdentityTokens)
                offered = offered || (t.tokenType == UserTokenType::UserName && t.securityPolicyUri.view() == p.uri);
    QVERIFY(offered);

    RawSession s;
    CreateSessionResponse r;
    COMPARE_STATUS(create(s, p, p.uri, &r), status::Good);
    EphemeralKeyType key;
    COMPARE_STATUS(ecdhKeyOf(r.responseHeader.additionalHeader, p.uri, key), status::Good);
    QCOMPARE(key.publicKey.size(), std::size_t(p.nonceLength));
    QVERIFY(verifyEphemeralKey(p, serverCertificate.publicKey(), key));
    QVERIFY(!verifyEphemeralKey(p, m_stranger.certificate.publicKey(), key));
    ByteString accepted;
    COMPARE_STATUS(acceptUserTokenKey(p, serverCertificate, r.responseHeader.additionalHeader, accepted), status::Good);
    QCOMPARE(accepted, key.publicKey);

    // No ECDHPolicyUri: no additionalHeader.
    RawSession plain;
    COMPARE_STATUS(create(plain, p, {}, &r), status::Good);
    QVERIFY(r.responseHeader.additionalHeader.isNull());

    // A policy that is not the channel's: Bad_SecurityPolicyRejected in place of the key; the
    // Session itself is created.
    const SecurityPolicy& other = this->policy(int(p.curve == EccCurve::NistP256 ? SecurityPolicyId::EccNistP384 : SecurityPolicyId::EccNistP256));
    for (const std::string_view uri : {other.uri, std::string_view(kSecurityPolicyBasic256Sha256), std::string_view("urn:nonsense")}) {
        RawSession wrong;
        COMPARE_STATUS(create(wrong, p, uri, &r), status::Good);
        COMPARE_STATUS(ecdhKeyOf(r.responseHeader.additionalHeader, uri, key), status::BadSecurityPolicyRejected);
    }
}

void TestEccUserTokens::passwordInAnEccSecretLogsIn_data() { createSessionReturnsASignedKey_data(); }

void TestEccUserTokens::passwordInAnEccSecretLogsIn() {
    QFETCH(int, policy);
    const SecurityPolicy& p = this->policy(policy);
    RawSession s;
    COMPARE_STATUS(create(s, p, p.uri), status::Good);
    const ByteString first = s.key.publicKey;
    ActivateSessionResponse r;
    COMPARE_STATUS(activate(s, p, "alice", "alice-pw", {}, &r), status::Good);
    // A new key for the next activation, signed as the first.
    QVERIFY(!s.key.publicKey.isEmpty());
    QVERIFY(s.key.publicKey != first);
    QVERIFY(verifyEphemeralKey(p, m_server->certificateStore()->ownCertificate(keyTypeOf(p)).publicKey(), s.key));
    bool found = false;
    for (const SessionPtr& session : m_server->sessions().snapshot()) {
        std::lock_guard lock(session->activationMutex);  // ActivateSession writes it on an I/O thread
        found = found || (session->authenticationToken == s.client->authenticationToken && session->clientUserId == "alice");
    }
    QVERIFY(found);

    // The user changes on the same Session with the second key; the first is used up.
    const EphemeralKeyType second = s.key;
    COMPARE_STATUS(activate(s, p, "carol", "carol-pw"), status::Good);
    EphemeralKeyType used = second;
    COMPARE_STATUS(activate(s, p, "alice", "alice-pw", [&](crypto::EccSecretToSeal& in) { in.receiverPublicKey = vec(used.publicKey); }),
                   status::BadIdentityTokenInvalid);
    COMPARE_STATUS(activate(s, p, "alice", "alice-pw"), status::Good);
}

void TestEccUserTokens::badSecretsAreRefused() {
    const SecurityPolicy& p = securityPolicy(SecurityPolicyId::EccNistP256);
    RawSession s;
    COMPARE_STATUS(create(s, p, p.uri), status::Good);
    const ByteString goodNonce = s.serverNonce;
    // Signed by a key that is not the client application's.
    COMPARE_STATUS(activate(s, p, "alice", "alice-pw", [&](crypto::EccSecretToSeal& in) { in.signingKey = m_stranger.key.get(); }),
                   status::BadIdentityTokenInvalid);
    // Naming another certificate (signed by its key: it is still not the channel's client).
    COMPARE_STATUS(activate(s, p, "alice", "alice-pw",
                            [&](crypto::EccSecretToSeal& in) {
                                in.signingKey = m_stranger.key.get();
                                in.certificate = m_stranger.certificate.der();
                            }),
                   status::BadIdentityTokenInvalid);
    // A nonce that is not the last serverNonce.
    const std::string staleNonce(32, 'x');
    COMPARE_STATUS(activate(s, p, "alice", "alice-pw", [&](crypto::EccSecretToSeal& in) { in.nonce = staleNonce; }),
                   status::BadIdentityTokenInvalid);
    // Sealed to a key the server never made.
    const crypto::EphemeralKey foreign = crypto::EphemeralKey::generate(p);
    COMPARE_STATUS(activate(s, p, "alice", "alice-pw", [&](crypto::EccSecretToSeal& in) { in.receiverPublicKey = foreign.publicKey(); }),
                   status::BadIdentityTokenInvalid);
    // Bytes that are no EccEncryptedSecret, and a secret with one byte changed.
    for (const int variant : {0, 1}) {
        ActivateSessionRequest req;
        QVERIFY(makeSignature(p, m_p256.key, s.serverCertificate.view(), s.serverNonce, req.clientSignature).isGood());
        crypto::EccSecretToSeal in{&p, m_p256.key.get(), {}, vec(s.key.publicKey), s.serverNonce.view(), "alice-pw", DateTime::now()};
        std::vector<uint8_t> sealed;
        QVERIFY(crypto::sealEccSecret(in, sealed).isGood());
        if (variant == 0) sealed = crypto::randomBytes(sealed.size());
        else sealed[sealed.size() / 2] ^= 0x20;
        UserNameIdentityToken t;
        t.policyId = String("username");
        t.userName = String("alice");
        t.password = byteStringOf(sealed);
        req.userIdentityToken = ExtensionObject::make(t);
        ActivateSessionResponse resp;
        COMPARE_STATUS(s.client->call(req, resp), status::BadIdentityTokenInvalid);
    }
    // A wrong password in a good secret: the user store's answer.
    COMPARE_STATUS(activate(s, p, "alice", "wrong"), status::BadUserAccessDenied);
    // None of that used up the key or the nonce: the good secret logs in.
    QCOMPARE(s.serverNonce, goodNonce);
    COMPARE_STATUS(activate(s, p, "alice", "alice-pw"), status::Good);

    // A Session that asked for no key cannot send a password under ECC.
    RawSession noKey;
    COMPARE_STATUS(create(noKey, p, {}), status::Good);
    noKey.key = s.key;  // another Session's key
    COMPARE_STATUS(activate(noKey, p, "alice", "alice-pw"), status::BadIdentityTokenInvalid);
}

void TestEccUserTokens::x509UserSignsWithEcdsa() {
    const SecurityPolicy& p = securityPolicy(SecurityPolicyId::EccNistP256);
    RawSession s;
    COMPARE_STATUS(create(s, p, {}), status::Good);
    const auto activateAs = [&](const Identity& user, const SecurityPolicy& signWith, const char* algorithm) {
        ActivateSessionRequest req;
        if (makeSignature(p, clientOf(p).key, s.serverCertificate.view(), s.serverNonce, req.clientSignature).isBad())
            return StatusCode(status::BadInternalError);
        X509IdentityToken t;
        t.policyId = String("certificate");
        t.certificateData = ByteString(user.certificate.der());
        req.userIdentityToken = ExtensionObject::make(t);
        if (makeSignature(signWith, user.key, s.serverCertificate.view(), s.serverNonce, req.userTokenSignature).isBad())
            return StatusCode(status::BadInternalError);
        req.userTokenSignature.algorithm = String(algorithm);
        ActivateSessionResponse resp;
        const StatusCode st = s.client->call(req, resp);
        if (st.isGood()) s.serverNonce = resp.serverNonce;
        return st;
    };
    // ECDSA with an empty algorithm, and with one set (ignored, 7.36).
    COMPARE_STATUS(activateAs(m_dave, p, ""), status::Good);
    COMPARE_STATUS(activateAs(m_dave, p, "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"), status::Good);
    // An RSA user certificate cannot sign under ECC_nistP256: refused (the key is not of the curve).
    const StatusCode rsa = activateAs(m_rsaUser, securityPolicy(SecurityPolicyId::Basic256Sha256), "");
    QVERIFY2(rsa == StatusCode(status::BadIdentityTokenRejected) || rsa == StatusCode(status::BadUserSignatureInvalid),
             rsa.name().c_str());
    // A signature over another nonce.
    const ByteString kept = s.serverNonce;
    s.serverNonce = byteStringOf(crypto::randomBytes(32));
    ActivateSessionRequest req;
    QVERIFY(makeSignature(p, clientOf(p).key, s.serverCertificate.view(), kept, req.clientSignature).isGood());
    X509IdentityToken t;
    t.policyId = String("certificate");
    t.certificateData = ByteString(m_dave.certificate.der());
    req.userIdentityToken = ExtensionObject::make(t);
    QVERIFY(makeSignature(p, m_dave.key, s.serverCertificate.view(), s.serverNonce, req.userTokenSignature).isGood());
    ActivateSessionResponse resp;
    COMPARE_STATUS(s.client->call(req, resp), status::BadUserSignatureInvalid);
    s.serverNonce = kept;
    COMPARE_STATUS(activateAs(m_dave, p, ""), status::Good);
}

UA_TEST_GUILESS_MAIN(TestEccUserTokens)
#include "tst_ecc_user_tokens.moc"
