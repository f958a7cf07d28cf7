// Events (OPC 10000-4 1.05.03 5.12.1, 7.7 ContentFilter, 7.22.3 EventFilter) in the server core:
// every whereClause operator, the validation of EventFilters with their exact status codes,
// delivery through EventManager -> EventRouter -> the item queue -> the NotificationMessage, the
// queue overflow rules and SetMonitoringMode. Fake clock as in tst_subscriptions.
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/eventmodel/ContentFilter.h"
#include "ua/server/events/EventItem.h"
#include "ua/server/events/EventManager.h"
#include "ua/server/events/EventRouter.h"
#include "ua/server/subscriptions/MonitoredItemService.h"
#include "ua/server/subscriptions/SubscriptionService.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/Subscription.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include <QElapsedTimer>
#include <QtTest>
#include "MetaTypes.h"
#include "TestMain.h"

using namespace ua;

namespace {

SimpleAttributeOperand field(const char* name, uint32_t type = id::BaseEventType) {
    SimpleAttributeOperand op;
    op.typeDefinitionId = NodeId(type);
    op.browsePath = Array<QualifiedName>{QualifiedName{0, String(name)}};
    op.attributeId = uint32_t(AttributeId::Value);
    return op;
}
ExtensionObject fieldOp(const char* name, uint32_t type = id::BaseEventType) { return ExtensionObject::make(field(name, type)); }
ExtensionObject lit(Variant v) { return ExtensionObject::make(LiteralOperand{std::move(v)}); }
ExtensionObject elem(uint32_t i) { return ExtensionObject::make(ElementOperand{i}); }
ContentFilterElement el(FilterOperator op, std::vector<ExtensionObject> operands) {
    ContentFilterElement e;
    e.filterOperator = op;
    e.filterOperands = Array<ExtensionObject>(std::move(operands));
    return e;
}
ContentFilter where(std::vector<ContentFilterElement> elements) {
    ContentFilter f;
    f.elements = Array<ContentFilterElement>(std::move(elements));
    return f;
}

EventPtr demoEvent(uint16_t severity, uint32_t type = id::BaseEventType) {
    return makeEvent(NodeId(type), NodeId(id::Server), "Demo", "message " + std::to_string(severity), severity);
}

struct EventFixture {
    SubscriptionConfig config;
    std::unique_ptr<SharedAddressSpace> space;
    std::unique_ptr<SubscriptionRegistry> registry;
    std::unique_ptr<SubscriptionScheduler> scheduler;
    EventManager events;
    std::shared_ptr<SessionSubscriptions> session;
    std::vector<PublishResponse> responses;
    int64_t nowUs = 1'000'000'000'000;

    EventFixture() {
        AddressSpace s;
        Ns0NodeManager ns0;
        if (ns0.install(s).isBad()) qFatal("namespace 0");
        space = std::make_unique<SharedAddressSpace>(std::move(s));
        registry = std::make_unique<SubscriptionRegistry>(config);
        scheduler = std::make_unique<SubscriptionScheduler>(*space, config, *registry, false);
        events.attach(*scheduler);
        session = std::make_shared<SessionSubscriptions>(*scheduler, NodeId(1, 1u), testUser());
        session->sender = [this](const ResponseTarget&, PublishResponse&& r) { responses.push_back(std::move(r)); };
    }
    ~EventFixture() { session->removeAll(); }
    // Anonymous, of one application, on a SignAndEncrypt channel: may take its own Subscriptions.
    static TransferUser testUser() {
        TransferUser u;
        u.applicationUri = "urn:ua-workbench:test:client";
        u.securityMode = MessageSecurityMode::SignAndEncrypt;
        return u;
    }
    const AddressSpace& as() { return scheduler->addressSpace(); }
    uint32_t createSubscription(double intervalMs = 100) {
        CreateSubscriptionRequest req;
        req.requestedPublishingInterval = intervalMs;
        req.requestedMaxKeepAliveCount = 10;
        req.requestedLifetimeCount = 100;
        req.publishingEnabled = true;
        CreateSubscriptionResponse resp;
        ua::createSubscription(*session, req, resp, nowUs);
        return resp.subscriptionId;
    }
    MonitoredItemCreateResult createItem(uint32_t sub, ExtensionObject filter, NodeId node = NodeId(id::Server),
                                         uint32_t attribute = uint32_t(AttributeId::EventNotifier), uint32_t queueSize = 0,
                                         bool discardOldest = true, MonitoringMode mode = MonitoringMode::Reporting) {
        CreateMonitoredItemsRequest req;
        req.subscriptionId = sub;
        req.timestampsToReturn = TimestampsToReturn::Both;
        MonitoredItemCreateRequest item;
        item.itemToMonitor.nodeId = node;
        item.itemToMonitor.attributeId = attribute;
        item.monitoringMode = mode;
        item.requestedParameters.clientHandle = 77;
        item.requestedParameters.queueSize = queueSize;
        item.requestedParameters.discardOldest = discardOldest;
        item.requestedParameters.filter = std::move(filter);
        req.itemsToCreate = Array<MonitoredItemCreateRequest>{item};
        CreateMonitoredItemsResponse resp;
        ua::createMonitoredItems(*session, req, resp, nowUs);
        if (resp.results.size() != 1) {
            MonitoredItemCreateResult r;
            r.statusCode = resp.responseHeader.serviceResult;
            return r;
        }
        return resp.results[0];
    }
    void raise(EventPtr e) {
        events.raise(std::move(e));
        QCoreApplication::processEvents();  // the posted delivery runs on this (the home) thread
    }
    // Parks a Publish request and runs the clock for one publishing interval.
    PublishResponse publish(double intervalMs = 100) {
        PublishRequest req;
        const std::size_t before = responses.size();
        session->publish(ResponseTarget{nullptr, 0, 1}, req, nowUs);
        for (int i = 0; i < 3 && responses.size() == before; ++i) {
            nowUs += int64_t(intervalMs * 1000);
            scheduler->runDue(nowUs);
        }
        return responses.size() > before ? responses.back() : PublishResponse{};
    }
};

ExtensionObject makeEventFilter(std::vector<SimpleAttributeOperand> select, ContentFilter w = {}) {
    EventFilter f;
    f.selectClauses = Array<SimpleAttributeOperand>(std::move(select));
    f.whereClause = std::move(w);
    return ExtensionObject::make(std::move(f));
}

std::vector<EventFieldList> eventsOf(const PublishResponse& r) {
    std::vector<EventFieldList> v;
    for (const ExtensionObject& x : r.notificationMessage.notificationData)
        if (const auto* e = x.get<EventNotificationList>()) v.insert(v.end(), e->events.begin(), e->events.end());
    return v;
}

uint16_t severityOf(const EventFieldList& f, std::size_t index) {
    const uint16_t* s = f.eventFields.size() > index ? f.eventFields[index].get<uint16_t>() : nullptr;
    return s ? *s : 0;
}

} // namespace

