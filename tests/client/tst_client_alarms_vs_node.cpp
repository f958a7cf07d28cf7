// Our client's Alarms and Conditions against a real peer (issue 31 item 4): node-opcua 2.186.4's
// server with an ExclusiveLimitAlarm on a writable level (tests/interop/node_alarms_server.js;
// node-opcua implements OPC 10000-9). With the library API the Alarms view and `ua-client alarms`
// use (ua/client/): an event item on the Server object with conditionEventFilter()
// (the ConditionId select clause, the OfType where clause); the level written into High raises
// the condition; ConditionRefresh brings RefreshStart, the retained condition (its last EventId),
// RefreshEnd in that order; Acknowledge and Confirm with a comment change AckedState and
// ConfirmedState, and the refusals come with node-opcua's exact statuses (Bad_EventIdUnknown,
// Bad_ConditionBranchAlreadyConfirmed); TimedShelve and Unshelve on the ShelvingState
// (Bad_ConditionNotShelved when not shelved; the type's declaration with the condition as ObjectId
// is Bad_MethodInvalid there, which is why the client calls the ShelvingState's own Method);
// Disable and Enable (Bad_ConditionAlreadyDisabled).
#include "ClientTestUtil.h"
#include "ua/client/ConditionCalls.h"
#include "ua/client/ConditionEvent.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QProcess>
#include <QtTest>
#include "TestMain.h"
#include <memory>
#include <vector>

using namespace ua;
using namespace ua::test;

namespace {

// node_alarms_server.js running until destroyed (stdin closed): "READY <port> <ns>".
class AlarmsNodeServer {
public:
    ~AlarmsNodeServer() {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10000)) m_process.kill();
    }
    bool start(QString* why) {
        m_process.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
        m_process.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("node_alarms_server.js"), QStringLiteral("0")});
        if (!m_process.waitForStarted()) {
            *why = QStringLiteral("node did not start");
            return false;
        }
        QByteArray out;
        if (!QTest::qWaitFor([&] { return (out += m_process.readAllStandardOutput()).contains('\n') || m_process.state() == QProcess::NotRunning; }, 90000)) {
            *why = QStringLiteral("no READY line within 90 s");
            return false;
        }
        const QList<QByteArray> words = out.trimmed().split(' ');
        if (words.size() != 3 || words[0] != "READY") {
            *why = QString::fromUtf8(out + m_process.readAllStandardError().right(3000));
            return false;
        }
        port = quint16(words[1].toUInt());
        ns = uint16_t(words[2].toUInt());
        return true;
    }
    quint16 port = 0;
    uint16_t ns = 0;

private:
    QProcess m_process;
};

} // namespace

class TestClientAlarmsVsNode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void refreshAcknowledgeAndConfirm();
    void shelveDisableAndEnable();

private:
    NodeId level() const { return NodeId(m_node.ns, "TankLevel"); }
    NodeId alarm() const { return NodeId(m_node.ns, "TankLevelAlarm"); }
    StatusCode writeLevel(double v);
    StatusCode callMethod(AlarmMethod m, const ByteString& eventId = {}, const QString& comment = {}, double shelvingMs = 0);
    // The condition's events received so far.
    std::vector<ConditionEvent> ofAlarm() const;
    // The latest event of the condition, after waiting for one that pred accepts (nullopt: none in 10 s).
    std::optional<ConditionEvent> waitFor(const std::function<bool(const ConditionEvent&)>& pred);

    AlarmsNodeServer m_node;
    std::unique_ptr<Client> m_client;
    uint32_t m_subscriptionId = 0;
    std::vector<ConditionEvent> m_events;  // every event of the item, in order
};

void TestClientAlarmsVsNode::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QString why;
    QVERIFY2(m_node.start(&why), qPrintable(why));
    m_client = std::make_unique<Client>();
    QCOMPARE(connectSession(*m_client, urlOf(m_node.port), this), status::Good);

    SubscriptionSettings settings;
    settings.publishingIntervalMs = 50;
    SubscriptionHandlers handlers;
    handlers.notification = [this](const SubscriptionNotification& n) {
        for (const EventFieldList& e : n.events) m_events.push_back(parseConditionEvent(e.eventFields));
    };
    Awaited<SubscriptionInfo> sub;
    m_client->createSubscription(settings, this, handlers, sub.callback());
    QVERIFY(sub.wait());
    QCOMPARE(sub->status, status::Good);
    m_subscriptionId = sub->subscriptionId;
    MonitoredItemSpec item;
    item.clientHandle = 1;
    item.nodeId = NodeId(id::Server);
    item.attributeId = uint32_t(AttributeId::EventNotifier);
    item.settings.samplingIntervalMs = 0;
    item.settings.queueSize = 1000;
    item.settings.eventFilter = conditionEventFilter();
    Awaited<MonitoredItemsResult> items;
    m_client->createMonitoredItems(sub->handle, {item}, this, items.callback());
    QVERIFY(items.wait());
    QCOMPARE(items->status, status::Good);
    QCOMPARE(items->items.size(), std::size_t(1));
    QCOMPARE(items->items[0].statusCode, status::Good);
    // node-opcua checks every select clause (the ConditionId's NodeId attribute included).
    if (const EventFilterResult* fr = items->items[0].filterResult.get<EventFilterResult>())
        for (const StatusCode& s : fr->selectClauseResults) QCOMPARE(s, status::Good);
}

