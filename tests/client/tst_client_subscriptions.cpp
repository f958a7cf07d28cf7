// The client's subscriptions against our Server in process (docs/Client.md "Subscriptions"): data
// changes in sequence order with their counts, acknowledgements emptying the server's
// retransmission queue, the Publish pipeline count and Bad_TooManyPublishRequests, keep-alive
// supervision on a frozen link, a Publish response lost in a frozen link then Republished after the
// reconnect, TransferSubscriptions to a new Session, re-creation when the transfer fails, and the
// StatusChangeNotification Bad_Timeout of a subscription whose lifetime ran out; event items with
// an EventFilter on the Server object (the where clause applied by our server).
#include "ClientTestUtil.h"
#include "TcpProxy.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/eventmodel/Event.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <set>

using namespace ua;
using namespace ua::test;

namespace {

ServerConfig subscriptionServerConfig() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 2;
    cfg.demoNamespace = false;
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // the tests write anonymously
    return cfg;
}

ClientConfig subscriptionClientConfig() {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.keepAliveIntervalMs = 0;  // the subscriptions' supervision is what is tested
    cfg.keepAliveTimeoutMs = 1000;
    cfg.reconnect.initialDelayMs = 50;
    cfg.reconnect.maxDelayMs = 300;
    return cfg;
}

// Whether the client passed through `state` (a reconnect to a running server can be over before a
// QTRY loop looks at client.state()).
bool passedThrough(const QSignalSpy& states, ClientState state) {
    return std::any_of(states.begin(), states.end(), [state](const QList<QVariant>& s) { return s.at(0).value<ClientState>() == state; });
}


// What one subscription's handlers received, in the test thread. A handler queued to the test
// object may still run after a failed check has ended the test function (the client outlives the
// Recorder, or the callback waits in the event queue): it finds `alive` expired and does nothing.
struct Recorder {
    std::vector<SubscriptionNotification> messages;
    std::vector<SubscriptionStatusChange> statuses;
    std::vector<int32_t> itemValues;  // the per-item callback's Int32 values
    QThread* thread = nullptr;
    std::shared_ptr<bool> alive = std::make_shared<bool>(true);

    SubscriptionHandlers handlers() {
        SubscriptionHandlers h;
        std::weak_ptr<bool> guard = alive;
        h.notification = [this, guard](const SubscriptionNotification& n) {
            if (guard.expired()) return;
            messages.push_back(n);
            thread = QThread::currentThread();
        };
        h.status = [this, guard](const SubscriptionStatusChange& c) {
            if (!guard.expired()) statuses.push_back(c);
        };
        return h;
    }
    int count(SubscriptionEvent e) const {
        return int(std::count_if(statuses.begin(), statuses.end(), [e](const auto& s) { return s.event == e; }));
    }
    const SubscriptionStatusChange* first(SubscriptionEvent e) const {
        for (const auto& s : statuses)
            if (s.event == e) return &s;
        return nullptr;
    }
    std::size_t dataChanges() const {
        std::size_t n = 0;
        for (const auto& m : messages) n += m.dataChanges.size();
        return n;
    }
    // Sequence numbers delivered, each one after the previous (checks order and no holes from `from`).
    bool contiguous(uint32_t from = 1) const {
        uint32_t expect = from;
        for (const auto& m : messages) {
            if (m.sequenceNumber < from) continue;
            if (m.sequenceNumber != expect) return false;
            ++expect;
        }
        return true;
    }
};

SubscriptionSettings fast(double intervalMs, uint32_t keepAlive = 5, uint32_t lifetime = 60) {
    SubscriptionSettings s;
    s.publishingIntervalMs = intervalMs;
    s.maxKeepAliveCount = keepAlive;
    s.lifetimeCount = lifetime;
    return s;
}

MonitoredItemSpec valueItem(const NodeId& node, double samplingMs, uint32_t queueSize = 10, uint32_t clientHandle = 0) {
    MonitoredItemSpec m;
    m.clientHandle = clientHandle;
    m.nodeId = node;
    m.settings.samplingIntervalMs = samplingMs;
    m.settings.queueSize = queueSize;
    return m;
}

} // namespace

class TestClientSubscriptions : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void dataChangesArriveInOrderAndAreAcknowledged();
    void itemsAreModifiedDisabledAndDeleted();
    void pipelineKeepsSubscriptionsPlusOne();
    void tooManyPublishRequestsLowersTheCount();
    void keepAliveSupervisionFiresOnAFrozenLink();
    void lostPublishResponsesAreRepublished();
    void messagesTheServerNoLongerHasAreReportedLost();
    void newSessionGetsTheSubscriptionsTransferred();
    void sequenceNumbersWrapToOne();
    void anonymousSubscriptionsOverNoneAreRecreated();
    void subscriptionsAreRecreatedWhenTransferFails();
    void expiredSubscriptionIsRecreatedAfterStatusChange();
    void eventsOfOurServerPassTheWhereClause();

