// Alarms and Conditions in the server core (OPC 10000-9): ConditionState's transitions and the
// exact statuses of its Methods; ConditionManager's definitions, nodes, poll and removal; the
// Methods through the Call service, on the condition's own Method nodes and on the type's; the
// audit events. ConditionRefresh and the events on the wire: tests/interop/tst_node_alarms.cpp.
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/conditions/ConditionManager.h"
#include "ua/server/conditions/ConditionMethods.h"
#include "ua/server/events/EventManager.h"
#include "ua/server/services/MethodService.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"

#include <QtTest>
#include "ServiceTestUtil.h"
#include "TestMain.h"

#include <cmath>
#include <limits>

using namespace ua;
using ua::test::ServiceFixture;

namespace {

AlarmDefinition levelAlarm(const NodeId& input) {
    AlarmDefinition d;
    d.name = "Level";
    d.input = input;
    d.kind = AlarmKind::ExclusiveLevel;
    d.lowLow = 0;
    d.low = 10;
    d.high = 90;
    d.highHigh = 100;
    d.deadband = 2;
    d.severity = 500;
    d.criticalSeverity = 900;
    return d;
}

DataValue good(Variant v) {
    DataValue d(std::move(v));
    d.setStatus(status::Good);
    return d;
}

const LocalizedText kNote{String("en"), String("seen")};

bool boolField(const Event& e, const char* key) {
    const Variant* v = e.field(key);
    return v && v->get<bool>() && *v->get<bool>();
}

struct ConditionsFixture {
    ServiceFixture f;
    std::shared_ptr<EventManager> events = std::make_shared<EventManager>();
    SubscriptionConfig config;
    std::unique_ptr<SubscriptionRegistry> registry;
    std::unique_ptr<ConditionManager> manager;
    std::vector<EventPtr> raised;

    void init() {
        f.init();
        registry = std::make_unique<SubscriptionRegistry>(config);
        manager = std::make_unique<ConditionManager>(events);
        manager->setAuditing(true, QStringLiteral("urn:test:server"));
        manager->setUserOf([](const NodeId& s) { return s == NodeId(1, 99u) ? std::string("alice") : std::string(); });
        events->setHistorySink([this](const EventPtr& e) { raised.push_back(e); });  // every raised event
        QCOMPARE(f.shared->update([&](AddressSpace& s) { return installConditionMethods(s, *manager, *registry); }), StatusCode());
    }
    ~ConditionsFixture() { events->setHistorySink({}); }
    StatusCode add(AlarmDefinition d, std::string* why = nullptr) {
        return f.shared->update([&](AddressSpace& s) { return manager->add(s, std::move(d), why); });
    }
    void set(uint32_t var, Variant v) {
        f.shared->snapshot()->find(f.id(var))->value->store(good(std::move(v)));
        manager->poll(*f.shared->snapshot(), 0);
    }
    const Node* node(const NodeId& id) { return f.shared->snapshot()->find(id); }
    Variant value(const NodeId& id) {
        const Node* n = node(id);
        return n && n->value && n->value->load() ? n->value->load()->value : Variant();
    }
    // One Call through the service (inline handlers answer at once).
    CallMethodResult call(const NodeId& object, const NodeId& method, std::vector<Variant> inputs) {
        const auto snapshot = f.shared->snapshot();
        ServiceContext ctx{*snapshot, f.shared.get(), f.limits, &f.session, DateTime::now()};
        CallRequest req;
        CallMethodRequest m;
        m.objectId = object;
        m.methodId = method;
        m.inputArguments = Array<Variant>(std::move(inputs));
        req.methodsToCall = Array<CallMethodRequest>{m};
        CallResponse resp;
        const std::size_t pending = serveCall(ctx, req, resp, NodeId(1, 99u), [](CallResponse&&) {});
        if (pending) qFatal("a condition Method ran on the worker pool");
        return resp.results.empty() ? CallMethodResult{} : resp.results[0];
    }
    const Event* last(uint32_t type) const {
        for (auto it = raised.rbegin(); it != raised.rend(); ++it)
            if ((*it)->eventType() == NodeId(type)) return it->get();
        return nullptr;
    }
};

} // namespace

