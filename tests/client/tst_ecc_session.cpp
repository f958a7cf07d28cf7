// The ECC policies end to end (issue 32 item 3; OPC 10000-6 6.8.1, OPC 10000-12 7.8.4): our Server
// in process offers RSA and ECC endpoints side by side, each with the certificate of its kind (the
// RSA one, an ECC P-256 one, an ECC P-384 one, all in its PKI folder and kept across restarts); our
// Client opens ECC_nistP256 and ECC_nistP384 SecureChannels (Sign and SignAndEncrypt), creates and
// activates a Session (ECDSA signatures both ways, empty SignatureData.algorithm) and reads; a
// UserName identity logs in with its password in an EccEncryptedSecret (OPC 10000-6 6.8.2, OPC
// 10000-4 7.40.2.5), also after a reconnect (the key of the last ActivateSession response); a wrong
// password is refused and the server serves the next client. No npm peer speaks ECC
// (docs/Security.md "ECC security policies"; crafted requests: tests/interop/tst_ecc_user_tokens).
#include "ClientTestUtil.h"
#include "TcpProxy.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/OwnCertificate.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

KeyType keyTypeOfPolicyUri(const std::string& uri) {
    const SecurityPolicy* p = findSecurityPolicy(uri);
    if (!p || p->curve == EccCurve::None) return KeyType::Rsa;
    return p->curve == EccCurve::NistP256 ? KeyType::EccNistP256 : KeyType::EccNistP384;
}

} // namespace

class TestEccSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { m_server.reset(); }
    void endpointsCarryTheCertificateOfTheirKind();
    void clientOpensAnEccSession_data();
    void clientOpensAnEccSession();
    void userNameLogsInOverEcc_data() { clientOpensAnEccSession_data(); }
    void userNameLogsInOverEcc();
    void userNameSurvivesAReconnect();
    void wrongPasswordIsRefused();
    void eccCertificatesSurviveARestart();

private:
    std::unique_ptr<Server> startServer(const QString& pki, quint16 port = 0);
    ClientConfig clientConfig(const QString& policyUri, MessageSecurityMode mode) const;

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
};

std::unique_ptr<Server> TestEccSession::startServer(const QString& pki, quint16 port) {
    ServerConfig cfg;
    cfg.port = port;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.demoNamespace = false;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = m_dir.filePath(pki);
    cfg.security.trustAllClients = true;
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), 2000);
    cfg.security.endpoints = {
        {SecurityPolicyId::None, MessageSecurityMode::None},
        {SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt},
        {SecurityPolicyId::EccNistP256, MessageSecurityMode::Sign},
        {SecurityPolicyId::EccNistP256, MessageSecurityMode::SignAndEncrypt},
        {SecurityPolicyId::EccNistP384, MessageSecurityMode::SignAndEncrypt},
    };
    auto s = std::make_unique<Server>(cfg);
    if (!s->start()) {
        qWarning("server did not start: %s", qPrintable(s->errorString()));
        return nullptr;
    }
    return s;
}

ClientConfig TestEccSession::clientConfig(const QString& policyUri, MessageSecurityMode mode) const {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.pkiDir = m_dir.filePath(QStringLiteral("client-pki"));
    cfg.securityPolicyUri = policyUri;
    cfg.securityMode = mode;
    cfg.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    return cfg;
}

void TestEccSession::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_dir.isValid());
    m_server = startServer(QStringLiteral("server-pki"));
    QVERIFY(m_server);
}

