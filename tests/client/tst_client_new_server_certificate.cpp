// A server that comes back with a new certificate (issue 27 item 2; docs/Client.md "Reconnect
// behaviour"): our Server in process, SignAndEncrypt (Basic256Sha256), is stopped and started
// again on the same port with another PKI folder, hence another application instance certificate.
// Before a reconnect's SecureChannel the client fetches the endpoints again; the new certificate
// goes to the trust callback like the first one:
//   - AcceptOnce: the client reconnects (a new Session: the server lost the old one), the
//     subscription comes back and delivers values again;
//   - Reject: the client stops reconnecting (Disconnected, Bad_CertificateUntrusted) and never
//     connects to the new server, whatever time passes.
// A restart with the same certificate reconnects without asking.
#include "ClientTestUtil.h"

#include "ua/client/Client.h"
#include "ua/client/session/SessionSecurity.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"

#include <QMutex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <atomic>
#include <set>

using namespace ua;
using namespace ua::test;

namespace {

// The state's name, so that a failure prints "Reconnecting" rather than a number.
QByteArray stateOf(const Client& client) { return ua::enumName(client.state()); }

// What the trust callback was asked (on the client's I/O thread), and its answer.
struct TrustLog {
    QMutex mutex;
    std::vector<std::string> thumbprints;
    std::atomic<TrustDecision> answer{TrustDecision::AcceptOnce};

    TrustCallback callback() {
        return [this](const Certificate& c, StatusCode) {
            QMutexLocker lock(&mutex);
            thumbprints.push_back(c.thumbprintHex());
            return answer.load();
        };
    }
    std::vector<std::string> asked() {
        QMutexLocker lock(&mutex);
        return thumbprints;
    }
};

} // namespace

class TestClientNewServerCertificate : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void acceptedNewCertificateReconnects();
    void rejectedNewCertificateStopsReconnecting();
    void sameCertificateReconnectsWithoutAsking();

private:
    std::unique_ptr<Server> startServer(const QString& pki, quint16 port);
    ClientConfig clientConfig(TrustLog& trust) const;
    // The subscription of one Sine-like value: the server's CurrentTime sampled every 100 ms.
    SubscriptionHandle subscribe(Client& client, std::atomic<int>& changes);

    QTemporaryDir m_dir;
};

void TestClientNewServerCertificate::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_dir.isValid());
}

std::unique_ptr<Server> TestClientNewServerCertificate::startServer(const QString& pki, quint16 port) {
    ServerConfig cfg;
    cfg.port = port;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.demoNamespace = false;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = m_dir.filePath(pki);
    cfg.security.trustAllClients = true;
    auto s = std::make_unique<Server>(cfg);
    if (!s->start()) {
        qWarning("server did not start: %s", qPrintable(s->errorString()));
        return nullptr;
    }
    return s;
}

ClientConfig TestClientNewServerCertificate::clientConfig(TrustLog& trust) const {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.keepAliveIntervalMs = 300;
    cfg.keepAliveTimeoutMs = 1000;
    cfg.reconnect.initialDelayMs = 50;
    cfg.reconnect.maxDelayMs = 300;
    cfg.pkiDir = m_dir.filePath(QStringLiteral("client-pki"));
    cfg.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    cfg.securityMode = MessageSecurityMode::SignAndEncrypt;
    cfg.trustCallback = trust.callback();
    return cfg;
}

SubscriptionHandle TestClientNewServerCertificate::subscribe(Client& client, std::atomic<int>& changes) {
    SubscriptionSettings s;
    s.publishingIntervalMs = 100;
    Awaited<SubscriptionInfo> info;
    client.createSubscription(s, this, SubscriptionHandlers{}, info.callback());
    if (!info.wait() || info->status.isBad()) return 0;
    MonitoredItemSpec item;
    item.clientHandle = 1;
    item.nodeId = NodeId(id::Server_ServerStatus_CurrentTime);
    item.settings.samplingIntervalMs = 100;
    item.onDataChange = [&changes](const DataValue&) { changes.fetch_add(1); };
    Awaited<MonitoredItemsResult> created;
    client.createMonitoredItems(info->handle, {item}, this, created.callback());
    if (!created.wait() || created->items.size() != 1 || created->items[0].statusCode.isBad()) return 0;
    return info->handle;
}

