// The Subscription and MonitoredItem service sets (OPC 10000-4 1.05.03 5.12, 5.13) on a fake clock:
// the core (server/subscriptions/) driven by SubscriptionScheduler::runDue with a clock the test
// advances, Publish responses captured instead of sent. Namespace 0 plus the demo namespace.
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/common/Session.h"
#include "DemoNodeManager.h"
#include "ua/server/subscriptions/MonitoredItemService.h"
#include "ua/server/subscriptions/SubscriptionService.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"
#include "ua/server/users/Roles.h"

#include <QtTest>
#include "MetaTypes.h"
#include "TestMain.h"
#include <algorithm>
#include <cmath>
#include <thread>

using namespace ua;

namespace {

struct Captured {
    uint32_t requestHandle;
    PublishResponse response;
};

// One SessionSubscriptions on a scheduler driven by a fake clock (microseconds).
struct SubscriptionFixture {
    SubscriptionConfig config;
    std::unique_ptr<SharedAddressSpace> space;
    std::unique_ptr<SubscriptionRegistry> registry;
    std::unique_ptr<SubscriptionScheduler> scheduler;
    std::vector<std::shared_ptr<SessionSubscriptions>> sessions;
    std::vector<Captured> responses;
    int64_t nowUs = 1'000'000'000'000;  // far below the real clock: the housekeeping timer stays idle
    uint16_t demoNs = 0;

    explicit SubscriptionFixture(SubscriptionConfig c = {}) : config(c) {
        AddressSpace s;
        Ns0NodeManager ns0;
        if (ns0.install(s).isBad()) qFatal("namespace 0");
        DemoNodeManager demo(1000);
        if (demo.install(s).isBad()) qFatal("demo namespace");
        demoNs = uint16_t(s.namespaceIndex(DemoNodeManager::kUri));
        space = std::make_unique<SharedAddressSpace>(std::move(s));
        registry = std::make_unique<SubscriptionRegistry>(config);
        scheduler = std::make_unique<SubscriptionScheduler>(*space, config, *registry, false);
        addSession("anonymous");
    }
    ~SubscriptionFixture() {
        for (auto& s : sessions) if (s) s->removeAll();
    }
    SessionSubscriptions& ss(std::size_t i = 0) { return *sessions[i]; }
    // Without a Session the items sample unrestricted; with one, with its roles at each sample.
    // user: "anonymous" (of one application, on a SignAndEncrypt channel) or "username:<name>".
    static TransferUser testUser(const std::string& user) {
        TransferUser u;
        u.applicationUri = "urn:ua-workbench:test:client";
        u.securityMode = MessageSecurityMode::SignAndEncrypt;
        if (user.rfind("username:", 0) == 0) {
            u.tokenType = UserTokenType::UserName;
            u.clientUserId = user.substr(9);
        }
        return u;
    }
    SessionSubscriptions& addSession(const std::string& user, const std::shared_ptr<Session>& session = nullptr) {
        auto s = std::make_shared<SessionSubscriptions>(*scheduler, NodeId(1, uint32_t(sessions.size() + 1)),
                                                        testUser(user), session);
        const std::size_t index = sessions.size();
        s->sender = [this, index](const ResponseTarget& t, PublishResponse&& r) {
            r.responseHeader.requestHandle = t.requestHandle;
            responses.push_back({t.requestHandle + uint32_t(index) * 100000, std::move(r)});
        };
        sessions.push_back(s);
        return *s;
    }
    NodeId demo(const char* name) const { return NodeId(demoNs, String(name)); }
    void advanceMs(double ms) {
        nowUs += int64_t(std::llround(ms * 1000));
        scheduler->runDue(nowUs);
    }
    // Advances 1 ms at a time, calling each() at every new time before the due timers run.
    template <class F>
    void stepMs(int ms, F each) {
        for (int i = 0; i < ms; ++i) {
            nowUs += 1000;
            each();
            scheduler->runDue(nowUs);
        }
    }
    // maxNotifications: the request's maxNotificationsPerPublish (0: no limit).
    uint32_t createSubscription(double intervalMs, uint32_t keepAlive, uint32_t lifetime, std::size_t session = 0,
                                CreateSubscriptionResponse* out = nullptr, uint32_t maxNotifications = 0) {
        CreateSubscriptionRequest req;
        req.requestedPublishingInterval = intervalMs;
        req.requestedMaxKeepAliveCount = keepAlive;
        req.requestedLifetimeCount = lifetime;
        req.maxNotificationsPerPublish = maxNotifications;
        req.publishingEnabled = true;
        CreateSubscriptionResponse resp;
        ua::createSubscription(ss(session), req, resp, nowUs);
        if (out) *out = resp;
        return resp.subscriptionId;
    }
    void publish(uint32_t handle, std::vector<SubscriptionAcknowledgement> acks = {}, std::size_t session = 0) {
        PublishRequest req;
        req.requestHeader.requestHandle = handle;
        req.subscriptionAcknowledgements = Array<SubscriptionAcknowledgement>(acks);
        ss(session).publish(ResponseTarget{nullptr, 0, handle}, req, nowUs);
    }
    MonitoredItemCreateResult createItem(uint32_t sub, const NodeId& node, double samplingMs, uint32_t queueSize = 1,
                                         ExtensionObject filter = {}, uint32_t attribute = uint32_t(AttributeId::Value),
                                         bool discardOldest = true, MonitoringMode mode = MonitoringMode::Reporting,
                                         std::size_t session = 0) {
        CreateMonitoredItemsRequest req;
        req.subscriptionId = sub;
        req.timestampsToReturn = TimestampsToReturn::Both;
        MonitoredItemCreateRequest item;
        item.itemToMonitor.nodeId = node;
        item.itemToMonitor.attributeId = attribute;
        item.monitoringMode = mode;
        item.requestedParameters.clientHandle = 77;
        item.requestedParameters.samplingInterval = samplingMs;
        item.requestedParameters.queueSize = queueSize;
        item.requestedParameters.discardOldest = discardOldest;
        item.requestedParameters.filter = std::move(filter);
        req.itemsToCreate = Array<MonitoredItemCreateRequest>{item};
        CreateMonitoredItemsResponse resp;
        ua::createMonitoredItems(ss(session), req, resp, nowUs);
        if (resp.responseHeader.serviceResult.isBad() || resp.results.size() != 1) {
            MonitoredItemCreateResult r;
            r.statusCode = resp.responseHeader.serviceResult.isBad() ? resp.responseHeader.serviceResult : StatusCode(status::BadUnexpectedError);
            return r;
        }
        return resp.results[0];
    }
    void write(const NodeId& node, Variant v) {
        const Node* n = space->snapshot()->find(node);
        DataValue dv(std::move(v));
        dv.setSourceTimestamp(DateTime::fromUnixMs(nowUs / 1000));
        n->value->store(std::move(dv));
    }
};

ExtensionObject deadband(DeadbandType type, double value, DataChangeTrigger trigger = DataChangeTrigger::StatusValue) {
    DataChangeFilter f;
    f.trigger = trigger;
    f.deadbandType = uint32_t(type);
    f.deadbandValue = value;
    return ExtensionObject::make(f);
}

// The notifications of a Publish response (empty for a keep-alive).
// The server encodes DataChangeNotifications straight from the item queues (opaque bodies): decoded
// here as a client would.
std::vector<MonitoredItemNotification> notifications(const PublishResponse& r) {
    std::vector<MonitoredItemNotification> v;
    for (const ExtensionObject& x : r.notificationMessage.notificationData) {
        if (const auto* d = x.get<DataChangeNotification>()) {
            v.insert(v.end(), d->monitoredItems.begin(), d->monitoredItems.end());
        } else if (!x.isDecoded() && x.encodingId() == NodeId(id::DataChangeNotification_Encoding_DefaultBinary)) {
            const std::string_view b = x.body().view();
            BinaryDecoder dec(reinterpret_cast<const uint8_t*>(b.data()), b.size());
            DataChangeNotification d;
            decode(dec, d);
            if (!dec.ok() || dec.remaining() != 0) qFatal("undecodable DataChangeNotification");
            v.insert(v.end(), d.monitoredItems.begin(), d.monitoredItems.end());
        }
    }
    return v;
}

const StatusChangeNotification* statusChange(const PublishResponse& r) {
    for (const ExtensionObject& x : r.notificationMessage.notificationData)
        if (const auto* s = x.get<StatusChangeNotification>()) return s;
    return nullptr;
}

bool isKeepAlive(const PublishResponse& r) { return r.notificationMessage.notificationData.empty(); }

} // namespace

class TestSubscriptions : public QObject {
    Q_OBJECT
private slots:
    void subscriptionParametersAreRevised_data();
    void subscriptionParametersAreRevised();
    void keepAliveAfterMaxKeepAliveCountIntervals();
    void keepAliveCarriesNextSequenceNumberAndIsNotAcknowledgeable();
    void idlePublishingTimerWakesOnlyWhenSomethingIsDue();
    void firstExpiryIsRoundedToTheQuantum();
    void lifetimeExpiryQueuesBadTimeout();
    void publishRequestsResetTheLifetime();
    void samplingDeadlinesDoNotDrift();
    void lateSamplingSkipsMissedDeadlinesOnTheGrid();
    void dataChangesArePublishedAndAcknowledged();
    void unknownIdsAndSequenceNumbers();
    void tooManyPublishRequestsAnswersTheOldest();
    void cancelAnswersParkedPublishRequests();
    void noSubscriptionAnswersPublishAtOnce();
    void monitoredItemRevisions_data();
    void monitoredItemRevisions();
    void filterErrors_data();
    void filterErrors();
    void absoluteAndPercentDeadbands();
    void nanIsReportedOnceWhenEntered_data();
    void nanIsReportedOnceWhenEntered();
    void nullAndEmptyAreTheSameValue_data();
    void nullAndEmptyAreTheSameValue();
    void statusValueTimestampWithADeadbandIsStatusValue();
    void queueOverflowSetsInfoBits_data();
    void queueOverflowSetsInfoBits();
    void shrinkingTheQueueSetsOverflow_data();
    void shrinkingTheQueueSetsOverflow();
    void tooManyMonitoredItems();
    void tooManySubscriptions();
    void tooManyOperationsPerCall();
    void republishReturnsKeptMessages();
    void maxNotificationsPerPublishSplitsMessages();
    void triggeringReportsSampledItems();
    void samplingItemTriggersItsLinks();
    void monitoringModeDisabledStopsSampling();
    void transferSubscriptionsBetweenSessions();
    void transferFromAnotherUserIsDenied();
    void transferFollowsTheOwnersLatestUser();
    void sendInitialValuesSendsWhatIsQueuedOnce();
    void anonymousTransferRule_data();
    void anonymousTransferRule();
    void transferPastTheLimitIsTooManySubscriptions();
    void lastSubscriptionTransferredAwayAnswersTheParkedRequests();
    void morePublishRequestsThanSubscriptionsAreAccepted();
    void closeSessionAnswersParkedRequests_data();
    void closeSessionAnswersParkedRequests();
    void diagnosticsCountWhatHappened();
    void itemsSampleWithTheSessionsRoles();
    void parkedPublishTimesOutAtItsTimeoutHint();
    void housekeepingLetsGoOfEmptyClosedSessionsOnly();
    void sessionDiagnosticsCountTheServices();
    void subscriptionDiagnosticsCountRepublishTransferAndDiscards();
    void emptiedQueuesSendNoEarlyKeepAlive_data();
    void emptiedQueuesSendNoEarlyKeepAlive();
    void publishingDisabledKeepsPublishRequestsParked();
    void statusValueTimestampWithoutSourceTimestamps_data();
    void statusValueTimestampWithoutSourceTimestamps();
    void arrayDimensionsChangeIsReportedUnderADeadband();
    void diagnosticsShowTheRequestedMaxNotificationsPerPublish();
};

void TestSubscriptions::subscriptionParametersAreRevised_data() {
    QTest::addColumn<double>("interval");
    QTest::addColumn<uint>("keepAlive");
    QTest::addColumn<uint>("lifetime");
    QTest::addColumn<double>("revisedInterval");
    QTest::addColumn<uint>("revisedKeepAlive");
    QTest::addColumn<uint>("revisedLifetime");
    QTest::newRow("as requested") << 250.0 << 5u << 20u << 250.0 << 5u << 20u;
    QTest::newRow("interval 0 is the fastest") << 0.0 << 5u << 20u << 10.0 << 5u << 20u;
    QTest::newRow("negative interval is the fastest") << -100.0 << 5u << 20u << 10.0 << 5u << 20u;
    QTest::newRow("NaN interval is the fastest") << double(NAN) << 5u << 20u << 10.0 << 5u << 20u;
    QTest::newRow("below the fastest") << 3.0 << 5u << 20u << 10.0 << 5u << 20u;
    QTest::newRow("huge interval") << 1e12 << 1u << 3u << 3'600'000.0 << 1u << 3u;
    QTest::newRow("lifetime below 3x keep-alive") << 100.0 << 10u << 5u << 100.0 << 10u << 30u;
    QTest::newRow("keep-alive 0") << 100.0 << 0u << 0u << 100.0 << 1u << 3u;
    QTest::newRow("keep-alive over the maximum") << 1000.0 << 100000u << 0u << 1000.0 << 3600u << 10800u;
}