private:
    StatusCode connectSession(Client& client, const QString& url);
    SubscriptionInfo create(Client& client, Recorder& rec, const SubscriptionSettings& s);
    MonitoredItemsResult addItems(Client& client, SubscriptionHandle h, std::vector<MonitoredItemSpec> items);
    std::unique_ptr<Server> startServer(ServerConfig cfg = subscriptionServerConfig());
};

void TestClientSubscriptions::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
}

std::unique_ptr<Server> TestClientSubscriptions::startServer(ServerConfig cfg) {
    auto s = std::make_unique<Server>(cfg);
    if (!s->start()) return nullptr;
    return s;
}

StatusCode TestClientSubscriptions::connectSession(Client& client, const QString& url) {
    return ua::test::connectSession(client, url, this);
}

SubscriptionInfo TestClientSubscriptions::create(Client& client, Recorder& rec, const SubscriptionSettings& s) {
    Awaited<SubscriptionInfo> info;
    client.createSubscription(s, this, rec.handlers(), info.callback());
    if (!info.wait()) return {status::BadTimeout};
    return *info;
}

MonitoredItemsResult TestClientSubscriptions::addItems(Client& client, SubscriptionHandle h, std::vector<MonitoredItemSpec> items) {
    Awaited<MonitoredItemsResult> r;
    client.createMonitoredItems(h, std::move(items), this, r.callback());
    if (!r.wait()) return {status::BadTimeout, {}};
    return *r;
}

void TestClientSubscriptions::dataChangesArriveInOrderAndAreAcknowledged() {
    auto server = startServer();
    QVERIFY(server);
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(50, 5, 60));
    QCOMPARE(info.status, status::Good);
    QVERIFY(info.handle != 0);
    QVERIFY(info.subscriptionId != 0);
    QCOMPARE(info.revisedPublishingIntervalMs, 50.0);
    QCOMPARE(info.revisedMaxKeepAliveCount, 5u);
    QCOMPARE(info.revisedLifetimeCount, 60u);

    auto item = valueItem(NodeId(1, 1000), 10, 10, 77);
    DataChangeFilter f;
    f.trigger = DataChangeTrigger::StatusValue;
    f.deadbandType = uint32_t(DeadbandType::None);
    item.settings.dataChangeFilter = f;
    item.onDataChange = [&rec, guard = std::weak_ptr<bool>(rec.alive)](const DataValue& v) {
        if (guard.expired()) return;
        if (const int32_t* i = v.value.get<int32_t>()) rec.itemValues.push_back(*i);
    };
    const MonitoredItemsResult items = addItems(client, info.handle, {item});
    QCOMPARE(items.status, status::Good);
    QCOMPARE(items.items.size(), std::size_t(1));
    QCOMPARE(items.items[0].statusCode, status::Good);
    QCOMPARE(items.items[0].clientHandle, 77u);
    QVERIFY(items.items[0].monitoredItemId != 0);
    QCOMPARE(items.items[0].revisedSamplingIntervalMs, 10.0);
    QCOMPARE(items.items[0].revisedQueueSize, 10u);

    // The initial value, then 20 writes, each sampled before the next.
    QTRY_COMPARE_WITH_TIMEOUT(rec.itemValues.size(), std::size_t(1), 5000);
    QCOMPARE(rec.itemValues[0], 1000);
    for (int32_t v = 1; v <= 20; ++v) {
        Awaited<ServiceResult<WriteResponse>> w;
        client.writeValue(NodeId(1, 1000), Variant(v), this, w.callback());
        QVERIFY(w.wait());
        QCOMPARE(w->status, status::Good);
        QTest::qWait(40);
    }
    QTRY_COMPARE_WITH_TIMEOUT(rec.itemValues.size(), std::size_t(21), 5000);
    std::vector<int32_t> expected{1000};
    for (int32_t v = 1; v <= 20; ++v) expected.push_back(v);
    QCOMPARE(rec.itemValues, expected);
    QCOMPARE(rec.dataChanges(), std::size_t(21));
    QCOMPARE(rec.thread, QThread::currentThread());
    QVERIFY(rec.contiguous(1));
    QCOMPARE(rec.messages.front().sequenceNumber, 1u);
    for (const auto& m : rec.messages) {
        QCOMPARE(m.subscriptionId, info.subscriptionId);
        QVERIFY(!m.republished);
        for (const auto& dc : m.dataChanges) QCOMPARE(dc.clientHandle, 77u);
    }

    // Every message is acknowledged by a following Publish: once the acknowledgements went out,
    // the server's retransmission queue has none of them (Republish: Bad_MessageNotAvailable).
    const uint64_t delivered = rec.messages.size();
    QTRY_VERIFY_WITH_TIMEOUT(client.subscriptionCounters().acknowledgementsSent >= delivered, 3000);
    const uint64_t responses = client.subscriptionCounters().publishResponses;
    QTRY_VERIFY_WITH_TIMEOUT(client.subscriptionCounters().publishResponses > responses + 1, 3000);  // answered after the acks
    for (uint32_t seq : {1u, uint32_t(delivered)}) {
        RepublishRequest rp;
        rp.subscriptionId = info.subscriptionId;
        rp.retransmitSequenceNumber = seq;
        Awaited<ServiceResult<RepublishResponse>> r;
        client.call<RepublishRequest, RepublishResponse>(rp, this, r.callback());
        QVERIFY(r.wait());
        QCOMPARE(r->status, status::BadMessageNotAvailable);
    }
    const ClientSubscriptionCounters c = client.subscriptionCounters();
    QCOMPARE(c.acknowledgementsUnknown, 0u);
    QCOMPARE(c.messagesLost, 0u);
    QCOMPARE(c.republishRequests, 0u);
    QCOMPARE(c.notificationMessages, delivered);
    QVERIFY(c.keepAlives >= 1);  // nothing changes now: keep-alives every 250 ms
    QCOMPARE(rec.count(SubscriptionEvent::KeepAliveMissing), 0);

    Awaited<StatusCode> d;
    client.deleteSubscription(info.handle, this, d.callback());
    QVERIFY(d.wait());
    QCOMPARE(*d, status::Good);
    QTRY_COMPARE(client.subscriptionCounters().publishOutstanding, 0u);  // Bad_NoSubscription: not re-issued
    QCOMPARE(client.subscriptionCounters().subscriptions, 0u);
}