class TestEvents : public QObject {
    Q_OBJECT
private slots:
    void operators_data();
    void operators();
    void typePromotion();
    void selectClauseValidation_data();
    void selectClauseValidation();
    void whereClauseValidation_data();
    void whereClauseValidation();
    void itemStatuses();
    void eventsArePublishedWithSelectedFields();
    void whereClauseDropsEvents();
    void queueOverflow_data();
    void queueOverflow();
    void monitoringModeAndTriggering();
    void nothingIsPostedWithoutEventItems();
    void raiseWithoutSubscribersIsCheap();
    void modifyEventItem();
    void auditCertificateEvents();
    void transferKeepsEventItems();
    void notifierHierarchyIsFollowed();
    void deliveryCost();
};

// One event: BaseEventType, Severity 700, SourceName "Demo", Message "message 700".
void TestEvents::operators_data() {
    QTest::addColumn<ContentFilter>("filter");
    QTest::addColumn<bool>("passes");
    const auto sev = [] { return fieldOp("Severity"); };
    QTest::newRow("Equals Int32 700") << where({el(FilterOperator::Equals, {sev(), lit(int32_t(700))})}) << true;
    QTest::newRow("Equals 701") << where({el(FilterOperator::Equals, {sev(), lit(int32_t(701))})}) << false;
    QTest::newRow("Equals String") << where({el(FilterOperator::Equals, {fieldOp("SourceName"), lit(String("Demo"))})}) << true;
    QTest::newRow("Equals LocalizedText to String") << where({el(FilterOperator::Equals, {fieldOp("Message"), lit(String("message 700"))})}) << true;
    QTest::newRow("Equals EventType NodeId") << where({el(FilterOperator::Equals, {fieldOp("EventType"), lit(NodeId(id::BaseEventType))})}) << true;
    QTest::newRow("IsNull of a missing field") << where({el(FilterOperator::IsNull, {fieldOp("Status", id::AuditEventType)})}) << true;
    QTest::newRow("IsNull of Severity") << where({el(FilterOperator::IsNull, {sev()})}) << false;
    QTest::newRow("GreaterThan 699.5") << where({el(FilterOperator::GreaterThan, {sev(), lit(699.5)})}) << true;
    QTest::newRow("GreaterThan 700") << where({el(FilterOperator::GreaterThan, {sev(), lit(int32_t(700))})}) << false;
    QTest::newRow("LessThan 701") << where({el(FilterOperator::LessThan, {sev(), lit(int32_t(701))})}) << true;
    QTest::newRow("LessThan 500") << where({el(FilterOperator::LessThan, {sev(), lit(int32_t(500))})}) << false;
    QTest::newRow("GreaterThanOrEqual 700") << where({el(FilterOperator::GreaterThanOrEqual, {sev(), lit(uint16_t(700))})}) << true;
    QTest::newRow("GreaterThanOrEqual 701") << where({el(FilterOperator::GreaterThanOrEqual, {sev(), lit(uint16_t(701))})}) << false;
    QTest::newRow("LessThanOrEqual String 700") << where({el(FilterOperator::LessThanOrEqual, {sev(), lit(String("700"))})}) << true;
    QTest::newRow("LessThanOrEqual 699") << where({el(FilterOperator::LessThanOrEqual, {sev(), lit(int64_t(699))})}) << false;
    QTest::newRow("Between 600 800") << where({el(FilterOperator::Between, {sev(), lit(int32_t(600)), lit(int32_t(800))})}) << true;
    QTest::newRow("Between 701 800") << where({el(FilterOperator::Between, {sev(), lit(int32_t(701)), lit(int32_t(800))})}) << false;
    QTest::newRow("InList hit") << where({el(FilterOperator::InList, {sev(), lit(int32_t(1)), lit(int32_t(700)), lit(int32_t(3))})}) << true;
    QTest::newRow("InList miss") << where({el(FilterOperator::InList, {sev(), lit(int32_t(1)), lit(int32_t(3))})}) << false;
    QTest::newRow("OfType BaseEventType") << where({el(FilterOperator::OfType, {lit(NodeId(id::BaseEventType))})}) << true;
    QTest::newRow("OfType AuditEventType") << where({el(FilterOperator::OfType, {lit(NodeId(id::AuditEventType))})}) << false;
    QTest::newRow("Not FALSE") << where({el(FilterOperator::Not, {elem(1)}), el(FilterOperator::LessThan, {sev(), lit(int32_t(500))})}) << true;
    QTest::newRow("Not TRUE") << where({el(FilterOperator::Not, {elem(1)}), el(FilterOperator::GreaterThan, {sev(), lit(int32_t(500))})}) << false;
    QTest::newRow("And TRUE TRUE")
        << where({el(FilterOperator::And, {elem(1), elem(2)}), el(FilterOperator::GreaterThan, {sev(), lit(int32_t(500))}),
                  el(FilterOperator::OfType, {lit(NodeId(id::BaseEventType))})}) << true;
    QTest::newRow("And TRUE FALSE")
        << where({el(FilterOperator::And, {elem(1), elem(2)}), el(FilterOperator::GreaterThan, {sev(), lit(int32_t(500))}),
                  el(FilterOperator::OfType, {lit(NodeId(id::AuditEventType))})}) << false;
    QTest::newRow("Or FALSE TRUE")
        << where({el(FilterOperator::Or, {elem(1), elem(2)}), el(FilterOperator::GreaterThan, {sev(), lit(int32_t(900))}),
                  el(FilterOperator::OfType, {lit(NodeId(id::BaseEventType))})}) << true;
    QTest::newRow("Or FALSE FALSE")
        << where({el(FilterOperator::Or, {elem(1), elem(2)}), el(FilterOperator::GreaterThan, {sev(), lit(int32_t(900))}),
                  el(FilterOperator::OfType, {lit(NodeId(id::AuditEventType))})}) << false;
    // A failed conversion is NULL (7.7.3): neither the comparison nor its negation passes.
    QTest::newRow("NULL: Byte 200 to SByte") << where({el(FilterOperator::Equals, {lit(int8_t(-1)), lit(uint8_t(200))})}) << false;
    QTest::newRow("Not NULL is NULL")
        << where({el(FilterOperator::Not, {elem(1)}), el(FilterOperator::Equals, {lit(int8_t(-1)), lit(uint8_t(200))})}) << false;
    QTest::newRow("NULL: unparsable String") << where({el(FilterOperator::Equals, {sev(), lit(String("abc"))})}) << false;
    QTest::newRow("Not NULL field comparison")
        << where({el(FilterOperator::Not, {elem(1)}), el(FilterOperator::GreaterThan, {fieldOp("Status", id::AuditEventType), lit(false)})})
        << false;
    QTest::newRow("empty filter") << ContentFilter{} << true;
    // Elements that share sub-elements: And(e1, e1), And(e2, e2), ... 60 deep. Each element is
    // evaluated once per event (a recursive walk would take 2^60 steps and hang the I/O thread).
    std::vector<ContentFilterElement> dag;
    for (uint32_t k = 1; k <= 60; ++k) dag.push_back(el(FilterOperator::And, {elem(k), elem(k)}));
    dag.push_back(el(FilterOperator::GreaterThan, {sev(), lit(int32_t(500))}));
    QTest::newRow("And DAG 60 deep") << where(dag) << true;
    dag.back() = el(FilterOperator::GreaterThan, {sev(), lit(int32_t(900))});
    QTest::newRow("And DAG 60 deep, FALSE") << where(dag) << false;
    // A chain of 101 Nots over TRUE: FALSE; 100 Nots: TRUE (no depth limit turns it into NULL).
    std::vector<ContentFilterElement> nots;
    for (uint32_t k = 1; k <= 101; ++k) nots.push_back(el(FilterOperator::Not, {elem(k)}));
    nots.push_back(el(FilterOperator::GreaterThan, {sev(), lit(int32_t(500))}));
    QTest::newRow("101 Nots over TRUE") << where(nots) << false;
    nots.erase(nots.begin());
    for (uint32_t k = 0; k < 100; ++k) nots[k] = el(FilterOperator::Not, {elem(k + 1)});
    QTest::newRow("100 Nots over TRUE") << where(nots) << true;
}