void TestSubscriptions::subscriptionParametersAreRevised() {
    QFETCH(double, interval);
    QFETCH(uint, keepAlive);
    QFETCH(uint, lifetime);
    SubscriptionFixture f;
    CreateSubscriptionResponse r;
    QVERIFY(f.createSubscription(interval, keepAlive, lifetime, 0, &r) != 0);
    QTEST(r.revisedPublishingInterval, "revisedInterval");
    QTEST(uint(r.revisedMaxKeepAliveCount), "revisedKeepAlive");
    QTEST(uint(r.revisedLifetimeCount), "revisedLifetime");
    QVERIFY(r.revisedLifetimeCount >= 3 * r.revisedMaxKeepAliveCount);
    // ModifySubscription revises the same way.
    ModifySubscriptionRequest m;
    m.subscriptionId = r.subscriptionId;
    m.requestedPublishingInterval = interval;
    m.requestedMaxKeepAliveCount = keepAlive;
    m.requestedLifetimeCount = lifetime;
    ModifySubscriptionResponse mr;
    modifySubscription(f.ss(), m, mr, f.nowUs);
    QCOMPARE(mr.revisedPublishingInterval, r.revisedPublishingInterval);
    QCOMPARE(mr.revisedMaxKeepAliveCount, r.revisedMaxKeepAliveCount);
    QCOMPARE(mr.revisedLifetimeCount, r.revisedLifetimeCount);
}

void TestSubscriptions::keepAliveAfterMaxKeepAliveCountIntervals() {
    SubscriptionFixture f;
    f.createSubscription(100, 3, 30);
    for (uint32_t h = 1; h <= 5; ++h) f.publish(h);
    f.advanceMs(99);
    QCOMPARE(f.responses.size(), std::size_t(0));
    f.advanceMs(1);  // first expiry: MessageSent is false, so a keep-alive goes out
    QCOMPARE(f.responses.size(), std::size_t(1));
    QVERIFY(isKeepAlive(f.responses[0].response));
    f.advanceMs(299);  // expiries 2 and 3 after it: nothing
    QCOMPARE(f.responses.size(), std::size_t(1));
    f.advanceMs(1);  // the third expiry without notifications
    QCOMPARE(f.responses.size(), std::size_t(2));
    QVERIFY(isKeepAlive(f.responses[1].response));
    f.advanceMs(300);
    QCOMPARE(f.responses.size(), std::size_t(3));
    QCOMPARE(f.responses[2].requestHandle, 3u);  // oldest parked request first
}

// An idle Subscription's timer is armed for its keep-alive (or, LATE, for its lifetime's end), not
// for every interval; the skipped expiries still count the counters down, and a data change pulls
// the timer in to the next interval.
void TestSubscriptions::idlePublishingTimerWakesOnlyWhenSomethingIsDue() {
    SubscriptionFixture f;
    const int64_t t0 = f.nowUs;
    const int64_t s1 = 1'000'000;
    const uint32_t sub = f.createSubscription(1000, 10, 30);
    const NodeId node = f.demo("Demo.Scalars.Double");
    QVERIFY(f.createItem(sub, node, 1000).statusCode.isGood());
    f.publish(1);
    f.publish(2);
    f.advanceMs(1000);  // the first expiry: the initial value
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(notifications(f.responses[0].response).size(), std::size_t(1));
    Subscription* s = f.ss().find(sub);
    QCOMPARE(s->publishingTimerDueUs(), t0 + 11 * s1);  // the keep-alive, 10 intervals on
    QCOMPARE(s->currentKeepAliveCount(), 10u);
    f.advanceMs(3000);
    QCOMPARE(s->currentKeepAliveCount(), 7u);  // three expiries counted, none timed
    QCOMPARE(s->currentLifetimeCount(), 27u);
    f.publish(3);  // a Publish request resets the lifetime, after counting the expiries before it
    QCOMPARE(s->currentLifetimeCount(), 30u);
    QCOMPARE(s->currentKeepAliveCount(), 7u);
    f.advanceMs(2000);
    QCOMPARE(s->currentLifetimeCount(), 28u);
    f.write(node, 4.25);
    f.advanceMs(250);  // sampled at t0 + 6.25 s: the timer comes back to the next interval
    QCOMPARE(s->publishingTimerDueUs(), t0 + 7 * s1);
    f.advanceMs(749);
    QCOMPARE(f.responses.size(), std::size_t(1));
    f.advanceMs(1);
    QCOMPARE(f.responses.size(), std::size_t(2));
    QCOMPARE(f.responses[1].requestHandle, 2u);
    QCOMPARE(notifications(f.responses[1].response).size(), std::size_t(1));
    QCOMPARE(s->publishingTimerDueUs(), t0 + 17 * s1);
    f.advanceMs(9999);
    QCOMPARE(f.responses.size(), std::size_t(2));
    QCOMPARE(s->currentKeepAliveCount(), 1u);
    f.advanceMs(1);  // exactly maxKeepAliveCount intervals after the last message
    QCOMPARE(f.responses.size(), std::size_t(3));
    QVERIFY(isKeepAlive(f.responses[2].response));
    QCOMPARE(f.responses[2].requestHandle, 3u);
    // No Publish request left: the next keep-alive finds none (LATE), then only the lifetime counts.
    f.advanceMs(10000);
    QCOMPARE(s->state(), Subscription::State::Late);
    QCOMPARE(s->counters.latePublishRequestCount, uint64_t(1));
    QCOMPARE(s->currentLifetimeCount(), 20u);
    QCOMPARE(s->publishingTimerDueUs(), t0 + 47 * s1);  // 30 intervals after the keep-alive
    f.advanceMs(5000);
    QCOMPARE(s->currentLifetimeCount(), 15u);
    f.advanceMs(14999);
    QVERIFY(f.ss().find(sub));
    QCOMPARE(s->currentLifetimeCount(), 1u);
    f.advanceMs(1);
    QVERIFY(!f.ss().find(sub));  // lifetime over, at the 30th expiry
    f.publish(4);
    QCOMPARE(f.responses.size(), std::size_t(4));
    QVERIFY(statusChange(f.responses[3].response));
    QCOMPARE(statusChange(f.responses[3].response)->status, StatusCode(status::BadTimeout));
}

// The first expiry of a long interval is rounded up to a quantum of the clock, so that
// Subscriptions created at different times share the thread's wake-ups.
void TestSubscriptions::firstExpiryIsRoundedToTheQuantum() {
    QCOMPARE(Subscription::publishingQuantumUs(50'000), int64_t(1));
    QCOMPARE(Subscription::publishingQuantumUs(99'999), int64_t(1));
    QCOMPARE(Subscription::publishingQuantumUs(100'000), int64_t(1000));
    QCOMPARE(Subscription::publishingQuantumUs(399'999), int64_t(2000));
    QCOMPARE(Subscription::publishingQuantumUs(1'000'000), int64_t(8000));
    QCOMPARE(Subscription::publishingQuantumUs(3'600'000'000), int64_t(16000));
    SubscriptionFixture f;
    const int64_t t0 = f.nowUs;  // a multiple of 16 ms
    f.nowUs += 3'000;
    const uint32_t a = f.createSubscription(1000, 10, 30);
    f.nowUs += 4'500;
    const uint32_t b = f.createSubscription(1000, 10, 30);
    const uint32_t c = f.createSubscription(50, 100, 300);
    QCOMPARE(f.ss().find(a)->publishingTimerDueUs(), t0 + 1'008'000);
    QCOMPARE(f.ss().find(b)->publishingTimerDueUs(), t0 + 1'008'000);  // the same wake-up
    QCOMPARE(f.ss().find(c)->publishingTimerDueUs(), t0 + 57'500);     // short: not rounded
    f.publish(1);
    f.publish(2);
    f.nowUs = t0 + 1'007'999;
    f.scheduler->runDue(f.nowUs);
    QCOMPARE(f.responses.size(), std::size_t(1));  // c's first keep-alive only
    f.nowUs += 1;
    f.scheduler->runDue(f.nowUs);
    QCOMPARE(f.responses.size(), std::size_t(2));  // a's or b's; the other has no Publish request left
    QCOMPARE(int(f.ss().find(a)->state() == Subscription::State::Late) + int(f.ss().find(b)->state() == Subscription::State::Late), 1);
}

void TestSubscriptions::keepAliveCarriesNextSequenceNumberAndIsNotAcknowledgeable() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 2, 10);
    QVERIFY(f.createItem(sub, f.demo("Demo.Scalars.Double"), 10).statusCode.isGood());
    f.publish(1);
    f.advanceMs(100);  // the initial value
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(f.responses[0].response.notificationMessage.sequenceNumber, 1u);
    QCOMPARE(notifications(f.responses[0].response).size(), std::size_t(1));
    f.publish(2);
    f.publish(3);
    f.advanceMs(200);  // two expiries without changes: keep-alive
    QCOMPARE(f.responses.size(), std::size_t(2));
    const PublishResponse& ka = f.responses[1].response;
    QVERIFY(isKeepAlive(ka));
    QCOMPARE(ka.notificationMessage.sequenceNumber, 2u);  // the next one, not consumed
    QCOMPARE(ka.availableSequenceNumbers.size(), std::size_t(1));
    f.publish(4, {{sub, 2}});  // acknowledging the keep-alive's number
    QCOMPARE(f.ss().find(sub)->unacknowledgedMessageCount(), std::size_t(1));
    f.write(f.demo("Demo.Scalars.Double"), 9.5);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(3));
    QCOMPARE(f.responses[2].requestHandle, 3u);
    QCOMPARE(f.responses[2].response.notificationMessage.sequenceNumber, 2u);  // the keep-alive did not use it
    f.advanceMs(200);  // the next keep-alive answers request 4, with its acknowledgement's result
    QCOMPARE(f.responses.size(), std::size_t(4));
    QCOMPARE(f.responses[3].requestHandle, 4u);
    QCOMPARE(f.responses[3].response.results, (Array<StatusCode>{status::BadSequenceNumberUnknown}));
}

void TestSubscriptions::lifetimeExpiryQueuesBadTimeout() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 2, 6);
    QVERIFY(f.createItem(sub, f.demo("Demo.Scalars.Double"), 50).statusCode.isGood());
    QCOMPARE(f.registry->itemCount(), 1u);
    f.advanceMs(599);  // five expiries without a Publish request
    QVERIFY(f.ss().find(sub));
    QCOMPARE(f.ss().find(sub)->state(), Subscription::State::Late);
    f.advanceMs(1);  // the sixth: lifetime over
    QVERIFY(!f.ss().find(sub));
    QCOMPARE(f.registry->subscriptionCount(), 0);
    QCOMPARE(f.registry->itemCount(), 0u);  // its items went with it
    QVERIFY(f.responses.empty());
    f.publish(9);  // the next Publish gets the StatusChangeNotification
    QCOMPARE(f.responses.size(), std::size_t(1));
    const PublishResponse& r = f.responses[0].response;
    QCOMPARE(r.subscriptionId, sub);
    QVERIFY(statusChange(r));
    QCOMPARE(statusChange(r)->status, StatusCode(status::BadTimeout));
    f.publish(10);  // nothing left at all
    QCOMPARE(f.responses.back().response.responseHeader.serviceResult, StatusCode(status::BadNoSubscription));
}

void TestSubscriptions::publishRequestsResetTheLifetime() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 2, 6);
    for (int i = 0; i < 20; ++i) {
        f.advanceMs(100);
        if (i % 2 == 0) f.publish(uint32_t(i + 1));  // the keep-alives use them
    }
    QVERIFY(f.ss().find(sub));
    QVERIFY(f.ss().find(sub)->currentLifetimeCount() > 0);
}

void TestSubscriptions::samplingDeadlinesDoNotDrift() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(1000, 10, 100);
    const NodeId counter = f.demo("Demo.Scalars.Int64");
    MonitoredItemCreateResult r = f.createItem(sub, counter, 10, 200);
    QVERIFY(r.statusCode.isGood());
    QCOMPARE(r.revisedSamplingInterval, 10.0);
    const uint64_t before = f.ss().find(sub)->counters.samplesTaken;
    // The counter is the fake clock in ms: changes every ms.
    f.stepMs(1000, [&] { f.write(counter, int64_t(f.nowUs / 1000)); });
    const uint64_t samples = f.ss().find(sub)->counters.samplesTaken - before;
    QCOMPARE(samples, uint64_t(100));  // 10 ms -> 100 samples per second, exactly
    f.publish(1);
    QCOMPARE(f.responses.size(), std::size_t(1));  // LATE: answered at once
    const auto n = notifications(f.responses[0].response);
    QCOMPARE(n.size(), std::size_t(101));  // the initial value + 100 samples
    // Every sample was due at k*10 ms + 2.5 ms of the clock (a quarter interval after the grid
    // line) and taken at the first 1-ms step of the fake clock at or after it: k*10 + 3.
    for (std::size_t i = 1; i < n.size(); ++i) {
        const int64_t v = *n[i].value.value.get<int64_t>();
        QCOMPARE(v % 10, int64_t(3));
        if (i >= 2) QCOMPARE(v - *n[i - 1].value.value.get<int64_t>(), int64_t(10));
    }
}

void TestSubscriptions::lateSamplingSkipsMissedDeadlinesOnTheGrid() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 10, 100);
    const NodeId counter = f.demo("Demo.Scalars.Int64");
    QVERIFY(f.createItem(sub, counter, 10, 500).statusCode.isGood());
    f.stepMs(50, [&] { f.write(counter, int64_t(f.nowUs / 1000)); });
    // The thread stalls for 37 ms: one late sample, three deadlines skipped, then back on the grid.
    f.write(counter, int64_t(f.nowUs / 1000));
    f.advanceMs(37);
    QCOMPARE(f.ss().find(sub)->counters.samplingTicksSkipped, uint64_t(3));
    f.stepMs(50, [&] { f.write(counter, int64_t(f.nowUs / 1000)); });
    f.publish(1);
    const auto n = notifications(f.responses.at(0).response);
    QVERIFY(n.size() > 5);
    // The five last samples are on the grid again (due at k*10 + 2.5 ms, taken at k*10 + 3).
    for (std::size_t i = n.size() - 5; i < n.size(); ++i) QCOMPARE(*n[i].value.value.get<int64_t>() % 10, int64_t(3));
}

void TestSubscriptions::dataChangesArePublishedAndAcknowledged() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId node = f.demo("Demo.Scalars.Double");
    const MonitoredItemCreateResult item = f.createItem(sub, node, 20, 5);
    QVERIFY(item.statusCode.isGood());
    QVERIFY(item.monitoredItemId != 0);
    f.publish(1);
    f.publish(2);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(1));
    auto n = notifications(f.responses[0].response);
    QCOMPARE(n.size(), std::size_t(1));
    QCOMPARE(n[0].clientHandle, 77u);
    QCOMPARE(*n[0].value.value.get<double>(), 3.25);  // the demo's initial value
    QVERIFY(n[0].value.hasServerTimestamp);
    f.write(node, 4.5);
    f.advanceMs(50);
    f.write(node, 5.5);
    f.advanceMs(50);
    QCOMPARE(f.responses.size(), std::size_t(2));
    const PublishResponse& r = f.responses[1].response;
    n = notifications(r);
    QCOMPARE(n.size(), std::size_t(2));
    QCOMPARE(*n[0].value.value.get<double>(), 4.5);
    QCOMPARE(*n[1].value.value.get<double>(), 5.5);
    QCOMPARE(r.notificationMessage.sequenceNumber, 2u);
    QCOMPARE(r.availableSequenceNumbers, (Array<uint32_t>{1, 2}));
    f.publish(3, {{sub, 1}, {sub, 2}});
    QCOMPARE(f.ss().find(sub)->unacknowledgedMessageCount(), std::size_t(0));
}