void TestClientSubscriptions::itemsAreModifiedDisabledAndDeleted() {
    auto server = startServer();
    QVERIFY(server);
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(50));
    QCOMPARE(info.status, status::Good);
    std::vector<MonitoredItemSpec> specs{valueItem(NodeId(1, 1001), 20), valueItem(NodeId(1, 999999), 20)};
    const MonitoredItemsResult items = addItems(client, info.handle, specs);
    QCOMPARE(items.items.size(), std::size_t(2));
    QCOMPARE(items.items[0].statusCode, status::Good);
    QCOMPARE(items.items[1].statusCode, status::BadNodeIdUnknown);
    const uint32_t ch = items.items[0].clientHandle;
    QVERIFY(ch != 0);
    // A duplicate client handle is refused locally.
    const MonitoredItemsResult dup = addItems(client, info.handle, {valueItem(NodeId(1, 1002), 20, 1, ch)});
    QCOMPARE(dup.items.size(), std::size_t(1));
    QCOMPARE(dup.items[0].statusCode, status::BadInvalidArgument);

    // Modify: an absolute deadband of 10 reports 1001 -> 1005 not, 1001 -> 1020 yes.
    MonitoredItemChange change;
    change.clientHandle = ch;
    change.settings.samplingIntervalMs = 10;
    change.settings.queueSize = 5;
    DataChangeFilter f;
    f.trigger = DataChangeTrigger::StatusValue;
    f.deadbandType = uint32_t(DeadbandType::Absolute);
    f.deadbandValue = 10;
    change.settings.dataChangeFilter = f;
    Awaited<MonitoredItemsResult> m;
    client.modifyMonitoredItems(info.handle, {change, MonitoredItemChange{4242, {}}}, this, m.callback());
    QVERIFY(m.wait());
    QCOMPARE(m->items.size(), std::size_t(2));
    QCOMPARE(m->items[0].statusCode, status::Good);
    QCOMPARE(m->items[0].revisedSamplingIntervalMs, 10.0);
    QCOMPARE(m->items[0].revisedQueueSize, 5u);
    QCOMPARE(m->items[1].statusCode, status::BadMonitoredItemIdInvalid);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(1), 3000);  // the initial value
    auto write = [&](int32_t v) {
        Awaited<ServiceResult<WriteResponse>> w;
        client.writeValue(NodeId(1, 1001), Variant(v), this, w.callback());
        return w.wait() && w->status.isGood();
    };
    QVERIFY(write(1005));
    QTest::qWait(200);
    QCOMPARE(rec.dataChanges(), std::size_t(1));
    QVERIFY(write(1020));
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(2), 3000);
    QCOMPARE(*rec.messages.back().dataChanges.back().value.value.get<int32_t>(), 1020);

    // Disabled: nothing reported; Reporting again: the current value.
    Awaited<MonitoredItemsResult> off;
    client.setMonitoringMode(info.handle, {ch}, MonitoringMode::Disabled, this, off.callback());
    QVERIFY(off.wait());
    QCOMPARE(off->items.size(), std::size_t(1));
    QCOMPARE(off->items[0].statusCode, status::Good);
    QVERIFY(write(1100));
    QTest::qWait(200);
    QCOMPARE(rec.dataChanges(), std::size_t(2));
    Awaited<MonitoredItemsResult> on;
    client.setMonitoringMode(info.handle, {ch}, MonitoringMode::Reporting, this, on.callback());
    QVERIFY(on.wait());
    QCOMPARE(on->items[0].statusCode, status::Good);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(3), 3000);
    QCOMPARE(*rec.messages.back().dataChanges.back().value.value.get<int32_t>(), 1100);

    Awaited<MonitoredItemsResult> del;
    client.deleteMonitoredItems(info.handle, {ch, 4242}, this, del.callback());
    QVERIFY(del.wait());
    QCOMPARE(del->items.size(), std::size_t(2));
    QCOMPARE(del->items[0].statusCode, status::Good);
    QCOMPARE(del->items[1].statusCode, status::BadMonitoredItemIdInvalid);
    QVERIFY(write(2000));
    QTest::qWait(200);
    QCOMPARE(rec.dataChanges(), std::size_t(3));

    // Modify the subscription: revised values reported.
    Awaited<SubscriptionInfo> mod;
    client.modifySubscription(info.handle, fast(200, 3, 30), this, mod.callback());
    QVERIFY(mod.wait());
    QCOMPARE(mod->status, status::Good);
    QCOMPARE(mod->revisedPublishingIntervalMs, 200.0);
    QCOMPARE(mod->revisedMaxKeepAliveCount, 3u);
    QCOMPARE(mod->revisedLifetimeCount, 30u);
    Awaited<SubscriptionInfo> bad;
    client.modifySubscription(9999, fast(200), this, bad.callback());
    QVERIFY(bad.wait());
    QCOMPARE(bad->status, status::BadSubscriptionIdInvalid);
}

