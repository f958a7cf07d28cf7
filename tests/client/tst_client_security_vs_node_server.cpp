// Our Client's security against node-opcua's server (tests/interop/node_secure_server.js, started
// once for the whole test): each of Basic256Sha256, Aes128_Sha256_RsaOaep and Aes256_Sha256_RsaPss in
// Sign and SignAndEncrypt, anonymous and with a user name (the password encrypted by the client and
// decrypted by node-opcua), each connecting, browsing, reading and writing; an X509 user; a wrong
// password; the endpoint choice (best available, no None endpoint); the trust callback for an
// untrusted server certificate (Reject, AcceptOnce, TrustPermanently); a host name the certificate
// does not name; a Session moved to new secure channels twice (each ActivateSession signing the
// serverNonce of the previous response); and a man in the middle that answers the None channel's
// GetEndpoints with only the weakest endpoint (the downgrade guard of CreateSession finds it).
#include "ClientTestUtil.h"
#include "ScriptedServer.h"
#include "TcpProxy.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/SecurityPolicy.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "MetaTypes.h"
#include "TestMain.h"
#include <atomic>

using namespace ua;
using namespace ua::test;

class TestClientSecurityVsNodeServer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void policyModeIdentityMatrix_data();
    void policyModeIdentityMatrix();
    void x509User();
    void wrongPasswordIsRefused();
    void bestAvailableIsSignAndEncrypt();
    void noNoneEndpoint();
    void untrustedServerCertificateRejected();
    void untrustedServerCertificateAcceptedOnce();
    void untrustedServerCertificateTrustedPermanently();
    void hostNameMismatch();
    void reconnectSignsTheNewServerNonce();
    void downgradedGetEndpointsIsDetected();

private:
    ClientConfig config(const QString& pkiDir, const char* policy, MessageSecurityMode mode,
                        UserIdentity identity = {});
    struct Connected {
        StatusCode connect;
        StatusCode session;
    };
    Connected connectSession(Client& client, const QString& url);
    QString url() const { return QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m_port); }
    // A pki folder whose trusted/ holds node-opcua's certificate.
    QString trustingPki();

    QProcess m_node;
    quint16 m_port = 0;
    Certificate m_serverCertificate;
    QTemporaryDir m_tmp;
    int m_pkiCount = 0;
    QString m_trustingPki;
    Certificate m_userCertificate;
    PrivateKey m_userKey;
};

void TestClientSecurityVsNodeServer::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_tmp.isValid());
    m_node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    m_node.setProcessChannelMode(QProcess::SeparateChannels);
    m_node.start(QStringLiteral(UA_NODE_EXECUTABLE),
                 {QStringLiteral("node_secure_server.js"), QStringLiteral("0")});
    QVERIFY(m_node.waitForStarted());
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += m_node.readAllStandardOutput()).contains('\n') ||
                                 m_node.state() == QProcess::NotRunning,
                             90000);
    const QList<QByteArray> words = out.trimmed().split(' ');
    QVERIFY2(
        words.size() == 3 && words[0] == "READY",
        qPrintable(QString::fromUtf8(out) + QString::fromUtf8(m_node.readAllStandardError().right(3000))));
    m_port = quint16(words[1].toUInt());
    QVERIFY(m_port > 0);
    m_serverCertificate = Certificate::load(
        (QString::fromUtf8(words[2]) + QStringLiteral("/own/certs/certificate.pem")).toStdString());
    QVERIFY2(!m_serverCertificate.isNull(), "node-opcua's certificate is readable");

    // The pki folder of the matrix trusts node-opcua's certificate from the start.
    m_trustingPki = trustingPki();
    QVERIFY(!m_trustingPki.isEmpty());

    // An X509 user: a certificate and key of its own (made by our store, as a user would bring one).
    CertificateStore users(m_tmp.filePath(QStringLiteral("user-pki")).toStdString());
    CertificateRequest req;
    req.applicationUri = "urn:ua-workbench:test-user";
    req.applicationName = "Test User";
    std::string error;
    QVERIFY2(users.ensureOwnCertificate(req, &error), error.c_str());
    m_userCertificate = users.ownCertificate();
    m_userKey = users.ownPrivateKey();
}

void TestClientSecurityVsNodeServer::cleanupTestCase() {
    if (m_node.state() != QProcess::NotRunning) {
        m_node.closeWriteChannel(); // node_secure_server.js stops when its stdin closes
        if (!m_node.waitForFinished(10000)) m_node.kill();
        m_node.waitForFinished(5000);
    }
}