void TestSubscriptions::unknownIdsAndSequenceNumbers() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    ModifySubscriptionRequest m;
    m.subscriptionId = sub + 1000;
    ModifySubscriptionResponse mr;
    modifySubscription(f.ss(), m, mr, f.nowUs);
    QCOMPARE(mr.responseHeader.serviceResult, StatusCode(status::BadSubscriptionIdInvalid));
    CreateMonitoredItemsRequest c;
    c.subscriptionId = sub + 1000;
    c.itemsToCreate = Array<MonitoredItemCreateRequest>{MonitoredItemCreateRequest{}};
    CreateMonitoredItemsResponse cr;
    createMonitoredItems(f.ss(), c, cr, f.nowUs);
    QCOMPARE(cr.responseHeader.serviceResult, StatusCode(status::BadSubscriptionIdInvalid));
    SetPublishingModeRequest p;
    p.subscriptionIds = Array<uint32_t>{sub, sub + 1000};
    SetPublishingModeResponse pr;
    setPublishingMode(f.ss(), p, pr, f.nowUs);
    QCOMPARE(pr.results, (Array<StatusCode>{status::Good, status::BadSubscriptionIdInvalid}));
    DeleteSubscriptionsRequest d;
    d.subscriptionIds = Array<uint32_t>{sub + 1000};
    DeleteSubscriptionsResponse dr;
    deleteSubscriptions(f.ss(), d, dr, f.nowUs);
    QCOMPARE(dr.results, (Array<StatusCode>{status::BadSubscriptionIdInvalid}));
    f.publish(1, {{sub, 42}, {sub + 1000, 1}});
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(f.responses[0].response.results, (Array<StatusCode>{status::BadSequenceNumberUnknown, status::BadSubscriptionIdInvalid}));
}

void TestSubscriptions::tooManyPublishRequestsAnswersTheOldest() {
    SubscriptionConfig c;
    c.maxPublishRequestsPerSession = 3;
    SubscriptionFixture f(c);
    f.createSubscription(1000, 5, 50);
    for (uint32_t h = 1; h <= 3; ++h) f.publish(h);
    QVERIFY(f.responses.empty());
    f.publish(4);
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(f.responses[0].requestHandle, 1u);
    QCOMPARE(f.responses[0].response.responseHeader.serviceResult, StatusCode(status::BadTooManyPublishRequests));
    f.publish(5);
    QCOMPARE(f.responses[1].requestHandle, 2u);
    QCOMPARE(f.ss().parkedCount(), std::size_t(3));
}

void TestSubscriptions::cancelAnswersParkedPublishRequests() {
    SubscriptionFixture f;
    f.createSubscription(1000, 5, 50);
    f.publish(7);
    f.publish(8);
    f.publish(7);
    CancelRequest c;
    c.requestHandle = 7;
    CancelResponse r;
    cancelPublish(f.ss(), c, r, f.nowUs);
    QCOMPARE(r.cancelCount, 2u);
    QCOMPARE(f.responses.size(), std::size_t(2));
    for (const Captured& x : f.responses) {
        QCOMPARE(x.requestHandle, 7u);
        QCOMPARE(x.response.responseHeader.serviceResult, StatusCode(status::BadRequestCancelledByClient));
    }
    QCOMPARE(f.ss().parkedCount(), std::size_t(1));
    c.requestHandle = 99;
    cancelPublish(f.ss(), c, r, f.nowUs);
    QCOMPARE(r.cancelCount, 0u);
}

void TestSubscriptions::noSubscriptionAnswersPublishAtOnce() {
    SubscriptionFixture f;
    f.publish(1);
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(f.responses[0].response.responseHeader.serviceResult, StatusCode(status::BadNoSubscription));
    // Deleting the last Subscription answers the parked requests the same way.
    const uint32_t sub = f.createSubscription(1000, 5, 50);
    f.publish(2);
    DeleteSubscriptionsRequest d;
    d.subscriptionIds = Array<uint32_t>{sub};
    DeleteSubscriptionsResponse dr;
    deleteSubscriptions(f.ss(), d, dr, f.nowUs);
    QCOMPARE(f.responses.size(), std::size_t(2));
    QCOMPARE(f.responses[1].response.responseHeader.serviceResult, StatusCode(status::BadNoSubscription));
}

void TestSubscriptions::monitoredItemRevisions_data() {
    QTest::addColumn<QString>("node");
    QTest::addColumn<double>("sampling");
    QTest::addColumn<uint>("queue");
    QTest::addColumn<double>("revisedSampling");
    QTest::addColumn<uint>("revisedQueue");
    QTest::newRow("as requested") << "Demo.Scalars.Double" << 250.0 << 5u << 250.0 << 5u;
    QTest::newRow("queue size 0 is 1") << "Demo.Scalars.Double" << 250.0 << 0u << 250.0 << 1u;
    QTest::newRow("huge queue") << "Demo.Scalars.Double" << 250.0 << 4000000000u << 250.0 << 10000u;
    QTest::newRow("-1 is the publishing interval") << "Demo.Scalars.Double" << -1.0 << 1u << 400.0 << 1u;
    QTest::newRow("negative is the publishing interval") << "Demo.Scalars.Double" << -77.0 << 1u << 400.0 << 1u;
    QTest::newRow("0 is the fastest") << "Demo.Scalars.Double" << 0.0 << 1u << 5.0 << 1u;
    QTest::newRow("below the fastest") << "Demo.Scalars.Double" << 1.0 << 1u << 5.0 << 1u;
    QTest::newRow("huge sampling interval") << "Demo.Scalars.Double" << 1e15 << 1u << 3'600'000.0 << 1u;
    QTest::newRow("NaN is the publishing interval") << "Demo.Scalars.Double" << double(NAN) << 1u << 400.0 << 1u;
    QTest::newRow("-infinity is the publishing interval") << "Demo.Scalars.Double" << -double(INFINITY) << 1u << 400.0 << 1u;
    QTest::newRow("+infinity is the slowest") << "Demo.Scalars.Double" << double(INFINITY) << 1u << 3'600'000.0 << 1u;
    QTest::newRow("MinimumSamplingInterval of the node") << "Demo.Simulation.Ramp" << 0.0 << 1u << 10.0 << 1u;
}

void TestSubscriptions::monitoredItemRevisions() {
    QFETCH(QString, node);
    QFETCH(double, sampling);
    QFETCH(uint, queue);
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(400, 5, 50);
    const MonitoredItemCreateResult r = f.createItem(sub, f.demo(node.toUtf8().constData()), sampling, queue);
    QCOMPARE(r.statusCode, StatusCode(status::Good));
    QTEST(r.revisedSamplingInterval, "revisedSampling");
    QTEST(uint(r.revisedQueueSize), "revisedQueue");
    // ModifyMonitoredItems revises the same way.
    ModifyMonitoredItemsRequest m;
    m.subscriptionId = sub;
    m.timestampsToReturn = TimestampsToReturn::Both;
    MonitoredItemModifyRequest mi;
    mi.monitoredItemId = r.monitoredItemId;
    mi.requestedParameters.samplingInterval = sampling;
    mi.requestedParameters.queueSize = queue;
    m.itemsToModify = Array<MonitoredItemModifyRequest>{mi};
    ModifyMonitoredItemsResponse mr;
    modifyMonitoredItems(f.ss(), m, mr, f.nowUs);
    QCOMPARE(mr.results.size(), std::size_t(1));
    QCOMPARE(mr.results[0].revisedSamplingInterval, r.revisedSamplingInterval);
    QCOMPARE(mr.results[0].revisedQueueSize, r.revisedQueueSize);
}

void TestSubscriptions::filterErrors_data() {
    QTest::addColumn<QString>("node");
    QTest::addColumn<uint>("attribute");
    QTest::addColumn<ExtensionObject>("filter");
    QTest::addColumn<uint>("expected");
    const uint value = uint(AttributeId::Value);
    QTest::newRow("absolute deadband on a String") << "Demo.Scalars.String" << value << deadband(DeadbandType::Absolute, 1) << uint(status::BadFilterNotAllowed);
    QTest::newRow("percent deadband on a Boolean") << "Demo.Scalars.Boolean" << value << deadband(DeadbandType::Percent, 5) << uint(status::BadFilterNotAllowed);
    QTest::newRow("percent 150") << "Demo.Analog.Temperature" << value << deadband(DeadbandType::Percent, 150) << uint(status::BadDeadbandFilterInvalid);
    QTest::newRow("percent -1") << "Demo.Analog.Temperature" << value << deadband(DeadbandType::Percent, -1) << uint(status::BadDeadbandFilterInvalid);
    QTest::newRow("percent without EURange") << "Demo.Scalars.Double" << value << deadband(DeadbandType::Percent, 10) << uint(status::BadDeadbandFilterInvalid);
    QTest::newRow("negative absolute") << "Demo.Scalars.Double" << value << deadband(DeadbandType::Absolute, -1) << uint(status::BadDeadbandFilterInvalid);
    QTest::newRow("NaN absolute") << "Demo.Scalars.Double" << value << deadband(DeadbandType::Absolute, double(NAN)) << uint(status::BadDeadbandFilterInvalid);
    QTest::newRow("infinite absolute") << "Demo.Scalars.Double" << value << deadband(DeadbandType::Absolute, double(INFINITY)) << uint(status::BadDeadbandFilterInvalid);
    QTest::newRow("NaN percent") << "Demo.Analog.Temperature" << value << deadband(DeadbandType::Percent, double(NAN)) << uint(status::BadDeadbandFilterInvalid);
    QTest::newRow("unknown deadband type") << "Demo.Scalars.Double" << value << deadband(DeadbandType(7), 1) << uint(status::BadDeadbandFilterInvalid);
    QTest::newRow("unknown trigger") << "Demo.Scalars.Double" << value << deadband(DeadbandType::None, 0, DataChangeTrigger(9)) << uint(status::BadMonitoredItemFilterInvalid);
    QTest::newRow("filter on DisplayName") << "Demo.Scalars.Double" << uint(AttributeId::DisplayName) << deadband(DeadbandType::None, 0) << uint(status::BadFilterNotAllowed);
    QTest::newRow("AggregateFilter") << "Demo.Scalars.Double" << value << ExtensionObject::make(AggregateFilter{}) << uint(status::BadMonitoredItemFilterUnsupported);
    QTest::newRow("EventFilter on a value") << "Demo.Scalars.Double" << value << ExtensionObject::make(EventFilter{}) << uint(status::BadFilterNotAllowed);
    QTest::newRow("an undecoded structure") << "Demo.Scalars.Double" << value << ExtensionObject::opaque(NodeId(1, 4242u), ByteString("xx")) << uint(status::BadMonitoredItemFilterUnsupported);
    QTest::newRow("unknown node") << "Demo.Nothing" << value << ExtensionObject() << uint(status::BadNodeIdUnknown);
    QTest::newRow("absolute deadband on a Double") << "Demo.Scalars.Double" << value << deadband(DeadbandType::Absolute, 1) << uint(status::Good);
    QTest::newRow("percent 100 on an AnalogItem") << "Demo.Analog.Pressure" << value << deadband(DeadbandType::Percent, 100) << uint(status::Good);
}

void TestSubscriptions::filterErrors() {
    QFETCH(QString, node);
    QFETCH(uint, attribute);
    QFETCH(ExtensionObject, filter);
    QFETCH(uint, expected);
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const auto r = f.createItem(sub, f.demo(node.toUtf8().constData()), 100, 1, filter, attribute);
    QCOMPARE(r.statusCode, StatusCode(expected));
    QCOMPARE(f.ss().find(sub)->itemCount(), std::size_t(expected == status::Good.code ? 1 : 0));
    QCOMPARE(f.registry->itemCount(), uint32_t(expected == status::Good.code ? 1 : 0));
}

void TestSubscriptions::absoluteAndPercentDeadbands() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId temp = f.demo("Demo.Analog.Temperature");  // EURange -40..120: 10 % is 16
    QVERIFY(f.createItem(sub, temp, 10, 10, deadband(DeadbandType::Percent, 10)).statusCode.isGood());
    const NodeId d = f.demo("Demo.Scalars.Double");  // 3.25
    QVERIFY(f.createItem(sub, d, 10, 10, deadband(DeadbandType::Absolute, 2)).statusCode.isGood());
    f.publish(1);
    f.advanceMs(100);  // initial values
    QCOMPARE(notifications(f.responses.at(0).response).size(), std::size_t(2));
    const double temps[] = {30.0, 37.4, 37.6, 20.0};  // from 21.5: +8.5 no, +15.9 no, +16.1 yes, -17.6 yes
    const double doubles[] = {5.0, 5.3, 7.0, 5.1};     // from 3.25: +1.75 no, +2.05 yes, +1.7 no (vs 5.3), -0.2 no
    for (int i = 0; i < 4; ++i) {
        f.write(temp, temps[i]);
        f.write(d, doubles[i]);
        f.advanceMs(10);
    }
    f.publish(2);
    f.advanceMs(60);
    QCOMPARE(f.responses.size(), std::size_t(2));
    std::vector<double> got;
    for (const auto& n : notifications(f.responses[1].response)) got.push_back(*n.value.value.get<double>());
    std::sort(got.begin(), got.end());
    QCOMPARE(got, (std::vector<double>{5.3, 20.0, 37.6}));
}