void TestClientSubscriptions::pipelineKeepsSubscriptionsPlusOne() {
    auto server = startServer();
    QVERIFY(server);
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    Recorder a, b, c;
    QCOMPARE(create(client, a, fast(100)).status, status::Good);
    QTRY_COMPARE(client.subscriptionCounters().publishOutstanding, 2u);  // at least 2
    QCOMPARE(client.subscriptionCounters().publishTarget, 2u);
    QCOMPARE(create(client, b, fast(100)).status, status::Good);
    QTRY_COMPARE(client.subscriptionCounters().publishOutstanding, 3u);
    QCOMPARE(create(client, c, fast(100)).status, status::Good);
    QTRY_COMPARE(client.subscriptionCounters().publishOutstanding, 4u);  // subscriptions + 1
    QCOMPARE(client.subscriptionCounters().publishTarget, 4u);
    // The count holds while keep-alives come back: one re-issued per response.
    QTRY_VERIFY_WITH_TIMEOUT(client.subscriptionCounters().keepAlives >= 6, 5000);
    QTest::qWait(50);
    QVERIFY(client.subscriptionCounters().publishOutstanding >= 3);
    QCOMPARE(client.subscriptionCounters().tooManyPublishRequests, 0u);
}

void TestClientSubscriptions::tooManyPublishRequestsLowersTheCount() {
    ServerConfig cfg = subscriptionServerConfig();
    cfg.subscriptions.maxPublishRequestsPerSession = 2;
    auto server = startServer(cfg);
    QVERIFY(server);
    ClientConfig ccfg = subscriptionClientConfig();
    ccfg.publishRequests = 6;  // more than the server takes
    Client client(ccfg);
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    Recorder a;
    QCOMPARE(create(client, a, fast(100)).status, status::Good);
    // The client wants 6; the server parks 2 (its cap, and one more than the Session's one
    // Subscription: OPC 10000-4 5.14.5.1) and answers the oldest extra Bad_TooManyPublishRequests.
    QTRY_VERIFY_WITH_TIMEOUT(client.subscriptionCounters().tooManyPublishRequests >= 1, 5000);
    QTRY_COMPARE(client.subscriptionCounters().publishTarget, 2u);
    const uint64_t refusals = client.subscriptionCounters().tooManyPublishRequests;
    // Keep-alives keep coming with two requests, and no more refusals.
    const uint64_t before = client.subscriptionCounters().keepAlives;
    QTRY_VERIFY_WITH_TIMEOUT(client.subscriptionCounters().keepAlives >= before + 6, 5000);
    QCOMPARE(client.subscriptionCounters().tooManyPublishRequests, refusals);
    QVERIFY(client.subscriptionCounters().publishOutstanding <= 2);
}

void TestClientSubscriptions::keepAliveSupervisionFiresOnAFrozenLink() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    const NodeId session = client.sessionId();
    QSignalSpy states(&client, &Client::stateChanged);
    Recorder rec;
    // Keep-alive every 100 ms x 3: silence is suspect after 300 + 500 ms.
    const SubscriptionInfo info = create(client, rec, fast(100, 3, 30));
    QCOMPARE(info.status, status::Good);
    QTRY_VERIFY_WITH_TIMEOUT(client.subscriptionCounters().keepAlives >= 2, 3000);
    QElapsedTimer t;
    t.start();
    proxy.freeze();
    QTRY_COMPARE_WITH_TIMEOUT(rec.count(SubscriptionEvent::KeepAliveMissing), 1, 3000);
    const qint64 noticed = t.elapsed();
    QVERIFY2(noticed >= 500 && noticed < 2000, qPrintable(QString::number(noticed)));
    QCOMPARE(rec.first(SubscriptionEvent::KeepAliveMissing)->status, status::BadTimeout);
    QCOMPARE(rec.first(SubscriptionEvent::KeepAliveMissing)->subscriptionId, info.subscriptionId);
    // The connection was probed: no answer within keepAliveTimeoutMs, so the client reconnects
    // (the frozen connection stays frozen; new ones are forwarded) to the same Session.
    QTRY_VERIFY_WITH_TIMEOUT(passedThrough(states, ClientState::Reconnecting), 3000);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Connected, 5000);
    QCOMPARE(client.sessionId(), session);
    QTRY_COMPARE_WITH_TIMEOUT(rec.count(SubscriptionEvent::KeepAliveResumed), 1, 3000);
    QCOMPARE(rec.count(SubscriptionEvent::KeepAliveMissing), 1);
}