QString TestClientSecurityVsNodeServer::trustingPki() {
    const QString dir = m_tmp.filePath(QStringLiteral("pki-%1").arg(++m_pkiCount));
    CertificateStore store(dir.toStdString());
    if (!store.addTrusted(m_serverCertificate)) return {};
    return dir;
}

ClientConfig TestClientSecurityVsNodeServer::config(const QString& pkiDir, const char* policy,
                                                    MessageSecurityMode mode, UserIdentity identity) {
    ClientConfig cfg;
    cfg.pkiDir = pkiDir;
    cfg.securityPolicyUri = policy ? QString::fromUtf8(policy) : QString();
    cfg.securityMode = mode;
    cfg.identity = std::move(identity);
    cfg.keepAliveIntervalMs = 0;
    cfg.autoReconnect = false;
    cfg.requestTimeoutMs = 10000;
    return cfg;
}

TestClientSecurityVsNodeServer::Connected TestClientSecurityVsNodeServer::connectSession(Client& client,
                                                                                         const QString& url) {
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(url, this, c.callback());
    if (!c.wait(30000)) return {status::BadTimeout, status::BadTimeout};
    if (c->status.isBad()) return {c->status, status::BadInvalidState};
    Awaited<ServiceResult<CreateSessionResponse>> s;
    client.createSession(this, s.callback());
    if (!s.wait(30000)) return {status::Good, status::BadTimeout};
    return {status::Good, s->status};
}

void TestClientSecurityVsNodeServer::policyModeIdentityMatrix_data() {
    QTest::addColumn<QString>("policy");
    QTest::addColumn<MessageSecurityMode>("mode");
    QTest::addColumn<bool>("userName");
    const char* policies[] = {kSecurityPolicyBasic256Sha256, kSecurityPolicyAes128Sha256RsaOaep,
                              kSecurityPolicyAes256Sha256RsaPss};
    for (const char* p : policies) {
        const QString name = QString::fromUtf8(p).section(QLatin1Char('#'), 1);
        for (auto mode : {MessageSecurityMode::Sign, MessageSecurityMode::SignAndEncrypt}) {
            const char* m = mode == MessageSecurityMode::Sign ? "Sign" : "SignAndEncrypt";
            for (bool user : {false, true})
                QTest::addRow("%s %s %s", qPrintable(name), m, user ? "user1" : "anonymous")
                    << QString::fromUtf8(p) << mode << user;
        }
    }
}

void TestClientSecurityVsNodeServer::policyModeIdentityMatrix() {
    QFETCH(QString, policy);
    QFETCH(MessageSecurityMode, mode);
    QFETCH(bool, userName);
    const UserIdentity identity =
        userName ? UserIdentity::fromUserName(QStringLiteral("user1"), QStringLiteral("password1"))
                 : UserIdentity();
    Client client(config(m_trustingPki, policy.toUtf8().constData(), mode, identity));
    const Connected c = connectSession(client, url());
    QCOMPARE(c.connect, status::Good);
    QCOMPARE(c.session, status::Good);
    QCOMPARE(client.state(), ClientState::Connected);
    const ClientSnapshot snap = client.snapshot();
    QCOMPARE(snap.endpoint.securityPolicyUri.toQString(), policy);
    QCOMPARE(snap.endpoint.securityMode, mode);
    QCOMPARE(snap.userTokenPolicy.tokenType, userName ? UserTokenType::UserName : UserTokenType::Anonymous);

    // Browse Objects/Secure: it holds the variable.
    BrowseRequest br;
    BrowseDescription d;
    d.nodeId = NodeId(1, "Secure");
    d.browseDirection = BrowseDirection::Forward;
    d.referenceTypeId = NodeId(uint32_t(33)); // HierarchicalReferences
    d.includeSubtypes = true;
    d.resultMask = uint32_t(BrowseResultMask::All);
    br.nodesToBrowse = Array<BrowseDescription>{d};
    Awaited<ServiceResult<BrowseResponse>> b;
    client.browse(br, BrowseOptions{}, this, b.callback());
    QVERIFY(b.wait());
    QCOMPARE(b->status, status::Good);
    QCOMPARE(b->response.results.size(), std::size_t(1));
    bool found = false;
    for (const auto& ref : b->response.results[0].references)
        found = found || ref.nodeId.nodeId == NodeId(1, "Secure.Int32");
    QVERIFY(found);

    // Write a value of this row and read it back.
    const int32_t value =
        int32_t(QTest::currentDataTag() ? qHash(QByteArray(QTest::currentDataTag())) % 100000 : 7);
    Awaited<ServiceResult<WriteResponse>> w;
    client.writeValue(NodeId(1, "Secure.Int32"), Variant(value), this, w.callback());
    QVERIFY(w.wait());
    QCOMPARE(w->status, status::Good);
    QCOMPARE(w->response.results.size(), std::size_t(1));
    QCOMPARE(w->response.results[0], status::Good);
    Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(1, "Secure.Int32")}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QVERIFY(r->response.results[0].value.get<int32_t>());
    QCOMPARE(*r->response.results[0].value.get<int32_t>(), value);

    Awaited<StatusCode> bye;
    client.disconnectFromServer(this, bye.callback());
    QVERIFY(bye.wait());
    QCOMPARE(*bye, status::Good);
}