namespace {
// The values of the notifications of one Publish response, in order.
std::vector<Variant> notifiedValues(const PublishResponse& r) {
    std::vector<Variant> out;
    for (const auto& n : notifications(r)) out.push_back(n.value.value);
    return out;
}
} // namespace

void TestSubscriptions::nanIsReportedOnceWhenEntered_data() {
    QTest::addColumn<ExtensionObject>("filter");
    QTest::newRow("no deadband") << ExtensionObject();
    QTest::newRow("absolute deadband 5") << deadband(DeadbandType::Absolute, 5);
}

// 7.10 STATUS_VALUE: one notification when the value enters NaN, none while it stays NaN, and
// (our choice, which 7.10 leaves open) one when it leaves NaN, also inside a deadband.
void TestSubscriptions::nanIsReportedOnceWhenEntered() {
    QFETCH(ExtensionObject, filter);
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(1000, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");  // 3.25
    QVERIFY(f.createItem(sub, d, 10, 20, filter).statusCode.isGood());
    f.advanceMs(10);
    f.write(d, double(NAN));
    for (int i = 0; i < 5; ++i) f.advanceMs(10);  // five samples of NaN
    f.write(d, 3.0);
    f.advanceMs(10);
    f.publish(1);
    f.advanceMs(1000);
    const std::vector<Variant> v = notifiedValues(f.responses.at(0).response);
    QCOMPARE(v.size(), std::size_t(3));
    QCOMPARE(*v[0].get<double>(), 3.25);
    QVERIFY(std::isnan(*v[1].get<double>()));
    QCOMPARE(*v[2].get<double>(), 3.0);
}

void TestSubscriptions::nullAndEmptyAreTheSameValue_data() {
    QTest::addColumn<QString>("node");
    QTest::addColumn<Variant>("empty");
    QTest::addColumn<Variant>("null");
    QTest::addColumn<Variant>("other");
    Array<int32_t> nullInts;
    Array<double> nullDoubles;
    QTest::newRow("String") << "Demo.Scalars.String" << Variant(String("")) << Variant(String()) << Variant(String("x"));
    QTest::newRow("ByteString") << "Demo.Scalars.ByteString" << Variant(ByteString("")) << Variant(ByteString()) << Variant(ByteString("x"));
    QTest::newRow("Int32 array") << "Demo.Arrays.Int32" << Variant(Array<int32_t>::emptyArray()) << Variant(nullInts)
                                 << Variant(Array<int32_t>{1});
    QTest::newRow("Double array") << "Demo.Arrays.Double" << Variant(Array<double>::emptyArray()) << Variant(nullDoubles)
                                  << Variant(Array<double>{double(NAN)});
}

// 7.10: null and empty arrays of one DataType, and null and empty Strings and ByteStrings, are
// the same value: going from one to the other is no data change.
void TestSubscriptions::nullAndEmptyAreTheSameValue() {
    QFETCH(QString, node);
    QFETCH(Variant, empty);
    QFETCH(Variant, null);
    QFETCH(Variant, other);
    SubscriptionFixture f;
    const NodeId n = f.demo(node.toUtf8().constData());
    f.write(n, empty);
    const uint32_t sub = f.createSubscription(1000, 5, 50);
    QVERIFY(f.createItem(sub, n, 10, 20).statusCode.isGood());
    f.advanceMs(10);
    f.write(n, null);
    f.advanceMs(10);
    f.write(n, empty);
    f.advanceMs(10);
    f.write(n, other);
    f.advanceMs(10);
    f.write(n, other);  // the same again (a NaN element equals a NaN element)
    f.advanceMs(10);
    f.publish(1);
    f.advanceMs(1000);
    const std::vector<Variant> v = notifiedValues(f.responses.at(0).response);
    QCOMPARE(v.size(), std::size_t(2));  // the initial value and `other`
}

// 7.10: with a deadband, STATUS_VALUE_TIMESTAMP behaves as STATUS_VALUE: a new SourceTimestamp
// with the same value, or a change inside the deadband, is not reported.
void TestSubscriptions::statusValueTimestampWithADeadbandIsStatusValue() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(1000, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    f.write(d, 10.0);
    QVERIFY(f.createItem(sub, d, 10, 20, deadband(DeadbandType::Absolute, 5, DataChangeTrigger::StatusValueTimestamp))
                .statusCode.isGood());
    f.advanceMs(10);
    f.write(d, 10.0);  // the same value, a new SourceTimestamp
    f.advanceMs(10);
    f.write(d, 11.0);  // inside the deadband
    f.advanceMs(10);
    f.write(d, 20.0);  // outside it
    f.advanceMs(10);
    f.publish(1);
    f.advanceMs(1000);
    const std::vector<Variant> v = notifiedValues(f.responses.at(0).response);
    QCOMPARE(v.size(), std::size_t(2));
    QCOMPARE(*v[1].get<double>(), 20.0);
}

namespace {
// The Double values of r's notifications are `values`, and only the one at overflowIndex (-1:
// none) carries the Overflow InfoBits; a warning says which check failed.
bool notifiedWithOverflowAt(const PublishResponse& r, const QList<double>& values, int overflowIndex) {
    const auto n = notifications(r);
    if (n.size() != std::size_t(values.size())) {
        qWarning("%zu notifications, %lld expected", n.size(), qlonglong(values.size()));
        return false;
    }
    for (int i = 0; i < int(n.size()); ++i) {
        const DataValue& v = n[std::size_t(i)].value;
        const bool overflow = (v.status.code & kOverflowInfoBits) == kOverflowInfoBits;
        if (!v.value.get<double>() || *v.value.get<double>() != values[i] || overflow != (i == overflowIndex)) {
            qWarning("notification %d: value %g, overflow %d", i, v.value.get<double>() ? *v.value.get<double>() : NAN, int(overflow));
            return false;
        }
    }
    return true;
}
} // namespace

void TestSubscriptions::queueOverflowSetsInfoBits_data() {
    QTest::addColumn<bool>("discardOldest");
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<int>("overflowIndex");
    QTest::newRow("discard oldest") << true << QList<double>{3, 4, 5} << 0;
    QTest::newRow("discard newest") << false << QList<double>{1, 2, 5} << 2;
}

void TestSubscriptions::queueOverflowSetsInfoBits() {
    QFETCH(bool, discardOldest);
    QFETCH(QList<double>, values);
    QFETCH(int, overflowIndex);
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(1000, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    f.write(d, 1.0);
    QVERIFY(f.createItem(sub, d, 10, 3, {}, uint32_t(AttributeId::Value), discardOldest).statusCode.isGood());  // queues 1
    for (double v : {2.0, 3.0, 4.0, 5.0}) {
        f.write(d, v);
        f.advanceMs(10);
    }
    f.publish(1);
    f.advanceMs(1000);
    QVERIFY(notifiedWithOverflowAt(f.responses.at(0).response, values, overflowIndex));
    QCOMPARE(f.ss().find(sub)->counters.monitoringQueueOverflowCount, uint64_t(2));
}

void TestSubscriptions::shrinkingTheQueueSetsOverflow_data() {
    QTest::addColumn<bool>("discardOldest");
    QTest::addColumn<uint>("newSize");
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<int>("overflowIndex");  // -1: none
    QTest::newRow("discard oldest, 5 to 3") << true << 3u << QList<double>{3.0, 4.0, 5.0} << 0;
    QTest::newRow("discard newest, 5 to 3") << false << 3u << QList<double>{1.0, 2.0, 5.0} << 2;
    QTest::newRow("to 1: no bit") << true << 1u << QList<double>{5.0} << -1;
}

// 5.13.1.5, 7.25.2: ModifyMonitoredItems shrinking a full queue purges values, and a purge sets
// the Overflow InfoBits like an overflow does (none for a queue of 1).
void TestSubscriptions::shrinkingTheQueueSetsOverflow() {
    QFETCH(bool, discardOldest);
    QFETCH(uint, newSize);
    QFETCH(QList<double>, values);
    QFETCH(int, overflowIndex);
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(1000, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    f.write(d, 1.0);
    const MonitoredItemCreateResult item = f.createItem(sub, d, 10, 5, {}, uint32_t(AttributeId::Value), discardOldest);
    QVERIFY(item.statusCode.isGood());  // queues 1
    for (double v : {2.0, 3.0, 4.0, 5.0}) {
        f.write(d, v);
        f.advanceMs(10);
    }
    ModifyMonitoredItemsRequest m;
    m.subscriptionId = sub;
    m.timestampsToReturn = TimestampsToReturn::Both;
    MonitoredItemModifyRequest mi;
    mi.monitoredItemId = item.monitoredItemId;
    mi.requestedParameters.samplingInterval = 1000;
    mi.requestedParameters.queueSize = newSize;
    mi.requestedParameters.discardOldest = discardOldest;
    m.itemsToModify = Array<MonitoredItemModifyRequest>{mi};
    ModifyMonitoredItemsResponse mr;
    modifyMonitoredItems(f.ss(), m, mr, f.nowUs);
    QCOMPARE(mr.results.size(), std::size_t(1));
    QCOMPARE(mr.results[0].revisedQueueSize, newSize);
    f.publish(1);
    f.advanceMs(1000);
    QVERIFY(notifiedWithOverflowAt(f.responses.at(0).response, values, overflowIndex));
}

void TestSubscriptions::tooManyMonitoredItems() {
    SubscriptionConfig c;
    c.maxMonitoredItemsPerSubscription = 2;
    c.maxMonitoredItems = 3;
    SubscriptionFixture f(c);
    const uint32_t a = f.createSubscription(100, 5, 50);
    const uint32_t b = f.createSubscription(100, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    QVERIFY(f.createItem(a, d, 100).statusCode.isGood());
    QVERIFY(f.createItem(a, d, 100).statusCode.isGood());
    QCOMPARE(f.createItem(a, d, 100).statusCode, StatusCode(status::BadTooManyMonitoredItems));  // per subscription
    QVERIFY(f.createItem(b, d, 100).statusCode.isGood());
    QCOMPARE(f.createItem(b, d, 100).statusCode, StatusCode(status::BadTooManyMonitoredItems));  // server-wide
    QCOMPARE(f.registry->itemCount(), 3u);
}

void TestSubscriptions::tooManySubscriptions() {
    SubscriptionConfig c;
    c.maxSubscriptionsPerSession = 2;
    c.maxSubscriptions = 3;
    SubscriptionFixture f(c);
    f.addSession("anonymous");
    QVERIFY(f.createSubscription(100, 5, 50) != 0);
    QVERIFY(f.createSubscription(100, 5, 50) != 0);
    CreateSubscriptionResponse r;
    QCOMPARE(f.createSubscription(100, 5, 50, 0, &r), 0u);
    QCOMPARE(r.responseHeader.serviceResult, StatusCode(status::BadTooManySubscriptions));
    QVERIFY(f.createSubscription(100, 5, 50, 1) != 0);
    QCOMPARE(f.createSubscription(100, 5, 50, 1, &r), 0u);  // server-wide limit
    QCOMPARE(r.responseHeader.serviceResult, StatusCode(status::BadTooManySubscriptions));
}

void TestSubscriptions::tooManyOperationsPerCall() {
    SubscriptionConfig c;
    c.maxMonitoredItemsPerCall = 3;
    SubscriptionFixture f(c);
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    auto create = [&](int n, CreateMonitoredItemsResponse& resp) {
        CreateMonitoredItemsRequest req;
        req.subscriptionId = sub;
        req.timestampsToReturn = TimestampsToReturn::Both;
        for (int i = 0; i < n; ++i) {
            MonitoredItemCreateRequest item;
            item.itemToMonitor.nodeId = d;
            item.itemToMonitor.attributeId = uint32_t(AttributeId::Value);
            item.monitoringMode = MonitoringMode::Reporting;
            item.requestedParameters.samplingInterval = 100;
            item.requestedParameters.queueSize = 1;
            req.itemsToCreate.push_back(item);
        }
        createMonitoredItems(f.ss(), req, resp, f.nowUs);
    };
    // At the limit: served. One more: Bad_TooManyOperations for the request, no results, nothing
    // created (OPC 10000-5 6.3.11 MaxMonitoredItemsPerCall, OPC 10000-4 7.38.2).
    CreateMonitoredItemsResponse created;
    create(3, created);
    QCOMPARE(created.responseHeader.serviceResult, StatusCode(status::Good));
    QCOMPARE(created.results.size(), std::size_t(3));
    CreateMonitoredItemsResponse refused;
    create(4, refused);
    QCOMPARE(refused.responseHeader.serviceResult, StatusCode(status::BadTooManyOperations));
    QVERIFY(refused.results.empty());
    QCOMPARE(f.registry->itemCount(), 3u);
    const Array<uint32_t> three{created.results[0].monitoredItemId, created.results[1].monitoredItemId,
                                created.results[2].monitoredItemId};
    const Array<uint32_t> four{three[0], three[1], three[2], 4242};

    ModifyMonitoredItemsRequest mod;
    mod.subscriptionId = sub;
    mod.timestampsToReturn = TimestampsToReturn::Both;
    for (uint32_t id : four) {
        MonitoredItemModifyRequest m;
        m.monitoredItemId = id;
        m.requestedParameters.samplingInterval = 200;
        m.requestedParameters.queueSize = 1;
        mod.itemsToModify.push_back(m);
    }
    ModifyMonitoredItemsResponse modResp;
    modifyMonitoredItems(f.ss(), mod, modResp, f.nowUs);
    QCOMPARE(modResp.responseHeader.serviceResult, StatusCode(status::BadTooManyOperations));
    QVERIFY(modResp.results.empty());
    QCOMPARE(f.ss().find(sub)->item(three[0])->samplingIntervalMs, 100.0);  // not modified
    mod.itemsToModify.resize(3);
    ModifyMonitoredItemsResponse modified;
    modifyMonitoredItems(f.ss(), mod, modified, f.nowUs);
    QCOMPARE(modified.responseHeader.serviceResult, StatusCode(status::Good));
    QCOMPARE(modified.results.size(), std::size_t(3));

    SetMonitoringModeRequest mode;
    mode.subscriptionId = sub;
    mode.monitoringMode = MonitoringMode::Sampling;
    mode.monitoredItemIds = four;
    SetMonitoringModeResponse modeResp;
    setMonitoringMode(f.ss(), mode, modeResp, f.nowUs);
    QCOMPARE(modeResp.responseHeader.serviceResult, StatusCode(status::BadTooManyOperations));
    QVERIFY(modeResp.results.empty());
    QCOMPARE(f.ss().find(sub)->item(three[0])->mode, MonitoringMode::Reporting);
    mode.monitoredItemIds = three;
    SetMonitoringModeResponse modeSet;
    setMonitoringMode(f.ss(), mode, modeSet, f.nowUs);
    QCOMPARE(modeSet.results, (Array<StatusCode>{status::Good, status::Good, status::Good}));

    // SetTriggering counts linksToAdd and linksToRemove together.
    SetTriggeringRequest trig;
    trig.subscriptionId = sub;
    trig.triggeringItemId = three[0];
    trig.linksToAdd = Array<uint32_t>{three[1], three[2]};
    trig.linksToRemove = Array<uint32_t>{three[1], three[2]};
    SetTriggeringResponse trigResp;
    setTriggering(f.ss(), trig, trigResp, f.nowUs);
    QCOMPARE(trigResp.responseHeader.serviceResult, StatusCode(status::BadTooManyOperations));
    QVERIFY(trigResp.addResults.empty() && trigResp.removeResults.empty());
    QVERIFY(f.ss().find(sub)->item(three[0])->triggeredItems.empty());
    trig.linksToRemove = Array<uint32_t>{three[1]};
    SetTriggeringResponse linked;
    setTriggering(f.ss(), trig, linked, f.nowUs);
    QCOMPARE(linked.responseHeader.serviceResult, StatusCode(status::Good));
    QCOMPARE(linked.addResults.size() + linked.removeResults.size(), std::size_t(3));

    DeleteMonitoredItemsRequest del;
    del.subscriptionId = sub;
    del.monitoredItemIds = four;
    DeleteMonitoredItemsResponse delResp;
    deleteMonitoredItems(f.ss(), del, delResp, f.nowUs);
    QCOMPARE(delResp.responseHeader.serviceResult, StatusCode(status::BadTooManyOperations));
    QVERIFY(delResp.results.empty());
    QCOMPARE(f.registry->itemCount(), 3u);
    del.monitoredItemIds = three;
    DeleteMonitoredItemsResponse deleted;
    deleteMonitoredItems(f.ss(), del, deleted, f.nowUs);
    QCOMPARE(deleted.results, (Array<StatusCode>{status::Good, status::Good, status::Good}));
    QCOMPARE(f.registry->itemCount(), 0u);
}

void TestSubscriptions::republishReturnsKeptMessages() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    QVERIFY(f.createItem(sub, f.demo("Demo.Scalars.Double"), 10).statusCode.isGood());
    f.publish(1);
    f.advanceMs(100);
    RepublishRequest req;
    req.subscriptionId = sub;
    req.retransmitSequenceNumber = 1;
    RepublishResponse resp;
    republish(f.ss(), req, resp, f.nowUs);
    QCOMPARE(resp.responseHeader.serviceResult, StatusCode(status::Good));
    QCOMPARE(resp.notificationMessage, f.responses.at(0).response.notificationMessage);
    req.retransmitSequenceNumber = 2;
    RepublishResponse missing;
    republish(f.ss(), req, missing, f.nowUs);
    QCOMPARE(missing.responseHeader.serviceResult, StatusCode(status::BadMessageNotAvailable));
    req.subscriptionId = sub + 1;
    RepublishResponse unknown;
    republish(f.ss(), req, unknown, f.nowUs);
    QCOMPARE(unknown.responseHeader.serviceResult, StatusCode(status::BadSubscriptionIdInvalid));
    QCOMPARE(f.ss().find(sub)->counters.republishMessageCount, uint64_t(1));
    QCOMPARE(f.ss().find(sub)->counters.republishRequestCount, uint64_t(2));
}

void TestSubscriptions::maxNotificationsPerPublishSplitsMessages() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50, 0, nullptr, 2);
    for (const char* n : {"Demo.Scalars.Double", "Demo.Scalars.Int32", "Demo.Scalars.Int16", "Demo.Scalars.Byte", "Demo.Scalars.Float"})
        QVERIFY(f.createItem(sub, f.demo(n), 50).statusCode.isGood());
    f.publish(1);
    f.publish(2);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(2));  // both parked requests used at once
    QVERIFY(f.responses[0].response.moreNotifications);
    QVERIFY(f.responses[1].response.moreNotifications);
    f.publish(3);  // "more notifications": answered without waiting for the timer
    QCOMPARE(f.responses.size(), std::size_t(3));
    QVERIFY(!f.responses[2].response.moreNotifications);
    QCOMPARE(notifications(f.responses[2].response).size(), std::size_t(1));
    QCOMPARE(f.responses[2].response.notificationMessage.sequenceNumber, 3u);
}

