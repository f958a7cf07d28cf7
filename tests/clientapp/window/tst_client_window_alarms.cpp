// The window's Alarms tab (issue 31 item 3) against our server in process with two alarms
// (AlarmsTestServer.h), offscreen: shown while connected it subscribes and ConditionRefresh brings
// PumpOffNormal; Acknowledge with the Comment field's text, and again (the result line shows
// Bad_ConditionBranchAlreadyAcked exactly); Disable and Enable from the row's context menu; the
// shelving menu; the severity threshold and the source filter on the table and the journal; the
// status line's condition count; a minimum width that fits a narrow screen.
#include "../AlarmsTestServer.h"
#include "WindowTestUtil.h"
#include "core/Connection.h"
#include "models/AlarmsModel.h"
#include "window/AlarmsPanel.h"
#include "window/MainWindow.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestClientWindowAlarms : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void showingTheTabSubscribes();
    void acknowledgeWithAComment();
    void disableAndEnableFromTheContextMenu();
    void shelveFromTheMenu();
    void filters();
    void narrowerThanTheWindowNeeds();

private:
    AlarmsPanel* panel() const { return m_window->alarms(); }
    int pumpRow() const { return panel()->model()->rowOf(test::AlarmsTestServer::pump()); }
    StatusCode writeDouble(double v);
    // Clicks the button and waits for the Method's answer; the result line then.
    QString clickAndWait(const char* button);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<MainWindow> m_window;
};

void TestClientWindowAlarms::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<Server>(test::AlarmsTestServer::config());
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    WindowOptions options;
    options.historyFile = m_dir.filePath(QStringLiteral("history.ini"));
    options.pkiDir = m_dir.filePath(QStringLiteral("client-pki"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    ConnectionSettings s;
    s.endpointUrl = m_server->endpointUrl();
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyNone);
    s.securityMode = MessageSecurityMode::None;
    QSignalSpy finished(m_window->connection(), &Connection::connectFinished);
    m_window->connectTo(s);
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>().code, status::Good.code);
}

void TestClientWindowAlarms::cleanupTestCase() {
    m_window.reset();
    m_server.reset();
}

StatusCode TestClientWindowAlarms::writeDouble(double v) {
    Client* c = m_window->connection()->client();
    const int ns = c->nodeIdConverter().indexOf("urn:ua-workbench:demo");
    bool done = false;
    StatusCode result = status::BadTimeout;
    c->writeValue(NodeId(uint16_t(ns), "Demo.Scalars.Double"), Variant(v), this, [&](const ServiceResult<WriteResponse>& r) {
        result = r.status.isBad() || r.response.results.empty() ? r.status : r.response.results[0];
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 15000)) return status::BadTimeout;
    return result;
}

QString TestClientWindowAlarms::clickAndWait(const char* button) {
    QSignalSpy finished(panel()->model(), &AlarmsModel::methodFinished);
    auto* b = panel()->findChild<QPushButton*>(QLatin1String(button));
    if (!b) return QStringLiteral("no button %1").arg(QLatin1String(button));
    b->click();
    if (!finished.wait(15000)) return QStringLiteral("no answer");
    return panel()->resultLabel()->text();
}

void TestClientWindowAlarms::showingTheTabSubscribes() {
    QVERIFY(!panel()->model()->isRunning());  // not before the tab is shown
    m_window->centerTabs()->setCurrentWidget(panel());
    QTRY_VERIFY_WITH_TIMEOUT(panel()->model()->refreshesCompleted() >= 1, 15000);
    QVERIFY(panel()->model()->isRunning());
    QCOMPARE(panel()->model()->rowCount(), 1);
    QVERIFY(pumpRow() >= 0);
    QCOMPARE(panel()->view()->model()->rowCount(), 1);
    QCOMPARE(panel()->statusLabel()->text(), QStringLiteral("1 condition(s)"));
    QCOMPARE(panel()->journalView()->model()->rowCount(), 3);  // RefreshStart, PumpOffNormal, RefreshEnd
    auto* subscribe = panel()->findChild<QPushButton*>(QStringLiteral("alarmsSubscribe"));
    QVERIFY(subscribe);
    QCOMPARE(subscribe->text(), QStringLiteral("Stop"));
}

void TestClientWindowAlarms::acknowledgeWithAComment() {
    // Nothing selected: nothing sent.
    QCOMPARE(panel()->act(AlarmMethod::Acknowledge), 0);
    QCOMPARE(panel()->resultLabel()->text(), QStringLiteral("Select a condition first"));
    QVERIFY(panel()->selectRow(pumpRow()));
    QCOMPARE(panel()->selectedRows(), QList<int>{pumpRow()});
    panel()->commentEdit()->setText(QStringLiteral("checked the pump"));
    QCOMPARE(clickAndWait("alarmAcknowledge"), QStringLiteral("Acknowledge PumpOffNormal: Good"));
    AlarmsModel* m = panel()->model();
    QTRY_VERIFY_WITH_TIMEOUT(m->conditionAt(pumpRow())->acked.value_or(false), 10000);
    QCOMPARE(m->index(pumpRow(), AlarmsModel::Comment).data().toString(), QStringLiteral("checked the pump"));
    QCOMPARE(clickAndWait("alarmAcknowledge"), QStringLiteral("Acknowledge PumpOffNormal: Bad_ConditionBranchAlreadyAcked"));
    QCOMPARE(clickAndWait("alarmConfirm"), QStringLiteral("Confirm PumpOffNormal: Good"));
    QTRY_VERIFY_WITH_TIMEOUT(m->conditionAt(pumpRow())->confirmed.value_or(false), 10000);
    QCOMPARE(m->index(pumpRow(), AlarmsModel::State).data().toString(), QStringLiteral("Active, Acknowledged, Confirmed"));
}

