// Discovery (OPC 10000-4 5.4.2 FindServers, 5.4.4 GetEndpoints) with ua::Client::discover and
// Connection::discover: against our Server in process (seven endpoints, three token types), against
// node-opcua's server (tests/interop/node_server.js, started as a process), a closed port, a server
// that accepts TCP and never answers, and cancellation.
#include "../../client/ClientTestUtil.h"
#include "../../client/ScriptedServer.h"

#include "core/Connection.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>
#include "MetaTypes.h"
#include "TestMain.h"
#include <set>

using namespace ua;
using namespace ua::clientapp;
using namespace ua::test;

namespace {

ClientConfig quickConfig(uint32_t connectTimeoutMs = 5000) {
    ClientConfig cfg;
    cfg.connectTimeoutMs = connectTimeoutMs;
    cfg.requestTimeoutMs = 5000;
    cfg.keepAliveIntervalMs = 0;
    return cfg;
}

std::set<UserTokenType> tokenTypes(const EndpointDescription& e) {
    std::set<UserTokenType> types;
    for (const auto& t : e.userIdentityTokens) types.insert(t.tokenType);
    return types;
}

} // namespace

class TestDiscovery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void discoversOurServer();
    void onlyWhenDisconnected();
    void closedPortAndBadUrl();
    void silentServerTimesOut();
    void connectionDiscoverLogsAndCancels();
    void discoversNodeOpcuaServer();

private:
    QString url() const { return QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m_server->port()); }
    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
};

void TestDiscovery::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_dir.isValid());
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.demoNamespace = false;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = m_dir.filePath(QStringLiteral("server-pki"));
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
}

void TestDiscovery::cleanupTestCase() { m_server.reset(); }

void TestDiscovery::discoversOurServer() {
    Client client(quickConfig());
    QSignalSpy states(&client, &Client::stateChanged);
    Awaited<DiscoveryResult> d;
    QElapsedTimer t;
    t.start();
    client.discover(url(), this, d.callback());
    QVERIFY(d.wait());
    qInfo("discovery of our server: %lld ms", t.elapsed());
    QCOMPARE(d->status, status::Good);
    QCOMPARE(d->findServersStatus, status::Good);
    QCOMPARE(d.thread(), QThread::currentThread());

    // FindServers: the server itself (5.4.2: "shall always return a record that describes itself").
    QCOMPARE(d->servers.size(), std::size_t(1));
    const ApplicationDescription& app = d->servers[0];
    QCOMPARE(app.applicationUri.toQString(), QStringLiteral("urn:127.0.0.1:UAWorkbench:Server"));
    QCOMPARE(app.applicationType, ApplicationType::Server);
    QVERIFY(!app.discoveryUrls.empty());
    QCOMPARE(app.discoveryUrls[0].toQString(), m_server->endpointUrl());

    // GetEndpoints: None and the three current policies in Sign and SignAndEncrypt, each with the
    // server's certificate and anonymous, user name and X509 tokens.
    std::set<std::pair<std::string, MessageSecurityMode>> seen;
    for (const auto& e : d->endpoints) {
        seen.insert({e.securityPolicyUri.str(), e.securityMode});
        QCOMPARE(e.server.applicationUri.toQString(), app.applicationUri.toQString());
        QCOMPARE(tokenTypes(e), (std::set<UserTokenType>{UserTokenType::Anonymous, UserTokenType::UserName, UserTokenType::Certificate}));
        QVERIFY(!e.serverCertificate.isEmpty());
        QCOMPARE(e.transportProfileUri.toQString(), QStringLiteral("http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary"));
    }
    const std::set<std::pair<std::string, MessageSecurityMode>> expected = {
        {kSecurityPolicyNone, MessageSecurityMode::None},
        {kSecurityPolicyBasic256Sha256, MessageSecurityMode::Sign},
        {kSecurityPolicyBasic256Sha256, MessageSecurityMode::SignAndEncrypt},
        {kSecurityPolicyAes128Sha256RsaOaep, MessageSecurityMode::Sign},
        {kSecurityPolicyAes128Sha256RsaOaep, MessageSecurityMode::SignAndEncrypt},
        {kSecurityPolicyAes256Sha256RsaPss, MessageSecurityMode::Sign},
        {kSecurityPolicyAes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt},
    };
    QCOMPARE(d->endpoints.size(), expected.size());
    QVERIFY(seen == expected);

    // Disconnected before and after, Connecting in between; the channel was closed.
    QTRY_COMPARE(states.size(), 2);
    QCOMPARE(states.at(0).at(0).value<ClientState>(), ClientState::Connecting);
    QCOMPARE(states.at(1).at(0).value<ClientState>(), ClientState::Disconnected);
    QCOMPARE(client.state(), ClientState::Disconnected);
    QCOMPARE(m_server->sessions().count(), 0);

    // Discovery again with the same Client, then a connect: nothing of the discovery is left over.
    Awaited<DiscoveryResult> again;
    client.discover(url(), this, again.callback());
    QVERIFY(again.wait());
    QCOMPARE(again->status, status::Good);
    QCOMPARE(connectSession(client, url(), this), status::Good);
}