void TestEccSession::endpointsCarryTheCertificateOfTheirKind() {
    const auto endpoints = m_server->endpoints();
    QCOMPARE(endpoints.size(), std::size_t(5));
    int eccLevel = 0, rsaLevel = 0;
    for (const EndpointDescription& e : endpoints) {
        const std::string uri(e.securityPolicyUri.view());
        const Certificate c = Certificate::fromDer(e.serverCertificate.str());
        QVERIFY2(!c.isNull(), uri.c_str());
        QCOMPARE(c.keyType(), keyTypeOfPolicyUri(uri));
        const SecurityPolicy* p = findSecurityPolicy(uri);
        QVERIFY(p);
        if (p->isEcc()) {
            // Anonymous, and a password and a user certificate under the endpoint's own policy
            // (OPC 10000-6 6.8.2: no RSA token policy on an ECC endpoint).
            QCOMPARE(e.userIdentityTokens.size(), std::size_t(3));
            QCOMPARE(e.userIdentityTokens[0].tokenType, UserTokenType::Anonymous);
            QCOMPARE(e.userIdentityTokens[1].tokenType, UserTokenType::UserName);
            QCOMPARE(e.userIdentityTokens[1].securityPolicyUri.view(), p->uri);
            QCOMPARE(e.userIdentityTokens[2].tokenType, UserTokenType::Certificate);
            QCOMPARE(e.userIdentityTokens[2].securityPolicyUri.view(), p->uri);
            eccLevel = std::max(eccLevel, int(e.securityLevel));
            QCOMPARE(c, m_server->certificateStore()->ownCertificate(c.keyType()));
        } else if (p->id != SecurityPolicyId::None) {
            rsaLevel = std::max(rsaLevel, int(e.securityLevel));
            QVERIFY(e.userIdentityTokens.size() > 1);
            QCOMPARE(c, m_server->certificateStore()->ownCertificate());
        }
    }
    QVERIFY(eccLevel > rsaLevel);
}

void TestEccSession::clientOpensAnEccSession_data() {
    QTest::addColumn<QString>("policy");
    QTest::addColumn<int>("mode");
    QTest::newRow("ECC_nistP256 Sign") << QString::fromLatin1(kSecurityPolicyEccNistP256) << int(MessageSecurityMode::Sign);
    QTest::newRow("ECC_nistP256 SignAndEncrypt") << QString::fromLatin1(kSecurityPolicyEccNistP256)
                                                 << int(MessageSecurityMode::SignAndEncrypt);
    QTest::newRow("ECC_nistP384 SignAndEncrypt") << QString::fromLatin1(kSecurityPolicyEccNistP384)
                                                 << int(MessageSecurityMode::SignAndEncrypt);
}

void TestEccSession::clientOpensAnEccSession() {
    QFETCH(QString, policy);
    QFETCH(int, mode);
    Client client(clientConfig(policy, MessageSecurityMode(mode)));
    QCOMPARE(connectSession(client, urlOf(m_server->port()), this), StatusCode(status::Good));
    const auto snapshot = client.snapshot();
    QCOMPARE(snapshot.endpoint.securityPolicyUri.toQString(), policy);
    QCOMPARE(snapshot.endpoint.securityMode, MessageSecurityMode(mode));
    // Reads travel over the ECC channel's keys.
    for (int i = 0; i < 3; ++i) {
        Awaited<ServiceResult<ReadResponse>> read;
        client.readValues({NodeId(id::Server_ServerStatus_State), NodeId(id::Server_ServerStatus_CurrentTime)}, this,
                          read.callback());
        QVERIFY(read.wait());
        QCOMPARE(read->status, StatusCode(status::Good));
        QCOMPARE(read->response.results.size(), std::size_t(2));
        QVERIFY(read->response.results[0].status.isGood());
    }
    // The client made an ECC certificate of the policy's curve beside its RSA one.
    const KeyType type = keyTypeOfPolicyUri(policy.toStdString());
    const Certificate ours = findOwnCertificate(m_dir.filePath(QStringLiteral("client-pki")).toStdString(), type);
    QVERIFY(!ours.isNull());
    QCOMPARE(ours.keyType(), type);
}

// The Session on the server runs as user (the one whose authenticationToken the client holds is not
// visible: the only Session of that user name is looked for).
namespace {
bool serverHasSessionOf(Server& server, const std::string& user) {
    for (const SessionPtr& s : server.sessions().snapshot()) {
        std::lock_guard lock(s->activationMutex);  // ActivateSession writes it on an I/O thread
        if (s->activated && !s->closed && s->clientUserId == user) return true;
    }
    return false;
}
} // namespace