void TestClientWindowAlarms::disableAndEnableFromTheContextMenu() {
    QTableView* view = panel()->view();
    QVERIFY(panel()->selectRow(pumpRow()));
    const QModelIndex at = view->currentIndex();
    QSignalSpy finished(panel()->model(), &AlarmsModel::methodFinished);
    QVERIFY(test::chooseContextAction(view, at, QStringLiteral("alarmDisable")));
    QVERIFY(finished.wait(15000));
    QCOMPARE(panel()->resultLabel()->text(), QStringLiteral("Disable PumpOffNormal: Good"));
    QTRY_VERIFY_WITH_TIMEOUT(!panel()->model()->conditionAt(pumpRow())->enabled, 10000);
    QCOMPARE(panel()->model()->index(pumpRow(), AlarmsModel::State).data().toString(), QStringLiteral("Disabled"));
    QVERIFY(panel()->selectRow(pumpRow()));
    QVERIFY(test::chooseContextAction(view, view->currentIndex(), QStringLiteral("alarmEnable")));
    QVERIFY(finished.wait(15000));
    QCOMPARE(panel()->resultLabel()->text(), QStringLiteral("Enable PumpOffNormal: Good"));
    QTRY_VERIFY_WITH_TIMEOUT(panel()->model()->conditionAt(pumpRow())->enabled, 10000);
}

void TestClientWindowAlarms::shelveFromTheMenu() {
    QVERIFY(panel()->selectRow(pumpRow()));
    panel()->shelveMinutesBox()->setValue(5);
    auto* shelve = panel()->findChild<QToolButton*>(QStringLiteral("alarmShelve"));
    QVERIFY(shelve && shelve->menu());
    const QList<QAction*> actions = shelve->menu()->actions();
    QCOMPARE(actions.size(), 3);
    QSignalSpy finished(panel()->model(), &AlarmsModel::methodFinished);
    actions[0]->trigger();  // timed, 5 minutes
    QVERIFY(finished.wait(15000));
    QCOMPARE(panel()->resultLabel()->text(), QStringLiteral("TimedShelve PumpOffNormal: Good"));
    QTRY_COMPARE_WITH_TIMEOUT(panel()->model()->conditionAt(pumpRow())->shelving, AlarmShelving::TimedShelved, 10000);
    actions[2]->trigger();  // unshelve
    QVERIFY(finished.wait(15000));
    QCOMPARE(panel()->resultLabel()->text(), QStringLiteral("Unshelve PumpOffNormal: Good"));
    actions[2]->trigger();  // not shelved any more
    QVERIFY(finished.wait(15000));
    QCOMPARE(panel()->resultLabel()->text(), QStringLiteral("Unshelve PumpOffNormal: Bad_ConditionNotShelved"));
}

void TestClientWindowAlarms::filters() {
    QCOMPARE(writeDouble(25), StatusCode());
    AlarmsModel* m = panel()->model();
    QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 2, 10000);
    QTRY_COMPARE(panel()->statusLabel()->text(), QStringLiteral("2 condition(s)"));
    QAbstractItemModel* shown = panel()->view()->model();
    QCOMPARE(shown->rowCount(), 2);
    // Newest first.
    QCOMPARE(shown->index(0, AlarmsModel::Condition).data().toString(), QStringLiteral("TankLevel"));
    panel()->minSeverityBox()->setValue(500);
    QCOMPARE(shown->rowCount(), 1);
    QCOMPARE(shown->index(0, AlarmsModel::Severity).data().toInt(), 900);
    for (int r = 0; r < panel()->journalView()->model()->rowCount(); ++r) {
        const int s = panel()->journalView()->model()->index(r, 0).data(SeverityRole).toInt();
        QVERIFY(s == -1 || s >= 500);
    }
    panel()->minSeverityBox()->setValue(0);
    panel()->sourceEdit()->setText(QStringLiteral("DOUBLE"));
    QCOMPARE(shown->rowCount(), 1);
    QCOMPARE(shown->index(0, AlarmsModel::Source).data().toString(), QStringLiteral("Double"));
    panel()->sourceEdit()->clear();
    QCOMPARE(shown->rowCount(), 2);
}

// The tab must not be what makes the window too wide for a narrow screen (tst_client_window_smoke
// fitsANarrowScreen: the whole window within 800 px, the docks' share included).
void TestClientWindowAlarms::narrowerThanTheWindowNeeds() {
    const int alarms = panel()->minimumSizeHint().width();
    qInfo("Alarms tab minimum width %d", alarms);
    QVERIFY2(alarms <= 480, qPrintable(QString::number(alarms)));
}

UA_TEST_MAIN(TestClientWindowAlarms)
#include "tst_client_window_alarms.moc"