void TestClientNewServerCertificate::acceptedNewCertificateReconnects() {
    auto server = startServer(QStringLiteral("accept-a"), 0);
    QVERIFY(server);
    const quint16 port = server->port();
    const std::string first = server->certificateStore()->ownCertificate().thumbprintHex();
    TrustLog trust;
    std::atomic<int> changes{0};  // before the Client: its item callback writes it
    Client client(clientConfig(trust));
    QCOMPARE(connectSession(client, urlOf(port), this), status::Good);
    QVERIFY(trust.asked() == std::vector<std::string>{first});
    QCOMPARE(client.snapshot().endpoint.securityMode, MessageSecurityMode::SignAndEncrypt);
    QVERIFY(subscribe(client, changes));
    QTRY_VERIFY_WITH_TIMEOUT(changes.load() >= 2, 5000);
    const NodeId oldSession = client.sessionId();
    QSignalSpy recreated(&client, &Client::sessionRecreated);

    // Restarted on the same port with another certificate.
    server.reset();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(client), QByteArray("Reconnecting"), 5000);
    server = startServer(QStringLiteral("accept-b"), port);
    QVERIFY(server);
    const std::string second = server->certificateStore()->ownCertificate().thumbprintHex();
    QVERIFY(second != first);

    // Asked about the new certificate, accepted once: a new Session, values again.
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(client), QByteArray("Connected"), 15000);
    QVERIFY(trust.asked() == (std::vector<std::string>{first, second}));
    QTRY_COMPARE_WITH_TIMEOUT(recreated.count(), 1, 5000);  // queued from the I/O thread, after the state
    QVERIFY(!(client.sessionId() == oldSession));
    QCOMPARE(client.snapshot().endpoint.securityMode, MessageSecurityMode::SignAndEncrypt);
    QCOMPARE(Certificate::fromDer(leafCertificateDer(client.snapshot().endpoint.serverCertificate.view())).thumbprintHex(), second);
    const int before = changes.load();
    QTRY_VERIFY_WITH_TIMEOUT(changes.load() >= before + 2, 10000);
    // And a Read on the new SecureChannel.
    Awaited<ServiceResult<ReadResponse>> read;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, read.callback());
    QVERIFY(read.wait());
    QCOMPARE(read->status, status::Good);
}

void TestClientNewServerCertificate::rejectedNewCertificateStopsReconnecting() {
    auto server = startServer(QStringLiteral("reject-a"), 0);
    QVERIFY(server);
    const quint16 port = server->port();
    TrustLog trust;
    Client client(clientConfig(trust));
    QCOMPARE(connectSession(client, urlOf(port), this), status::Good);
    QCOMPARE(trust.asked().size(), std::size_t(1));
    QSignalSpy states(&client, &Client::stateChanged);

    trust.answer = TrustDecision::Reject;
    server.reset();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(client), QByteArray("Reconnecting"), 5000);
    server = startServer(QStringLiteral("reject-b"), port);
    QVERIFY(server);

    // Asked once about the new certificate; Reject ends the reconnect with its status.
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(client), QByteArray("Disconnected"), 15000);
    QCOMPARE(trust.asked().size(), std::size_t(2));
    // state() changes on the I/O thread before the queued stateChanged reaches this thread.
    QTRY_VERIFY(!states.isEmpty() && states.last().at(0).value<ClientState>() == ClientState::Disconnected);
    QCOMPARE(states.last().at(1).value<StatusCode>(), status::BadCertificateUntrusted);
    // No further attempt: not connected, not asked again, no Session on the new server.
    QTest::qWait(1500);
    QCOMPARE(stateOf(client), QByteArray("Disconnected"));
    QCOMPARE(trust.asked().size(), std::size_t(2));
    QVERIFY(client.sessionId().isNull());
    QCOMPARE(server->sessions().snapshot().size(), std::size_t(0));
    Awaited<ServiceResult<ReadResponse>> read;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, read.callback());
    QVERIFY(read.wait());
    QCOMPARE(read->status, status::BadServerNotConnected);
}

void TestClientNewServerCertificate::sameCertificateReconnectsWithoutAsking() {
    auto server = startServer(QStringLiteral("same"), 0);
    QVERIFY(server);
    const quint16 port = server->port();
    TrustLog trust;
    Client client(clientConfig(trust));
    QCOMPARE(connectSession(client, urlOf(port), this), status::Good);
    QCOMPARE(trust.asked().size(), std::size_t(1));
    server.reset();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(client), QByteArray("Reconnecting"), 5000);
    server = startServer(QStringLiteral("same"), port);  // the same PKI folder: the same certificate
    QVERIFY(server);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(client), QByteArray("Connected"), 15000);
    QCOMPARE(trust.asked().size(), std::size_t(1));
}

UA_TEST_GUILESS_MAIN(TestClientNewServerCertificate)
#include "tst_client_new_server_certificate.moc"