void TestEccSession::userNameLogsInOverEcc() {
    QFETCH(QString, policy);
    QFETCH(int, mode);
    ClientConfig cfg = clientConfig(policy, MessageSecurityMode(mode));
    cfg.identity = UserIdentity::fromUserName(QStringLiteral("alice"), QStringLiteral("alice-pw"));
    Client client(cfg);
    QCOMPARE(connectSession(client, urlOf(m_server->port()), this), StatusCode(status::Good));
    const auto snapshot = client.snapshot();
    QCOMPARE(snapshot.endpoint.securityPolicyUri.toQString(), policy);
    QCOMPARE(snapshot.userTokenPolicy.tokenType, UserTokenType::UserName);
    QVERIFY(serverHasSessionOf(*m_server, "alice"));
    Awaited<ServiceResult<ReadResponse>> read;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, read.callback());
    QVERIFY(read.wait());
    QCOMPARE(read->status, StatusCode(status::Good));
}

void TestEccSession::userNameSurvivesAReconnect() {
    // The reconnect activates the same Session on a new channel: its password goes to the
    // EphemeralKey of the first ActivateSession's response (the CreateSession one is used up).
    TcpProxy proxy(m_server->port());
    QVERIFY(proxy.listen());
    ClientConfig cfg = clientConfig(QString::fromLatin1(kSecurityPolicyEccNistP256), MessageSecurityMode::SignAndEncrypt);
    cfg.identity = UserIdentity::fromUserName(QStringLiteral("alice"), QStringLiteral("alice-pw"));
    Client client(cfg);
    QCOMPARE(connectSession(client, proxy.url(), this), StatusCode(status::Good));
    const NodeId sessionId = client.sessionId();
    proxy.cutAll();
    QTRY_COMPARE(client.state(), ClientState::Reconnecting);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Connected, 10000);
    QCOMPARE(client.sessionId(), sessionId);  // activated again, not created anew
    QCOMPARE(client.snapshot().reconnectCount, 1u);
    Awaited<ServiceResult<ReadResponse>> read;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, read.callback());
    QVERIFY(read.wait());
    QCOMPARE(read->status, StatusCode(status::Good));
}

void TestEccSession::wrongPasswordIsRefused() {
    ClientConfig cfg = clientConfig(QString::fromLatin1(kSecurityPolicyEccNistP256), MessageSecurityMode::SignAndEncrypt);
    cfg.identity = UserIdentity::fromUserName(QStringLiteral("alice"), QStringLiteral("not her password"));
    Client client(cfg);
    QCOMPARE(connectSession(client, urlOf(m_server->port()), this), StatusCode(status::BadUserAccessDenied));
    // The server serves the next client.
    Client next(clientConfig(QString::fromLatin1(kSecurityPolicyEccNistP384), MessageSecurityMode::SignAndEncrypt));
    QCOMPARE(connectSession(next, urlOf(m_server->port()), this), StatusCode(status::Good));
}

void TestEccSession::eccCertificatesSurviveARestart() {
    const Certificate p256 = m_server->certificateStore()->ownCertificate(KeyType::EccNistP256);
    const Certificate p384 = m_server->certificateStore()->ownCertificate(KeyType::EccNistP384);
    const Certificate rsa = m_server->certificateStore()->ownCertificate();
    QVERIFY(!p256.isNull() && !p384.isNull() && !rsa.isNull());
    const quint16 port = m_server->port();
    m_server.reset();
    m_server = startServer(QStringLiteral("server-pki"), port);
    QVERIFY(m_server);
    QCOMPARE(m_server->certificateStore()->ownCertificate(KeyType::EccNistP256), p256);
    QCOMPARE(m_server->certificateStore()->ownCertificate(KeyType::EccNistP384), p384);
    QCOMPARE(m_server->certificateStore()->ownCertificate(), rsa);
    Client client(clientConfig(QString::fromLatin1(kSecurityPolicyEccNistP256), MessageSecurityMode::SignAndEncrypt));
    QCOMPARE(connectSession(client, urlOf(port), this), StatusCode(status::Good));
}

UA_TEST_GUILESS_MAIN(TestEccSession)
#include "tst_ecc_session.moc"