void TestClientAlarmsVsNode::cleanupTestCase() { m_client.reset(); }

StatusCode TestClientAlarmsVsNode::writeLevel(double v) {
    Awaited<ServiceResult<WriteResponse>> w;
    m_client->writeValue(level(), Variant(v), this, w.callback());
    if (!w.wait()) return status::BadTimeout;
    if (w->status.isBad()) return w->status;
    return w->response.results.empty() ? StatusCode(status::BadUnknownResponse) : w->response.results[0];
}

StatusCode TestClientAlarmsVsNode::callMethod(AlarmMethod m, const ByteString& eventId, const QString& comment, double shelvingMs) {
    AlarmMethodCall call;
    call.method = m;
    call.conditionId = alarm();
    call.eventId = eventId;
    call.comment = LocalizedText{String("en"), String::fromQString(comment)};
    call.shelvingTimeMs = shelvingMs;
    Awaited<StatusCode> r;
    callAlarmMethod(*m_client, call, this, r.callback());
    return r.wait() ? *r : StatusCode(status::BadTimeout);
}

std::vector<ConditionEvent> TestClientAlarmsVsNode::ofAlarm() const {
    std::vector<ConditionEvent> out;
    for (const ConditionEvent& e : m_events)
        if (e.isCondition() && e.conditionId == alarm()) out.push_back(e);
    return out;
}

std::optional<ConditionEvent> TestClientAlarmsVsNode::waitFor(const std::function<bool(const ConditionEvent&)>& pred) {
    std::optional<ConditionEvent> found;
    const bool ok = QTest::qWaitFor([&] {
        for (const ConditionEvent& e : ofAlarm())
            if (pred(e)) found = e;
        return found.has_value();
    }, 10000);
    if (!ok) return std::nullopt;
    return ofAlarm().back();
}