void TestClientSubscriptions::lostPublishResponsesAreRepublished() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    const NodeId session = client.sessionId();
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(100, 10, 300));
    QCOMPARE(info.status, status::Good);
    // Server.ServerStatus.CurrentTime changes at every sample: a message every publishing interval.
    QCOMPARE(addItems(client, info.handle, {valueItem(NodeId(id::Server_ServerStatus_CurrentTime), 50, 20)}).items[0].statusCode,
             status::Good);
    QTRY_VERIFY_WITH_TIMEOUT(rec.messages.size() >= 3, 3000);
    // The server answers the parked Publish requests into the frozen link: those messages are lost
    // on the way; then the connection breaks and the client reconnects to the same Session.
    proxy.freeze();
    QTest::qWait(400);
    const uint32_t lastBefore = rec.messages.back().sequenceNumber;
    QSignalSpy states(&client, &Client::stateChanged);
    proxy.cutAll();
    QTRY_VERIFY_WITH_TIMEOUT(passedThrough(states, ClientState::Reconnecting), 3000);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Connected, 5000);
    QCOMPARE(client.sessionId(), session);
    QTRY_VERIFY_WITH_TIMEOUT(!rec.messages.empty() && rec.messages.back().sequenceNumber > lastBefore + 4, 5000);
    // The gap was filled by Republish, in order, nothing lost.
    QVERIFY(rec.contiguous(1));
    QVERIFY(client.subscriptionCounters().republishRequests >= 1);
    QVERIFY(client.subscriptionCounters().messagesRepublished >= 1);
    QVERIFY(std::any_of(rec.messages.begin(), rec.messages.end(), [](const auto& m) { return m.republished; }));
    QCOMPARE(client.subscriptionCounters().messagesLost, 0u);
    QCOMPARE(rec.count(SubscriptionEvent::MessagesLost), 0);
    // The republished ones are acknowledged too: nothing of them stays on the server. (Some
    // acknowledgements were sent again after the cut, as the client cannot know whether the
    // Publish requests carrying them arrived: Bad_SequenceNumberUnknown, tolerated.)
    uint32_t republishedSeq = 0;
    for (const auto& m : rec.messages)
        if (m.republished && !republishedSeq) republishedSeq = m.sequenceNumber;
    const uint64_t responses = client.subscriptionCounters().publishResponses;
    QTRY_VERIFY_WITH_TIMEOUT(client.subscriptionCounters().publishResponses > responses + 2, 3000);
    RepublishRequest rp;
    rp.subscriptionId = info.subscriptionId;
    rp.retransmitSequenceNumber = republishedSeq;
    Awaited<ServiceResult<RepublishResponse>> again;
    client.call<RepublishRequest, RepublishResponse>(rp, this, again.callback());
    QVERIFY(again.wait());
    QCOMPARE(again->status, status::BadMessageNotAvailable);
    qInfo() << "acknowledgements answered Bad_SequenceNumberUnknown:" << client.subscriptionCounters().acknowledgementsUnknown;
}

void TestClientSubscriptions::messagesTheServerNoLongerHasAreReportedLost() {
    // A retransmission queue of one message: of two answers lost in the frozen link, only the
    // newer can be republished; the older is reported lost, and delivery goes on in order.
    ServerConfig cfg = subscriptionServerConfig();
    cfg.subscriptions.maxRetransmissionQueue = 1;
    auto server = startServer(cfg);
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(100, 10, 300));
    QCOMPARE(info.status, status::Good);
    QCOMPARE(addItems(client, info.handle, {valueItem(NodeId(id::Server_ServerStatus_CurrentTime), 50, 20)}).items[0].statusCode,
             status::Good);
    QTRY_VERIFY_WITH_TIMEOUT(rec.messages.size() >= 3, 3000);
    proxy.freeze();
    QTest::qWait(400);
    const uint32_t lastBefore = rec.messages.back().sequenceNumber;
    QSignalSpy states(&client, &Client::stateChanged);
    proxy.cutAll();
    QTRY_VERIFY_WITH_TIMEOUT(passedThrough(states, ClientState::Reconnecting), 3000);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Connected, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(rec.count(SubscriptionEvent::MessagesLost) >= 1, 5000);
    const SubscriptionStatusChange* lost = rec.first(SubscriptionEvent::MessagesLost);
    QCOMPARE(lost->status, status::BadMessageNotAvailable);
    QVERIFY(lost->firstSequenceNumber > lastBefore);
    QVERIFY(lost->lastSequenceNumber >= lost->firstSequenceNumber);
    QVERIFY(client.subscriptionCounters().messagesLost >= 1);
    QTRY_VERIFY_WITH_TIMEOUT(rec.messages.back().sequenceNumber > lost->lastSequenceNumber + 2, 5000);
    // In order, and every number either delivered or reported lost.
    std::set<uint32_t> seen;
    for (std::size_t k = 1; k < rec.messages.size(); ++k) QVERIFY(rec.messages[k].sequenceNumber > rec.messages[k - 1].sequenceNumber);
    for (const auto& m : rec.messages) seen.insert(m.sequenceNumber);
    for (const auto& st : rec.statuses)
        if (st.event == SubscriptionEvent::MessagesLost)
            for (uint32_t k = st.firstSequenceNumber; k <= st.lastSequenceNumber; ++k) QVERIFY(seen.insert(k).second);
    QCOMPARE(*seen.begin(), 1u);
    QCOMPARE(*seen.rbegin(), uint32_t(seen.size()));
}