class TestConditions : public QObject {
    Q_OBJECT
private slots:
    void exclusiveLimitsWithDeadband();
    void nonExclusiveLimits();
    void offNormalAndDiscrete();
    void badInputChangesNoState();
    void acknowledgeConfirmAndRetain();
    void methodStatuses();
    void shelving();
    void disableAndEnable();
    void definitionsAreChecked();
    void nodesOfTheCondition();
    void pollRaisesEventsAndStoresValues();
    void methodsThroughTheCallService();
    void removeDeletesEveryNode();
};

void TestConditions::exclusiveLimitsWithDeadband() {
    ConditionState c(levelAlarm(NodeId(1, 1u)), NodeId(1, String("Alarms/Level")), NodeId(1, 1u), "Tank");
    QVERIFY(c.evaluate(good(50.0)));  // the first value: reported
    c.report(0);
    QVERIFY(!c.evaluate(good(50.0)));  // reported, and nothing changed
    QCOMPARE(c.exclusiveState(), LimitState::None);
    QVERIFY(!c.active());
    QVERIFY(c.evaluate(good(int32_t(90))));  // at the limit: exceeded (an Int32 input too)
    QCOMPARE(c.exclusiveState(), LimitState::High);
    QVERIFY(c.active());
    QVERIFY(!c.acked());
    QCOMPARE(c.severity(), uint16_t(500));
    QVERIFY(!c.evaluate(good(88.5)));  // within the deadband: stays High
    QCOMPARE(c.exclusiveState(), LimitState::High);
    QVERIFY(c.evaluate(good(101.0)));
    QCOMPARE(c.exclusiveState(), LimitState::HighHigh);
    QCOMPARE(c.severity(), uint16_t(900));
    QVERIFY(!c.evaluate(good(98.5)));  // HighHigh's deadband
    QVERIFY(c.evaluate(good(97.9)));
    QCOMPARE(c.exclusiveState(), LimitState::High);
    QCOMPARE(c.severity(), uint16_t(500));
    QVERIFY(c.evaluate(good(87.9)));
    QCOMPARE(c.exclusiveState(), LimitState::None);
    QVERIFY(!c.active());
    QVERIFY(c.retain());  // not acknowledged yet
    QVERIFY(c.evaluate(good(-5.0)));  // straight to LowLow
    QCOMPARE(c.exclusiveState(), LimitState::LowLow);
    QVERIFY(!c.evaluate(good(1.9)));
    QVERIFY(c.evaluate(good(2.1)));
    QCOMPARE(c.exclusiveState(), LimitState::Low);
    QVERIFY(c.evaluate(good(std::numeric_limits<double>::infinity())));  // +inf exceeds every high limit
    QCOMPARE(c.exclusiveState(), LimitState::HighHigh);
}

void TestConditions::nonExclusiveLimits() {
    AlarmDefinition d = levelAlarm(NodeId(1, 1u));
    d.kind = AlarmKind::NonExclusiveLevel;
    ConditionState c(d, NodeId(1, String("Alarms/Level")), NodeId(1, 1u), "Tank");
    c.evaluate(good(50.0));
    QVERIFY(c.evaluate(good(100.0)));
    QVERIFY(c.limitActive(LimitState::High));
    QVERIFY(c.limitActive(LimitState::HighHigh));
    QVERIFY(!c.limitActive(LimitState::Low));
    const EventPtr e = c.report(0);
    QVERIFY(boolField(*e, "HighState/Id"));
    QVERIFY(boolField(*e, "HighHighState/Id"));
    QVERIFY(e->field("LowState/Id") && !boolField(*e, "LowState/Id"));
    QVERIFY(c.evaluate(good(95.0)));
    QVERIFY(c.limitActive(LimitState::High));
    QVERIFY(!c.limitActive(LimitState::HighHigh));
}

