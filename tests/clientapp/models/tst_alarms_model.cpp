// The Alarms view's models (issue 31 item 3) against our server in process with two alarms, under
// QAbstractItemModelTester: TankLevel, an ExclusiveLevel alarm on the demo's writable Double (High
// 10, HighHigh 20, severity 600 / 900), moved by writing the Double, and PumpOffNormal, an OffNormal
// alarm on the demo's Boolean whose normal value is false (so active from the start, severity 300).
//   - subscribing brings the conditions already there through ConditionRefresh (PumpOffNormal), a
//     new activation arrives live, with its state, severity colour, source and message;
//   - Acknowledge and Confirm with a comment change the row; the server's refusals come back
//     exactly (Bad_ConditionBranchAlreadyAcked, Bad_ConditionBranchAlreadyConfirmed); back to
//     normal once acknowledged and confirmed, the row goes (Retain false);
//   - shelving (Bad_ConditionNotShelved, Bad_ShelvingTimeOutOfRange, Bad_ConditionAlreadyShelved),
//     Disable (the row stays, grey, "Disabled"; Bad_ConditionAlreadyDisabled) and Enable;
//   - a refresh after the model was stopped drops the row the server no longer retains;
//   - a connection cut (through a TCP proxy) and restored to the same Session: refreshed again;
//   - the server restarted on the same port (a reconnect with a new Session): the subscription is
//     created again and refreshed, and the rows are what the new server retains;
//   - the filter (severity threshold, source text) and the journal (RefreshStart/End, the events).
#include "../AlarmsTestServer.h"
#include "../../client/TcpProxy.h"
#include "ModelsTestUtil.h"
#include "models/AlarmsModel.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QAbstractItemModelTester>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

namespace {
const NodeId kTankLevel = test::AlarmsTestServer::tankLevel();
const NodeId kPump = test::AlarmsTestServer::pump();
} // namespace

class TestAlarmsModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void refreshBringsTheConditionsThenLiveEvents();
    void acknowledgeAndConfirm();
    void shelveDisableAndEnable();
    void refreshDropsWhatIsNoLongerRetained();
    void filterBySeverityAndSource();
    void reconnectToTheSameSessionRefreshes();
    void reconnectRefreshes();

private:
    StatusCode writeLevel(double v);
    // callMethod on the condition's row and the status methodFinished reports.
    StatusCode call(AlarmsModel& m, const NodeId& condition, AlarmMethod method, const QString& comment = {}, double shelvingMs = 0);
    // A started model whose first refresh has completed.
    bool startAndRefresh(AlarmsModel& m);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Connection> m_connection;
};

void TestAlarmsModel::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    qRegisterMetaType<ua::ClientState>();
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<Server>(test::AlarmsTestServer::config(0));
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    QCOMPARE(m_server->conditions().size(), std::size_t(2));
    m_connection = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("pki")));
    QCOMPARE(test::connectApp(*m_connection, m_server->endpointUrl()), StatusCode());
    QCOMPARE(writeLevel(5), StatusCode());
}

void TestAlarmsModel::cleanupTestCase() {
    m_connection.reset();
    m_server.reset();
}

StatusCode TestAlarmsModel::writeLevel(double v) {
    test::Awaited<ServiceResult<WriteResponse>> w;
    m_connection->client()->writeValue(test::demoNode(*m_connection, "Demo.Scalars.Double"), Variant(v), this, w.callback());
    if (!w.wait()) return status::BadTimeout;
    if (w->status.isBad()) return w->status;
    return w->response.results.empty() ? StatusCode(status::BadUnknownResponse) : w->response.results[0];
}

StatusCode TestAlarmsModel::call(AlarmsModel& m, const NodeId& condition, AlarmMethod method, const QString& comment, double shelvingMs) {
    QSignalSpy finished(&m, &AlarmsModel::methodFinished);
    if (!m.callMethod(m.rowOf(condition), method, comment, shelvingMs)) return status::BadNotFound;
    if (!finished.wait(15000)) return status::BadTimeout;
    const StatusCode s = finished.at(0).at(2).value<StatusCode>();
    if (s != m.lastMethodStatus()) return status::BadUnexpectedError;
    return s;
}

bool TestAlarmsModel::startAndRefresh(AlarmsModel& m) {
    const int before = m.refreshesCompleted();
    m.start();
    return QTest::qWaitFor([&] { return m.refreshesCompleted() > before; }, 15000);
}