void TestEvents::operators() {
    QFETCH(ContentFilter, filter);
    QFETCH(bool, passes);
    EventFixture f;
    CompiledContentFilter c;
    ContentFilterResult r;
    QVERIFY(c.compile(f.as(), filter, r));
    QVERIFY(r.elementResults.empty());
    QCOMPARE(c.evaluate(f.as(), *demoEvent(700)), passes);
}

void TestEvents::typePromotion() {
    // 7.7.3: the operand of lower precedence converts to the other's type; -9 stands for NULL.
    const auto cmp = [](Variant a, Variant b) { return compareFilterValues(a, b).value_or(-9); };
    QCOMPARE(cmp(uint16_t(700), int32_t(700)), 0);
    QCOMPARE(cmp(uint16_t(700), -1.0), 1);
    QCOMPARE(cmp(int32_t(-1), uint32_t(5)), -1);  // UInt32 5 -> Int32
    QCOMPARE(cmp(uint32_t(5), int32_t(-1)), 1);
    QCOMPARE(cmp(uint32_t(UINT32_MAX), int32_t(1)), -9);  // does not fit Int32
    QCOMPARE(cmp(uint64_t(UINT64_MAX), int32_t(1)), 1);   // Int32 -> UInt64
    QCOMPARE(cmp(int64_t(-5), uint64_t(3)), -1);          // UInt64 3 -> Int64
    QCOMPARE(cmp(uint64_t(UINT64_MAX), int64_t(1)), -9);  // does not fit Int64
    QCOMPARE(cmp(int32_t(-1), uint64_t(3)), -9);          // Int32 -1 -> UInt64 fails
    QCOMPARE(cmp(true, int32_t(1)), 0);
    QCOMPARE(cmp(true, int32_t(2)), -1);
    QCOMPARE(cmp(int8_t(2), true), 1);  // Boolean -> SByte 1
    QCOMPARE(cmp(String("10"), 9.5), 1);
    QCOMPARE(cmp(String("x"), 9.5), -9);
    QCOMPARE(cmp(Variant(), int32_t(1)), -9);
    QCOMPARE(cmp(StatusCode(status::BadTimeout), uint32_t(status::BadTimeout)), 0);
    QCOMPARE(cmp(float(1.5), 1.5), 0);
    QCOMPARE(cmp(String("b"), String("a")), 1);
    QCOMPARE(cmp(LocalizedText{String("en"), String("a")}, String("a")), 0);
    QCOMPARE(cmp(DateTime{10}, DateTime{20}), -1);
}

