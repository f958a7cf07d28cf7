// Connect errors in the window (issue 27 item 4): the Connect dialog refuses a URL that cannot work
// (typed with QTest keys: no opc.tcp:// scheme) with the reason under the field and Connect disabled;
// a failed connect shows its status with a sentence beside it (a closed port: nothing listens), and
// Cancel of a hanging connect says "cancelled" instead of "Connect failed: Bad_Disconnect". The log
// writes "Bad_ConnectionRejected" as the status bar does, in a column wide enough (item 6). A wrong
// password is asked again at once.
#include "core/Connection.h"
#include "core/ConnectionSettings.h"
#include "core/ServiceLog.h"
#include "window/ConnectDialog.h"
#include "window/MainWindow.h"

#include "TestServerConfig.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;
using namespace ua::clientapp;

class TestConnectDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void urlWithoutSchemeIsRefusedInTheDialog();
    void closedPortIsExplained();
    void cancelSaysCancelled();
    void wrongPasswordIsAskedAgain();
    void reverseConnectFromTheDialog();

private:
    QLabel* stateLabel() const { return m_window->findChild<QLabel*>(QStringLiteral("connectionState")); }

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

void TestConnectDialog::initTestCase() {
    QVERIFY(m_dir.isValid());
}

void TestConnectDialog::init() {
    WindowOptions options;
    options.pkiDir = m_dir.filePath(QStringLiteral("pki"));
    options.historyFile = m_dir.filePath(QStringLiteral("history.ini"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestConnectDialog::cleanup() {
    m_window.reset();
}

void TestConnectDialog::urlWithoutSchemeIsRefusedInTheDialog() {
    ConnectDialog dialog(m_window->connection(), m_window->history(), m_window.get());
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    auto* url = dialog.findChild<QComboBox*>(QStringLiteral("urlField"));
    auto* error = dialog.findChild<QLabel*>(QStringLiteral("urlError"));
    auto* connectButton = dialog.findChild<QPushButton*>(QStringLiteral("connectButton"));
    auto* discoverButton = dialog.findChild<QPushButton*>(QStringLiteral("discoverButton"));
    QVERIFY(url && url->lineEdit() && error && connectButton && discoverButton);
    QVERIFY(!error->isVisible());  // the default URL is fine
    QVERIFY(connectButton->isEnabled());

    url->lineEdit()->setFocus();
    url->lineEdit()->selectAll();
    QTest::keyClick(url->lineEdit(), Qt::Key_Delete);
    QTest::keyClicks(url->lineEdit(), QStringLiteral("localhost:24840"));
    QCOMPARE(url->currentText(), QStringLiteral("localhost:24840"));
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().contains(QStringLiteral("opc.tcp://localhost:24840")), qPrintable(error->text()));
    QVERIFY(!connectButton->isEnabled());
    QVERIFY(!discoverButton->isEnabled());
    QCOMPARE(dialog.urlProblem(), error->text());

    // Return in the dialog presses its default button, Connect: disabled, so the dialog stays.
    QTest::keyClick(&dialog, Qt::Key_Return);
    QVERIFY(dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    dialog.accept();  // as a double-clicked endpoint would
    QVERIFY(dialog.isVisible());

    QTest::keyClick(url->lineEdit(), Qt::Key_Home);
    QTest::keyClicks(url->lineEdit(), QStringLiteral("opc.tcp://"));
    QCOMPARE(url->currentText(), QStringLiteral("opc.tcp://localhost:24840"));
    QVERIFY(!error->isVisible());
    QVERIFY(connectButton->isEnabled());
    QVERIFY(discoverButton->isEnabled());
    QTest::keyClick(&dialog, Qt::Key_Return);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.settings().endpointUrl, QStringLiteral("opc.tcp://localhost:24840"));
}

void TestConnectDialog::closedPortIsExplained() {
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    ConnectionSettings s;
    s.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port);
    m_window->connectTo(s);
    // After the host lookup (an address: at once) the sentence says that the host is there.
    const QString expected = QStringLiteral("Connect failed: Bad_ConnectionRejected: Nothing accepted a connection at 127.0.0.1:%1").arg(port);
    QTRY_VERIFY2_WITH_TIMEOUT(stateLabel()->text().startsWith(expected), qPrintable(stateLabel()->text()), 10000);
    QCOMPARE(stateLabel()->toolTip(), stateLabel()->text());
    QCOMPARE(m_window->connection()->state(), ClientState::Disconnected);

    // The log writes the status as the status bar does, and its column shows it whole (item 6).
    QTableView* log = m_window->logView();
    QModelIndex status;
    QTRY_VERIFY([&] {
        for (int r = 0; r < log->model()->rowCount(); ++r)
            if (log->model()->index(r, ServiceLogModel::ServiceColumn).data().toString() == QLatin1String("Connect"))
                status = log->model()->index(r, ServiceLogModel::StatusColumn);
        return status.isValid();
    }());
    QCOMPARE(status.data().toString(), QStringLiteral("Bad_ConnectionRejected"));
    QVERIFY(log->columnWidth(ServiceLogModel::StatusColumn) > log->fontMetrics().horizontalAdvance(QStringLiteral("Bad_TcpEndpointUrlInvalid")));
}

void TestConnectDialog::cancelSaysCancelled() {
    QTcpServer silent;  // accepts and never answers
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    std::vector<QTcpSocket*> sockets;
    connect(&silent, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket* c = silent.nextPendingConnection()) sockets.push_back(c);
    });
    ConnectionSettings s;
    s.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(silent.serverPort());
    m_window->connectTo(s);
    QTRY_COMPARE_WITH_TIMEOUT(int(sockets.size()), 1, 5000);
    QAction* cancel = m_window->findChild<QAction*>(QStringLiteral("cancelAction"));
    QVERIFY(cancel);
    QTRY_VERIFY_WITH_TIMEOUT(cancel->isEnabled(), 2000);
    cancel->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->state(), ClientState::Disconnected, 2000);
    QTRY_COMPARE_WITH_TIMEOUT(stateLabel()->text(), QStringLiteral("Connect cancelled."), 2000);
    QTest::qWait(200);  // nothing overwrites it afterwards
    QCOMPARE(stateLabel()->text(), QStringLiteral("Connect cancelled."));
}

