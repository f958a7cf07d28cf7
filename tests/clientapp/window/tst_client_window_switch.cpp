// Switching servers in the window (issue 27 item 1), offscreen, against two Servers in process
// ("Plant A", "Plant B"): connected to A with a Data access item and A's events, the Connect dialog
// (filled with A's settings) gets B's URL typed over A's and Connect is clicked. Then the window is
// about B only: no Data access item of A (none re-created on B with a bare Bad_...), no event of A
// in the Events table (B's come), the title, the status bar and the server history name B. A new
// connection to the same server (B again) keeps its items.
#include "WindowTestUtil.h"
#include "core/Connection.h"
#include "core/ServerHistory.h"
#include "models/EventsModel.h"
#include "models/MonitoredItemsModel.h"
#include "window/ConnectDialog.h"
#include "window/DataAccessPanel.h"
#include "window/EventsPanel.h"
#include "window/MainWindow.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/eventmodel/Event.h"
#include "ua/server/runtime/Server.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;
using namespace ua::clientapp;

class TestClientWindowSwitch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void secondServerStartsClean();

private:
    std::unique_ptr<Server> startServer(const QString& name);
    QStringList eventMessages() const;
    NodeId demoNode(const char* name) const;

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_a, m_b;
    std::unique_ptr<MainWindow> m_window;
};

std::unique_ptr<Server> TestClientWindowSwitch::startServer(const QString& name) {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 0;
    cfg.demoUpdateRateMs = 100;
    cfg.applicationName = name;
    cfg.applicationUri = QStringLiteral("urn:ua-workbench:test:") + name.split(QLatin1Char(' ')).join(QString());
    auto s = std::make_unique<Server>(cfg);
    if (!s->start()) return nullptr;
    return s;
}

void TestClientWindowSwitch::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_dir.isValid());
    m_a = startServer(QStringLiteral("Plant A"));
    m_b = startServer(QStringLiteral("Plant B"));
    QVERIFY(m_a && m_b);
    WindowOptions options;
    options.pkiDir = m_dir.filePath(QStringLiteral("pki"));
    options.historyFile = m_dir.filePath(QStringLiteral("history.ini"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestClientWindowSwitch::cleanupTestCase() {
    m_window.reset();
    m_a.reset();
    m_b.reset();
}

QStringList TestClientWindowSwitch::eventMessages() const {
    EventsModel* events = m_window->events()->model();
    const int column = events->fields().indexOf(QStringLiteral("Message"));
    QStringList out;
    for (int r = 0; r < events->rowCount(); ++r) out << events->index(r, column).data().toString();
    return out;
}

NodeId TestClientWindowSwitch::demoNode(const char* name) const {
    const int ns = m_window->connection()->client()->nodeIdConverter().indexOf("urn:ua-workbench:demo");
    return NodeId(uint16_t(ns < 0 ? 0 : ns), name);
}

void TestClientWindowSwitch::secondServerStartsClean() {
    // Both servers raise an event naming themselves every 100 ms (seen while subscribed).
    QTimer raiser;
    connect(&raiser, &QTimer::timeout, this, [this] {
        m_a->events().raise(makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "Plant A", "event of A", 100));
        m_b->events().raise(makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "Plant B", "event of B", 100));
    });
    raiser.start(100);
    auto* state = m_window->findChild<QLabel*>(QStringLiteral("connectionState"));
    QVERIFY(state);

    // Connected to A: an item in Data access, A's events.
    ConnectionSettings a;
    a.endpointUrl = m_a->endpointUrl();
    a.displayName = QStringLiteral("Plant A");  // as the Connect dialog or the history give it
    QSignalSpy finished(m_window->connection(), &Connection::connectFinished);
    m_window->connectTo(a);
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());
    QVERIFY2(m_window->windowTitle().contains(QStringLiteral("Plant A")), qPrintable(m_window->windowTitle()));
    MonitoredItemsModel* items = m_window->dataAccess()->model();
    m_window->monitor(demoNode("Demo.Simulation.Sine"));
    QCOMPARE(items->rowCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(items->index(0, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"), 10000);
    m_window->centerTabs()->setCurrentWidget(m_window->events());  // subscribes to the Server object
    QTRY_VERIFY_WITH_TIMEOUT(eventMessages().contains(QStringLiteral("event of A")), 10000);

    // The Connect dialog comes filled with A's settings; B's URL is typed over A's; Connect.
    m_window->showConnectDialog();
    auto* dialog = m_window->findChild<ConnectDialog*>();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    auto* url = dialog->findChild<QComboBox*>(QStringLiteral("urlField"));
    auto* connectButton = dialog->findChild<QPushButton*>(QStringLiteral("connectButton"));
    QVERIFY(url && url->lineEdit() && connectButton);
    QCOMPARE(url->currentText(), m_a->endpointUrl());
    url->lineEdit()->setFocus();
    url->lineEdit()->selectAll();
    QTest::keyClick(url->lineEdit(), Qt::Key_Delete);
    QTest::keyClicks(url->lineEdit(), m_b->endpointUrl());
    QCOMPARE(url->currentText(), m_b->endpointUrl());
    finished.clear();
    QTest::mouseClick(connectButton, Qt::LeftButton);
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());

    // About B only: title, status bar, history.
    QVERIFY2(m_window->windowTitle().contains(QStringLiteral("Plant B")), qPrintable(m_window->windowTitle()));
    QVERIFY2(!m_window->windowTitle().contains(QStringLiteral("Plant A")), qPrintable(m_window->windowTitle()));
    QTRY_VERIFY(state->text().startsWith(QStringLiteral("Connected to Plant B (%1)").arg(m_b->endpointUrl())));
    QVERIFY2(!state->text().contains(QStringLiteral("Plant A")), qPrintable(state->text()));
    const auto& history = m_window->history()->entries();
    QCOMPARE(history.front().endpointUrl, m_b->endpointUrl());
    QCOMPARE(history.front().displayName, QStringLiteral("Plant B"));
    // Data access: A's item is gone, not re-created on B.
    QCOMPARE(items->rowCount(), 0);
    // Events: none of A's, B's arrive.
    QVERIFY(!eventMessages().contains(QStringLiteral("event of A")));
    QTRY_VERIFY_WITH_TIMEOUT(eventMessages().contains(QStringLiteral("event of B")), 10000);
    QTest::qWait(300);
    QCOMPARE(eventMessages().filter(QStringLiteral("event of A")).size(), 0);

    // B again (the same server): its item stays and is created again.
    m_window->monitor(demoNode("Demo.Simulation.Sine"));
    QTRY_COMPARE_WITH_TIMEOUT(items->index(0, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"), 10000);
    ConnectionSettings b;
    b.endpointUrl = m_b->endpointUrl();
    finished.clear();
    m_window->connectTo(b);
    QVERIFY(finished.wait(15000));
    QCOMPARE(items->rowCount(), 1);
    QSignalSpy values(items, &MonitoredItemsModel::valueChanged);
    QTRY_VERIFY_WITH_TIMEOUT(values.count() >= 2, 10000);
    QCOMPARE(items->index(0, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"));
}

UA_TEST_MAIN(TestClientWindowSwitch)
#include "tst_client_window_switch.moc"