void TestConditions::offNormalAndDiscrete() {
    AlarmDefinition d;
    d.name = "Pump";
    d.kind = AlarmKind::OffNormal;
    d.stateValue = Variant(true);
    ConditionState off(d, NodeId(1, String("Alarms/Pump")), NodeId(1, 1u), "Pump");
    off.evaluate(good(true));
    QVERIFY(!off.active());
    QVERIFY(off.evaluate(good(false)));
    QVERIFY(off.active());
    QVERIFY(off.evaluate(good(uint8_t(1))));  // 1 equals true (OPC 10000-4 7.7.3)
    QVERIFY(!off.active());
    QCOMPARE(*off.report(0)->field("NormalState")->get<NodeId>(), NodeId(1, String("Alarms/Pump/NormalValue")));
    d.kind = AlarmKind::Discrete;
    d.stateValue = Variant(int32_t(3));
    ConditionState disc(d, NodeId(1, String("Alarms/Mode")), NodeId(1, 1u), "Mode");
    disc.evaluate(good(int32_t(1)));
    QVERIFY(!disc.active());
    QVERIFY(disc.evaluate(good(3.0)));
    QVERIFY(disc.active());
}

void TestConditions::badInputChangesNoState() {
    ConditionState c(levelAlarm(NodeId(1, 1u)), NodeId(1, String("Alarms/Level")), NodeId(1, 1u), "Tank");
    c.evaluate(good(95.0));
    c.report(0);
    QCOMPARE(c.exclusiveState(), LimitState::High);
    QVERIFY(!c.evaluate(good(std::nan(""))));  // NaN: no state change
    QCOMPARE(c.exclusiveState(), LimitState::High);
    QVERIFY(c.evaluate(good(String("high"))));  // the Quality changes
    QCOMPARE(c.input().status, StatusCode(status::BadTypeMismatch));
    QCOMPARE(c.exclusiveState(), LimitState::High);
    DataValue bad;
    bad.setStatus(status::BadCommunicationError);
    QVERIFY(!c.evaluate(bad) || c.input().status == StatusCode(status::BadCommunicationError));
    QCOMPARE(*c.report(0)->field("Quality")->get<StatusCode>(), StatusCode(status::BadCommunicationError));
    QCOMPARE(c.exclusiveState(), LimitState::High);
}

void TestConditions::acknowledgeConfirmAndRetain() {
    ConditionState c(levelAlarm(NodeId(1, 1u)), NodeId(1, String("Alarms/Level")), NodeId(1, 1u), "Tank");
    c.evaluate(good(50.0));
    c.report(0);
    QVERIFY(!c.retain());
    c.evaluate(good(95.0));
    const EventPtr active = c.report(0);
    QVERIFY(c.retain());
    QVERIFY(boolField(*active, "Retain"));
    QVERIFY(boolField(*active, "ActiveState/Id"));
    QVERIFY(!boolField(*active, "AckedState/Id"));
    QCOMPARE(active->field("LimitState/CurrentState")->get<LocalizedText>()->text, String("High"));
    QCOMPARE(*active->field("")->get<NodeId>(), NodeId(1, String("Alarms/Level")));  // the ConditionId
    QCOMPARE(c.acknowledge(c.lastEventId(), kNote, "alice"), StatusCode());
    const EventPtr acked = c.report(0);
    QVERIFY(boolField(*acked, "AckedState/Id"));
    QVERIFY(!boolField(*acked, "ConfirmedState/Id"));
    QCOMPARE(*acked->field("Comment")->get<LocalizedText>(), kNote);
    QCOMPARE(acked->field("ClientUserId")->get<String>()->view(), std::string_view("alice"));
    c.evaluate(good(50.0));
    c.report(0);
    QVERIFY(c.retain());  // inactive and acknowledged, not confirmed
    QCOMPARE(c.confirm(c.lastEventId(), LocalizedText{}, "bob"), StatusCode());
    QVERIFY(!c.retain());
    QCOMPARE(*c.report(0)->field("Comment")->get<LocalizedText>(), kNote);  // an empty comment changes nothing
}