void TestEvents::selectClauseValidation_data() {
    QTest::addColumn<ExtensionObject>("clause");
    QTest::addColumn<uint>("expected");
    auto with = [](auto change) {
        SimpleAttributeOperand op = field("Severity");
        change(op);
        return ExtensionObject::make(op);
    };
    QTest::newRow("Severity") << with([](auto&) {}) << uint(status::Good);
    QTest::newRow("subtype field") << ExtensionObject::make(field("ClientUserId", id::AuditEventType)) << uint(status::Good);
    QTest::newRow("inherited field on a subtype") << ExtensionObject::make(field("Severity", id::AuditCreateSessionEventType)) << uint(status::Good);
    QTest::newRow("null type") << with([](auto& o) { o.typeDefinitionId = NodeId(); }) << uint(status::BadTypeDefinitionInvalid);
    QTest::newRow("not an event type") << with([](auto& o) { o.typeDefinitionId = NodeId(id::FolderType); }) << uint(status::BadTypeDefinitionInvalid);
    QTest::newRow("unknown type") << with([](auto& o) { o.typeDefinitionId = NodeId(0, 999999u); }) << uint(status::BadNodeIdUnknown);
    QTest::newRow("unknown field") << with([](auto& o) { o.browsePath[0].name = String("NoSuchField"); }) << uint(status::BadBrowseNameInvalid);
    QTest::newRow("field of a subtype on the base") << ExtensionObject::make(field("ClientUserId")) << uint(status::BadBrowseNameInvalid);
    QTest::newRow("empty path, Value") << with([](auto& o) { o.browsePath = Array<QualifiedName>::emptyArray(); }) << uint(status::BadBrowseNameInvalid);
    QTest::newRow("empty path, NodeId (ConditionId)")
        << with([](auto& o) { o.browsePath = Array<QualifiedName>::emptyArray(); o.attributeId = uint32_t(AttributeId::NodeId); })
        << uint(status::Good);
    QTest::newRow("DisplayName attribute") << with([](auto& o) { o.attributeId = uint32_t(AttributeId::DisplayName); }) << uint(status::BadAttributeIdInvalid);
    QTest::newRow("bad index range") << with([](auto& o) { o.indexRange = String("x"); }) << uint(status::BadIndexRangeInvalid);
}

void TestEvents::selectClauseValidation() {
    QFETCH(ExtensionObject, clause);
    QFETCH(uint, expected);
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    // A valid EventId clause first, so that the item is created and the second clause's status shows.
    const MonitoredItemCreateResult r = f.createItem(sub, makeEventFilter({field("EventId"), *clause.get<SimpleAttributeOperand>()}));
    QCOMPARE(r.statusCode, StatusCode(status::Good));
    const EventFilterResult* fr = r.filterResult.get<EventFilterResult>();
    if (StatusCode(expected).isGood()) {
        QVERIFY(!fr || fr->selectClauseResults.empty());
    } else {
        QVERIFY(fr);
        QCOMPARE(fr->selectClauseResults.size(), std::size_t(2));
        QCOMPARE(fr->selectClauseResults[0], StatusCode(status::Good));
        QCOMPARE(fr->selectClauseResults[1], StatusCode(expected));
    }
}

void TestEvents::whereClauseValidation_data() {
    QTest::addColumn<ContentFilter>("filter");
    QTest::addColumn<int>("element");
    QTest::addColumn<uint>("elementStatus");
    QTest::addColumn<int>("operand");  // -1: no operand codes
    QTest::addColumn<uint>("operandStatus");
    const auto sev = [] { return fieldOp("Severity"); };
    QTest::newRow("unknown operator") << where({el(FilterOperator(99), {sev()})}) << 0 << uint(status::BadFilterOperatorInvalid) << -1 << 0u;
    QTest::newRow("Like unsupported") << where({el(FilterOperator::Like, {sev(), lit(String("a%"))})}) << 0
                                      << uint(status::BadFilterOperatorUnsupported) << -1 << 0u;
    QTest::newRow("RelatedTo unsupported") << where({el(FilterOperator::RelatedTo, {})}) << 0
                                           << uint(status::BadFilterOperatorUnsupported) << -1 << 0u;
    QTest::newRow("too few operands") << where({el(FilterOperator::Equals, {sev()})}) << 0 << uint(status::BadFilterOperandCountMismatch) << -1 << 0u;
    QTest::newRow("too many operands") << where({el(FilterOperator::Not, {lit(true), lit(false)})}) << 0
                                       << uint(status::BadFilterOperandCountMismatch) << -1 << 0u;
    QTest::newRow("InList of one") << where({el(FilterOperator::InList, {sev()})}) << 0 << uint(status::BadFilterOperandCountMismatch) << -1 << 0u;
    QTest::newRow("element loop") << where({el(FilterOperator::Not, {elem(0)})}) << 0 << uint(status::BadFilterOperandInvalid) << 0
                                  << uint(status::BadFilterElementInvalid);
    QTest::newRow("element out of range") << where({el(FilterOperator::And, {elem(1), elem(5)}), el(FilterOperator::IsNull, {sev()})}) << 0
                                          << uint(status::BadFilterOperandInvalid) << 1 << uint(status::BadFilterElementInvalid);
    QTest::newRow("AttributeOperand") << where({el(FilterOperator::IsNull, {ExtensionObject::make(AttributeOperand{})})}) << 0
                                      << uint(status::BadFilterOperandInvalid) << 0 << uint(status::BadFilterOperandInvalid);
    QTest::newRow("OfType of a number") << where({el(FilterOperator::OfType, {lit(int32_t(5))})}) << 0
                                        << uint(status::BadFilterOperandInvalid) << 0 << uint(status::BadFilterOperandInvalid);
    QTest::newRow("OfType of a non-event type") << where({el(FilterOperator::OfType, {lit(NodeId(id::FolderType))})}) << 0
                                                << uint(status::BadFilterOperandInvalid) << 0 << uint(status::BadFilterOperandInvalid);
    QTest::newRow("bad field in the second element")
        << where({el(FilterOperator::Or, {elem(1), lit(true)}), el(FilterOperator::IsNull, {fieldOp("Nope")})}) << 1
        << uint(status::BadFilterOperandInvalid) << 0 << uint(status::BadBrowseNameInvalid);
}