void TestSubscriptions::triggeringReportsSampledItems() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId a = f.demo("Demo.Scalars.Double"), b = f.demo("Demo.Scalars.Int32");
    const auto ta = f.createItem(sub, a, 10, 5);
    const auto tb = f.createItem(sub, b, 10, 5, {}, uint32_t(AttributeId::Value), true, MonitoringMode::Sampling);
    SetTriggeringRequest st;
    st.subscriptionId = sub;
    st.triggeringItemId = ta.monitoredItemId;
    st.linksToAdd = Array<uint32_t>{tb.monitoredItemId, 999999};
    SetTriggeringResponse sr;
    setTriggering(f.ss(), st, sr, f.nowUs);
    QCOMPARE(sr.addResults, (Array<StatusCode>{status::Good, status::BadMonitoredItemIdInvalid}));
    f.publish(1);
    f.advanceMs(100);  // the initial value of a only
    QCOMPARE(notifications(f.responses.at(0).response).size(), std::size_t(1));
    f.write(b, int32_t(5));
    f.publish(2);
    f.advanceMs(100);  // b changed but is only sampled: a keep-alive... not yet (count 5): nothing
    QCOMPARE(f.responses.size(), std::size_t(1));
    f.write(a, 8.0);  // a triggers: b's queue goes out too
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(2));
    const auto n = notifications(f.responses[1].response);
    QCOMPARE(n.size(), std::size_t(3));  // a's 8.0, b's initial -32 and its 5
    st.linksToAdd = {};
    st.linksToRemove = Array<uint32_t>{tb.monitoredItemId, tb.monitoredItemId};
    setTriggering(f.ss(), st, sr, f.nowUs);
    QCOMPARE(sr.removeResults, (Array<StatusCode>{status::Good, status::BadMonitoredItemIdInvalid}));
    st.triggeringItemId = 123456;
    SetTriggeringResponse bad;
    setTriggering(f.ss(), st, bad, f.nowUs);
    QCOMPARE(bad.responseHeader.serviceResult, StatusCode(status::BadMonitoredItemIdInvalid));
}

// 5.13.1.6: a triggering item in Sampling mode triggers its linked items (the linked ones are
// reported, the triggering one is not); in Disabled mode it does not.
void TestSubscriptions::samplingItemTriggersItsLinks() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId a = f.demo("Demo.Scalars.Double"), b = f.demo("Demo.Scalars.Int32");
    const auto ta = f.createItem(sub, a, 10, 5, {}, uint32_t(AttributeId::Value), true, MonitoringMode::Sampling);
    const auto tb = f.createItem(sub, b, 10, 5, {}, uint32_t(AttributeId::Value), true, MonitoringMode::Sampling);
    SetTriggeringRequest st;
    st.subscriptionId = sub;
    st.triggeringItemId = ta.monitoredItemId;
    st.linksToAdd = Array<uint32_t>{tb.monitoredItemId};
    SetTriggeringResponse sr;
    setTriggering(f.ss(), st, sr, f.nowUs);
    QCOMPARE(sr.addResults, (Array<StatusCode>{status::Good}));
    const auto onlyB = [](const PublishResponse& r) {  // b's values, none of a's
        const auto n = notifications(r);
        return !n.empty() && std::all_of(n.begin(), n.end(), [](const auto& x) { return x.value.value.template get<int32_t>() != nullptr; });
    };
    f.publish(1);
    f.publish(2);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(1));
    QVERIFY(isKeepAlive(f.responses[0].response));  // both only sampled (the first samples came before the link)
    f.write(b, int32_t(5));
    f.advanceMs(20);  // b queues 5, not reported
    f.write(a, 8.0);  // a (Sampling) triggers again
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(2));
    QVERIFY(onlyB(f.responses[1].response));  // b's initial -32 and its 5
    QCOMPARE(notifications(f.responses[1].response).size(), std::size_t(2));
    QCOMPARE(*notifications(f.responses[1].response)[1].value.value.get<int32_t>(), 5);
    // Disabled, it triggers nothing.
    SetMonitoringModeRequest mm;
    mm.subscriptionId = sub;
    mm.monitoringMode = MonitoringMode::Disabled;
    mm.monitoredItemIds = Array<uint32_t>{ta.monitoredItemId};
    SetMonitoringModeResponse mr;
    setMonitoringMode(f.ss(), mm, mr, f.nowUs);
    f.publish(3);
    f.write(b, int32_t(7));
    f.advanceMs(20);
    f.write(a, 9.0);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(2));
}

void TestSubscriptions::monitoringModeDisabledStopsSampling() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    const auto item = f.createItem(sub, d, 10, 10);
    SetMonitoringModeRequest req;
    req.subscriptionId = sub;
    req.monitoringMode = MonitoringMode::Disabled;
    req.monitoredItemIds = Array<uint32_t>{item.monitoredItemId, 4242};
    SetMonitoringModeResponse resp;
    setMonitoringMode(f.ss(), req, resp, f.nowUs);
    QCOMPARE(resp.results, (Array<StatusCode>{status::Good, status::BadMonitoredItemIdInvalid}));
    const uint64_t samples = f.ss().find(sub)->counters.samplesTaken;
    f.write(d, 1.0);
    f.advanceMs(200);
    QCOMPARE(f.ss().find(sub)->counters.samplesTaken, samples);
    req.monitoringMode = MonitoringMode::Reporting;
    req.monitoredItemIds = Array<uint32_t>{item.monitoredItemId};
    setMonitoringMode(f.ss(), req, resp, f.nowUs);
    f.publish(1);
    f.advanceMs(100);
    const auto n = notifications(f.responses.back().response);
    QCOMPARE(n.size(), std::size_t(1));  // the queue was emptied when disabled; the new sample only
    QCOMPARE(*n[0].value.value.get<double>(), 1.0);
    req.monitoringMode = MonitoringMode(5);
    setMonitoringMode(f.ss(), req, resp, f.nowUs);
    QCOMPARE(resp.responseHeader.serviceResult, StatusCode(status::BadMonitoringModeInvalid));
}

void TestSubscriptions::transferSubscriptionsBetweenSessions() {
    SubscriptionFixture f;
    f.addSession("anonymous");
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    QVERIFY(f.createItem(sub, d, 10).statusCode.isGood());
    f.publish(1);
    f.advanceMs(100);  // the initial value, sequence number 1, not acknowledged
    TransferSubscriptionsRequest req;
    req.subscriptionIds = Array<uint32_t>{sub, 987654};
    req.sendInitialValues = true;
    TransferSubscriptionsResponse resp;
    bool answered = false;
    transferSubscriptions(f.sessions[1], req, [&](TransferSubscriptionsResponse&& r) { resp = std::move(r); answered = true; }, f.nowUs);
    QVERIFY(answered);
    QCOMPARE(resp.results.size(), std::size_t(2));
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::Good));
    QCOMPARE(resp.results[0].availableSequenceNumbers, (Array<uint32_t>{1}));
    QCOMPARE(resp.results[1].statusCode, StatusCode(status::BadSubscriptionIdInvalid));
    QVERIFY(!f.ss(0).find(sub));
    QVERIFY(f.ss(1).find(sub));
    QCOMPARE(f.registry->owner(sub), f.sessions[1]);
    // The old Session hears Good_SubscriptionTransferred on its next Publish.
    f.publish(2, {}, 0);
    const PublishResponse old = f.responses.back().response;  // a copy: the next publish grows f.responses
    QCOMPARE(old.subscriptionId, sub);
    QVERIFY(statusChange(old));
    QCOMPARE(statusChange(old)->status, StatusCode(status::GoodSubscriptionTransferred));
    // The new one gets the initial value again (sendInitialValues) and the next sequence numbers.
    f.publish(3, {}, 1);
    f.advanceMs(100);
    const PublishResponse& now = f.responses.back().response;
    QCOMPARE(f.responses.back().requestHandle, 100003u);
    QCOMPARE(now.subscriptionId, sub);
    QCOMPARE(notifications(now).size(), std::size_t(1));
    QCOMPARE(*notifications(now)[0].value.value.get<double>(), 3.25);
    QCOMPARE(old.notificationMessage.sequenceNumber, 2u);
    QCOMPARE(now.notificationMessage.sequenceNumber, 2u);  // the transfer status message did not consume 2: no gap
}