void TestClientSubscriptions::newSessionGetsTheSubscriptionsTransferred() {
    // A named user: over None, 5.14.7.1 lets only the same ClientUserId take the Subscriptions
    // (an anonymous one is created again: anonymousSubscriptionsOverNoneAreRecreated).
    QTemporaryDir pki;  // the server's certificate encrypts the password on the None channel
    QVERIFY(pki.isValid());
    ServerConfig scfg = subscriptionServerConfig();
    scfg.security.pkiDir = pki.filePath("server");
    scfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), 2000);
    auto server = startServer(scfg);
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    ClientConfig ccfg = subscriptionClientConfig();
    ccfg.identity = UserIdentity::fromUserName(QStringLiteral("alice"), QStringLiteral("alice-pw"));
    ccfg.pkiDir = pki.filePath("client");
    ccfg.securityPolicyUri = QString::fromUtf8(kSecurityPolicyNone);
    ccfg.securityMode = MessageSecurityMode::None;
    ccfg.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    Client client(ccfg);
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    const NodeId oldSession = client.sessionId();
    QSignalSpy recreated(&client, &Client::sessionRecreated);
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(50, 5, 600));
    QCOMPARE(info.status, status::Good);
    QCOMPARE(addItems(client, info.handle, {valueItem(NodeId(1, 1003), 10, 10, 5)}).items[0].statusCode, status::Good);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(1), 3000);
    const uint32_t lastBefore = rec.messages.back().sequenceNumber;
    // The server forgets the Session (as after its timeout); its subscription lives on.
    server->sessions().remove(server->sessions().snapshot()[0]);
    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(recreated.size(), 1, 10000);
    QVERIFY(!(client.sessionId() == oldSession));
    QTRY_COMPARE_WITH_TIMEOUT(rec.count(SubscriptionEvent::Transferred), 1, 5000);
    QCOMPARE(rec.count(SubscriptionEvent::Recreated), 0);
    // sendInitialValues: the current value again, same subscription id, same client handle,
    // sequence numbers going on.
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(2), 3000);
    const SubscriptionNotification& again = rec.messages.back();
    QCOMPARE(again.subscriptionId, info.subscriptionId);
    QVERIFY(again.sequenceNumber > lastBefore);
    QCOMPARE(again.dataChanges.back().clientHandle, 5u);
    QCOMPARE(*again.dataChanges.back().value.value.get<int32_t>(), 1003);
    // And new changes are reported through the new Session.
    Awaited<ServiceResult<WriteResponse>> w;
    client.writeValue(NodeId(1, 1003), Variant(int32_t(31)), this, w.callback());
    QVERIFY(w.wait());
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(3), 3000);
    QCOMPARE(*rec.messages.back().dataChanges.back().value.value.get<int32_t>(), 31);
    // In order; the number our server spent on the StatusChangeNotification Good_SubscriptionTransferred
    // for the old Session is not in the TransferResult: skipped, not reported as lost data.
    for (std::size_t k = 1; k < rec.messages.size(); ++k) QVERIFY(rec.messages[k].sequenceNumber > rec.messages[k - 1].sequenceNumber);
    QCOMPARE(rec.count(SubscriptionEvent::MessagesLost), 0);
    QCOMPARE(client.subscriptionCounters().messagesLost, 0u);
}