void TestConditions::methodStatuses() {
    ConditionState c(levelAlarm(NodeId(1, 1u)), NodeId(1, String("Alarms/Level")), NodeId(1, 1u), "Tank");
    QCOMPARE(c.acknowledge(ByteString(), kNote, ""), StatusCode(status::BadEventIdUnknown));  // never reported
    c.evaluate(good(95.0));
    c.report(0);
    const ByteString first = c.lastEventId();
    QCOMPARE(c.addComment(first, kNote, ""), StatusCode());
    c.report(0);
    QCOMPARE(c.acknowledge(first, kNote, ""), StatusCode(status::BadEventIdUnknown));  // no longer the last event
    QCOMPARE(c.acknowledge(ByteString("nonsense"), kNote, ""), StatusCode(status::BadEventIdUnknown));
    QCOMPARE(c.confirm(c.lastEventId(), kNote, ""), StatusCode(status::BadConditionBranchAlreadyConfirmed));  // nothing to confirm
    QCOMPARE(c.acknowledge(c.lastEventId(), kNote, ""), StatusCode());
    c.report(0);
    QCOMPARE(c.acknowledge(c.lastEventId(), kNote, ""), StatusCode(status::BadConditionBranchAlreadyAcked));
    QCOMPARE(c.confirm(c.lastEventId(), kNote, ""), StatusCode());
    c.report(0);
    QCOMPARE(c.confirm(c.lastEventId(), kNote, ""), StatusCode(status::BadConditionBranchAlreadyConfirmed));
    QCOMPARE(c.enable(""), StatusCode(status::BadConditionAlreadyEnabled));
    QCOMPARE(c.disable(""), StatusCode());
    QCOMPARE(c.disable(""), StatusCode(status::BadConditionAlreadyDisabled));
    c.report(0);
    for (StatusCode s : {c.addComment(c.lastEventId(), kNote, ""), c.acknowledge(c.lastEventId(), kNote, ""),
                         c.confirm(c.lastEventId(), kNote, ""), c.timedShelve(1000, 0, kNote, ""), c.oneShotShelve(kNote, ""),
                         c.unshelve(kNote, "")})
        QCOMPARE(s, StatusCode(status::BadConditionDisabled));
}

void TestConditions::shelving() {
    ConditionState c(levelAlarm(NodeId(1, 1u)), NodeId(1, String("Alarms/Level")), NodeId(1, 1u), "Tank");
    c.evaluate(good(50.0));
    QCOMPARE(c.unshelve(kNote, ""), StatusCode(status::BadConditionNotShelved));
    for (double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity(), kMaxTimeShelvedMs + 1})
        QCOMPARE(c.timedShelve(bad, 0, kNote, ""), StatusCode(status::BadShelvingTimeOutOfRange));
    QCOMPARE(c.timedShelve(1000, 5000, kNote, ""), StatusCode());
    QCOMPARE(c.timedShelve(500, 5000, kNote, ""), StatusCode(status::BadConditionAlreadyShelved));
    const EventPtr shelved = c.report(5500);
    QVERIFY(boolField(*shelved, "SuppressedOrShelved"));
    QCOMPARE(*shelved->field("ShelvingState/UnshelveTime")->get<double>(), 500.0);
    QCOMPARE(*shelved->field("ShelvingState/CurrentState/Id")->get<NodeId>(), NodeId(id::ShelvedStateMachineType_TimedShelved));
    QCOMPARE(*shelved->field("ShelvingState/LastTransition/Id")->get<NodeId>(), NodeId(id::ShelvedStateMachineType_UnshelvedToTimedShelved));
    QVERIFY(!c.expireShelving(5999));
    QVERIFY(c.expireShelving(6000));
    QCOMPARE(c.shelved(), ShelvedState::Unshelved);
    // One-shot: ends when the alarm goes inactive.
    QCOMPARE(c.oneShotShelve(kNote, ""), StatusCode());
    QCOMPARE(c.oneShotShelve(kNote, ""), StatusCode(status::BadConditionAlreadyShelved));
    c.evaluate(good(95.0));
    QCOMPARE(c.shelved(), ShelvedState::OneShotShelved);
    c.evaluate(good(50.0));
    QCOMPARE(c.shelved(), ShelvedState::Unshelved);
    QCOMPARE(*c.report(0)->field("ShelvingState/LastTransition/Id")->get<NodeId>(), NodeId(id::ShelvedStateMachineType_OneShotShelvedToUnshelved));
}

void TestConditions::disableAndEnable() {
    ConditionState c(levelAlarm(NodeId(1, 1u)), NodeId(1, String("Alarms/Level")), NodeId(1, 1u), "Tank");
    c.evaluate(good(95.0));
    QVERIFY(c.retain());
    QCOMPARE(c.disable("op"), StatusCode());
    QVERIFY(!c.retain());
    QVERIFY(!c.active());
    QVERIFY(!c.evaluate(good(101.0)));  // nothing is reported while disabled
    QCOMPARE(c.enable("op"), StatusCode());  // evaluated again from the last value
    QCOMPARE(c.exclusiveState(), LimitState::HighHigh);
    QVERIFY(!c.acked());
    QVERIFY(boolField(*c.report(0), "EnabledState/Id"));
}