// Table 94 sendInitialValues: a queued value is what is sent (once); the last one sent is repeated
// only for an item whose queue is empty.
void TestSubscriptions::sendInitialValuesSendsWhatIsQueuedOnce() {
    SubscriptionFixture f;
    f.addSession("anonymous");
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId queuedNode = f.demo("Demo.Scalars.Double"), quietNode = f.demo("Demo.Scalars.Int32");
    QVERIFY(f.createItem(sub, queuedNode, 10, 5).statusCode.isGood());
    QVERIFY(f.createItem(sub, quietNode, 10, 5).statusCode.isGood());
    f.publish(1);
    f.advanceMs(100);  // both initial values sent
    QCOMPARE(notifications(f.responses.back().response).size(), std::size_t(2));
    // The client is gone: a change is queued, no Publish request takes it.
    f.write(queuedNode, Variant(7.5));
    f.advanceMs(100);
    TransferSubscriptionsRequest req;
    req.subscriptionIds = Array<uint32_t>{sub};
    req.sendInitialValues = true;
    TransferSubscriptionsResponse resp;
    transferSubscriptions(f.sessions[1], req, [&](TransferSubscriptionsResponse&& r) { resp = std::move(r); }, f.nowUs);
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::Good));
    f.publish(2, {}, 1);
    f.advanceMs(100);
    const auto n = notifications(f.responses.back().response);
    std::vector<double> doubles;
    std::vector<int32_t> ints;
    for (const auto& x : n) {
        if (const double* d = x.value.value.get<double>()) doubles.push_back(*d);
        if (const int32_t* i = x.value.value.get<int32_t>()) ints.push_back(*i);
    }
    QCOMPARE(doubles, std::vector<double>{7.5});   // the queued one, not the queued one twice
    QCOMPARE(ints.size(), std::size_t(1));         // the last one sent, repeated
    f.publish(3, {}, 1);
    f.advanceMs(600);                              // nothing changes: keep-alive only, no repeat
    QCOMPARE(notifications(f.responses.back().response).size(), std::size_t(0));
}

// 5.14.7 / 5.14.8: the old Session's last Subscription moves away; one parked request carries
// Good_SubscriptionTransferred, the others are answered Bad_NoSubscription at once.
void TestSubscriptions::lastSubscriptionTransferredAwayAnswersTheParkedRequests() {
    SubscriptionFixture f;
    f.addSession("anonymous");
    const uint32_t sub = f.createSubscription(60000, 10, 30);
    for (uint32_t h = 1; h <= 3; ++h) f.publish(h);
    QCOMPARE(f.responses.size(), std::size_t(0));
    TransferSubscriptionsRequest req;
    req.subscriptionIds = Array<uint32_t>{sub};
    TransferSubscriptionsResponse resp;
    transferSubscriptions(f.sessions[1], req, [&](TransferSubscriptionsResponse&& r) { resp = std::move(r); }, f.nowUs);
    QCOMPARE(resp.results.size(), std::size_t(1));
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::Good));
    QCOMPARE(f.responses.size(), std::size_t(3));
    QVERIFY(statusChange(f.responses[0].response));
    QCOMPARE(statusChange(f.responses[0].response)->status, StatusCode(status::GoodSubscriptionTransferred));
    QCOMPARE(f.responses[1].response.responseHeader.serviceResult, StatusCode(status::BadNoSubscription));
    QCOMPARE(f.responses[2].response.responseHeader.serviceResult, StatusCode(status::BadNoSubscription));
    QCOMPARE(f.ss(0).parkedCount(), std::size_t(0));
}

// 5.14.5.1: more queued Publish requests than Subscriptions are accepted, whatever the configured
// cap: with the cap at 3 and 5 Subscriptions, 6 are parked and the 7th answers the oldest
// Bad_TooManyPublishRequests.
void TestSubscriptions::morePublishRequestsThanSubscriptionsAreAccepted() {
    SubscriptionConfig c;
    c.maxPublishRequestsPerSession = 3;
    SubscriptionFixture f(c);
    for (int i = 0; i < 5; ++i) QVERIFY(f.createSubscription(60000, 10, 30) != 0);
    for (uint32_t h = 1; h <= 6; ++h) f.publish(h);
    QCOMPARE(f.ss().parkedCount(), std::size_t(6));
    QCOMPARE(f.responses.size(), std::size_t(0));
    f.publish(7);
    QCOMPARE(f.ss().parkedCount(), std::size_t(6));
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(f.responses[0].requestHandle, 1u);
    QCOMPARE(f.responses[0].response.responseHeader.serviceResult, StatusCode(status::BadTooManyPublishRequests));
}

void TestSubscriptions::closeSessionAnswersParkedRequests_data() {
    QTest::addColumn<bool>("deleteSubscriptions");
    QTest::newRow("deleteSubscriptions true") << true;
    QTest::newRow("deleteSubscriptions false") << false;
}

// 5.7.4.1: every parked Publish request is answered Bad_SessionClosed; the Subscription is
// deleted only with deleteSubscriptions.
void TestSubscriptions::closeSessionAnswersParkedRequests() {
    QFETCH(bool, deleteSubscriptions);
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(60000, 10, 30);
    for (uint32_t h = 1; h <= 3; ++h) f.publish(h);
    f.ss().closeSession(deleteSubscriptions);
    QCOMPARE(f.responses.size(), std::size_t(3));
    for (const auto& r : f.responses)
        QCOMPARE(r.response.responseHeader.serviceResult, StatusCode(status::BadSessionClosed));
    QCOMPARE(f.ss().parkedCount(), std::size_t(0));
    QCOMPARE(f.ss().find(sub) != nullptr, !deleteSubscriptions);
    QCOMPARE(f.registry->subscriptionCount(), deleteSubscriptions ? 0 : 1);
}

// 5.14.7 Table 96: into a Session at maxSubscriptionsPerSession a transfer is
// Bad_TooManySubscriptions and the Subscription stays where it was; one the Session already owns
// is Bad_NothingToDo; the operations below the limit in the same call still move.
void TestSubscriptions::transferPastTheLimitIsTooManySubscriptions() {
    SubscriptionConfig c;
    c.maxSubscriptionsPerSession = 2;
    SubscriptionFixture f(c);
    f.addSession("anonymous");
    const uint32_t own = f.createSubscription(1000, 10, 30, 1);  // the target holds one
    QVERIFY(own != 0);
    const uint32_t a = f.createSubscription(1000, 10, 30, 0);
    const uint32_t b = f.createSubscription(1000, 10, 30, 0);
    QVERIFY(a && b);
    TransferSubscriptionsRequest req;
    req.subscriptionIds = Array<uint32_t>{own, a, b};
    TransferSubscriptionsResponse resp;
    transferSubscriptions(f.sessions[1], req, [&](TransferSubscriptionsResponse&& r) { resp = std::move(r); }, f.nowUs);
    QCOMPARE(resp.results.size(), std::size_t(3));
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::BadNothingToDo));
    QCOMPARE(resp.results[1].statusCode, StatusCode(status::Good));
    QCOMPARE(resp.results[2].statusCode, StatusCode(status::BadTooManySubscriptions));
    QCOMPARE(f.ss(1).count(), std::size_t(2));
    QVERIFY(f.ss(1).find(a));
    QVERIFY(f.ss(0).find(b));  // not moved
    QCOMPARE(f.registry->owner(b), f.sessions[0]);
}

void TestSubscriptions::transferFromAnotherUserIsDenied() {
    SubscriptionFixture f;
    f.addSession("username:bob");
    const uint32_t sub = f.createSubscription(100, 5, 50);
    TransferSubscriptionsRequest req;
    req.subscriptionIds = Array<uint32_t>{sub};
    TransferSubscriptionsResponse resp;
    transferSubscriptions(f.sessions[1], req, [&](TransferSubscriptionsResponse&& r) { resp = std::move(r); }, f.nowUs);
    QCOMPARE(resp.results.size(), std::size_t(1));
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::BadUserAccessDenied));
    QVERIFY(f.ss(0).find(sub));
}

void TestSubscriptions::transferFollowsTheOwnersLatestUser() {
    SubscriptionFixture f;
    f.ss(0).setTransferUser(SubscriptionFixture::testUser("username:alice"));
    const uint32_t sub = f.createSubscription(100, 5, 50);
    f.addSession("username:alice");
    f.addSession("username:bob");
    // The owner's ActivateSession changed its user to bob: alice may no longer take it, bob may.
    f.ss(0).setTransferUser(SubscriptionFixture::testUser("username:bob"));
    TransferSubscriptionsRequest req;
    req.subscriptionIds = Array<uint32_t>{sub};
    TransferSubscriptionsResponse resp;
    transferSubscriptions(f.sessions[1], req, [&](TransferSubscriptionsResponse&& r) { resp = std::move(r); }, f.nowUs);
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::BadUserAccessDenied));
    transferSubscriptions(f.sessions[2], req, [&](TransferSubscriptionsResponse&& r) { resp = std::move(r); }, f.nowUs);
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::Good));
    QVERIFY(f.ss(2).find(sub));
}

void TestSubscriptions::anonymousTransferRule_data() {
    QTest::addColumn<int>("takerToken");
    QTest::addColumn<QString>("takerUri");
    QTest::addColumn<int>("takerMode");
    QTest::addColumn<int>("ownerToken");
    QTest::addColumn<bool>("allowed");
    const int anon = int(UserTokenType::Anonymous), name = int(UserTokenType::UserName);
    const int none = int(MessageSecurityMode::None), sign = int(MessageSecurityMode::Sign),
              sae = int(MessageSecurityMode::SignAndEncrypt);
    QTest::newRow("anonymous, same application, Sign") << anon << "urn:a" << sign << anon << true;
    QTest::newRow("anonymous, same application, SignAndEncrypt") << anon << "urn:a" << sae << anon << true;
    QTest::newRow("anonymous, same application, None") << anon << "urn:a" << none << anon << false;
    QTest::newRow("anonymous, other application, SignAndEncrypt") << anon << "urn:b" << sae << anon << false;
    QTest::newRow("anonymous from a named user") << anon << "urn:a" << sae << name << false;
    QTest::newRow("named user from anonymous") << name << "urn:a" << sae << anon << false;
    QTest::newRow("same named user, other application, None") << name << "urn:b" << none << name << true;
}

void TestSubscriptions::anonymousTransferRule() {
    QFETCH(int, takerToken);
    QFETCH(QString, takerUri);
    QFETCH(int, takerMode);
    QFETCH(int, ownerToken);
    QFETCH(bool, allowed);
    const auto user = [](int token, std::string uri, int mode) {
        TransferUser u{UserTokenType(token), token == int(UserTokenType::Anonymous) ? "" : "alice", std::move(uri),
                       MessageSecurityMode(mode)};
        return u;
    };
    const TransferUser owner = user(ownerToken, "urn:a", int(MessageSecurityMode::SignAndEncrypt));
    QCOMPARE(mayTakeSubscription(user(takerToken, takerUri.toStdString(), takerMode), owner), allowed);
}

void TestSubscriptions::diagnosticsCountWhatHappened() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 2, 10);
    const NodeId d = f.demo("Demo.Scalars.Double");
    QVERIFY(f.createItem(sub, d, 10, 1).statusCode.isGood());
    f.advanceMs(100);  // late: no request
    f.publish(1);      // answered at once
    f.write(d, 1.0);
    f.advanceMs(10);
    f.write(d, 2.0);   // queue size 1: one overflow
    f.advanceMs(90);
    f.publish(2);
    const auto diag = f.ss().diagnostics();
    QCOMPARE(diag.size(), std::size_t(1));
    const SubscriptionDiagnosticsDataType& x = diag[0];
    QCOMPARE(x.subscriptionId, sub);
    QCOMPARE(x.publishRequestCount, 2u);
    QCOMPARE(x.latePublishRequestCount, 2u);
    QCOMPARE(x.dataChangeNotificationsCount, 2u);
    QCOMPARE(x.monitoringQueueOverflowCount, 1u);
    QCOMPARE(x.monitoredItemCount, 1u);
    QCOMPARE(x.unacknowledgedMessageCount, 2u);
    QCOMPARE(x.nextSequenceNumber, 3u);
}