void TestDiscovery::onlyWhenDisconnected() {
    Client client(quickConfig());
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(url(), this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::Good);
    Awaited<DiscoveryResult> d;
    client.discover(url(), this, d.callback());
    QVERIFY(d.wait());
    QCOMPARE(d->status, status::BadInvalidState);
    QVERIFY(d->endpoints.empty());
    QCOMPARE(client.state(), ClientState::ChannelOpen);  // the connection is untouched
}

void TestDiscovery::closedPortAndBadUrl() {
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();  // nothing listens there now
    Client client(quickConfig());
    Awaited<DiscoveryResult> d;
    client.discover(QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port), this, d.callback());
    QVERIFY(d.wait());
    QCOMPARE(d->status, status::BadConnectionRejected);
    QCOMPARE(d->findServersStatus, status::BadConnectionRejected);
    QVERIFY(d->servers.empty() && d->endpoints.empty());
    QCOMPARE(client.state(), ClientState::Disconnected);

    Awaited<DiscoveryResult> bad;
    client.discover(QStringLiteral("http://127.0.0.1:1"), this, bad.callback());
    QVERIFY(bad.wait());
    QCOMPARE(bad->status, status::BadTcpEndpointUrlInvalid);
}

void TestDiscovery::silentServerTimesOut() {
    ScriptedServer silent(ScriptedServer::Mode::Silent);
    QVERIFY(silent.listen());
    Client client(quickConfig(500));
    QElapsedTimer t;
    t.start();
    Awaited<DiscoveryResult> d;
    client.discover(silent.url(), this, d.callback());
    QVERIFY(d.wait());
    const qint64 ms = t.elapsed();
    qInfo("Bad_Timeout after %lld ms (connectTimeoutMs 500)", ms);
    QCOMPARE(d->status, status::BadTimeout);
    QVERIFY2(ms >= 450 && ms < 2000, qPrintable(QString::number(ms)));
    QCOMPARE(silent.connections(), 1);
    QCOMPARE(client.state(), ClientState::Disconnected);
}