void TestClientSecurityVsNodeServer::x509User() {
    Client client(config(m_trustingPki, kSecurityPolicyBasic256Sha256, MessageSecurityMode::SignAndEncrypt,
                         UserIdentity::fromCertificate(m_userCertificate, m_userKey)));
    const Connected c = connectSession(client, url());
    QCOMPARE(c.connect, status::Good);
    QCOMPARE(c.session, status::Good);
    QCOMPARE(client.snapshot().userTokenPolicy.tokenType, UserTokenType::Certificate);
    Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(1, "Secure.Int32")}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QVERIFY(r->response.results[0].value.get<int32_t>());

    // A key that does not belong to the certificate: node-opcua finds the userTokenSignature invalid.
    CertificateStore other(m_tmp.filePath(QStringLiteral("other-user-pki")).toStdString());
    CertificateRequest req;
    req.applicationUri = "urn:ua-workbench:other-user";
    req.applicationName = "Other User";
    QVERIFY(other.ensureOwnCertificate(req));
    Client impostor(config(m_trustingPki, kSecurityPolicyBasic256Sha256, MessageSecurityMode::SignAndEncrypt,
                           UserIdentity::fromCertificate(m_userCertificate, other.ownPrivateKey())));
    const Connected bad = connectSession(impostor, url());
    QCOMPARE(bad.connect, status::Good);
    QCOMPARE(bad.session, status::BadUserSignatureInvalid);
    QCOMPARE(impostor.state(), ClientState::ChannelOpen);
}

void TestClientSecurityVsNodeServer::wrongPasswordIsRefused() {
    Client client(config(m_trustingPki, kSecurityPolicyAes128Sha256RsaOaep, MessageSecurityMode::Sign,
                         UserIdentity::fromUserName(QStringLiteral("user1"), QStringLiteral("wrong"))));
    const Connected c = connectSession(client, url());
    QCOMPARE(c.connect, status::Good);
    QCOMPARE(c.session, status::BadUserAccessDenied);
    QCOMPARE(client.state(), ClientState::ChannelOpen);
    QVERIFY(client.sessionId().isNull());
}

void TestClientSecurityVsNodeServer::bestAvailableIsSignAndEncrypt() {
    Client client(config(m_trustingPki, nullptr, MessageSecurityMode::Invalid));
    const Connected c = connectSession(client, url());
    QCOMPARE(c.connect, status::Good);
    QCOMPARE(c.session, status::Good);
    // SignAndEncrypt first, then the strongest policy.
    QCOMPARE(client.snapshot().endpoint.securityMode, MessageSecurityMode::SignAndEncrypt);
    QCOMPARE(client.snapshot().endpoint.securityPolicyUri, String(kSecurityPolicyAes256Sha256RsaPss));
}

void TestClientSecurityVsNodeServer::noNoneEndpoint() {
    // The server lists no None endpoint (GetEndpoints itself works on a None channel).
    Client none(config(m_trustingPki, kSecurityPolicyNone, MessageSecurityMode::None));
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    none.connectToServer(url(), this, c.callback());
    QVERIFY(c.wait(30000));
    QCOMPARE(c->status, status::BadSecurityPolicyRejected);
    QCOMPARE(c->response.endpoints.size(), std::size_t(6));
    QCOMPARE(none.state(), ClientState::Disconnected);

    // Without a pki folder the client has no certificate: no secure endpoint is usable.
    Client noPki(config(QString(), nullptr, MessageSecurityMode::Invalid));
    Awaited<ServiceResult<GetEndpointsResponse>> c2;
    noPki.connectToServer(url(), this, c2.callback());
    QVERIFY(c2.wait(30000));
    QCOMPARE(c2->status, status::BadSecurityPolicyRejected);
}