void TestClientSubscriptions::sequenceNumbersWrapToOne() {
    auto server = startServer();
    QVERIFY(server);
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, server->endpointUrl()), status::Good);
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(50, 5, 600));
    QCOMPARE(info.status, status::Good);
    // The server's counter three numbers before its wrap (7.8: 0xFFFFFFFF is followed by 1).
    std::shared_ptr<SessionSubscriptions> owner = server->subscriptionRegistry().owner(info.subscriptionId);
    QVERIFY(owner);
    QMetaObject::invokeMethod(&owner->home(), [&] {
        if (Subscription* s = owner->find(info.subscriptionId)) s->setNextSequenceNumber(0xFFFFFFFDu);
    }, Qt::BlockingQueuedConnection);
    QCOMPARE(addItems(client, info.handle, {valueItem(NodeId(1, 1003), 10, 10, 5)}).items[0].statusCode, status::Good);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(1), 3000);
    for (int32_t v = 1; v <= 6; ++v) {
        Awaited<ServiceResult<WriteResponse>> w;
        client.writeValue(NodeId(1, 1003), Variant(int32_t(100 + v)), this, w.callback());
        QVERIFY(w.wait());
        QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(1 + v), 3000);
        QCOMPARE(*rec.messages.back().dataChanges.back().value.value.get<int32_t>(), 100 + v);
    }
    std::vector<uint32_t> numbers;
    for (const auto& m : rec.messages) numbers.push_back(m.sequenceNumber);
    const std::vector<uint32_t> expected{0xFFFFFFFDu, 0xFFFFFFFEu, 0xFFFFFFFFu, 1, 2, 3, 4};
    QCOMPARE(numbers, expected);
    // The jump the test made may be reported (a keep-alive numbered 1 or 2 came first); nothing
    // at or after the wrap is.
    for (const SubscriptionStatusChange& st : rec.statuses)
        if (st.event == SubscriptionEvent::MessagesLost) {
            QVERIFY(st.firstSequenceNumber <= 2);
            QCOMPARE(st.lastSequenceNumber, 0xFFFFFFFCu);
        }
}

void TestClientSubscriptions::anonymousSubscriptionsOverNoneAreRecreated() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    QSignalSpy recreated(&client, &Client::sessionRecreated);
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(50, 5, 600));
    QCOMPARE(info.status, status::Good);
    QCOMPARE(addItems(client, info.handle, {valueItem(NodeId(1, 1003), 10, 10, 5)}).items[0].statusCode, status::Good);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(1), 3000);
    server->sessions().remove(server->sessions().snapshot()[0]);
    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(recreated.size(), 1, 10000);
    // Anonymous on a None channel: the server refuses the transfer (5.14.7.1) and the client
    // creates the Subscription and its item again, with the current value first.
    QTRY_COMPARE_WITH_TIMEOUT(rec.count(SubscriptionEvent::Recreated), 1, 5000);
    QCOMPARE(rec.count(SubscriptionEvent::Transferred), 0);
    QCOMPARE(rec.first(SubscriptionEvent::Recreated)->status, status::BadUserAccessDenied);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(2), 3000);
    QCOMPARE(rec.messages.back().dataChanges.back().clientHandle, 5u);
}

void TestClientSubscriptions::subscriptionsAreRecreatedWhenTransferFails() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    QSignalSpy recreated(&client, &Client::sessionRecreated);
    Recorder rec;
    // Lifetime 6 x 50 ms: gone from the server soon after its Publish requests stop.
    const SubscriptionInfo info = create(client, rec, fast(50, 2, 6));
    QCOMPARE(info.status, status::Good);
    QCOMPARE(addItems(client, info.handle, {valueItem(NodeId(1, 1004), 10, 10, 9)}).items[0].statusCode, status::Good);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(1), 3000);
    server->sessions().remove(server->sessions().snapshot()[0]);
    proxy.refuse(true);
    proxy.cutAll();
    QTest::qWait(1000);  // the subscription's lifetime runs out
    proxy.refuse(false);
    QTRY_COMPARE_WITH_TIMEOUT(recreated.size(), 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(rec.count(SubscriptionEvent::Recreated), 1, 5000);
    QCOMPARE(rec.count(SubscriptionEvent::Transferred), 0);
    QCOMPARE(rec.first(SubscriptionEvent::Recreated)->status, status::BadSubscriptionIdInvalid);
    const uint32_t newId = rec.first(SubscriptionEvent::Recreated)->subscriptionId;
    QVERIFY(newId != 0 && newId != info.subscriptionId);
    // The item again, with its client handle: its current value first, numbered from 1 again.
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(2), 3000);
    const SubscriptionNotification& again = rec.messages.back();
    QCOMPARE(again.subscriptionId, newId);
    QCOMPARE(again.sequenceNumber, 1u);
    QCOMPARE(again.handle, info.handle);
    QCOMPARE(again.dataChanges.back().clientHandle, 9u);
    QCOMPARE(*again.dataChanges.back().value.value.get<int32_t>(), 1004);
}