// A wrong password: the window asks again at once (naming the server, the user and the status) and
// connects with the new one; the trust question for the server's certificate is answered on the
// way. Against our server in-process with a user alice.
void TestConnectDialog::wrongPasswordIsAskedAgain() {
    ServerConfig cfg = test::localServerConfig();
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = m_dir.filePath(QStringLiteral("server-pki"));
    cfg.security.trustAllClients = true;
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), 1000);
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));

    QStringList asked;  // the password questions' labels
    QTimer answerer;
    connect(&answerer, &QTimer::timeout, this, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal) return;
        if (modal->objectName() == QLatin1String("trustDialog")) {
            QTest::mouseClick(modal->findChild<QPushButton*>(QStringLiteral("acceptOnce")), Qt::LeftButton);
        } else if (auto* d = qobject_cast<QInputDialog*>(modal); d && d->objectName() == QLatin1String("passwordDialog")) {
            asked << d->labelText();
            d->setTextValue(asked.size() == 1 ? QStringLiteral("alice-pw") : QStringLiteral("still wrong"));
            d->accept();
        }
    });
    answerer.start(50);
    ConnectionSettings s;
    s.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(server.port());
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    s.securityMode = MessageSecurityMode::SignAndEncrypt;
    s.identityKind = UserIdentity::Kind::UserName;
    s.userName = QStringLiteral("alice");
    s.password = QStringLiteral("wrong");
    m_window->connectTo(s);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->state(), ClientState::Connected, 20000);
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked[0].contains(QStringLiteral("alice")) && asked[0].contains(QStringLiteral("Bad_UserAccessDenied")),
             qPrintable(asked[0]));
    QCOMPARE(m_window->connection()->settings().password, QStringLiteral("alice-pw"));
}

void TestConnectDialog::reverseConnectFromTheDialog() {
    // A server that dials the port the window listens on (Reverse Connect, docs/ReverseConnect.md).
    const quint16 port = test::freeLocalPort();
    Server server(test::reverseDialingServerConfig(port));
    QVERIFY2(server.start(), qPrintable(server.errorString()));

    ConnectDialog dialog(m_window->connection(), m_window->history(), m_window.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto* url = dialog.findChild<QComboBox*>(QStringLiteral("urlField"));
    auto* reverse = dialog.findChild<QSpinBox*>(QStringLiteral("reverseListenPort"));
    QVERIFY(url && reverse);
    QCOMPARE(reverse->value(), 0);  // off by default
    url->setEditText(server.endpointUrl());
    reverse->setValue(port);
    ConnectionSettings s = dialog.settings();
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyNone);
    s.securityMode = MessageSecurityMode::None;
    QCOMPARE(s.reverseListenPort, port);
    QCOMPARE(ConnectionSettings::fromJson(s.toJson()).reverseListenPort, port);
    QVERIFY(s.label().contains(QStringLiteral("reverse on port %1").arg(port)));
    dialog.setSettings(ConnectionSettings{});
    QCOMPARE(reverse->value(), 0);
    dialog.setSettings(s);
    QCOMPARE(reverse->value(), int(port));

    m_window->connectTo(s);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->state(), ClientState::Connected, 15000);
    QVERIFY(server.reverseConnectStates()[0].used >= 1);

    // A port another program holds: the connect fails and says why.
    QTcpServer holder;
    QVERIFY(holder.listen(QHostAddress::Any, 0));
    ConnectionSettings busy = s;
    busy.reverseListenPort = holder.serverPort();
    m_window->connectTo(busy);
    QTRY_VERIFY2_WITH_TIMEOUT(stateLabel()->text().contains(QStringLiteral("Bad_ResourceUnavailable")) &&
                                  stateLabel()->text().contains(QStringLiteral("reverse connections")),
                              qPrintable(stateLabel()->text()), 10000);
    QCOMPARE(m_window->connection()->state(), ClientState::Disconnected);
    server.stop();
}

UA_TEST_MAIN(TestConnectDialog)
#include "tst_connect_dialog.moc"