void TestClientSecurityVsNodeServer::untrustedServerCertificateRejected() {
    const QString pki = m_tmp.filePath(QStringLiteral("pki-reject"));
    ClientConfig cfg = config(pki, kSecurityPolicyBasic256Sha256, MessageSecurityMode::Sign);
    auto asked = std::make_shared<std::atomic<int>>(0);
    auto reason = std::make_shared<std::atomic<uint32_t>>(0);
    auto thumbprint = std::make_shared<std::string>();
    cfg.trustCallback = [asked, reason, thumbprint](const Certificate& cert, StatusCode why) {
        ++*asked;
        reason->store(why.code);
        *thumbprint = cert.thumbprint(); // written before the connect completes, read after
        return TrustDecision::Reject;
    };
    Client client(cfg);
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(url(), this, c.callback());
    QVERIFY(c.wait(30000));
    QCOMPARE(c->status, status::BadCertificateUntrusted);
    QCOMPARE(asked->load(), 1);
    QCOMPARE(StatusCode(reason->load()), status::BadCertificateUntrusted);
    QCOMPARE(*thumbprint, m_serverCertificate.thumbprint());
    QCOMPARE(client.state(), ClientState::Disconnected);
    CertificateStore store(pki.toStdString());
    QCOMPARE(store.trusted().size(), std::size_t(0));
    QCOMPARE(store.rejected().size(), std::size_t(1));
    QVERIFY(store.rejected()[0] == m_serverCertificate);
}

void TestClientSecurityVsNodeServer::untrustedServerCertificateAcceptedOnce() {
    const QString pki = m_tmp.filePath(QStringLiteral("pki-once"));
    ClientConfig cfg = config(pki, kSecurityPolicyAes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt);
    auto asked = std::make_shared<std::atomic<int>>(0);
    cfg.trustCallback = [asked](const Certificate&, StatusCode) {
        ++*asked;
        return TrustDecision::AcceptOnce;
    };
    {
        Client client(cfg);
        const Connected c = connectSession(client, url());
        QCOMPARE(c.connect, status::Good);
        QCOMPARE(c.session, status::Good);
        QCOMPARE(asked->load(), 1);
    }
    CertificateStore store(pki.toStdString());
    QCOMPARE(store.trusted().size(), std::size_t(0));
    // Once only: the next connect asks again.
    Client again(cfg);
    const Connected c = connectSession(again, url());
    QCOMPARE(c.session, status::Good);
    QCOMPARE(asked->load(), 2);
}

void TestClientSecurityVsNodeServer::untrustedServerCertificateTrustedPermanently() {
    const QString pki = m_tmp.filePath(QStringLiteral("pki-permanent"));
    ClientConfig cfg = config(pki, kSecurityPolicyAes128Sha256RsaOaep, MessageSecurityMode::SignAndEncrypt);
    auto asked = std::make_shared<std::atomic<int>>(0);
    cfg.trustCallback = [asked](const Certificate&, StatusCode) {
        ++*asked;
        return TrustDecision::TrustPermanently;
    };
    {
        Client client(cfg);
        const Connected c = connectSession(client, url());
        QCOMPARE(c.connect, status::Good);
        QCOMPARE(c.session, status::Good);
        QCOMPARE(asked->load(), 1);
    }
    CertificateStore store(pki.toStdString());
    QCOMPARE(store.trusted().size(), std::size_t(1));
    QVERIFY(store.trusted()[0] == m_serverCertificate);
    QCOMPARE(store.rejected().size(), std::size_t(0));
    // Trusted now: a client without a callback connects.
    cfg.trustCallback = nullptr;
    Client again(cfg);
    const Connected c = connectSession(again, url());
    QCOMPARE(c.session, status::Good);
    QCOMPARE(asked->load(), 1);
}