void TestConditions::definitionsAreChecked() {
    ConditionsFixture x;
    x.init();
    const NodeId input = x.f.id(test::DurationVar);
    const auto expect = [&](AlarmDefinition d, StatusCode status) {
        std::string why;
        QCOMPARE(x.add(std::move(d), &why), status);
        QVERIFY(!why.empty());
    };
    AlarmDefinition d = levelAlarm(input);
    d.name.clear();
    expect(d, status::BadInvalidArgument);
    d = levelAlarm(input);
    d.severity = 0;
    expect(d, status::BadInvalidArgument);
    d = levelAlarm(input);
    d.criticalSeverity = 1001;
    expect(d, status::BadInvalidArgument);
    for (double band : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
        d = levelAlarm(input);
        d.deadband = band;
        expect(d, status::BadInvalidArgument);
    }
    d = levelAlarm(input);
    d.high = 200;  // above HighHigh
    expect(d, status::BadInvalidArgument);
    d = levelAlarm(input);
    d.low = std::nan("");
    expect(d, status::BadInvalidArgument);
    d = levelAlarm(input);
    d.highHigh = d.high = d.low = d.lowLow = std::nullopt;
    expect(d, status::BadInvalidArgument);
    d = levelAlarm(input);
    d.kind = AlarmKind::OffNormal;
    expect(d, status::BadInvalidArgument);  // no normal value
    d = levelAlarm(NodeId(x.f.ns, 424242u));
    expect(d, status::BadNodeIdUnknown);
    d = levelAlarm(x.f.id(test::Folder));
    expect(d, status::BadNodeClassInvalid);
    d = levelAlarm(input);
    d.namespaceUri = "urn:nowhere";
    expect(d, status::BadNodeIdUnknown);
    QCOMPARE(x.add(levelAlarm(input)), StatusCode());
    expect(levelAlarm(input), status::BadBrowseNameDuplicated);
    d = levelAlarm(input);
    d.name = "Other";
    d.conditionId = x.f.id(test::Folder);
    expect(d, status::BadNodeIdExists);
    QCOMPARE(x.manager->size(), std::size_t(1));
}

void TestConditions::nodesOfTheCondition() {
    ConditionsFixture x;
    x.init();
    AlarmDefinition d = levelAlarm(NodeId());
    d.namespaceUri = "urn:ua-workbench:test";
    d.input = NodeId(0, uint32_t(test::DurationVar));  // resolved into the test namespace
    QCOMPARE(x.add(d), StatusCode());
    const NodeId cond(1, String("Alarms/Level"));
    const auto snap = x.f.shared->snapshot();
    const NodeIndex ci = snap->indexOf(cond);
    QVERIFY(ci != kNoNode);
    QCOMPARE(snap->node(snap->typeDefinition(ci)).nodeId, NodeId(id::ExclusiveLevelAlarmType));
    // HasCondition from the source (the input) to the condition.
    bool hasCondition = false;
    for (const Reference& r : snap->node(snap->indexOf(x.f.id(test::DurationVar))).references)
        hasCondition = hasCondition || (r.isForward && r.target == ci && snap->node(r.referenceType).nodeId == NodeId(id::HasCondition));
    QVERIFY(hasCondition);
    for (const char* path : {"EnabledState", "EnabledState/Id", "AckedState/Id", "ConfirmedState/Id", "ActiveState/Id", "Retain",
                             "Severity", "Message", "ConditionName", "ShelvingState/CurrentState", "LimitState/CurrentState",
                             "HighLimit", "LowLowLimit", "InputNode", "SuppressedOrShelved", "Quality"})
        QVERIFY2(snap->find(conditionChildId(cond, path)), path);
    QCOMPARE(x.value(conditionChildId(cond, "InputNode")), Variant(x.f.id(test::DurationVar)));
    QCOMPARE(x.value(conditionChildId(cond, "ConditionName")), Variant(String("Level")));
    // The Methods a client finds by browsing, with the handlers of their declarations.
    for (const char* path : {"Enable", "Disable", "AddComment", "Acknowledge", "Confirm", "ShelvingState/TimedShelve",
                             "ShelvingState/OneShotShelve", "ShelvingState/Unshelve"}) {
        const Node* m = snap->find(conditionChildId(cond, path));
        QVERIFY2(m && m->nodeClass == NodeClass::Method && m->rare->method, path);
    }
    QVERIFY(snap->find(conditionChildId(cond, "Acknowledge/InputArguments")));
    QVERIFY(snap->find(NodeId(1, String("Alarms"))));
}