void TestAlarmsModel::refreshBringsTheConditionsThenLiveEvents() {
    AlarmsModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester journalTester(model.journal(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.columnCount(), int(AlarmsModel::ColumnCount));
    QCOMPARE(model.headerData(AlarmsModel::State, Qt::Horizontal).toString(), QStringLiteral("State"));
    QCOMPARE(model.status(), StatusCode(status::BadWaitingForInitialData));
    QVERIFY(startAndRefresh(model));
    QCOMPARE(model.status(), StatusCode());
    QCOMPARE(model.refreshStatus(), StatusCode());
    QCOMPARE(test::logCount(*m_connection, QStringLiteral("Call")), 1);  // the ConditionRefresh

    // The refresh brought PumpOffNormal (active since the start), not TankLevel (normal, not retained).
    QCOMPARE(model.rowCount(), 1);
    const int pump = model.rowOf(kPump);
    QCOMPARE(pump, 0);
    QCOMPARE(model.index(pump, AlarmsModel::Condition).data().toString(), QStringLiteral("PumpOffNormal"));
    QCOMPARE(model.index(pump, AlarmsModel::Source).data().toString(), QStringLiteral("Boolean"));
    QCOMPARE(model.index(pump, AlarmsModel::Severity).data().toInt(), 300);
    QCOMPARE(model.index(pump, AlarmsModel::State).data().toString(), QStringLiteral("Active, Unacknowledged, Confirmed"));
    QCOMPARE(model.index(pump, AlarmsModel::Message).data().toString(), QStringLiteral("the pump is off normal"));
    QCOMPARE(model.index(pump, 0).data(ConditionIdRole).toString(), QString::fromStdString(kPump.toString()));
    QCOMPARE(model.index(pump, 0).data(EventIdRole).toString(),
             QString::fromStdString(eventIdHex(model.conditionAt(pump)->eventId)));
    QVERIFY(!model.index(pump, 0).data(EventIdRole).toString().isEmpty());
    QCOMPARE(model.index(pump, AlarmsModel::Severity).data(Qt::BackgroundRole).value<QColor>(), alarmSeverityColor(300));
    // The journal: RefreshStart, the condition, RefreshEnd.
    AlarmJournalModel* journal = model.journal();
    QCOMPARE(journal->rowCount(), 3);
    QCOMPARE(journal->index(0, AlarmJournalModel::Event).data().toString(), QStringLiteral("RefreshStart"));
    QCOMPARE(journal->index(1, AlarmJournalModel::Condition).data().toString(), QStringLiteral("PumpOffNormal"));
    QCOMPARE(journal->index(2, AlarmJournalModel::Event).data().toString(), QStringLiteral("RefreshEnd"));
    QCOMPARE(journal->index(0, 0).data(SeverityRole).toInt(), -1);

    // Into HighHigh: a new row, live.
    QCOMPARE(writeLevel(25), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(kTankLevel) >= 0, 10000);
    const int tank = model.rowOf(kTankLevel);
    QCOMPARE(model.index(tank, AlarmsModel::State).data().toString(), QStringLiteral("Active HighHigh, Unacknowledged, Confirmed"));
    QCOMPARE(model.index(tank, AlarmsModel::Severity).data().toInt(), 900);
    QCOMPARE(model.index(tank, AlarmsModel::Source).data().toString(), QStringLiteral("Double"));
    QCOMPARE(model.index(tank, AlarmsModel::Severity).data(Qt::BackgroundRole).value<QColor>(), alarmSeverityColor(900));
    QCOMPARE(model.index(tank, AlarmsModel::Message).data(Qt::BackgroundRole).value<QColor>(), alarmSeverityColor(900).lighter(130));
    QVERIFY(model.index(tank, 0).data(ActiveRole).toBool());
    QVERIFY(!model.index(tank, 0).data(AckedRole).toBool());
    QCOMPARE(model.conditionAt(tank)->limitState, String("HighHigh"));
    QCOMPARE(journal->index(journal->rowCount() - 1, AlarmJournalModel::Condition).data().toString(), QStringLiteral("TankLevel"));
    QVERIFY(alarmSeverityColor(300) != alarmSeverityColor(900));

    // Back to normal but unacknowledged: still retained, inactive.
    QCOMPARE(writeLevel(5), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.index(tank, AlarmsModel::State).data().toString(),
                              QStringLiteral("Inactive, Unacknowledged, Confirmed"), 10000);
    QVERIFY(!model.index(tank, AlarmsModel::Message).data(Qt::BackgroundRole).isValid());
    model.stop();
}

void TestAlarmsModel::acknowledgeAndConfirm() {
    AlarmsModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(startAndRefresh(model));
    QCOMPARE(writeLevel(15), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(kTankLevel) >= 0 && model.conditionAt(model.rowOf(kTankLevel))->active.value_or(false), 10000);
    const int tank = model.rowOf(kTankLevel);
    QCOMPARE(model.index(tank, AlarmsModel::State).data().toString(), QStringLiteral("Active High, Unacknowledged, Confirmed"));

    const ByteString before = model.conditionAt(tank)->eventId;
    QCOMPARE(call(model, kTankLevel, AlarmMethod::Acknowledge, QStringLiteral("seen")), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.conditionAt(model.rowOf(kTankLevel))->acked.value_or(false), 10000);
    const int row = model.rowOf(kTankLevel);
    QCOMPARE(model.index(row, AlarmsModel::State).data().toString(), QStringLiteral("Active High, Acknowledged, Unconfirmed"));
    QCOMPARE(model.index(row, AlarmsModel::Comment).data().toString(), QStringLiteral("seen"));
    QVERIFY(model.conditionAt(row)->eventId != before);  // each change is an event with a new EventId
    // Acknowledged already: the server's status, exactly.
    QCOMPARE(call(model, kTankLevel, AlarmMethod::Acknowledge, QStringLiteral("again")), StatusCode(status::BadConditionBranchAlreadyAcked));
    QCOMPARE(call(model, kTankLevel, AlarmMethod::Confirm, QStringLiteral("done")), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.conditionAt(model.rowOf(kTankLevel))->confirmed.value_or(false), 10000);
    QCOMPARE(model.index(model.rowOf(kTankLevel), AlarmsModel::State).data().toString(), QStringLiteral("Active High, Acknowledged, Confirmed"));
    QCOMPARE(call(model, kTankLevel, AlarmMethod::Confirm, QStringLiteral("again")), StatusCode(status::BadConditionBranchAlreadyConfirmed));
    QCOMPARE(call(model, kTankLevel, AlarmMethod::AddComment, QStringLiteral("a note")), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.index(model.rowOf(kTankLevel), AlarmsModel::Comment).data().toString(), QStringLiteral("a note"), 10000);
    // Each call is in the service log.
    bool logged = false;
    for (const auto& r : m_connection->log()->records())
        logged = logged || (r.service == QLatin1String("Call") && r.detail.startsWith(QLatin1String("Acknowledge TankLevel")));
    QVERIFY(logged);

    // Normal again, acknowledged and confirmed: not retained, the row goes.
    QCOMPARE(writeLevel(5), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.rowOf(kTankLevel), -1, 10000);
    QVERIFY(model.rowOf(kPump) >= 0);
    model.stop();
}

void TestAlarmsModel::shelveDisableAndEnable() {
    AlarmsModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(startAndRefresh(model));
    QVERIFY(model.rowOf(kPump) >= 0);
    QCOMPARE(call(model, kPump, AlarmMethod::Unshelve), StatusCode(status::BadConditionNotShelved));
    QCOMPARE(call(model, kPump, AlarmMethod::TimedShelve, {}, 0), StatusCode(status::BadShelvingTimeOutOfRange));
    QCOMPARE(call(model, kPump, AlarmMethod::TimedShelve, {}, 60000), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.index(model.rowOf(kPump), 0).data(ShelvedRole).toBool(), 10000);
    QCOMPARE(model.index(model.rowOf(kPump), AlarmsModel::State).data().toString(),
             QStringLiteral("Active, Unacknowledged, Confirmed, Shelved (timed)"));
    QCOMPARE(model.conditionAt(model.rowOf(kPump))->shelving, AlarmShelving::TimedShelved);
    QVERIFY(model.conditionAt(model.rowOf(kPump))->suppressedOrShelved);
    // A shelved alarm's row is not painted as active.
    QVERIFY(!model.index(model.rowOf(kPump), AlarmsModel::Message).data(Qt::BackgroundRole).isValid());
    QCOMPARE(call(model, kPump, AlarmMethod::TimedShelve, {}, 60000), StatusCode(status::BadConditionAlreadyShelved));
    QCOMPARE(call(model, kPump, AlarmMethod::Unshelve), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.conditionAt(model.rowOf(kPump))->shelving, AlarmShelving::Unshelved, 10000);
    QCOMPARE(call(model, kPump, AlarmMethod::OneShotShelve), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.conditionAt(model.rowOf(kPump))->shelving, AlarmShelving::OneShotShelved, 10000);
    QCOMPARE(call(model, kPump, AlarmMethod::Unshelve), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.conditionAt(model.rowOf(kPump))->shelving, AlarmShelving::Unshelved, 10000);

    // Disabled: not retained, but the row stays (grey) so that it can be enabled again.
    QCOMPARE(call(model, kPump, AlarmMethod::Disable), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(!model.conditionAt(model.rowOf(kPump))->enabled, 10000);
    const int row = model.rowOf(kPump);
    QCOMPARE(model.index(row, AlarmsModel::State).data().toString(), QStringLiteral("Disabled"));
    QCOMPARE(model.index(row, AlarmsModel::Condition).data(Qt::ForegroundRole).value<QColor>(), QColor(Qt::gray));
    QVERIFY(!model.index(row, 0).data(EnabledRole).toBool());
    QCOMPARE(call(model, kPump, AlarmMethod::Disable), StatusCode(status::BadConditionAlreadyDisabled));
    QCOMPARE(call(model, kPump, AlarmMethod::Acknowledge, QStringLiteral("x")), StatusCode(status::BadConditionDisabled));
    // A refresh does not drop the disabled row.
    const int refreshes = model.refreshesCompleted();
    model.refresh();
    QTRY_VERIFY_WITH_TIMEOUT(model.refreshesCompleted() > refreshes, 10000);
    QVERIFY(model.rowOf(kPump) >= 0);
    QCOMPARE(call(model, kPump, AlarmMethod::Enable), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.conditionAt(model.rowOf(kPump))->enabled, 10000);
    QCOMPARE(model.index(model.rowOf(kPump), AlarmsModel::State).data().toString(), QStringLiteral("Active, Unacknowledged, Confirmed"));
    QCOMPARE(call(model, kPump, AlarmMethod::Enable), StatusCode(status::BadConditionAlreadyEnabled));
    // No row, no call.
    QVERIFY(!model.callMethod(model.rowCount(), AlarmMethod::Enable));
    model.stop();
}

void TestAlarmsModel::refreshDropsWhatIsNoLongerRetained() {
    AlarmsModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(startAndRefresh(model));
    QCOMPARE(writeLevel(15), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(kTankLevel) >= 0, 10000);
    const ConditionEvent active = *model.conditionAt(model.rowOf(kTankLevel));
    // Unsubscribed, the model keeps its rows and hears nothing: TankLevel is acknowledged, confirmed
    // and back to normal meanwhile (by another client: our own Client here).
    model.stop();
    auto direct = [this](AlarmMethod m, const ByteString& eventId) {
        AlarmMethodCall c;
        c.method = m;
        c.conditionId = kTankLevel;
        c.eventId = eventId;
        test::Awaited<StatusCode> r;
        callAlarmMethod(*m_connection->client(), c, this, r.callback());
        return r.wait() ? *r : StatusCode(status::BadTimeout);
    };
    QCOMPARE(direct(AlarmMethod::Acknowledge, active.eventId), StatusCode());
    // Confirm needs the acknowledgement's EventId: the condition's EventId node has it.
    test::Awaited<ServiceResult<ReadResponse>> id;
    m_connection->client()->readValues({NodeId(1, "Alarms/TankLevel/EventId")}, this, id.callback());
    QVERIFY(id.wait());
    QCOMPARE(id->status, StatusCode());
    const ByteString* ackedId = id->response.results[0].value.get<ByteString>();
    QVERIFY(ackedId);
    QCOMPARE(direct(AlarmMethod::Confirm, *ackedId), StatusCode());
    QCOMPARE(writeLevel(5), StatusCode());
    QTest::qWait(200);  // the server's poll (20 ms) sees the value
    QVERIFY(model.rowOf(kTankLevel) >= 0);  // still shown
    // Subscribed again: the refresh's end drops the row the server does not retain.
    QVERIFY(startAndRefresh(model));
    QCOMPARE(model.rowOf(kTankLevel), -1);
    QVERIFY(model.rowOf(kPump) >= 0);
    model.stop();
}

void TestAlarmsModel::filterBySeverityAndSource() {
    AlarmsModel model(m_connection.get());
    AlarmsFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    AlarmsFilterModel journalFilter;
    journalFilter.setSourceModel(model.journal());
    QVERIFY(startAndRefresh(model));
    QCOMPARE(writeLevel(15), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, 10000);
    QCOMPARE(filter.rowCount(), 2);
    filter.setMinimumSeverity(500);  // PumpOffNormal is 300, TankLevel 600
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, AlarmsModel::Condition).data().toString(), QStringLiteral("TankLevel"));
    filter.setMinimumSeverity(0);
    filter.setSourceFilter(QStringLiteral("bool"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, AlarmsModel::Condition).data().toString(), QStringLiteral("PumpOffNormal"));
    filter.setSourceFilter(QStringLiteral("nothing like it"));
    QCOMPARE(filter.rowCount(), 0);
    filter.setSourceFilter({});
    QCOMPARE(filter.rowCount(), 2);
    // The journal: the refresh events pass a severity threshold, the conditions below it do not.
    journalFilter.setMinimumSeverity(500);
    for (int r = 0; r < journalFilter.rowCount(); ++r) {
        const int s = journalFilter.index(r, 0).data(SeverityRole).toInt();
        QVERIFY(s == -1 || s >= 500);
    }
    QVERIFY(journalFilter.rowCount() < model.journal()->rowCount());
    // Sorted by severity (the view's header click), highest first.
    filter.sort(AlarmsModel::Severity, Qt::DescendingOrder);
    QCOMPARE(filter.index(0, AlarmsModel::Condition).data().toString(), QStringLiteral("TankLevel"));
    // Clean up: TankLevel acknowledged, confirmed, normal.
    QCOMPARE(call(model, kTankLevel, AlarmMethod::Acknowledge), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.conditionAt(model.rowOf(kTankLevel))->acked.value_or(false), 10000);
    QCOMPARE(call(model, kTankLevel, AlarmMethod::Confirm), StatusCode());
    QCOMPARE(writeLevel(5), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.rowOf(kTankLevel), -1, 10000);
    model.stop();
}