void TestClientAlarmsVsNode::refreshAcknowledgeAndConfirm() {
    // Into High (80): the condition becomes active, unacknowledged, unconfirmed.
    QCOMPARE(writeLevel(85), status::Good);
    const auto high = waitFor([](const ConditionEvent& e) { return e.active.value_or(false); });
    QVERIFY(high);
    QCOMPARE(high->eventType, NodeId(id::ExclusiveLimitAlarmType));
    QCOMPARE(high->conditionName, String("TankLevelAlarm"));
    QCOMPARE(high->limitState, String("High"));
    QVERIFY(high->retain);
    QVERIFY(high->enabled);
    QCOMPARE(high->acked, std::optional<bool>(false));
    QCOMPARE(high->confirmed, std::optional<bool>(false));
    QCOMPARE(high->shelving, AlarmShelving::Unshelved);
    QCOMPARE(high->sourceNode, level());
    QVERIFY(!high->eventId.isEmpty());
    QCOMPARE(conditionStateText(*high), std::string("Active High, Unacknowledged, Unconfirmed"));

    // ConditionRefresh: RefreshStart, the retained condition (its last event again), RefreshEnd.
    const std::size_t before = m_events.size();
    Awaited<StatusCode> refreshed;
    conditionRefresh(*m_client, m_subscriptionId, this, refreshed.callback());
    QVERIFY(refreshed.wait());
    QCOMPARE(*refreshed, status::Good);
    QTRY_VERIFY_WITH_TIMEOUT([&] {
        for (std::size_t i = before; i < m_events.size(); ++i)
            if (m_events[i].kind == ConditionEvent::Kind::RefreshEnd) return true;
        return false;
    }(), 10000);
    std::vector<ConditionEvent::Kind> kinds;
    ByteString refreshedId;
    for (std::size_t i = before; i < m_events.size(); ++i) {
        kinds.push_back(m_events[i].kind);
        if (m_events[i].isCondition()) refreshedId = m_events[i].eventId;
    }
    const std::vector<ConditionEvent::Kind> expected = {ConditionEvent::Kind::RefreshStart, ConditionEvent::Kind::Condition,
                                                        ConditionEvent::Kind::RefreshEnd};
    QVERIFY2(kinds == expected, qPrintable(QStringLiteral("%1 events").arg(kinds.size())));
    QCOMPARE(refreshedId, high->eventId);
    QCOMPARE(m_events[before].sourceName, String("Server"));
    // The refresh of a subscription that is not there.
    Awaited<StatusCode> unknown;
    conditionRefresh(*m_client, m_subscriptionId + 1000, this, unknown.callback());
    QVERIFY(unknown.wait());
    QCOMPARE(*unknown, status::BadSubscriptionIdInvalid);

    // Acknowledge with a comment: AckedState true, ConfirmedState still false.
    QCOMPARE(callMethod(AlarmMethod::Acknowledge, ByteString("not an event"), QStringLiteral("x")), status::BadEventIdUnknown);
    QCOMPARE(callMethod(AlarmMethod::Acknowledge, high->eventId, QStringLiteral("seen by ua-workbench")), status::Good);
    const auto acked = waitFor([](const ConditionEvent& e) { return e.acked.value_or(false); });
    QVERIFY(acked);
    QCOMPARE(acked->comment.text, String("seen by ua-workbench"));
    QCOMPARE(acked->confirmed, std::optional<bool>(false));
    QVERIFY(acked->eventId != high->eventId);
    QCOMPARE(conditionStateText(*acked), std::string("Active High, Acknowledged, Unconfirmed"));

    // Confirm: ConfirmedState true; a second Confirm is refused.
    QCOMPARE(callMethod(AlarmMethod::Confirm, acked->eventId, QStringLiteral("confirmed by ua-workbench")), status::Good);
    const auto confirmed = waitFor([](const ConditionEvent& e) { return e.confirmed.value_or(false); });
    QVERIFY(confirmed);
    QVERIFY(*confirmed->acked);
    QCOMPARE(confirmed->comment.text, String("confirmed by ua-workbench"));
    QCOMPARE(callMethod(AlarmMethod::Confirm, confirmed->eventId, QStringLiteral("again")), status::BadConditionBranchAlreadyConfirmed);
}

void TestClientAlarmsVsNode::shelveDisableAndEnable() {
    // Shelving on the ShelvingState Object with its own Methods (what callAlarmMethod finds).
    QCOMPARE(callMethod(AlarmMethod::Unshelve), status::BadConditionNotShelved);
    QCOMPARE(callMethod(AlarmMethod::TimedShelve, {}, {}, 60000), status::Good);
    QCOMPARE(callMethod(AlarmMethod::TimedShelve, {}, {}, 60000), status::BadConditionAlreadyShelved);
    QCOMPARE(callMethod(AlarmMethod::Unshelve), status::Good);
    // The type's declaration with the condition as ObjectId is not taken by node-opcua.
    AlarmMethodCall plain;
    plain.method = AlarmMethod::TimedShelve;
    plain.conditionId = alarm();
    plain.shelvingTimeMs = 60000;
    Awaited<ServiceResult<CallResponse>> r;
    m_client->call(std::vector<CallMethodRequest>{alarmMethodRequest(plain)}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QCOMPARE(r->response.results.size(), std::size_t(1));
    QCOMPARE(r->response.results[0].statusCode, status::BadMethodInvalid);

    // Disable: an event with EnabledState false; a second Disable is refused; Enable.
    const std::size_t before = ofAlarm().size();
    QCOMPARE(callMethod(AlarmMethod::Disable), status::Good);
    QTRY_VERIFY_WITH_TIMEOUT(ofAlarm().size() > before && !ofAlarm().back().enabled, 10000);
    QCOMPARE(conditionStateText(ofAlarm().back()), std::string("Disabled"));
    QCOMPARE(callMethod(AlarmMethod::Disable), status::BadConditionAlreadyDisabled);
    QCOMPARE(callMethod(AlarmMethod::Enable), status::Good);
    QTRY_VERIFY_WITH_TIMEOUT(ofAlarm().back().enabled, 10000);
    QCOMPARE(callMethod(AlarmMethod::Enable), status::BadConditionAlreadyEnabled);
    // Back to normal.
    QCOMPARE(writeLevel(50), status::Good);
    QVERIFY(waitFor([](const ConditionEvent& e) { return e.active == std::optional<bool>(false); }));
}

UA_TEST_GUILESS_MAIN(TestClientAlarmsVsNode)
#include "tst_client_alarms_vs_node.moc"