void TestSubscriptions::itemsSampleWithTheSessionsRoles() {
    SubscriptionFixture f;
    const RoleSet anonymous = roleBit(Role::Anonymous);
    const RoleSet op = roleBit(Role::AuthenticatedUser) | roleBit(Role::Operator);
    auto session = std::make_shared<Session>();
    session->roles = anonymous;
    session->permissions = defaultPermissions(anonymous);
    f.addSession("anonymous", session);
    session->subscriptions.store(f.sessions.back());  // as subscriptions/SubscriptionService.cpp installs it
    const NodeId d = f.demo("Demo.Scalars.Double");       // only the Operator may read it
    const NodeId hidden = f.demo("Demo.Scalars.Float");   // AccessLevel without CurrentRead
    QCOMPARE(f.space->update([&](AddressSpace& s) {
        RolePermissionType operatorOnly{NodeId(id::WellKnownRole_Operator), PermissionType::Browse | PermissionType::Read};
        s.findMutable(d)->rare.edit().rolePermissions = Array<ExtensionObject>{ExtensionObject::make(operatorOnly)};
        s.findMutable(hidden)->attrs.edit().accessLevel = access::CurrentWrite;
        return StatusCode(status::Good);
    }),
             StatusCode(status::Good));
    f.write(d, 4.5);
    const uint32_t sub = f.createSubscription(100, 5, 50, 1);
    // 5.13.2.1: the item is created; the denial is reported in Publish responses.
    const MonitoredItemCreateResult r = f.createItem(sub, d, 10, 1, {}, uint32_t(AttributeId::Value), true,
                                                     MonitoringMode::Reporting, 1);
    QCOMPARE(r.statusCode, StatusCode(status::Good));
    const MonitoredItemCreateResult h = f.createItem(sub, hidden, 10, 1, {}, uint32_t(AttributeId::Value), true,
                                                     MonitoringMode::Reporting, 1);
    QCOMPARE(h.statusCode, StatusCode(status::Good));
    // What Read gives this user, the first sample of each item reports.
    f.publish(1, {}, 1);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(1));
    auto n = notifications(f.responses[0].response);
    QCOMPARE(n.size(), std::size_t(2));  // one each: the status does not change between samples
    QVERIFY(!n[0].value.hasValue && !n[1].value.hasValue);
    QCOMPARE(n[0].value.status, StatusCode(status::BadUserAccessDenied));  // items in id order
    QCOMPARE(n[1].value.status, StatusCode(status::BadNotReadable));       // AccessLevel, whoever reads
    // Re-activated as an Operator: the next sample reads the value; the other node stays not
    // readable, unchanged, so not reported again.
    session->roles = op;
    session->permissions = defaultPermissions(op);
    sessionAccessChanged(*session);  // what ActivateSession does after storing them
    f.publish(2, {}, 1);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(2));
    n = notifications(f.responses[1].response);
    QCOMPARE(n.size(), std::size_t(1));
    QVERIFY(n[0].value.hasValue);
    QCOMPARE(n[0].value.value, Variant(4.5));
    QVERIFY(!n[0].value.hasStatus || n[0].value.status.isGood());
    // Roles taken away again: Bad_UserAccessDenied once more, at the next deadline.
    session->roles = anonymous;
    session->permissions = defaultPermissions(anonymous);
    sessionAccessChanged(*session);
    f.publish(3, {}, 1);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(3));
    n = notifications(f.responses[2].response);
    QCOMPARE(n.size(), std::size_t(1));
    QCOMPARE(n[0].value.status, StatusCode(status::BadUserAccessDenied));
    QVERIFY(!n[0].value.hasValue);
}

// 5.14.5 / 7.33 RequestHeader.timeoutHint: a parked Publish request is answered Bad_Timeout at
// its own deadline (a timer armed for the earliest parked deadline), the others stay parked.
void TestSubscriptions::parkedPublishTimesOutAtItsTimeoutHint() {
    SubscriptionFixture f;
    QVERIFY(f.createSubscription(1000, 1000, 3000) != 0);  // no keep-alive within the test
    auto publish = [&](uint32_t handle, uint32_t timeoutHintMs) {
        PublishRequest req;
        req.requestHeader.requestHandle = handle;
        req.requestHeader.timeoutHint = timeoutHintMs;
        f.ss().publish(ResponseTarget{nullptr, 0, handle}, req, f.nowUs);
    };
    publish(1, 5000);
    publish(2, 700);   // earlier than the first: the timer is armed again
    publish(3, 0);     // no timeoutHint: never times out
    f.advanceMs(699);
    QCOMPARE(f.responses.size(), std::size_t(0));
    QCOMPARE(f.ss().parkedCount(), std::size_t(3));
    f.advanceMs(2);
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(f.responses[0].requestHandle, 2u);
    QCOMPARE(f.responses[0].response.responseHeader.serviceResult, StatusCode(status::BadTimeout));
    f.advanceMs(300);  // the first publishing cycle: a keep-alive on the oldest (handle 1)
    QCOMPARE(f.responses.size(), std::size_t(2));
    QCOMPARE(f.responses[1].requestHandle, 1u);
    QVERIFY(f.responses[1].response.responseHeader.serviceResult.isGood());
    publish(4, 3000);  // the timer, past its last deadline, is armed for this one
    f.advanceMs(2999);
    QCOMPARE(f.responses.size(), std::size_t(2));
    f.advanceMs(2);
    QCOMPARE(f.responses.size(), std::size_t(3));
    QCOMPARE(f.responses[2].requestHandle, 4u);
    QCOMPARE(f.responses[2].response.responseHeader.serviceResult, StatusCode(status::BadTimeout));
    QCOMPARE(f.ss().parkedCount(), std::size_t(1));  // the one without a timeoutHint
}

// The scheduler keeps a SessionSubscriptions while its Session lives or it has Subscriptions; the
// once-a-second housekeeping looks at the empty ones only and lets go of those whose Session is gone.
void TestSubscriptions::housekeepingLetsGoOfEmptyClosedSessionsOnly() {
    SubscriptionFixture f;
    auto open = std::make_shared<Session>();
    auto closing = std::make_shared<Session>();
    auto withSubscription = std::make_shared<Session>();
    for (const auto& s : {open, closing, withSubscription}) {
        f.addSession("anonymous", s);
        f.scheduler->adopt(f.sessions.back());
    }
    QCOMPARE(f.scheduler->sessionCount(), std::size_t(3));
    const uint32_t kept = f.createSubscription(1000, 10, 30, 3);
    QVERIFY(kept != 0);
    const uint32_t dropped = f.createSubscription(1000, 10, 30, 2);
    QVERIFY(dropped != 0);
    QVERIFY(f.ss(2).remove(dropped));  // empty again
    closing->closed = true;
    withSubscription->closed = true;   // its Subscription runs out its lifetime first
    const std::size_t timers = f.scheduler->timers().size();
    f.scheduler->housekeeping(f.nowUs);
    QCOMPARE(f.scheduler->sessionCount(), std::size_t(2));
    // Let go of, it has given back its timer on the home thread: the Session that still holds it
    // may be destroyed on another thread, which must not touch the home's TimerQueue.
    QCOMPARE(f.scheduler->timers().size(), timers - 1);
    const SessionSubscriptions* letGo = f.sessions[2].get();
    std::thread([&] { f.sessions[2].reset(); }).join();
    QVERIFY(std::none_of(f.scheduler->sessions().begin(), f.scheduler->sessions().end(),
                         [&](const auto& s) { return s.get() == letGo; }));
    open.reset();  // the Session is destroyed: its empty SessionSubscriptions goes too
    f.scheduler->housekeeping(f.nowUs);
    QCOMPARE(f.scheduler->sessionCount(), std::size_t(1));
    QCOMPARE(f.scheduler->sessions().front().get(), &f.ss(3));
    QVERIFY(f.ss(3).remove(kept));
    f.scheduler->housekeeping(f.nowUs);
    QCOMPARE(f.scheduler->sessionCount(), std::size_t(0));
}

void TestSubscriptions::sessionDiagnosticsCountTheServices() {
    SubscriptionConfig c;
    c.maxSubscriptionsPerSession = 1;
    c.maxPublishRequestsPerSession = 2;
    SubscriptionFixture f(c);
    SessionSubscriptions& ss = f.ss();
    const uint32_t sub = f.createSubscription(100, 5, 50);
    QVERIFY(sub);
    QCOMPARE(f.createSubscription(100, 5, 50), 0u);  // Bad_TooManySubscriptions
    ModifySubscriptionRequest ms;
    ms.subscriptionId = sub + 1000;
    ModifySubscriptionResponse msr;
    modifySubscription(ss, ms, msr, f.nowUs);
    QCOMPARE(msr.responseHeader.serviceResult, StatusCode(status::BadSubscriptionIdInvalid));
    ms.subscriptionId = sub;
    ms.requestedPublishingInterval = 100;
    msr = {};
    modifySubscription(ss, ms, msr, f.nowUs);
    SetPublishingModeRequest pm;
    SetPublishingModeResponse pmr;
    setPublishingMode(ss, pm, pmr, f.nowUs);  // Bad_NothingToDo
    const uint32_t a = f.createItem(sub, f.demo("Demo.Scalars.Double"), 10).monitoredItemId;
    const uint32_t b = f.createItem(sub, f.demo("Demo.Scalars.Int32"), 10).monitoredItemId;
    QVERIFY(a && b);
    QVERIFY(f.createItem(sub + 1000, f.demo("Demo.Scalars.Double"), 10).statusCode.isBad());
    ModifyMonitoredItemsRequest mm;
    mm.subscriptionId = sub;
    MonitoredItemModifyRequest mi;
    mi.monitoredItemId = a;
    mi.requestedParameters.samplingInterval = 20;
    mm.itemsToModify = Array<MonitoredItemModifyRequest>{mi};
    ModifyMonitoredItemsResponse mmr;
    modifyMonitoredItems(ss, mm, mmr, f.nowUs);
    SetMonitoringModeRequest sm;
    sm.subscriptionId = sub;
    sm.monitoringMode = MonitoringMode::Sampling;
    sm.monitoredItemIds = Array<uint32_t>{b};
    SetMonitoringModeResponse smr;
    setMonitoringMode(ss, sm, smr, f.nowUs);
    SetTriggeringRequest st;
    st.subscriptionId = sub;
    st.triggeringItemId = 999999;  // Bad_MonitoredItemIdInvalid
    st.linksToAdd = Array<uint32_t>{b};
    SetTriggeringResponse str;
    setTriggering(ss, st, str, f.nowUs);
    QCOMPARE(str.responseHeader.serviceResult, StatusCode(status::BadMonitoredItemIdInvalid));
    DeleteMonitoredItemsRequest dm;
    dm.subscriptionId = sub;
    dm.monitoredItemIds = Array<uint32_t>{b, 999999};  // an unknown id is an operation error only
    DeleteMonitoredItemsResponse dmr;
    deleteMonitoredItems(ss, dm, dmr, f.nowUs);
    // Three Publish requests with room for two: the oldest is answered Bad_TooManyPublishRequests.
    f.publish(1);
    f.publish(2);
    f.publish(3);
    QCOMPARE(f.responses.size(), std::size_t(1));
    RepublishRequest rp;
    rp.subscriptionId = sub;
    rp.retransmitSequenceNumber = 5;
    RepublishResponse rpr;
    republish(ss, rp, rpr, f.nowUs);  // Bad_MessageNotAvailable
    TransferSubscriptionsRequest tr;
    transferSubscriptions(f.sessions[0], tr, [](TransferSubscriptionsResponse&&) {}, f.nowUs);  // Bad_NothingToDo

    SessionDiagnosticsDataType d;
    ss.fillSessionDiagnostics(d);
    QCOMPARE(d.createSubscriptionCount.totalCount, 2u);
    QCOMPARE(d.createSubscriptionCount.errorCount, 1u);
    QCOMPARE(d.modifySubscriptionCount.totalCount, 2u);
    QCOMPARE(d.modifySubscriptionCount.errorCount, 1u);
    QCOMPARE(d.setPublishingModeCount.totalCount, 1u);
    QCOMPARE(d.setPublishingModeCount.errorCount, 1u);
    QCOMPARE(d.createMonitoredItemsCount.totalCount, 3u);
    QCOMPARE(d.createMonitoredItemsCount.errorCount, 1u);
    QCOMPARE(d.modifyMonitoredItemsCount.totalCount, 1u);
    QCOMPARE(d.modifyMonitoredItemsCount.errorCount, 0u);
    QCOMPARE(d.setMonitoringModeCount.totalCount, 1u);
    QCOMPARE(d.setMonitoringModeCount.errorCount, 0u);
    QCOMPARE(d.setTriggeringCount.totalCount, 1u);
    QCOMPARE(d.setTriggeringCount.errorCount, 1u);
    QCOMPARE(d.deleteMonitoredItemsCount.totalCount, 1u);
    QCOMPARE(d.deleteMonitoredItemsCount.errorCount, 0u);
    QCOMPARE(d.publishCount.totalCount, 3u);
    QCOMPARE(d.publishCount.errorCount, 1u);
    QCOMPARE(d.republishCount.totalCount, 1u);
    QCOMPARE(d.republishCount.errorCount, 1u);
    QCOMPARE(d.transferSubscriptionsCount.totalCount, 1u);
    QCOMPARE(d.transferSubscriptionsCount.errorCount, 1u);
    QCOMPARE(d.deleteSubscriptionsCount.totalCount, 0u);
    QCOMPARE(d.currentSubscriptionsCount, 1u);
    QCOMPARE(d.currentMonitoredItemsCount, 1u);
    QCOMPARE(d.currentPublishRequestsInQueue, 2u);

    // The first publishing interval takes a parked request; deleting the last Subscription answers
    // the other one with Bad_NoSubscription.
    f.advanceMs(100);
    DeleteSubscriptionsRequest ds;
    ds.subscriptionIds = Array<uint32_t>{sub};
    DeleteSubscriptionsResponse dsr;
    deleteSubscriptions(ss, ds, dsr, f.nowUs);
    d = {};
    ss.fillSessionDiagnostics(d);
    QCOMPARE(d.deleteSubscriptionsCount.totalCount, 1u);
    QCOMPARE(d.deleteSubscriptionsCount.errorCount, 0u);
    QCOMPARE(d.publishCount.totalCount, 3u);
    QCOMPARE(d.publishCount.errorCount, 2u);
    QCOMPARE(d.currentSubscriptionsCount, 0u);
    QCOMPARE(d.currentMonitoredItemsCount, 0u);
    QCOMPARE(d.currentPublishRequestsInQueue, 0u);
}