void TestAlarmsModel::reconnectToTheSameSessionRefreshes() {
    test::TcpProxy proxy(m_server->port());
    QVERIFY(proxy.listen());
    Connection viaProxy(m_dir.filePath(QStringLiteral("pki-proxy")));
    QCOMPARE(test::connectApp(viaProxy, proxy.url()), StatusCode());
    AlarmsModel model(&viaProxy);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(startAndRefresh(model));
    QCOMPARE(model.rowCount(), 1);
    const NodeId session = viaProxy.client()->sessionId();
    const int refreshes = model.refreshesCompleted();
    QSignalSpy states(&viaProxy, &Connection::stateChanged);
    proxy.cutAll();  // the client reconnects at once, to the same Session
    QTRY_VERIFY_WITH_TIMEOUT(model.refreshesCompleted() > refreshes, 30000);
    bool reconnected = false;
    for (const QList<QVariant>& s : states) reconnected = reconnected || s.at(0).value<ClientState>() == ClientState::Reconnecting;
    QVERIFY(reconnected);
    QCOMPARE(viaProxy.client()->sessionId(), session);
    QCOMPARE(model.refreshStatus(), StatusCode());
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(model.rowOf(kPump) >= 0);
    model.stop();
}

void TestAlarmsModel::reconnectRefreshes() {
    AlarmsModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(startAndRefresh(model));
    QCOMPARE(writeLevel(25), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(kTankLevel) >= 0, 10000);
    QVERIFY(model.rowOf(kPump) >= 0);
    // The server goes and comes back on the same port: a new Session, TankLevel normal there.
    const quint16 port = m_server->port();
    const int refreshes = model.refreshesCompleted();
    m_server.reset();
    QTRY_VERIFY_WITH_TIMEOUT(m_connection->state() == ClientState::Reconnecting, 15000);
    QCOMPARE(model.rowOf(kTankLevel) >= 0, true);  // the rows stay while disconnected
    m_server = std::make_unique<Server>(test::AlarmsTestServer::config(port));
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(m_connection->state() == ClientState::Connected, 30000);
    // The subscription is created again and refreshed: the rows are the new server's.
    QTRY_VERIFY_WITH_TIMEOUT(model.refreshesCompleted() > refreshes, 30000);
    QCOMPARE(model.status(), StatusCode());
    QCOMPARE(model.rowOf(kTankLevel), -1);
    QVERIFY(model.rowOf(kPump) >= 0);
    QCOMPARE(model.rowCount(), 1);
    model.stop();
}

UA_TEST_GUILESS_MAIN(TestAlarmsModel)
#include "tst_alarms_model.moc"