void TestEvents::whereClauseValidation() {
    QFETCH(ContentFilter, filter);
    QFETCH(int, element);
    QFETCH(uint, elementStatus);
    QFETCH(int, operand);
    QFETCH(uint, operandStatus);
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    const std::size_t n = filter.elements.size();
    const MonitoredItemCreateResult r = f.createItem(sub, makeEventFilter({field("Severity")}, filter));
    QCOMPARE(r.statusCode, StatusCode(status::BadEventFilterInvalid));
    const EventFilterResult* fr = r.filterResult.get<EventFilterResult>();
    QVERIFY(fr);
    QVERIFY(fr->selectClauseResults.empty());  // the select clause was fine
    QCOMPARE(fr->whereClauseResult.elementResults.size(), n);
    const ContentFilterElementResult& er = fr->whereClauseResult.elementResults[std::size_t(element)];
    QCOMPARE(er.statusCode, StatusCode(elementStatus));
    if (operand < 0) {
        QVERIFY(er.operandStatusCodes.empty());
    } else {
        QVERIFY(er.operandStatusCodes.size() > std::size_t(operand));
        QCOMPARE(er.operandStatusCodes[std::size_t(operand)], StatusCode(operandStatus));
    }
    QCOMPARE(f.registry->itemCount(), 0u);
}

void TestEvents::itemStatuses() {
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    const auto ok = makeEventFilter({field("Severity")});
    QCOMPARE(f.createItem(sub, ok).statusCode, StatusCode(status::Good));
    QCOMPARE(f.createItem(sub, makeEventFilter({})).statusCode, StatusCode(status::BadEventFilterInvalid));
    // Every select clause bad.
    const auto r = f.createItem(sub, makeEventFilter({field("Nope")}));
    QCOMPARE(r.statusCode, StatusCode(status::BadEventFilterInvalid));
    QCOMPARE(r.filterResult.get<EventFilterResult>()->selectClauseResults[0], StatusCode(status::BadBrowseNameInvalid));
    // EventFilter on another attribute (7.22.3): Bad_FilterNotAllowed.
    QCOMPARE(f.createItem(sub, ok, NodeId(id::Server), uint32_t(AttributeId::DisplayName)).statusCode, StatusCode(status::BadFilterNotAllowed));
    QCOMPARE(f.createItem(sub, ok, NodeId(id::Server_ServerStatus_State), uint32_t(AttributeId::Value)).statusCode,
             StatusCode(status::BadFilterNotAllowed));
    // The EventNotifier attribute of a Variable does not exist; an Object that is no notifier.
    QCOMPARE(f.createItem(sub, ok, NodeId(id::Server_ServerStatus_State)).statusCode, StatusCode(status::BadAttributeIdInvalid));
    QCOMPARE(f.createItem(sub, ok, NodeId(id::ObjectsFolder)).statusCode, StatusCode(status::BadNotSupported));
    // A DataChangeFilter on the EventNotifier attribute.
    QCOMPARE(f.createItem(sub, ExtensionObject::make(DataChangeFilter{})).statusCode, StatusCode(status::BadFilterNotAllowed));
    // Revisions: queue size 0 -> the default, sampling interval 0.
    const auto item = f.createItem(sub, ok);
    QCOMPARE(item.revisedQueueSize, kDefaultEventQueueSize);
    QCOMPARE(item.revisedSamplingInterval, 0.0);
    QCOMPARE(f.createItem(sub, ok, NodeId(id::Server), uint32_t(AttributeId::EventNotifier), 50000).revisedQueueSize, f.config.maxQueueSize);
}

void TestEvents::eventsArePublishedWithSelectedFields() {
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    SimpleAttributeOperand conditionId;
    conditionId.typeDefinitionId = NodeId(id::ConditionType);
    conditionId.attributeId = uint32_t(AttributeId::NodeId);
    const auto r = f.createItem(sub, makeEventFilter({field("EventId"), field("EventType"), field("SourceName"), field("Severity"),
                                                  field("Message"), field("ClientUserId", id::AuditEventType), conditionId,
                                                  field("Status", id::AuditEventType)}));
    QCOMPARE(r.statusCode, StatusCode(status::Good));
    QVERIFY(f.events.hasSubscribers());
    f.raise(demoEvent(321));
    auto audit = makeEvent(NodeId(id::AuditCreateSessionEventType), NodeId(id::Server), "Session/CreateSession", "x", 100);
    audit->set("ClientUserId", Variant(String("alice")));
    audit->set("Status", Variant(true));
    f.raise(audit);
    const PublishResponse p = f.publish();
    const auto ev = eventsOf(p);
    QCOMPARE(ev.size(), std::size_t(2));
    QCOMPARE(ev[0].clientHandle, 77u);
    QCOMPARE(ev[0].eventFields.size(), std::size_t(8));
    QVERIFY(ev[0].eventFields[0].get<ByteString>() && ev[0].eventFields[0].get<ByteString>()->size() == 16);
    QCOMPARE(*ev[0].eventFields[1].get<NodeId>(), NodeId(id::BaseEventType));
    QCOMPARE(ev[0].eventFields[2].get<String>()->str(), std::string("Demo"));
    QCOMPARE(severityOf(ev[0], 3), uint16_t(321));
    QCOMPARE(ev[0].eventFields[4].get<LocalizedText>()->text.str(), std::string("message 321"));
    QVERIFY(ev[0].eventFields[5].isNull());  // not an audit event: Null
    QVERIFY(ev[0].eventFields[6].isNull());
    QCOMPARE(*ev[1].eventFields[1].get<NodeId>(), NodeId(id::AuditCreateSessionEventType));
    QCOMPARE(ev[1].eventFields[5].get<String>()->str(), std::string("alice"));
    QCOMPARE(*ev[1].eventFields[7].get<bool>(), true);
    QVERIFY(!(ev[0].eventFields[0] == ev[1].eventFields[0]));  // EventIds differ
    const auto* subscription = f.session->find(sub);
    QCOMPARE(subscription->counters.notificationsCount, uint64_t(2));
}

