// A server that comes back with a new certificate, in the window (issue 27 item 2), offscreen: our
// Server in process, SignAndEncrypt, its certificate accepted once in the trust dialog; Sine in
// Data access. The server stops: the row reads Bad_ServerNotConnected and the status bar says
// "reconnecting". It starts again on the same port with another PKI folder: the trust dialog
// comes up again for the new certificate; Reject stops the reconnect and the status bar says why
// (the row stays stale). Connect again: asked again, accepted, live values from the new server.
#include "core/ConnectErrors.h"
#include "core/Connection.h"
#include "models/MonitoredItemsModel.h"
#include "window/DataAccessPanel.h"
#include "window/MainWindow.h"
#include "window/TrustDialog.h"

#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;
using namespace ua::clientapp;

class TestClientWindowNewCertificate : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void asksAboutTheNewCertificate();

private:
    std::unique_ptr<Server> startServer(const QString& pki, quint16 port);
    QString statusOfRow0() const {
        return m_window->dataAccess()->model()->index(0, MonitoredItemsModel::StatusColumn).data().toString();
    }

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

std::unique_ptr<Server> TestClientWindowNewCertificate::startServer(const QString& pki, quint16 port) {
    ServerConfig cfg;
    cfg.port = port;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 0;
    cfg.demoUpdateRateMs = 100;
    cfg.security.pkiDir = m_dir.filePath(pki);
    cfg.security.trustAllClients = true;
    auto s = std::make_unique<Server>(cfg);
    if (!s->start()) return nullptr;
    return s;
}

void TestClientWindowNewCertificate::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_dir.isValid());
    WindowOptions options;
    options.pkiDir = m_dir.filePath(QStringLiteral("client-pki"));
    options.historyFile = m_dir.filePath(QStringLiteral("history.ini"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestClientWindowNewCertificate::cleanupTestCase() {
    m_window.reset();
}

void TestClientWindowNewCertificate::asksAboutTheNewCertificate() {
    // Answers every trust dialog that comes up with the button named in `answer`.
    QString answer = QStringLiteral("acceptOnce");
    QStringList thumbprintsAsked;
    QTimer poll;
    connect(&poll, &QTimer::timeout, this, [&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* trust = qobject_cast<TrustDialog*>(w); trust && trust->isVisible()) {
                QString shown;
                for (QLabel* l : trust->findChildren<QLabel*>()) shown += l->text() + QLatin1Char('\n');
                thumbprintsAsked << shown;
                trust->findChild<QPushButton*>(answer)->click();
            }
    });
    poll.start(50);
    auto* state = m_window->findChild<QLabel*>(QStringLiteral("connectionState"));
    QVERIFY(state);

    auto server = startServer(QStringLiteral("server-a"), 0);
    QVERIFY(server);
    const quint16 port = server->port();
    ConnectionSettings s;
    s.endpointUrl = server->endpointUrl();
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    s.securityMode = MessageSecurityMode::SignAndEncrypt;
    QSignalSpy finished(m_window->connection(), &Connection::connectFinished);
    m_window->connectTo(s);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(thumbprintsAsked.size(), 1);
    const int ns = m_window->connection()->client()->nodeIdConverter().indexOf("urn:ua-workbench:demo");
    QVERIFY(ns > 0);
    m_window->monitor(NodeId(uint16_t(ns), "Demo.Simulation.Sine"));
    QTRY_COMPARE_WITH_TIMEOUT(statusOfRow0(), QStringLiteral("Good"), 10000);

    // The server goes: the value is stale, the status bar says reconnecting.
    server.reset();
    QTRY_COMPARE_WITH_TIMEOUT(statusOfRow0(), QStringLiteral("Bad_ServerNotConnected"), 5000);
    QVERIFY2(state->text().contains(QStringLiteral("reconnecting")), qPrintable(state->text()));

    // Back with another certificate: the trust dialog again, about the new one; Reject.
    answer = QStringLiteral("reject");
    server = startServer(QStringLiteral("server-b"), port);
    QVERIFY(server);
    const QString second = colonHex(QString::fromStdString(server->certificateStore()->ownCertificate().thumbprintHex()));
    QTRY_COMPARE_WITH_TIMEOUT(thumbprintsAsked.size(), 2, 20000);
    QVERIFY2(thumbprintsAsked.at(1).contains(second), qPrintable(thumbprintsAsked.at(1)));
    QVERIFY(!thumbprintsAsked.at(0).contains(second));
    // (The label follows the queued stateChanged: waited for, not read at once.)
    QTRY_VERIFY2_WITH_TIMEOUT(state->text().contains(QStringLiteral("Bad_CertificateUntrusted")) && state->text().contains(QStringLiteral("another certificate")),
                              qPrintable(state->text()), 10000);
    QVERIFY(m_window->connection()->state() == ClientState::Disconnected);
    QCOMPARE(statusOfRow0(), QStringLiteral("Bad_ServerNotConnected"));
    QTest::qWait(500);
    QCOMPARE(thumbprintsAsked.size(), 2);  // not asked again by itself

    // Connect again: asked again, accepted; the item lives on the new server.
    answer = QStringLiteral("acceptOnce");
    finished.clear();
    m_window->connectTo(s);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(thumbprintsAsked.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(statusOfRow0(), QStringLiteral("Good"), 10000);
}

UA_TEST_MAIN(TestClientWindowNewCertificate)
#include "tst_client_window_new_certificate.moc"