void TestClientSubscriptions::expiredSubscriptionIsRecreatedAfterStatusChange() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    ClientConfig cfg = subscriptionClientConfig();
    cfg.keepAliveTimeoutMs = 5000;  // the frozen link is not given up before the lifetime ends
    Client client(cfg);
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    const NodeId session = client.sessionId();
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(50, 2, 6));
    QCOMPARE(info.status, status::Good);
    QCOMPARE(addItems(client, info.handle, {valueItem(NodeId(1, 1006), 10, 10, 3)}).items[0].statusCode, status::Good);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(1), 3000);
    proxy.freeze();
    QTest::qWait(1000);  // no Publish reaches the server: the lifetime (300 ms) runs out
    proxy.cutAll();
    // Same Session; the next Publish brings StatusChangeNotification Bad_Timeout.
    QTRY_COMPARE_WITH_TIMEOUT(rec.count(SubscriptionEvent::Recreated), 1, 8000);
    QCOMPARE(client.sessionId(), session);
    const SubscriptionStatusChange* sc = rec.first(SubscriptionEvent::ServerStatusChange);
    QVERIFY(sc);
    QCOMPARE(sc->status, status::BadTimeout);
    QCOMPARE(rec.first(SubscriptionEvent::Recreated)->status, status::BadTimeout);
    QTRY_COMPARE_WITH_TIMEOUT(rec.dataChanges(), std::size_t(2), 3000);
    QCOMPARE(rec.messages.back().dataChanges.back().clientHandle, 3u);
    QVERIFY(rec.messages.back().subscriptionId != info.subscriptionId);
}

void TestClientSubscriptions::eventsOfOurServerPassTheWhereClause() {
    auto server = startServer();
    QVERIFY(server);
    Client client(subscriptionClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    Recorder rec;
    const SubscriptionInfo info = create(client, rec, fast(50));
    QCOMPARE(info.status, status::Good);

    // Select EventType, Severity, Message, SourceName where Severity >= 600 Or OfType AuditEventType.
    EventFilter filter = makeEventFilter({"EventType", "Severity", "Message", "SourceName"});
    ContentFilterElement either, ge, ofType;
    either.filterOperator = FilterOperator::Or;
    either.filterOperands = Array<ExtensionObject>{ExtensionObject::make(ElementOperand{1}), ExtensionObject::make(ElementOperand{2})};
    ge.filterOperator = FilterOperator::GreaterThanOrEqual;
    ge.filterOperands = Array<ExtensionObject>{ExtensionObject::make(eventField("Severity")),
                                               ExtensionObject::make(LiteralOperand{Variant(uint16_t(600))})};
    ofType.filterOperator = FilterOperator::OfType;
    ofType.filterOperands = Array<ExtensionObject>{ExtensionObject::make(LiteralOperand{Variant(NodeId(id::AuditEventType))})};
    filter.whereClause.elements = Array<ContentFilterElement>{either, ge, ofType};
    // Shared with the callback, which may run after a failed check has ended this function.
    auto received = std::make_shared<std::vector<Array<Variant>>>();
    const std::vector<Array<Variant>>& events = *received;
    MonitoredItemSpec item;
    item.clientHandle = 7;
    item.nodeId = NodeId(id::Server);
    item.attributeId = uint32_t(AttributeId::EventNotifier);
    item.settings.samplingIntervalMs = 0;
    item.settings.queueSize = 100;
    item.settings.eventFilter = filter;
    item.onEvent = [received](const Array<Variant>& fields) { received->push_back(fields); };
    const MonitoredItemsResult r = addItems(client, info.handle, {item});
    QCOMPARE(r.items.size(), std::size_t(1));
    QCOMPARE(r.items[0].statusCode, status::Good);
    QVERIFY(server->events().hasSubscribers());

    // 20 events of Severity 100, 200, ... 1000, 100, ...: the 10 of 600 and more pass.
    for (int k = 0; k < 20; ++k)
        server->events().raise(makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "Test",
                                         "event " + std::to_string(k), uint16_t(100 * (1 + k % 10))));
    // An audit type passes whatever its Severity (OfType).
    server->events().raise(makeEvent(NodeId(id::AuditEventType), NodeId(id::Server), "Audit", "audit", 1));
    QTRY_COMPARE_WITH_TIMEOUT(events.size(), std::size_t(11), 3000);
    QTest::qWait(300);
    QCOMPARE(events.size(), std::size_t(11));  // nothing below the threshold came later
    int previous = -1;
    for (std::size_t i = 0; i < 10; ++i) {
        const Array<Variant>& f = events[i];
        QCOMPARE(f.size(), std::size_t(4));
        QCOMPARE(*f[0].get<NodeId>(), NodeId(id::BaseEventType));
        const uint16_t severity = *f[1].get<uint16_t>();
        QVERIFY2(severity >= 600, qPrintable(QString::number(severity)));
        const int k = f[2].get<LocalizedText>()->text.toQString().mid(6).toInt();
        QCOMPARE(int(severity), 100 * (1 + k % 10));  // one event's fields together
        QVERIFY(k > previous);                         // in the order raised
        previous = k;
        QCOMPARE(f[3].get<String>()->toQString(), QStringLiteral("Test"));
    }
    QCOMPARE(*events[10][0].get<NodeId>(), NodeId(id::AuditEventType));
    QCOMPARE(*events[10][1].get<uint16_t>(), uint16_t(1));
    std::size_t eventNotifications = 0;
    for (const auto& m : rec.messages) eventNotifications += m.events.size();
    QCOMPARE(eventNotifications, std::size_t(11));
    QVERIFY(rec.contiguous());
}

UA_TEST_GUILESS_MAIN(TestClientSubscriptions)
#include "tst_client_subscriptions.moc"