void TestEvents::whereClauseDropsEvents() {
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    // Severity > 500 Or OfType AuditEventType (the interop test's filter).
    const ContentFilter w = where({el(FilterOperator::Or, {elem(1), elem(2)}),
                                   el(FilterOperator::GreaterThan, {fieldOp("Severity"), lit(int32_t(500))}),
                                   el(FilterOperator::OfType, {lit(NodeId(id::AuditEventType))})});
    QCOMPARE(f.createItem(sub, makeEventFilter({field("Severity"), field("EventType")}, w)).statusCode, StatusCode(status::Good));
    for (uint16_t s : {100, 501, 500, 1000, 3}) f.raise(demoEvent(s));
    f.raise(demoEvent(10, id::AuditActivateSessionEventType));
    const auto ev = eventsOf(f.publish());
    QCOMPARE(ev.size(), std::size_t(3));
    QCOMPARE(severityOf(ev[0], 0), uint16_t(501));
    QCOMPARE(severityOf(ev[1], 0), uint16_t(1000));
    QCOMPARE(severityOf(ev[2], 0), uint16_t(10));
}

void TestEvents::queueOverflow_data() {
    QTest::addColumn<bool>("discardOldest");
    QTest::addColumn<QList<int>>("expected");  // severities; 0 = the overflow event
    QTest::newRow("discardOldest") << true << QList<int>{0, 3, 4, 5};
    QTest::newRow("discardNewest") << false << QList<int>{1, 2, 3, 0};
}

void TestEvents::queueOverflow() {
    QFETCH(bool, discardOldest);
    QFETCH(QList<int>, expected);
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    QCOMPARE(f.createItem(sub, makeEventFilter({field("Severity"), field("EventType"), field("SourceName")}), NodeId(id::Server),
                          uint32_t(AttributeId::EventNotifier), 3, discardOldest)
                 .revisedQueueSize,
             3u);
    for (uint16_t s = 1; s <= 5; ++s) f.raise(demoEvent(s));
    const auto ev = eventsOf(f.publish());
    QCOMPARE(int(ev.size()), expected.size());
    for (int i = 0; i < expected.size(); ++i) {
        if (expected[i] == 0) {
            QCOMPARE(*ev[std::size_t(i)].eventFields[1].get<NodeId>(), NodeId(id::EventQueueOverflowEventType));
            QCOMPARE(ev[std::size_t(i)].eventFields[2].get<String>()->str(), std::string("Internal/EventQueueOverflow"));
        } else {
            QCOMPARE(int(severityOf(ev[std::size_t(i)], 0)), expected[i]);
        }
    }
    QCOMPARE(f.session->find(sub)->counters.eventQueueOverflowCount, uint64_t(2));
    // Reported: the next overflow queues a new overflow event.
    for (uint16_t s = 6; s <= 10; ++s) f.raise(demoEvent(s));
    QCOMPARE(eventsOf(f.publish()).size(), std::size_t(4));
}

void TestEvents::monitoringModeAndTriggering() {
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    const auto item = f.createItem(sub, makeEventFilter({field("Severity")}), NodeId(id::Server), uint32_t(AttributeId::EventNotifier), 0,
                                   true, MonitoringMode::Sampling);
    QCOMPARE(item.statusCode, StatusCode(status::Good));
    f.raise(demoEvent(42));
    QVERIFY(eventsOf(f.publish()).empty());  // Sampling: queued, not reported
    // SetTriggering from a Reporting event item: the sampled item reports when it triggers.
    const auto trigger = f.createItem(sub, makeEventFilter({field("Severity")}));
    SetTriggeringRequest st;
    st.subscriptionId = sub;
    st.triggeringItemId = trigger.monitoredItemId;
    st.linksToAdd = Array<uint32_t>{item.monitoredItemId};
    SetTriggeringResponse str;
    setTriggering(*f.session, st, str, f.nowUs);
    QCOMPARE(str.addResults[0], StatusCode(status::Good));
    f.raise(demoEvent(43));
    auto ev = eventsOf(f.publish());
    QCOMPARE(ev.size(), std::size_t(3));  // the trigger's 43, the sampled item's 42 and 43
    // Disabled: nothing queued or reported.
    SetMonitoringModeRequest sm;
    sm.subscriptionId = sub;
    sm.monitoringMode = MonitoringMode::Disabled;
    sm.monitoredItemIds = Array<uint32_t>{item.monitoredItemId, trigger.monitoredItemId};
    SetMonitoringModeResponse smr;
    setMonitoringMode(*f.session, sm, smr, f.nowUs);
    f.raise(demoEvent(44));
    QVERIFY(eventsOf(f.publish()).empty());
    sm.monitoringMode = MonitoringMode::Reporting;
    setMonitoringMode(*f.session, sm, smr, f.nowUs);
    f.raise(demoEvent(45));
    ev = eventsOf(f.publish());
    QCOMPARE(ev.size(), std::size_t(2));
    QCOMPARE(severityOf(ev[0], 0), uint16_t(45));
}

void TestEvents::nothingIsPostedWithoutEventItems() {
    EventFixture f;
    QVERIFY(!f.events.hasSubscribers());
    f.raise(demoEvent(1));
    QCOMPARE(f.events.raisedCount(), uint64_t(0));
    const uint32_t sub = f.createSubscription();
    const auto item = f.createItem(sub, makeEventFilter({field("Severity")}));
    QVERIFY(f.events.hasSubscribers());
    f.raise(demoEvent(1));
    QCOMPARE(f.events.raisedCount(), uint64_t(1));
    QCOMPARE(EventRouter::of(*f.scheduler)->delivered(), uint64_t(1));
    DeleteMonitoredItemsRequest d;
    d.subscriptionId = sub;
    d.monitoredItemIds = Array<uint32_t>{item.monitoredItemId};
    DeleteMonitoredItemsResponse dr;
    deleteMonitoredItems(*f.session, d, dr, f.nowUs);
    QCOMPARE(dr.results[0], StatusCode(status::Good));
    QVERIFY(!f.events.hasSubscribers());
    // Deleting the Subscription releases its event items too.
    f.createItem(sub, makeEventFilter({field("Severity")}));
    QVERIFY(f.events.hasSubscribers());
    f.session->removeAll();
    QVERIFY(!f.events.hasSubscribers());
}