void TestSubscriptions::subscriptionDiagnosticsCountRepublishTransferAndDiscards() {
    SubscriptionConfig c;
    c.maxRetransmissionQueue = 2;
    SubscriptionFixture f(c);
    // Two open Sessions of one anonymous user (session 0 of the fixture has no Session: unused).
    std::vector<std::shared_ptr<Session>> open;
    for (int i = 0; i < 2; ++i) {
        auto s = std::make_shared<Session>();
        s->roles = roleBit(Role::Anonymous);
        s->permissions = defaultPermissions(roleBit(Role::Anonymous));
        f.addSession("anonymous", s);
        open.push_back(s);
    }
    const uint32_t sub = f.createSubscription(100, 5, 50, 1);
    const NodeId d = f.demo("Demo.Scalars.Double");
    QVERIFY(f.createItem(sub, d, 10, 1, {}, uint32_t(AttributeId::Value), true, MonitoringMode::Reporting, 1)
                .statusCode.isGood());
    // Three data messages, never acknowledged: the queue of two discards the first.
    for (int i = 0; i < 3; ++i) {
        f.publish(uint32_t(i + 1), {}, 1);
        f.write(d, double(i + 10));
        f.advanceMs(100);
    }
    QCOMPARE(f.responses.size(), std::size_t(3));
    const uint32_t last = f.responses[2].response.notificationMessage.sequenceNumber;
    QCOMPARE(last, 3u);
    RepublishRequest rp;
    rp.subscriptionId = sub;
    RepublishResponse rpr;
    rp.retransmitSequenceNumber = 1;  // discarded
    republish(f.ss(1), rp, rpr, f.nowUs);
    QCOMPARE(rpr.responseHeader.serviceResult, StatusCode(status::BadMessageNotAvailable));
    rp.retransmitSequenceNumber = 3;
    rpr = {};
    republish(f.ss(1), rp, rpr, f.nowUs);
    QCOMPARE(rpr.responseHeader.serviceResult, StatusCode(status::Good));
    // Transferred to another Session of the same user (the first Session still open: "alt client"),
    // then named again by its new Session (a transfer request, nothing moves).
    TransferSubscriptionsRequest tr;
    tr.subscriptionIds = Array<uint32_t>{sub};
    TransferSubscriptionsResponse trr;
    transferSubscriptions(f.sessions[2], tr, [&](TransferSubscriptionsResponse&& r) { trr = std::move(r); }, f.nowUs);
    QCOMPARE(trr.results.size(), std::size_t(1));
    QCOMPARE(trr.results[0].statusCode, StatusCode(status::Good));
    transferSubscriptions(f.sessions[2], tr, [&](TransferSubscriptionsResponse&& r) { trr = std::move(r); }, f.nowUs);
    QCOMPARE(trr.results[0].statusCode, StatusCode(status::BadNothingToDo));  // already its own (1.05 Table 96)
    const auto diag = f.ss(2).diagnostics();
    QCOMPARE(diag.size(), std::size_t(1));
    const SubscriptionDiagnosticsDataType& x = diag[0];
    QCOMPARE(x.discardedMessageCount, 1u);
    QCOMPARE(x.unacknowledgedMessageCount, 2u);
    QCOMPARE(x.republishRequestCount, 2u);
    QCOMPARE(x.republishMessageRequestCount, 2u);
    QCOMPARE(x.republishMessageCount, 1u);
    QCOMPARE(x.transferRequestCount, 2u);
    QCOMPARE(x.transferredToAltClientCount, 1u);
    QCOMPARE(x.transferredToSameClientCount, 0u);
    QCOMPARE(x.publishRequestCount, 3u);
    QCOMPARE(x.dataChangeNotificationsCount, 3u);
    QCOMPARE(x.notificationsCount, 3u);
    QCOMPARE(x.eventNotificationsCount, 0u);
    QCOMPARE(x.latePublishRequestCount, 0u);
    QCOMPARE(x.nextSequenceNumber, 4u);  // Good_SubscriptionTransferred to the old Session did not consume 4
    SessionDiagnosticsDataType s0, s1;
    f.ss(1).fillSessionDiagnostics(s0);
    f.ss(2).fillSessionDiagnostics(s1);
    QCOMPARE(s0.currentSubscriptionsCount, 0u);
    QCOMPARE(s1.currentSubscriptionsCount, 1u);
    QCOMPARE(s1.currentMonitoredItemsCount, 1u);
    QCOMPARE(s1.transferSubscriptionsCount.totalCount, 2u);
    QCOMPARE(s1.transferSubscriptionsCount.errorCount, 0u);
    QCOMPARE(s0.republishCount.totalCount, 2u);
    QCOMPARE(s0.republishCount.errorCount, 1u);
}

void TestSubscriptions::emptiedQueuesSendNoEarlyKeepAlive_data() {
    QTest::addColumn<int>("how");
    QTest::newRow("SetMonitoringMode Disabled") << 0;
    QTest::newRow("SetMonitoringMode Sampling") << 1;
    QTest::newRow("DeleteMonitoredItems") << 2;
}

// 5.14.1.2: NotificationsAvailable is FALSE once the only queued value is gone (its item disabled,
// set to Sampling or deleted): the next expiry counts the keep-alive counter down, and the
// keep-alive goes out maxKeepAliveCount expiries after the last message, not at that expiry.
void TestSubscriptions::emptiedQueuesSendNoEarlyKeepAlive() {
    QFETCH(int, how);
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    const auto item = f.createItem(sub, d, 50);
    QVERIFY(item.statusCode.isGood());
    f.publish(1);
    f.publish(2);
    f.advanceMs(100);  // the initial value
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(notifications(f.responses[0].response).size(), std::size_t(1));
    f.write(d, 7.0);
    f.advanceMs(60);  // sampled at +112.5 ms: queued for the expiry at +200 ms
    QCOMPARE(f.ss().find(sub)->item(item.monitoredItemId)->queued(), std::size_t(1));
    if (how == 2) {
        DeleteMonitoredItemsRequest req;
        req.subscriptionId = sub;
        req.monitoredItemIds = Array<uint32_t>{item.monitoredItemId};
        DeleteMonitoredItemsResponse resp;
        deleteMonitoredItems(f.ss(), req, resp, f.nowUs);
        QCOMPARE(resp.results, (Array<StatusCode>{status::Good}));
    } else {
        SetMonitoringModeRequest req;
        req.subscriptionId = sub;
        req.monitoringMode = how == 0 ? MonitoringMode::Disabled : MonitoringMode::Sampling;
        req.monitoredItemIds = Array<uint32_t>{item.monitoredItemId};
        SetMonitoringModeResponse resp;
        setMonitoringMode(f.ss(), req, resp, f.nowUs);
        QCOMPARE(resp.results, (Array<StatusCode>{status::Good}));
    }
    f.advanceMs(40);  // the expiry at +200 ms: nothing to send
    QCOMPARE(f.responses.size(), std::size_t(1));
    f.advanceMs(399);
    QCOMPARE(f.responses.size(), std::size_t(1));
    f.advanceMs(1);  // +600 ms: the 5th expiry after the message at +100 ms
    QCOMPARE(f.responses.size(), std::size_t(2));
    QVERIFY(isKeepAlive(f.responses[1].response));
    QCOMPARE(f.ss().find(sub)->counters.keepAliveCount, uint64_t(1));
}

// 5.14.1.2 (NORMAL, Receive Publish Request, PublishingEnabled FALSE): a Publish request is queued
// even with MoreNotifications set; the keep-alives come when due and say moreNotifications false.
// Enabled again, the next expiry sends the rest.
void TestSubscriptions::publishingDisabledKeepsPublishRequestsParked() {
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(100, 5, 50, 0, nullptr, 1);
    for (const char* n : {"Demo.Scalars.Double", "Demo.Scalars.Int32"})
        QVERIFY(f.createItem(sub, f.demo(n), 50).statusCode.isGood());
    f.publish(1);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(notifications(f.responses[0].response).size(), std::size_t(1));
    QVERIFY(f.responses[0].response.moreNotifications);
    SetPublishingModeRequest pm;
    pm.publishingEnabled = false;
    pm.subscriptionIds = Array<uint32_t>{sub};
    SetPublishingModeResponse pmr;
    setPublishingMode(f.ss(), pm, pmr, f.nowUs);
    QCOMPARE(pmr.results, (Array<StatusCode>{status::Good}));
    f.publish(2);
    f.publish(3);
    QCOMPARE(f.responses.size(), std::size_t(1));  // parked
    f.advanceMs(499);
    QCOMPARE(f.responses.size(), std::size_t(1));
    f.advanceMs(1);  // +600 ms: the keep-alive
    QCOMPARE(f.responses.size(), std::size_t(2));
    QVERIFY(isKeepAlive(f.responses[1].response));
    QVERIFY(!f.responses[1].response.moreNotifications);
    QCOMPARE(f.responses[1].requestHandle, 2u);
    pm.publishingEnabled = true;
    setPublishingMode(f.ss(), pm, pmr, f.nowUs);
    QCOMPARE(f.responses.size(), std::size_t(2));
    f.advanceMs(100);  // the next expiry sends the notification left
    QCOMPARE(f.responses.size(), std::size_t(3));
    QCOMPARE(notifications(f.responses[2].response).size(), std::size_t(1));
    QVERIFY(!f.responses[2].response.moreNotifications);
}

void TestSubscriptions::statusValueTimestampWithoutSourceTimestamps_data() {
    QTest::addColumn<int>("timestampsValue");  // TimestampsToReturn
    QTest::newRow("Server") << int(TimestampsToReturn::Server);
    QTest::newRow("Neither") << int(TimestampsToReturn::Neither);
}

// 7.10 STATUS_VALUE_TIMESTAMP: a new SourceTimestamp is a data change also when the client asked
// for no SourceTimestamp (timestampsToReturn Server or Neither); the notifications come without it.
void TestSubscriptions::statusValueTimestampWithoutSourceTimestamps() {
    QFETCH(int, timestampsValue);
    const TimestampsToReturn timestamps = TimestampsToReturn(timestampsValue);
    SubscriptionFixture f;
    const uint32_t sub = f.createSubscription(1000, 5, 50);
    const NodeId d = f.demo("Demo.Scalars.Double");
    f.write(d, 10.0);
    CreateMonitoredItemsRequest req;
    req.subscriptionId = sub;
    req.timestampsToReturn = timestamps;
    MonitoredItemCreateRequest item;
    item.itemToMonitor.nodeId = d;
    item.itemToMonitor.attributeId = uint32_t(AttributeId::Value);
    item.monitoringMode = MonitoringMode::Reporting;
    item.requestedParameters.clientHandle = 77;
    item.requestedParameters.samplingInterval = 10;
    item.requestedParameters.queueSize = 10;
    item.requestedParameters.discardOldest = true;
    item.requestedParameters.filter = deadband(DeadbandType::None, 0, DataChangeTrigger::StatusValueTimestamp);
    req.itemsToCreate = Array<MonitoredItemCreateRequest>{item};
    CreateMonitoredItemsResponse resp;
    createMonitoredItems(f.ss(), req, resp, f.nowUs);
    QCOMPARE(resp.results.size(), std::size_t(1));
    QVERIFY(resp.results[0].statusCode.isGood());
    for (int i = 0; i < 2; ++i) {
        f.advanceMs(10);
        f.write(d, 10.0);  // the same value, a new SourceTimestamp
    }
    f.advanceMs(10);
    f.advanceMs(10);  // no write: nothing new
    f.publish(1);
    f.advanceMs(1000);
    const auto n = notifications(f.responses.at(0).response);
    QCOMPARE(n.size(), std::size_t(3));  // the initial value and the two new SourceTimestamps
    for (const auto& x : n) {
        QVERIFY(!x.value.hasSourceTimestamp);
        QVERIFY(!x.value.hasSourcePicoseconds);
        QCOMPARE(x.value.hasServerTimestamp, timestamps == TimestampsToReturn::Server);
    }
}

// 7.22.2: under a deadband a change of an array's ArrayDimensions ({2,3} to {3,2}, the same
// elements) is reported, as a change of its length is.
void TestSubscriptions::arrayDimensionsChangeIsReportedUnderADeadband() {
    SubscriptionFixture f;
    const NodeId n = f.demo("Demo.Arrays.Double");
    const auto matrix = [](Array<int32_t> dims) {
        Variant v(Array<double>{1, 2, 3, 4, 5, 6});
        v.setArrayDimensions(std::move(dims));
        return v;
    };
    f.write(n, matrix(Array<int32_t>{2, 3}));
    const uint32_t sub = f.createSubscription(1000, 5, 50);
    QVERIFY(f.createItem(sub, n, 10, 10, deadband(DeadbandType::Absolute, 1)).statusCode.isGood());
    f.advanceMs(10);
    f.write(n, matrix(Array<int32_t>{3, 2}));
    f.advanceMs(10);
    f.write(n, matrix(Array<int32_t>{3, 2}));  // the same again
    f.advanceMs(10);
    f.publish(1);
    f.advanceMs(1000);
    const std::vector<Variant> v = notifiedValues(f.responses.at(0).response);
    QCOMPARE(v.size(), std::size_t(2));
    QVERIFY(v[0].arrayDimensions() == (Array<int32_t>{2, 3}));
    QVERIFY(v[1].arrayDimensions() == (Array<int32_t>{3, 2}));
}

// OPC 10000-5 12.15: SubscriptionDiagnostics.maxNotificationsPerPublish is what the Subscription
// was created with (0: no limit), while messages are still split at the server's cap.
void TestSubscriptions::diagnosticsShowTheRequestedMaxNotificationsPerPublish() {
    SubscriptionConfig c;
    c.maxNotificationsPerPublish = 1;
    SubscriptionFixture f(c);
    const uint32_t sub = f.createSubscription(100, 5, 50, 0, nullptr, 0);
    for (const char* n : {"Demo.Scalars.Double", "Demo.Scalars.Int32"})
        QVERIFY(f.createItem(sub, f.demo(n), 50).statusCode.isGood());
    const auto diag = f.ss().diagnostics();
    QCOMPARE(diag.size(), std::size_t(1));
    QCOMPARE(diag[0].maxNotificationsPerPublish, 0u);
    f.publish(1);
    f.advanceMs(100);
    QCOMPARE(f.responses.size(), std::size_t(1));
    QCOMPARE(notifications(f.responses[0].response).size(), std::size_t(1));  // split at the cap
    QVERIFY(f.responses[0].response.moreNotifications);
}

UA_TEST_GUILESS_MAIN(TestSubscriptions)
#include "tst_subscriptions.moc"