void TestClientSecurityVsNodeServer::hostNameMismatch() {
    // node-opcua's certificate names the machine's host name and 127.0.0.1, not "localhost".
    for (const auto& dns : m_serverCertificate.dnsNames())
        if (QString::fromStdString(dns).compare(QStringLiteral("localhost"), Qt::CaseInsensitive) == 0)
            QSKIP("this machine's host name is localhost");
    ClientConfig cfg =
        config(m_trustingPki, kSecurityPolicyBasic256Sha256, MessageSecurityMode::SignAndEncrypt);
    auto asked = std::make_shared<std::atomic<int>>(0);
    cfg.trustCallback = [asked](const Certificate&, StatusCode) {
        ++*asked;
        return TrustDecision::AcceptOnce;
    };
    Client client(cfg);
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(QStringLiteral("opc.tcp://localhost:%1").arg(m_port), this, c.callback());
    QVERIFY(c.wait(30000));
    QCOMPARE(c->status, status::BadCertificateHostNameInvalid);
    QCOMPARE(asked->load(), 0); // a trusted certificate with a wrong name is not a question of trust

    // The same with an untrusted certificate accepted once: the name is still checked.
    ClientConfig fresh = cfg;
    fresh.pkiDir = m_tmp.filePath(QStringLiteral("pki-hostname"));
    Client client2(fresh);
    Awaited<ServiceResult<GetEndpointsResponse>> c2;
    client2.connectToServer(QStringLiteral("opc.tcp://localhost:%1").arg(m_port), this, c2.callback());
    QVERIFY(c2.wait(30000));
    QCOMPARE(c2->status, status::BadCertificateHostNameInvalid);
    QCOMPARE(asked->load(), 1);
}

void TestClientSecurityVsNodeServer::reconnectSignsTheNewServerNonce() {
    TcpProxy proxy(m_port);
    QVERIFY(proxy.listen());
    ClientConfig cfg =
        config(m_trustingPki, kSecurityPolicyBasic256Sha256, MessageSecurityMode::Sign,
               UserIdentity::fromUserName(QStringLiteral("user1"), QStringLiteral("password1")));
    cfg.autoReconnect = true;
    cfg.reconnect.initialDelayMs = 100;
    cfg.reconnect.maxAttempts = 5;
    Client client(cfg);
    const Connected c = connectSession(client, proxy.url());
    QCOMPARE(c.session, status::Good);
    const NodeId sessionId = client.sessionId();
    QSignalSpy recreated(&client, &Client::sessionRecreated);
    // Twice: the second ActivateSession signs the nonce of the first reconnect's response. node-opcua
    // checks the clientSignature and the encrypted password's nonce each time.
    for (uint32_t round = 1; round <= 2; ++round) {
        proxy.cutAll();
        QTRY_COMPARE(client.state(), ClientState::Reconnecting);
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Connected, 15000);
        QCOMPARE(client.snapshot().reconnectCount, round);
        QCOMPARE(client.sessionId(), sessionId);
    }
    QCOMPARE(recreated.size(), 0);
    Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(1, "Secure.Int32")}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
}

void TestClientSecurityVsNodeServer::downgradedGetEndpointsIsDetected() {
    // The real list (a client without a pki folder cannot use it, but gets it).
    Client probe(config(QString(), nullptr, MessageSecurityMode::Invalid));
    Awaited<ServiceResult<GetEndpointsResponse>> e;
    probe.connectToServer(url(), this, e.callback());
    QVERIFY(e.wait(30000));
    Array<EndpointDescription> weakest = Array<EndpointDescription>::emptyArray();
    for (const auto& ep : e->response.endpoints)
        if (ep.securityMode == MessageSecurityMode::Sign &&
            ep.securityPolicyUri == String(kSecurityPolicyBasic256Sha256))
            weakest.push_back(ep);
    QCOMPARE(weakest.size(), std::size_t(1));

    // The attacker answers GetEndpoints on the unprotected None channel with the weakest endpoint only
    // (its real certificate, so validation passes), then lets the secure channel through to the server.
    ScriptedServer attacker;
    QVERIFY(attacker.listen());
    TcpProxy proxy(attacker.port());
    QVERIFY(proxy.listen());
    attacker.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (r.typeId != GetEndpointsRequest::kBinaryEncodingId) return false;
        GetEndpointsResponse resp;
        resp.responseHeader.requestHandle = r.header.requestHandle;
        resp.endpoints = weakest;
        c.respond(r.requestId, resp);
        proxy.setTarget(m_port);
        return true;
    };
    Client client(config(m_trustingPki, nullptr, MessageSecurityMode::Invalid)); // "the best available"
    const Connected c = connectSession(client, proxy.url());
    QCOMPARE(c.connect, status::Good);
    QCOMPARE(client.snapshot().endpoint.securityMode, MessageSecurityMode::Sign); // fooled so far
    QCOMPARE(c.session, status::BadSecurityChecksFailed); // the signed CreateSession response lists all six
    QVERIFY(client.sessionId().isNull());
    QCOMPARE(client.state(), ClientState::ChannelOpen);
    QCOMPARE(attacker.connections(), 1);
    QCOMPARE(proxy.accepted(), 2);
}

UA_TEST_MAIN(TestClientSecurityVsNodeServer)
#include "tst_client_security_vs_node_server.moc"