// The audit and demo sources check hasSubscribers() before building an event; raise() itself
// returns after one relaxed load. Prints the cost per call.
void TestEvents::raiseWithoutSubscribersIsCheap() {
    EventFixture f;
    const EventPtr e = demoEvent(1);
    constexpr int kCalls = 10'000'000;
    QElapsedTimer t;
    t.start();
    int built = 0;
    for (int i = 0; i < kCalls; ++i) {
        if (f.events.hasSubscribers()) ++built;
        f.events.raise(e);
    }
    const double ns = double(t.nsecsElapsed()) / kCalls;
    qInfo("hasSubscribers() + raise() without event items: %.2f ns per call", ns);
    QCOMPARE(built, 0);
    QCOMPARE(f.events.raisedCount(), uint64_t(0));
    // The time is printed, not asserted (a timed unit test fails on a loaded or instrumented
    // machine): what is checked is that nothing was built or counted.
}

void TestEvents::modifyEventItem() {
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    const auto item = f.createItem(sub, makeEventFilter({field("Severity")}));
    ModifyMonitoredItemsRequest req;
    req.subscriptionId = sub;
    req.timestampsToReturn = TimestampsToReturn::Both;
    MonitoredItemModifyRequest m;
    m.monitoredItemId = item.monitoredItemId;
    m.requestedParameters.clientHandle = 5;
    m.requestedParameters.queueSize = 2;
    m.requestedParameters.filter = makeEventFilter({field("Message"), field("Severity")},
                                               where({el(FilterOperator::LessThan, {fieldOp("Severity"), lit(int32_t(10))})}));
    req.itemsToModify = Array<MonitoredItemModifyRequest>{m};
    ModifyMonitoredItemsResponse resp;
    modifyMonitoredItems(*f.session, req, resp, f.nowUs);
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::Good));
    QCOMPARE(resp.results[0].revisedQueueSize, 2u);
    f.raise(demoEvent(5));
    f.raise(demoEvent(50));
    const auto ev = eventsOf(f.publish());
    QCOMPARE(ev.size(), std::size_t(1));
    QCOMPARE(ev[0].clientHandle, 5u);
    QCOMPARE(severityOf(ev[0], 1), uint16_t(5));
    m.requestedParameters.filter = ExtensionObject::make(DataChangeFilter{});
    req.itemsToModify = Array<MonitoredItemModifyRequest>{m};
    modifyMonitoredItems(*f.session, req, resp, f.nowUs);
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::BadFilterNotAllowed));
    m.requestedParameters.filter = makeEventFilter({});
    req.itemsToModify = Array<MonitoredItemModifyRequest>{m};
    modifyMonitoredItems(*f.session, req, resp, f.nowUs);
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::BadEventFilterInvalid));
}

void TestEvents::auditCertificateEvents() {
    const auto type = [](uint32_t reason) { return auditCertificateEventType(StatusCode(reason)).numeric(); };
    QCOMPARE(type(status::BadCertificateUntrusted), id::AuditCertificateUntrustedEventType);
    QCOMPARE(type(status::BadCertificateTimeInvalid), id::AuditCertificateExpiredEventType);
    QCOMPARE(type(status::BadCertificateIssuerTimeInvalid), id::AuditCertificateExpiredEventType);
    QCOMPARE(type(status::BadCertificateRevoked), id::AuditCertificateRevokedEventType);
    QCOMPARE(type(status::BadCertificateRevocationUnknown), id::AuditCertificateRevokedEventType);
    QCOMPARE(type(status::BadCertificateUriInvalid), id::AuditCertificateDataMismatchEventType);
    QCOMPARE(type(status::BadCertificateHostNameInvalid), id::AuditCertificateDataMismatchEventType);
    QCOMPARE(type(status::BadCertificateUseNotAllowed), id::AuditCertificateMismatchEventType);
    QCOMPARE(type(status::BadCertificateInvalid), id::AuditCertificateInvalidEventType);
    QCOMPARE(type(status::BadCertificateChainIncomplete), id::AuditCertificateInvalidEventType);

    EventFixture f;
    auditCertificateRejected(f.events, "urn:server", "not DER", StatusCode(status::BadCertificateUriInvalid), "urn:wrong");
    QCOMPARE(f.events.raisedCount(), uint64_t(0));  // nobody subscribed: nothing built
    const uint32_t sub = f.createSubscription();
    QCOMPARE(f.createItem(sub, makeEventFilter({field("EventType"), field("Certificate", id::AuditCertificateEventType),
                                                field("InvalidUri", id::AuditCertificateDataMismatchEventType),
                                                field("Status", id::AuditEventType), field("ServerId", id::AuditEventType)}))
                 .statusCode,
             StatusCode(status::Good));
    auditCertificateRejected(f.events, "urn:server", "not DER", StatusCode(status::BadCertificateUriInvalid), "urn:wrong");
    QCoreApplication::processEvents();
    const auto ev = eventsOf(f.publish());
    QCOMPARE(ev.size(), std::size_t(1));
    QCOMPARE(*ev[0].eventFields[0].get<NodeId>(), NodeId(id::AuditCertificateDataMismatchEventType));
    QCOMPARE(ev[0].eventFields[1].get<ByteString>()->str(), std::string("not DER"));
    QCOMPARE(ev[0].eventFields[2].get<String>()->str(), std::string("urn:wrong"));
    QCOMPARE(*ev[0].eventFields[3].get<bool>(), false);
    QCOMPARE(ev[0].eventFields[4].get<String>()->str(), std::string("urn:server"));
}