void TestConditions::pollRaisesEventsAndStoresValues() {
    ConditionsFixture x;
    x.init();
    QCOMPARE(x.add(levelAlarm(x.f.id(test::DurationVar))), StatusCode());
    const NodeId cond(1, String("Alarms/Level"));
    x.set(test::DurationVar, 50.0);
    QCOMPARE(x.raised.size(), std::size_t(1));  // the first value: the first event
    x.manager->poll(*x.f.shared->snapshot(), 0);
    QCOMPARE(x.raised.size(), std::size_t(1));  // nothing changed: no event
    x.set(test::DurationVar, 95.0);
    QCOMPARE(x.raised.size(), std::size_t(2));
    const Event& e = *x.raised.back();
    QCOMPARE(e.eventType(), NodeId(id::ExclusiveLevelAlarmType));
    QVERIFY(boolField(e, "ActiveState/Id"));
    QCOMPARE(x.value(conditionChildId(cond, "ActiveState/Id")), Variant(true));
    QCOMPARE(x.value(conditionChildId(cond, "LimitState/CurrentState")), Variant(LocalizedText{String("en"), String("High")}));
    QCOMPARE(x.value(conditionChildId(cond, "EventId")), *e.field("EventId"));
    const std::vector<EventPtr> retained = x.manager->retainedEvents();
    QCOMPARE(retained.size(), std::size_t(1));
    QCOMPARE(retained[0].get(), x.raised.back().get());
    const std::vector<ConditionSummary> s = x.manager->summaries();
    QCOMPARE(s.size(), std::size_t(1));
    QCOMPARE(s[0].limitState, std::string("High"));
    QVERIFY(s[0].active && !s[0].acked);
}

