// The window never freezes on a dead server (issue 7 item 11): a QTcpServer accepts the connection
// and never answers (no ACK to the Hello). The window, opened offscreen, connects to it, and while
// that attempt hangs, also discovers the same URL and asks the address tree to go somewhere; a
// 10 ms QTimer on the GUI thread measures the lag meanwhile and logs it (the goal, p99 < 50 ms, is a
// speed figure: measured with `ua-client --gui-lag-report`, not asserted here). What is asserted is
// that nothing blocked the GUI thread while the server stayed silent: a call waiting on it would
// stall the thread for the whole wait (1 s and more in each case), so the largest lag stays under
// 1 s. The toolbar's
// Cancel and Disconnect end the attempt: state Disconnected, no operation left, and the server sees
// the sockets closed.
#include "core/Connection.h"
#include "core/ConnectionSettings.h"
#include "window/AddressPanel.h"
#include "window/ConnectDialog.h"
#include "GuiLagProbe.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QPushButton>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;
using namespace ua::clientapp;
using namespace ua::app;

class TestClientWindowLag : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cancelEndsAHangingConnectWithoutLag();
    void disconnectEndsAHangingConnect();
    void discoverOfADeadServerCanBeStopped();

private:
    int openSockets() const;
    QAction* action(const char* name) const;

    QTcpServer m_server;          // accepts and never answers
    std::vector<QPointer<QTcpSocket>> m_sockets;
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    QString m_url;
};

void TestClientWindowLag::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY(m_server.listen(QHostAddress::LocalHost, 0));
    m_url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m_server.serverPort());
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket* s = m_server.nextPendingConnection()) m_sockets.emplace_back(s);  // read nothing, answer nothing
    });
}

void TestClientWindowLag::init() {
    WindowOptions options;
    options.pkiDir = m_dir.filePath(QStringLiteral("pki"));
    options.historyFile = m_dir.filePath(QStringLiteral("history.ini"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestClientWindowLag::cleanup() {
    m_window.reset();
    for (auto& s : m_sockets)
        if (s) s->deleteLater();
    m_sockets.clear();
}

int TestClientWindowLag::openSockets() const {
    int n = 0;
    for (const auto& s : m_sockets)
        if (s && s->state() == QAbstractSocket::ConnectedState) ++n;
    return n;
}

QAction* TestClientWindowLag::action(const char* name) const {
    return m_window->findChild<QAction*>(QString::fromLatin1(name));
}

void TestClientWindowLag::cancelEndsAHangingConnectWithoutLag() {
    QAction* cancel = action("cancelAction");
    QVERIFY(cancel);
    GuiLagProbe probe;
    probe.start();
    ConnectionSettings s;
    s.endpointUrl = m_url;
    m_window->connectTo(s);
    QTRY_COMPARE_WITH_TIMEOUT(openSockets(), 1, 5000);
    QCOMPARE(m_window->connection()->state(), ClientState::Connecting);
    QTRY_VERIFY_WITH_TIMEOUT(cancel->isEnabled(), 2000);  // the connect is a running operation
    // While it hangs: go to a node (the Browse waits for the Session) and keep the GUI busy.
    m_window->addressPanel()->goTo(QStringLiteral("/Objects/Server"));
    QTest::qWait(2000);
    QCOMPARE(m_window->connection()->state(), ClientState::Connecting);  // the server still says nothing

    cancel->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->state(), ClientState::Disconnected, 2000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->operationCount(), 0, 2000);
    QVERIFY(!cancel->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(openSockets(), 0, 3000);  // the client closed its socket
    QTest::qWait(300);
    const LagFigures f = probe.stop();
    qInfo("GUI timer lag while connecting to a silent server: %zu ticks, p50 %.2f ms, p99 %.2f ms, max %.2f ms",
          f.samples, f.p50Ms, f.p99Ms, f.maxMs);
    QVERIFY(f.samples > 50);
    QVERIFY2(f.maxMs < 1000, qPrintable(QStringLiteral("the GUI thread stalled %1 ms").arg(f.maxMs)));
}

void TestClientWindowLag::disconnectEndsAHangingConnect() {
    QAction* disconnect = action("disconnectAction");
    QVERIFY(disconnect);
    GuiLagProbe probe;
    probe.start();
    ConnectionSettings s;
    s.endpointUrl = m_url;
    m_window->connectTo(s);
    QTRY_COMPARE_WITH_TIMEOUT(openSockets(), 1, 5000);
    QTest::qWait(1000);
    QVERIFY(disconnect->isEnabled());
    disconnect->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->state(), ClientState::Disconnected, 2000);
    QTRY_COMPARE_WITH_TIMEOUT(openSockets(), 0, 3000);
    const LagFigures f = probe.stop();
    qInfo("GUI timer lag, connect then Disconnect: %zu ticks, p99 %.2f ms, max %.2f ms", f.samples, f.p99Ms, f.maxMs);
    QVERIFY2(f.maxMs < 1000, qPrintable(QStringLiteral("the GUI thread stalled %1 ms").arg(f.maxMs)));
}

void TestClientWindowLag::discoverOfADeadServerCanBeStopped() {
    GuiLagProbe probe;
    probe.start();
    ConnectDialog dialog(m_window->connection(), m_window->history(), m_window.get());
    dialog.show();
    dialog.setSettings([this] {
        ConnectionSettings s;
        s.endpointUrl = m_url;
        return s;
    }());
    dialog.discover();
    QVERIFY(dialog.discovering());
    QTRY_COMPARE_WITH_TIMEOUT(openSockets(), 1, 5000);
    QTest::qWait(1500);
    QVERIFY(dialog.discovering());  // no answer, no result
    auto* stop = dialog.findChild<QPushButton*>(QStringLiteral("discoverButton"));
    QVERIFY(stop);
    QCOMPARE(stop->text(), QStringLiteral("Stop"));
    stop->click();
    QVERIFY(!dialog.discovering());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->operationCount(), 0, 2000);
    QTRY_COMPARE_WITH_TIMEOUT(openSockets(), 0, 3000);
    const LagFigures f = probe.stop();
    qInfo("GUI timer lag, discover of a silent server then Stop: %zu ticks, p99 %.2f ms, max %.2f ms", f.samples, f.p99Ms, f.maxMs);
    QVERIFY2(f.maxMs < 1000, qPrintable(QStringLiteral("the GUI thread stalled %1 ms").arg(f.maxMs)));
}

UA_TEST_MAIN(TestClientWindowLag)
#include "tst_client_window_lag.moc"