// TransferSubscriptions (5.14.7): the event item leaves its router on detach and joins the new
// home's on attach; the new Session gets the events.
// OPC 10000-3 7.16, 7.17: an item on a notifier sees the events of every source below it through
// HasNotifier and HasEventSource, not through Organizes. Area -HasNotifier-> Boiler
// -HasEventSource-> Valve; Area -Organizes-> Loose.
void TestEvents::notifierHierarchyIsFollowed() {
    EventFixture f;
    const NodeId area(1, String("Area")), boiler(1, String("Boiler")), valve(1, String("Valve")), loose(1, String("Loose"));
    QVERIFY(f.space->update([&](AddressSpace& s) {
        if (s.addNamespace("urn:ua-workbench:test:plant") != 1) return StatusCode(status::BadUnexpectedError);
        for (const NodeId& id : {area, boiler, valve, loose}) {
            Node n;
            n.nodeId = id;
            n.nodeClass = NodeClass::Object;
            n.browseName = {1, id.string()};
            n.setDisplayName(LocalizedText{String(), id.string()});
            n.eventNotifier = (id == area || id == boiler) ? 1 : 0;  // SubscribeToEvents
            if (StatusCode st = s.addNode(std::move(n)); st.isBad()) return st;
        }
        StatusCode st = s.addReference(area, NodeId(id::HasNotifier), boiler);
        if (st.isGood()) st = s.addReference(boiler, NodeId(id::HasEventSource), valve);
        if (st.isGood()) st = s.addReference(area, NodeId(id::Organizes), loose);
        return st;
    }).isGood());
    const uint32_t sub = f.createSubscription();
    const auto filter = makeEventFilter({field("SourceName")});
    QCOMPARE(f.createItem(sub, filter, area).statusCode, StatusCode(status::Good));
    QCOMPARE(f.createItem(sub, filter, boiler).statusCode, StatusCode(status::Good));
    const auto from = [](const NodeId& source, const char* name) {
        return makeEvent(NodeId(id::BaseEventType), source, name, "x", 500);
    };
    f.raise(from(valve, "valve"));
    f.raise(from(loose, "loose"));
    f.raise(from(boiler, "boiler"));
    f.raise(from(area, "area"));
    std::map<std::string, int> seen;
    for (const EventFieldList& e : eventsOf(f.publish()))
        if (const String* name = e.eventFields[0].get<String>()) ++seen[name->str()];
    QCOMPARE(seen["valve"], 2);   // Area (through Boiler) and Boiler
    QCOMPARE(seen["boiler"], 2);  // Area and Boiler itself
    QCOMPARE(seen["area"], 1);    // Area only
    QCOMPARE(seen.count("loose"), std::size_t(0));  // Organizes is no notifier reference
    // The hierarchy seen from a source: itself, then upwards.
    const AddressSpace& as = f.as();
    const std::vector<NodeIndex> up = eventNotifiersOf(as, as.indexOf(valve));
    QCOMPARE(up.size(), std::size_t(3));
    QCOMPARE(up[1], as.indexOf(boiler));
    QCOMPARE(up[2], as.indexOf(area));
}

void TestEvents::transferKeepsEventItems() {
    EventFixture f;
    auto second = std::make_shared<SessionSubscriptions>(*f.scheduler, NodeId(1, 2u), EventFixture::testUser());
    std::vector<PublishResponse> got;
    second->sender = [&got](const ResponseTarget&, PublishResponse&& r) { got.push_back(std::move(r)); };
    const uint32_t sub = f.createSubscription();
    QCOMPARE(f.createItem(sub, makeEventFilter({field("Severity")})).statusCode, StatusCode(status::Good));
    TransferSubscriptionsRequest req;
    req.subscriptionIds = Array<uint32_t>{sub};
    TransferSubscriptionsResponse resp;
    bool answered = false;
    transferSubscriptions(second, req, [&](TransferSubscriptionsResponse&& r) { resp = std::move(r); answered = true; }, f.nowUs);
    QVERIFY(answered);
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::Good));
    QCOMPARE(EventRouter::of(*f.scheduler)->itemCount(), std::size_t(1));
    QVERIFY(f.events.hasSubscribers());
    f.raise(demoEvent(9));
    second->publish(ResponseTarget{nullptr, 0, 1}, PublishRequest{}, f.nowUs);
    for (int i = 0; i < 3 && got.empty(); ++i) {
        f.nowUs += 100'000;
        f.scheduler->runDue(f.nowUs);
    }
    QCOMPARE(got.size(), std::size_t(1));
    const auto ev = eventsOf(got[0]);
    QCOMPARE(ev.size(), std::size_t(1));
    QCOMPARE(severityOf(ev[0], 0), uint16_t(9));
    second->removeAll();
    QVERIFY(!f.events.hasSubscribers());
}

// What one event costs on the home thread per item: the interop test's filter (6 select clauses,
// Severity > 500 Or OfType AuditEventType) on 10 items. Prints the figure; no timing assertion.
void TestEvents::deliveryCost() {
    EventFixture f;
    const uint32_t sub = f.createSubscription();
    const ContentFilter w = where({el(FilterOperator::Or, {elem(1), elem(2)}),
                                   el(FilterOperator::GreaterThan, {fieldOp("Severity"), lit(int32_t(500))}),
                                   el(FilterOperator::OfType, {lit(NodeId(id::AuditEventType))})});
    std::vector<uint32_t> ids;
    for (int i = 0; i < 10; ++i)
        ids.push_back(f.createItem(sub, makeEventFilter({field("EventId"), field("EventType"), field("SourceName"), field("Time"),
                                                         field("Message"), field("Severity")},
                                                        w))
                          .monitoredItemId);
    std::vector<EventPtr> events;
    for (int i = 0; i < 1000; ++i) events.push_back(demoEvent(uint16_t(1 + i % 1000)));
    EventRouter& router = *EventRouter::of(*f.scheduler);
    Subscription& s = *f.session->find(sub);
    QElapsedTimer t;
    t.start();
    constexpr int kRounds = 20;
    for (int r = 0; r < kRounds; ++r) {
        for (const EventPtr& e : events) router.deliver(e);
        for (uint32_t id : ids) s.item(id)->events->clear();
    }
    const double ns = double(t.nsecsElapsed()) / (kRounds * 1000.0 * 10);
    qInfo("event delivery: %.0f ns per event per item (half pass the whereClause)", ns);
    QCOMPARE(router.delivered(), uint64_t(kRounds * 1000));
}

UA_TEST_GUILESS_MAIN(TestEvents)
#include "tst_events.moc"
