// Data access values while the connection is lost (issue 27 item 2), under QAbstractItemModelTester:
// our Server in process with the demo namespace, SignAndEncrypt, its certificate accepted once
// through the Connection's trust prompt; Simulation/Sine monitored. The server stops: the row keeps
// its last value, marked stale (status Bad_ServerNotConnected, grey, StaleRole). The server starts
// again on the same port with another certificate: the prompt is asked about the new one, and once
// accepted the row is live again (Good, new values). Rejected instead: the Connection ends
// Disconnected with Bad_CertificateUntrusted and the row stays stale.
#include "ModelsTestUtil.h"
#include "models/MonitoredItemsModel.h"
#include "ua/secure/SecurityPolicy.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestMonitoredItemsStale : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void staleWhileDisconnectedThenLiveWithTheNewCertificate_data();
    void staleWhileDisconnectedThenLiveWithTheNewCertificate();

private:
    std::unique_ptr<Server> startServer(const QString& pki, quint16 port);

    QTemporaryDir m_dir;
};

void TestMonitoredItemsStale::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::DataValue>();
    QVERIFY(m_dir.isValid());
}

std::unique_ptr<Server> TestMonitoredItemsStale::startServer(const QString& pki, quint16 port) {
    ServerConfig cfg;
    cfg.port = port;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 0;
    cfg.demoNamespace = true;
    cfg.demoUpdateRateMs = 100;
    cfg.security.pkiDir = m_dir.filePath(pki);
    cfg.security.trustAllClients = true;
    auto server = std::make_unique<Server>(cfg);
    if (!server->start()) {
        qWarning("server did not start: %s", qPrintable(server->errorString()));
        return nullptr;
    }
    return server;
}

void TestMonitoredItemsStale::staleWhileDisconnectedThenLiveWithTheNewCertificate_data() {
    QTest::addColumn<bool>("accept");
    QTest::newRow("accepted") << true;
    QTest::newRow("rejected") << false;
}

void TestMonitoredItemsStale::staleWhileDisconnectedThenLiveWithTheNewCertificate() {
    QFETCH(bool, accept);
    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    auto server = startServer(tag + QStringLiteral("-a"), 0);
    QVERIFY(server);
    const quint16 port = server->port();
    Connection c(m_dir.filePath(tag + QStringLiteral("-client")));
    QStringList asked;  // thumbprints, in the order asked
    bool answer = true;
    c.setTrustPrompt([&](const Certificate& certificate, StatusCode) {
        asked << QString::fromStdString(certificate.thumbprintHex());
        return answer ? TrustDecision::AcceptOnce : TrustDecision::Reject;
    });
    ConnectionSettings s;
    s.endpointUrl = test::urlOf(port);
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    s.securityMode = MessageSecurityMode::SignAndEncrypt;
    QSignalSpy finished(&c, &Connection::connectFinished);
    c.connectTo(s);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(asked.size(), 1);

    MonitoredItemsModel model(&c);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDefaultItemSettings(100, 1);
    model.addNodes({test::demoNode(c, "Demo.Simulation.Sine")});
    QSignalSpy values(&model, &MonitoredItemsModel::valueChanged);
    QTRY_VERIFY_WITH_TIMEOUT(values.count() >= 2, 10000);
    const QModelIndex status = model.index(0, MonitoredItemsModel::StatusColumn);
    const QModelIndex value = model.index(0, MonitoredItemsModel::ValueColumn);
    QCOMPARE(status.data().toString(), QStringLiteral("Good"));
    QCOMPARE(model.data(value, MonitoredItemsModel::StaleRole).toBool(), false);
    QVERIFY(!model.data(value, Qt::ForegroundRole).isValid());

    // The server goes: the last value stays, marked stale.
    server.reset();
    QTRY_VERIFY_WITH_TIMEOUT(model.isStale(), 5000);
    QCOMPARE(model.data(value, MonitoredItemsModel::StaleRole).toBool(), true);
    QCOMPARE(status.data().toString(), QStringLiteral("Bad_ServerNotConnected"));
    QCOMPARE(model.data(status, MonitoredItemsModel::StatusCodeRole).toUInt(), status::BadServerNotConnected.code);
    QVERIFY(model.data(value, Qt::ForegroundRole).value<QColor>().isValid());
    QVERIFY(!value.data().toString().isEmpty());  // the last value received
    QVERIFY(model.data(value, Qt::ToolTipRole).toString().contains(QStringLiteral("lost")));

    // Back on the same port with another certificate: the prompt is asked about the new one.
    answer = accept;
    server = startServer(tag + QStringLiteral("-b"), port);
    QVERIFY(server);
    const QString second = QString::fromStdString(server->certificateStore()->ownCertificate().thumbprintHex());
    QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 2, 20000);
    QCOMPARE(asked.at(1), second);
    QVERIFY(asked.at(0) != second);
    if (accept) {
        QTRY_COMPARE_WITH_TIMEOUT(c.state(), ClientState::Connected, 10000);
        values.clear();
        QTRY_VERIFY_WITH_TIMEOUT(values.count() >= 2, 10000);
        QVERIFY(!model.isStale());
        QCOMPARE(status.data().toString(), QStringLiteral("Good"));
        QCOMPARE(model.data(value, MonitoredItemsModel::StaleRole).toBool(), false);
    } else {
        QTRY_COMPARE_WITH_TIMEOUT(c.state(), ClientState::Disconnected, 10000);
        QTest::qWait(1000);
        QCOMPARE(c.state(), ClientState::Disconnected);
        QCOMPARE(asked.size(), 2);
        QVERIFY(model.isStale());
        QCOMPARE(status.data().toString(), QStringLiteral("Bad_ServerNotConnected"));
        QCOMPARE(server->sessions().snapshot().size(), std::size_t(0));
    }
}

UA_TEST_MAIN(TestMonitoredItemsStale)
#include "tst_monitored_items_stale.moc"