void TestDiscovery::connectionDiscoverLogsAndCancels() {
    Connection c(m_dir.filePath(QStringLiteral("client-pki")));
    c.setTimeouts(500, 2000);
    std::optional<DiscoveryResult> result;
    c.discover(url(), [&](const DiscoveryResult& r) { result = r; });
    QCOMPARE(c.operationCount(), 1);
    QTRY_VERIFY(result.has_value());
    QCOMPARE(result->status, status::Good);
    QCOMPARE(result->endpoints.size(), std::size_t(7));
    QCOMPARE(c.operationCount(), 0);
    QCOMPARE(c.state(), ClientState::Disconnected);  // independent of the connection
    QVERIFY(!c.client());
    const auto& log = c.log()->records();
    QCOMPARE(log.size(), std::size_t(2));
    QCOMPARE(log[0].service, QStringLiteral("FindServers"));
    QCOMPARE(log[0].detail, url() + QStringLiteral(": 1 servers"));
    QCOMPARE(log[1].service, QStringLiteral("GetEndpoints"));
    QCOMPARE(log[1].detail, url() + QStringLiteral(": 7 endpoints"));

    // A silent server: cancelled before the timeout, the callback never runs.
    ScriptedServer silent(ScriptedServer::Mode::Silent);
    QVERIFY(silent.listen());
    int called = 0;
    c.discover(silent.url(), [&](const DiscoveryResult&) { ++called; });
    QTRY_COMPARE(silent.connections(), 1);
    QElapsedTimer t;
    t.start();
    c.cancelOperations();
    QVERIFY(t.elapsed() < 500);  // ends at once, not at the connect timeout
    QCOMPARE(c.operationCount(), 0);
    QTest::qWait(800);
    QCOMPARE(called, 0);
    QCOMPARE(c.log()->records().size(), std::size_t(2));

    // Not cancelled: Bad_Timeout after the connect timeout, logged.
    std::optional<DiscoveryResult> timedOut;
    c.discover(silent.url(), [&](const DiscoveryResult& r) { timedOut = r; });
    QTRY_VERIFY_WITH_TIMEOUT(timedOut.has_value(), 5000);
    QCOMPARE(timedOut->status, status::BadTimeout);
    QCOMPARE(c.log()->records().back().service, QStringLiteral("GetEndpoints"));
    QCOMPARE(c.log()->records().back().status, status::BadTimeout);
}

void TestDiscovery::discoversNodeOpcuaServer() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.setProcessChannelMode(QProcess::SeparateChannels);
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("node_server.js"), QStringLiteral("0")});
    QVERIFY(node.waitForStarted());
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += node.readAllStandardOutput()).contains('\n') || node.state() == QProcess::NotRunning, 90000);
    const QList<QByteArray> words = out.trimmed().split(' ');
    QVERIFY2(words.size() == 2 && words[0] == "READY",
             qPrintable(QString::fromUtf8(out) + QString::fromUtf8(node.readAllStandardError().right(3000))));
    const QString nodeUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(words[1].toUInt());

    Client client(quickConfig());
    Awaited<DiscoveryResult> d;
    QElapsedTimer t;
    t.start();
    client.discover(nodeUrl, this, d.callback());
    QVERIFY(d.wait(20000));
    qInfo("discovery of node-opcua's server: %lld ms", t.elapsed());
    QCOMPARE(d->status, status::Good);
    QCOMPARE(d->findServersStatus, status::Good);
    bool found = false;
    for (const auto& s : d->servers) {
        qInfo("server %s (%s) type %d", s.applicationUri.str().c_str(), s.applicationName.text.str().c_str(), int(s.applicationType));
        found = found || s.applicationUri.toQString() == QStringLiteral("urn:ua-workbench:node-opcua-test-server");
    }
    QVERIFY(found);
    // node_server.js offers SecurityPolicy None only, with anonymous users.
    QVERIFY(!d->endpoints.empty());
    for (const auto& e : d->endpoints) {
        QString tokens;
        for (const auto& t : e.userIdentityTokens) tokens += QString::number(int(t.tokenType)) + QLatin1Char(' ');
        qInfo("endpoint %s %s mode %d tokens %s", e.endpointUrl.str().c_str(), e.securityPolicyUri.str().c_str(),
              int(e.securityMode), qPrintable(tokens));
        QCOMPARE(e.securityPolicyUri.str(), std::string(kSecurityPolicyNone));
        QCOMPARE(e.securityMode, MessageSecurityMode::None);
        QVERIFY(tokenTypes(e).count(UserTokenType::Anonymous));
        QCOMPARE(e.server.applicationUri.toQString(), QStringLiteral("urn:ua-workbench:node-opcua-test-server"));
    }
    QCOMPARE(client.state(), ClientState::Disconnected);
    // And the connect that follows a discovery works on the same Client.
    QCOMPARE(connectSession(client, nodeUrl, this), status::Good);
    Awaited<StatusCode> closed;
    client.disconnectFromServer(this, closed.callback());
    QVERIFY(closed.wait());

    node.closeWriteChannel();  // node_server.js stops when its stdin closes
    if (!node.waitForFinished(10000)) node.kill();
}

UA_TEST_GUILESS_MAIN(TestDiscovery)
#include "tst_discovery.moc"