void TestConditions::methodsThroughTheCallService() {
    ConditionsFixture x;
    x.init();
    QCOMPARE(x.add(levelAlarm(x.f.id(test::DurationVar))), StatusCode());
    const NodeId cond(1, String("Alarms/Level"));
    x.set(test::DurationVar, 95.0);
    const Variant eventId = *x.raised.back()->field("EventId");
    const Variant comment(kNote);
    // The type's Method with the condition as ObjectId.
    CallMethodResult r = x.call(cond, NodeId(id::AcknowledgeableConditionType_Acknowledge), {Variant(ByteString("x")), comment});
    QCOMPARE(r.statusCode, StatusCode(status::BadEventIdUnknown));
    r = x.call(cond, NodeId(id::AcknowledgeableConditionType_Acknowledge), {eventId, comment});
    QCOMPARE(r.statusCode, StatusCode());
    QCOMPARE(x.value(conditionChildId(cond, "AckedState/Id")), Variant(true));
    QCOMPARE(x.value(conditionChildId(cond, "ClientUserId")), Variant(String("alice")));
    const Event* audit = x.last(id::AuditConditionAcknowledgeEventType);
    QVERIFY(audit);
    QCOMPARE(*audit->field("ConditionEventId"), eventId);
    QCOMPARE(*audit->field("SourceNode")->get<NodeId>(), cond);
    QVERIFY(boolField(*audit, "Status"));
    // The condition's own Confirm node, with the new EventId.
    r = x.call(cond, conditionChildId(cond, "Confirm"), {*x.last(id::ExclusiveLevelAlarmType)->field("EventId"), comment});
    QCOMPARE(r.statusCode, StatusCode());
    r = x.call(cond, NodeId(id::AcknowledgeableConditionType_Confirm), {*x.last(id::ExclusiveLevelAlarmType)->field("EventId"), comment});
    QCOMPARE(r.statusCode, StatusCode(status::BadConditionBranchAlreadyConfirmed));
    QVERIFY(!boolField(*x.last(id::AuditConditionConfirmEventType), "Status"));  // a failed call is audited too
    // Inputs of the wrong type: the Call service's check.
    r = x.call(cond, NodeId(id::AcknowledgeableConditionType_Acknowledge), {Variant(int32_t(1)), comment});
    QCOMPARE(r.statusCode, StatusCode(status::BadInvalidArgument));
    // On ConditionType itself, and on a node that is no condition.
    r = x.call(NodeId(id::ConditionType), NodeId(id::ConditionType_Enable), {});
    QCOMPARE(r.statusCode, StatusCode(status::BadNodeIdInvalid));
    // Shelving: on the ShelvingState object, through the instance's and the type's Methods.
    const NodeId shelving = conditionChildId(cond, "ShelvingState");
    r = x.call(shelving, conditionChildId(cond, "ShelvingState/TimedShelve"), {Variant(0.0)});
    QCOMPARE(r.statusCode, StatusCode(status::BadShelvingTimeOutOfRange));
    r = x.call(shelving, NodeId(id::ShelvedStateMachineType_TimedShelve), {Variant(60000.0)});
    QCOMPARE(r.statusCode, StatusCode());
    QCOMPARE(x.value(conditionChildId(cond, "SuppressedOrShelved")), Variant(true));
    QCOMPARE(x.last(id::AuditConditionShelvingEventType)->field("ShelvingTime")->get<double>() != nullptr, true);
    r = x.call(shelving, conditionChildId(cond, "ShelvingState/Unshelve"), {});
    QCOMPARE(r.statusCode, StatusCode());
    r = x.call(shelving, conditionChildId(cond, "ShelvingState/Unshelve"), {});
    QCOMPARE(r.statusCode, StatusCode(status::BadConditionNotShelved));
    // A condition Method on the ShelvingState: Bad_MethodInvalid (the service's check: not its Method).
    r = x.call(shelving, NodeId(id::ConditionType_Disable), {});
    QCOMPARE(r.statusCode, StatusCode(status::BadMethodInvalid));
    r = x.call(cond, conditionChildId(cond, "Disable"), {});
    QCOMPARE(r.statusCode, StatusCode());
    QCOMPARE(x.value(conditionChildId(cond, "EnabledState/Id")), Variant(false));
    QCOMPARE(x.value(conditionChildId(cond, "Retain")), Variant(false));
    r = x.call(cond, conditionChildId(cond, "Disable"), {});
    QCOMPARE(r.statusCode, StatusCode(status::BadConditionAlreadyDisabled));
    QVERIFY(x.last(id::AuditConditionEnableEventType));
}

void TestConditions::removeDeletesEveryNode() {
    ConditionsFixture x;
    x.init();
    // Removed nodes leave free slots in the table: count the nodes that are there.
    const auto live = [&] {
        const auto snap = x.f.shared->snapshot();
        std::size_t n = 0;
        for (NodeIndex i = 0; i < snap->size(); ++i) n += snap->node(i).nodeClass != NodeClass::Unspecified;
        return n;
    };
    QCOMPARE(x.add(levelAlarm(x.f.id(test::DurationVar))), StatusCode());
    const std::size_t withOne = live();
    AlarmDefinition second = levelAlarm(x.f.id(test::DurationVar));
    second.name = "Second";
    QCOMPARE(x.add(second), StatusCode());
    QVERIFY(live() > withOne + 40);
    QCOMPARE(x.f.shared->update([&](AddressSpace& s) { return x.manager->remove(s, "Level"); }), StatusCode());
    QCOMPARE(live(), withOne);  // as many nodes as Second has: every node of Level went
    QVERIFY(!x.node(NodeId(1, String("Alarms/Level"))));
    QVERIFY(!x.node(conditionChildId(NodeId(1, String("Alarms/Level")), "ShelvingState")));
    QVERIFY(x.node(NodeId(1, String("Alarms/Second"))));
    QCOMPARE(x.f.shared->update([&](AddressSpace& s) { return x.manager->remove(s, "Level"); }), StatusCode(status::BadNotFound));
    QCOMPARE(x.manager->size(), std::size_t(1));
}

UA_TEST_GUILESS_MAIN(TestConditions)
#include "tst_conditions.moc"
