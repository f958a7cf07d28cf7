#include "ua/server/subscriptions/Subscription.h"

#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/services/AttributeService.h"
#include "ua/server/subscriptions/SubscriptionOwner.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"
#include "ua/server/users/Roles.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ua {

namespace {

// An item that reports its queues (data or events): Reporting, or Sampling and triggered (5.13.1.6).
bool reportsEvents(const MonitoredItem& item) {
    return item.mode == MonitoringMode::Reporting || (item.mode == MonitoringMode::Sampling && item.triggered);
}

// Moves the queued events of the event items that report into out, at most max; true when events
// are left.
bool drainEventQueues(const std::vector<MonitoredItem*>& items, std::size_t max, EventNotificationList& out) {
    bool more = false;
    for (MonitoredItem* item : items) {
        if (!item->events || !item->events->hasQueued() || !reportsEvents(*item)) continue;
        if (out.events.size() >= max) return true;
        if (out.events.isNull()) out.events = Array<EventFieldList>::emptyArray();
        item->events->drainInto(out.events, max - out.events.size(), item->clientHandle);
        if (item->events->hasQueued()) more = true;
        else item->triggered = false;
    }
    return more;
}

} // namespace


struct Subscription::SamplingGroup final : TimerQueue::Client {
    Subscription* sub = nullptr;
    int64_t intervalUs = 0;
    // Deadlines at phase + k * interval, a quarter interval after the multiples of the interval on
    // the scheduler's clock (aligned to UTC): a source that changes on those multiples (the demo
    // signals) is read early in its period, leaving 3/4 of the interval for a late wake-up (timers
    // fire late, never early).
    int64_t phaseUs = 0;
    std::vector<MonitoredItem*> items;
    Timer timer;
    void onTimer(uint32_t, int64_t dueUs, int64_t nowUs) override { sub->sampleGroup(*this, dueUs, nowUs); }
};

namespace {

int64_t toUs(double ms) { return std::max<int64_t>(1, std::llround(ms * 1000.0)); }


// The ServerTimestamp of a sample as the item's timestampsToReturn asks. The SourceTimestamp is
// kept whatever it asks: STATUS_VALUE_TIMESTAMP (7.10) compares it also for Server and Neither, and
// MonitoredItem::push leaves it out of what is queued and sent for those.
void applyServerTimestamp(DataValue& dv, TimestampsToReturn t, DateTime now) {
    const bool server = t == TimestampsToReturn::Server || t == TimestampsToReturn::Both;
    dv.hasServerPicoseconds = false;
    dv.serverPicoseconds = 0;
    if (server) dv.setServerTimestamp(now);
    else { dv.hasServerTimestamp = false; dv.serverTimestamp = {}; }
}

DataValue failedSample(StatusCode st) {
    DataValue dv;
    dv.setStatus(st);
    return dv;
}

// One sample of an item (5.13.1.2): the value the Read service would return now to the Session's
// user (5.13.2.1: an item the user may not read reports Bad_NotReadable / Bad_UserAccessDenied, and
// starts reporting values once its access rights allow it).
DataValue sampleValue(const MonitoredItem& item, const AddressSpace& space, DateTime now,
                      const SubscriptionOwner::UserAccess& user) {
    // The node at the item's index may have been removed (AddressSpace::removeNode) and its index
    // taken by another: then the NodeId differs and the slow path answers by NodeId.
    if (item.fastPath && item.node < space.size() && space.node(item.node).nodeId == item.itemToMonitor.nodeId) {
        const Node& n = space.node(item.node);
        if (n.nodeClass == NodeClass::Variable) {
            if (!(n.attrs->accessLevel & access::CurrentRead)) return failedSample(status::BadNotReadable);
            if (user.roles != kUnrestricted &&
                !(userAccessLevel(n.attrs->userAccessLevel, userPermissions(n, user.roles, user.permissions)) & access::CurrentRead))
                return failedSample(status::BadUserAccessDenied);
        }
        DataValue dv;
        if (n.rare->source->read) dv = n.rare->source->read();
        else if (!n.value || !n.value->copyTo(dv)) dv = DataValue(Variant());
        if (dv.hasStatus && dv.status.isBad()) {
            dv.value = Variant();
            dv.hasValue = false;
        }
        applyServerTimestamp(dv, item.timestamps, now);
        return dv;
    }
    ServiceContext ctx{space, nullptr, defaultOperationLimits(), nullptr, now};
    ctx.roles = user.roles;
    ctx.permissions = user.permissions;
    ctx.sessionScope = user.sessionScope;
    // With the SourceTimestamp also for Server and Neither (see applyServerTimestamp()).
    TimestampsToReturn t = item.timestamps;
    if (t == TimestampsToReturn::Server) t = TimestampsToReturn::Both;
    else if (t == TimestampsToReturn::Neither) t = TimestampsToReturn::Source;
    return readValue(ctx, item.itemToMonitor, t);
}

} // namespace

Subscription::Parameters Subscription::revise(const SubscriptionConfig& c, double interval, uint32_t lifetime,
                                              uint32_t keepAlive, uint32_t maxNotifications) {
    Parameters p;
    if (!(interval > 0) || std::isnan(interval)) interval = c.minPublishingIntervalMs;
    p.publishingIntervalMs = std::clamp(interval, c.minPublishingIntervalMs, c.maxPublishingIntervalMs);
    uint32_t ka = std::clamp<uint32_t>(keepAlive, 1, std::max<uint32_t>(1, c.maxKeepAliveCount));
    if (double(ka) * p.publishingIntervalMs > c.maxKeepAliveMs)
        ka = std::max<uint32_t>(1, uint32_t(c.maxKeepAliveMs / p.publishingIntervalMs));
    uint64_t lt = std::max<uint64_t>(lifetime, 3ull * ka);
    if (c.maxLifetimeCount && lt > c.maxLifetimeCount) {
        lt = std::max<uint32_t>(3, c.maxLifetimeCount);
        ka = std::max<uint32_t>(1, std::min<uint32_t>(ka, uint32_t(lt / 3)));
    }
    p.maxKeepAliveCount = ka;
    p.lifetimeCount = uint32_t(lt);
    p.requestedMaxNotificationsPerPublish = maxNotifications;
    p.maxNotificationsPerPublish = maxNotifications;
    if (c.maxNotificationsPerPublish && (maxNotifications == 0 || maxNotifications > c.maxNotificationsPerPublish))
        p.maxNotificationsPerPublish = c.maxNotificationsPerPublish;
    return p;
}

Subscription::Subscription(uint32_t id, SubscriptionOwner& owner, const Parameters& p, int64_t nowUs)
    : m_id(id), m_owner(&owner), m_params(p), m_keepAliveCounter(p.maxKeepAliveCount), m_lifetimeCounter(p.lifetimeCount),
      m_intervalUs(toUs(p.publishingIntervalMs)) {
    m_timerClient.self = this;
    m_timer = Timer(owner.home().timers(), &m_timerClient);
    m_moreClient.self = this;
    m_moreTimer = Timer(owner.home().timers(), &m_moreClient);
    armPublishingTimer(nowUs);
}

Subscription::~Subscription() {
    if (!m_items.empty()) m_owner->home().registry().releaseItems(uint32_t(m_items.size()));
}

int64_t Subscription::publishingQuantumUs(int64_t intervalUs) {
    int64_t q = 1000;
    if (intervalUs < 100 * q) return 1;
    while (q < 16000 && 2 * q * 100 <= intervalUs) q *= 2;
    return q;
}

void Subscription::armPublishingTimer(int64_t afterUs) {
    // The first expiry one interval from now, rounded up to the quantum on the scheduler's clock.
    const int64_t q = publishingQuantumUs(m_intervalUs);
    int64_t first = afterUs + m_intervalUs;
    if (q > 1 && first % q) first += q - first % q;
    m_lastDueUs = first - m_intervalUs;
    m_armedDueUs = first;
    m_timer.arm(first);
}

uint64_t Subscription::noOpsAhead() const {
    if (m_state == State::Closed) return 0;
    const uint64_t lifetime = m_lifetimeCounter > 0 ? m_lifetimeCounter - 1 : 0;  // the last one closes it
    if (m_state == State::Late) return lifetime;  // only a Publish request (publishNow) ends LATE
    if (!m_messageSent || (m_params.publishingEnabled && hasReportable())) return 0;
    const uint64_t keepAlive = m_keepAliveCounter > 0 ? m_keepAliveCounter - 1 : 0;  // the last one sends
    return std::min(keepAlive, lifetime);
}

uint64_t Subscription::pendingNoOps(int64_t nowUs) const {
    if (m_state == State::Closed || !m_timer.valid()) return 0;
    const int64_t until = std::min(nowUs, m_armedDueUs - 1);
    if (until < m_lastDueUs + m_intervalUs) return 0;
    return std::min<uint64_t>(uint64_t((until - m_lastDueUs) / m_intervalUs), noOpsAhead());
}

void Subscription::countNoOps(uint64_t n) {
    if (n == 0) return;
    m_lifetimeCounter -= uint32_t(n);  // n <= noOpsAhead(): stays >= 1
    if (m_state != State::Late) {
        m_keepAliveCounter -= uint32_t(n);
        m_state = State::KeepAlive;
    }
    m_lastDueUs += int64_t(n) * m_intervalUs;
}

void Subscription::catchUp(int64_t nowUs) { countNoOps(pendingNoOps(nowUs)); }

void Subscription::pullIn(int64_t nowUs) {
    if (m_state == State::Closed || !m_timer.valid() || m_armedDueUs <= m_lastDueUs) return;  // firing now
    catchUp(nowUs);
    const uint64_t skip = std::min<uint64_t>(noOpsAhead(), uint64_t((m_armedDueUs - m_lastDueUs) / m_intervalUs));
    const int64_t wanted = m_lastDueUs + int64_t(skip + 1) * m_intervalUs;
    if (wanted >= m_armedDueUs) return;
    m_armedDueUs = wanted;
    m_timer.arm(wanted);
}

void Subscription::armNext(int64_t dueUs, int64_t nowUs) {
    // A late thread catches up on the expiries it missed, one by one, so the keep-alive and
    // lifetime counters count every interval; only after a stall of more than 1000 intervals are
    // the missed ones skipped. The no-op expiries ahead are not timed (see the header).
    if ((nowUs - dueUs) / m_intervalUs >= 1000) m_lastDueUs = nextOnGrid(nowUs, m_intervalUs, dueUs % m_intervalUs) - m_intervalUs;
    // At most a day of intervals at once (no overflow for huge intervals and lifetimes).
    const uint64_t cap = uint64_t(std::max<int64_t>(1, 86'400'000'000 / m_intervalUs));
    const uint64_t skip = std::min(noOpsAhead(), cap);
    m_armedDueUs = m_lastDueUs + int64_t(skip + 1) * m_intervalUs;
    m_timer.arm(m_armedDueUs);
}

void Subscription::resetLifetimeCounter() {
    catchUp(m_owner->home().now());  // the expiries before the reset counted it down
    m_lifetimeCounter = m_params.lifetimeCount;
}

void Subscription::notificationQueued() { markReportable(m_owner->home().now()); }

void Subscription::recheckNotificationsAvailable() {
    if (!m_notificationsAvailable && !m_moreNotifications) return;
    for (const MonitoredItem* item : m_itemOrder)
        if ((item->hasQueued() || item->hasQueuedEvents()) && reportsEvents(*item)) return;
    // Nothing to report: the armed expiry (the next one) now only counts the counters down, and
    // armNext() times the ones after it as it does for an idle Subscription.
    catchUp(m_owner->home().now());
    m_notificationsAvailable = false;
    m_moreNotifications = false;
}

void Subscription::markReportable(int64_t atUs) {
    // The expiries before this change had nothing to report: count them first (every state
    // change does, pendingNoOps() counts with the state as it is). atUs is when the change
    // happened (a sample's deadline), which a late thread serves after its now: an expiry at or
    // after it has the change to send.
    if (!m_notificationsAvailable) catchUp(atUs - 1);
    m_notificationsAvailable = true;
    if (m_params.publishingEnabled) pullIn(atUs - 1);
}

uint32_t Subscription::currentKeepAliveCount() const {
    if (m_state == State::Late) return m_keepAliveCounter;
    return m_keepAliveCounter - uint32_t(pendingNoOps(m_owner->home().now()));
}

uint32_t Subscription::currentLifetimeCount() const {
    return m_lifetimeCounter - uint32_t(pendingNoOps(m_owner->home().now()));
}

void Subscription::modify(const Parameters& p, int64_t nowUs) {
    const bool intervalChanged = toUs(p.publishingIntervalMs) != m_intervalUs;
    catchUp(nowUs);
    const bool enabled = m_params.publishingEnabled;
    m_params = p;
    m_params.publishingEnabled = enabled;
    m_intervalUs = toUs(p.publishingIntervalMs);
    m_keepAliveCounter = std::min(m_keepAliveCounter, m_params.maxKeepAliveCount);
    resetLifetimeCounter();
    ++counters.modifyCount;
    if (intervalChanged) armPublishingTimer(nowUs);  // takes effect within one new interval
    else pullIn(nowUs);                              // a lower keep-alive count may be due sooner
}

void Subscription::setPublishingEnabled(bool enabled) {
    catchUp(m_owner->home().now());
    if (enabled != m_params.publishingEnabled) ++(enabled ? counters.enableCount : counters.disableCount);
    m_params.publishingEnabled = enabled;
    resetLifetimeCounter();
    pullIn(m_owner->home().now());
}

StatusCode Subscription::acknowledge(uint32_t seq) {
    auto it = std::find_if(m_retransmission.begin(), m_retransmission.end(),
                           [seq](const NotificationMessage& m) { return m.sequenceNumber == seq; });
    if (it == m_retransmission.end()) return status::BadSequenceNumberUnknown;
    m_retransmission.erase(it);
    return status::Good;
}

const NotificationMessage* Subscription::republish(uint32_t seq) {
    ++counters.republishRequestCount;
    ++counters.republishMessageRequestCount;
    resetLifetimeCounter();
    for (const NotificationMessage& m : m_retransmission)
        if (m.sequenceNumber == seq) {
            ++counters.republishMessageCount;
            return &m;
        }
    return nullptr;
}

Array<uint32_t> Subscription::availableSequenceNumbers() const {
    Array<uint32_t> a = Array<uint32_t>::emptyArray();
    a.reserve(m_retransmission.size());
    for (const NotificationMessage& m : m_retransmission) a.push_back(m.sequenceNumber);
    return a;
}

uint32_t Subscription::takeSequenceNumber() {
    const uint32_t s = m_nextSequence;
    m_nextSequence = s == 0xFFFFFFFFu ? 1 : s + 1;  // a Counter wraps to 1 (0 is never used)
    return s;
}

NotificationMessage Subscription::statusChangeMessage(StatusCode s) {
    NotificationMessage m;
    m.sequenceNumber = s == status::GoodSubscriptionTransferred ? m_nextSequence : takeSequenceNumber();
    m.publishTime = DateTime::now();
    StatusChangeNotification n;
    n.status = s;
    m.notificationData = Array<ExtensionObject>{ExtensionObject::make(n)};
    return m;
}

bool Subscription::hasReportable() const { return m_notificationsAvailable || m_moreNotifications; }

void Subscription::onPublishingTimer(int64_t dueUs, int64_t nowUs) {
    if (m_state == State::Closed) return;
    // The expiries between the last one counted and this one had nothing to do (pullIn() would
    // have armed the timer earlier): count them, then this one.
    if (dueUs > m_lastDueUs) countNoOps(std::min<uint64_t>(uint64_t((dueUs - m_lastDueUs) / m_intervalUs) - 1, noOpsAhead()));
    m_lastDueUs = dueUs;
    m_armedDueUs = dueUs;  // firing: pullIn() leaves the timer to armNext()
    expiry(dueUs, nowUs);
}

void Subscription::expiry(int64_t dueUs, int64_t nowUs) {
    if (m_lifetimeCounter > 0) --m_lifetimeCounter;
    if (m_lifetimeCounter == 0) {
        expire();
        m_owner->expired(*this, nowUs);  // deletes this
        return;
    }
    if (m_state != State::Late) {  // LATE: still waiting for a Publish request
        const bool notifications = m_params.publishingEnabled && hasReportable();
        const bool send = notifications || !m_messageSent || m_keepAliveCounter <= 1;
        if (!send) {
            --m_keepAliveCounter;
            m_state = State::KeepAlive;
        } else if (!sendMessage(!notifications, nowUs)) {
            m_state = State::Late;
            ++counters.latePublishRequestCount;
        } else {
            scheduleMore();
        }
    }
    armNext(dueUs, nowUs);
}

bool Subscription::publishNow(int64_t nowUs) {
    const bool notifications = m_params.publishingEnabled && hasReportable();
    if (!sendMessage(!notifications, nowUs)) return false;
    scheduleMore();
    return true;
}

void Subscription::scheduleMore() {
    if (m_moreNotifications && m_params.publishingEnabled) m_moreTimer.arm(m_owner->home().now());
}

void Subscription::sendMore(int64_t nowUs) {
    // Without a parked Publish request the next one takes the rest (wantsPublishRequest()).
    if (m_state == State::Closed || !m_moreNotifications || !m_params.publishingEnabled) return;
    if (sendMessage(false, nowUs)) scheduleMore();
}

bool Subscription::sendMessage(bool keepAlive, int64_t nowUs) {
    if (!m_owner->hasPublishRequest(nowUs)) return false;
    catchUp(nowUs);  // the expiries before this message are counted before the counters restart
    PublishResponse r;
    r.subscriptionId = m_id;
    NotificationMessage& msg = r.notificationMessage;
    msg.publishTime = DateTime::now();
    msg.notificationData = Array<ExtensionObject>::emptyArray();
    if (!keepAlive) {
        // The DataChangeNotification is encoded straight from the item queues into the bytes
        // ExtensionObject::make(DataChangeNotification) would give on the wire (monitoredItems,
        // then an empty diagnosticInfos) and kept as such for Republish: no MonitoredItemNotification
        // structures (208 bytes each) built, walked and freed per notification, and a retransmission
        // queue of about 30 bytes per notification.
        const std::size_t max = m_params.maxNotificationsPerPublish ? m_params.maxNotificationsPerPublish : SIZE_MAX;
        thread_local Buffer body;  // the home thread's; keeps its capacity
        body.clear();
        BinaryEncoder e(body);
        const std::size_t countAt = e.reserveLength();
        std::size_t count = 0;
        bool more = false;
        const std::size_t n = m_itemOrder.size();
        std::size_t i = 0;
        for (; i < n; ++i) {
            MonitoredItem* item = m_itemOrder[(m_drainFrom + i) % n];
            const bool report = item->mode == MonitoringMode::Reporting ||
                                (item->mode == MonitoringMode::Sampling && item->triggered);
            if (!report || !item->hasQueued()) continue;
            if (count >= max) { more = true; break; }
            count += item->drainEncoded(e, max - count);
            if (item->hasQueued()) more = true;
            else item->triggered = false;
        }
        m_drainFrom = n ? (m_drainFrom + i) % n : 0;
        e.writePod<int32_t>(0);  // diagnosticInfos: none
        EventNotificationList events;  // event items (events/EventItem.h) fill the rest of max
        if (!m_eventItems.empty() && drainEventQueues(m_eventItems, max - std::min(max, count), events)) more = true;
        m_moreNotifications = more;
        m_notificationsAvailable = more;
        if (!e.ok()) count = 0;
        if (count == 0 && events.events.empty()) {
            keepAlive = true;
        } else {
            const std::size_t eventCount = events.events.size();
            counters.dataChangeNotificationsCount += count;
            counters.eventNotificationsCount += eventCount;
            counters.notificationsCount += count + eventCount;
            msg.sequenceNumber = takeSequenceNumber();
            if (count) {
                const int32_t c = int32_t(count);
                std::memcpy(body.data() + countAt, &c, sizeof c);
                msg.notificationData.push_back(
                    ExtensionObject::opaque(NodeId(id::DataChangeNotification_Encoding_DefaultBinary),
                                            ByteString(reinterpret_cast<const char*>(body.data()), body.size())));
            }
            if (eventCount) msg.notificationData.push_back(ExtensionObject::make(std::move(events)));
            m_retransmission.push_back(msg);  // the data changes are bytes; the events' body is shared, immutable
            const std::size_t maxQueue = std::max<uint32_t>(1, m_owner->config().maxRetransmissionQueue);
            while (m_retransmission.size() > maxQueue) {
                m_retransmission.pop_front();
                ++counters.discardedMessageCount;
            }
        }
    }
    if (keepAlive) {
        msg.sequenceNumber = m_nextSequence;  // the next number, not consumed (5.14.1.1)
        ++counters.keepAliveCount;
    }
    r.moreNotifications = !keepAlive && m_moreNotifications;  // a keep-alive carries no notifications
    r.availableSequenceNumbers = availableSequenceNumbers();
    ++counters.publishRequestCount;
    m_messageSent = true;
    m_keepAliveCounter = m_params.maxKeepAliveCount;
    m_lifetimeCounter = m_params.lifetimeCount;  // the expiries before it were counted (catchUp above)
    m_state = State::Normal;
    const bool answered = m_owner->answerPublish(r, nowUs);
    pullIn(nowUs);  // the keep-alive counter starts again: its end may come before the armed expiry
    return answered;
}

void Subscription::expire() {
    m_state = State::Closed;
    m_timer.reset();
    m_moreTimer.reset();
    for (auto& [interval, g] : m_groups) g->timer.reset();
}

MonitoredItem* Subscription::item(uint32_t id) {
    auto it = m_items.find(id);
    return it == m_items.end() ? nullptr : it->second.get();
}

void Subscription::addItem(std::unique_ptr<MonitoredItem> item, int64_t nowUs) {
    MonitoredItem& ref = *item;
    m_items.emplace(item->id, std::move(item));
    m_itemOrder.push_back(&ref);
    if (ref.events) m_eventItems.push_back(&ref);
    fileItem(ref, nowUs);
}

bool Subscription::removeItem(uint32_t id) {
    auto it = m_items.find(id);
    if (it == m_items.end()) return false;
    unfileItem(*it->second);
    std::erase(m_itemOrder, it->second.get());
    if (it->second->events) std::erase(m_eventItems, it->second.get());
    m_drainFrom = 0;
    m_items.erase(it);
    m_owner->home().registry().releaseItems(1);
    // Links to the deleted item are removed with it (5.13.6: deleting an item deletes its links).
    for (auto& [other, item] : m_items) std::erase(item->triggeredItems, id);
    return true;
}

void Subscription::fileItem(MonitoredItem& item, int64_t nowUs) {
    if (item.events) return;  // event items are not sampled
    const int64_t interval = toUs(item.samplingIntervalMs);
    auto& g = m_groups[interval];
    if (!g) {
        g = std::make_unique<SamplingGroup>();
        g->sub = this;
        g->intervalUs = interval;
        g->phaseUs = interval / 4;
        if (m_state != State::Closed) {
            g->timer = Timer(m_owner->home().timers(), g.get());
            g->timer.arm(nextOnGrid(nowUs, interval, g->phaseUs));
        }
    }
    g->items.push_back(&item);
}

void Subscription::unfileItem(MonitoredItem& item) {
    for (auto it = m_groups.begin(); it != m_groups.end(); ++it) {
        auto& items = it->second->items;
        auto pos = std::find(items.begin(), items.end(), &item);
        if (pos == items.end()) continue;
        items.erase(pos);
        if (items.empty()) m_groups.erase(it);
        return;
    }
}

void Subscription::itemChanged(MonitoredItem& item, int64_t nowUs) {
    unfileItem(item);
    fileItem(item, nowUs);
}

void Subscription::sampleNow(MonitoredItem& item) {
    if (item.mode == MonitoringMode::Disabled || item.events) return;
    uint64_t overflows = 0;
    const DataValue v = sampleValue(item, m_owner->home().addressSpace(), DateTime::now(), m_owner->userAccess());
    ++counters.samplesTaken;
    if (item.offer(v, overflows)) {
        if (item.mode == MonitoringMode::Reporting) markReportable(m_owner->home().now());
        if (!item.triggeredItems.empty()) itemTriggered(item, m_owner->home().now());
    }
    counters.monitoringQueueOverflowCount += overflows;
}

void Subscription::sampleGroup(SamplingGroup& g, int64_t dueUs, int64_t nowUs) {
    g.timer.arm(nextOnGrid(nowUs, g.intervalUs, g.phaseUs));
    ++counters.samplingTicks;
    if (2 * (nowUs - dueUs) >= g.intervalUs) ++counters.samplingTicksLate;
    if (nowUs - dueUs >= g.intervalUs) counters.samplingTicksSkipped += uint64_t((nowUs - dueUs) / g.intervalUs);
    const AddressSpace& space = m_owner->home().addressSpace();
    const DateTime now = DateTime::now();
    const SubscriptionOwner::UserAccess user = m_owner->userAccess();
    uint64_t overflows = 0;
    bool reportable = false;
    // Items of the same node next to each other share one read: a sample is the value at this
    // deadline, so they all see the same one, however long the loop takes.
    const MonitoredItem* previous = nullptr;
    DataValue value;
    for (MonitoredItem* item : g.items) {
        if (item->mode == MonitoringMode::Disabled) continue;
        ++counters.samplesTaken;
        const bool same = previous && item->fastPath && previous->fastPath && previous->node == item->node &&
                          previous->timestamps == item->timestamps;
        if (!same) value = sampleValue(*item, space, now, user);
        previous = item;
        if (!item->offer(value, overflows)) continue;
        if (item->mode == MonitoringMode::Reporting) reportable = true;
        if (!item->triggeredItems.empty()) itemTriggered(*item, dueUs);
    }
    counters.monitoringQueueOverflowCount += overflows;
    if (reportable) markReportable(dueUs);
}

void Subscription::itemTriggered(MonitoredItem& triggering, int64_t atUs) {
    // 5.13.1.6: a Reporting or a Sampling triggering item triggers (a Sampling one is not reported
    // itself); a Disabled one does not.
    if (triggering.mode == MonitoringMode::Disabled) return;
    for (uint32_t id : triggering.triggeredItems) {
        MonitoredItem* t = item(id);
        if (t && t->mode == MonitoringMode::Sampling && (t->hasQueued() || t->hasQueuedEvents())) {
            t->triggered = true;
            markReportable(atUs);
        }
    }
}

std::size_t Subscription::disabledItemCount() const {
    return std::size_t(std::count_if(m_items.begin(), m_items.end(),
                                     [](const auto& kv) { return kv.second->mode == MonitoringMode::Disabled; }));
}

void Subscription::detach() {
    m_timer.reset();
    m_moreTimer.reset();
    for (auto& [interval, g] : m_groups) g->timer.reset();
    for (const auto& [id, item] : m_items)  // event items leave the old home's router
        if (item->events) item->events->detach();
}

void Subscription::attach(SubscriptionOwner& owner, int64_t nowUs) {
    m_owner = &owner;
    m_timer = Timer(owner.home().timers(), &m_timerClient);
    m_moreTimer = Timer(owner.home().timers(), &m_moreClient);
    armPublishingTimer(nowUs);
    for (auto& [interval, g] : m_groups) {
        g->timer = Timer(owner.home().timers(), g.get());
        g->timer.arm(nextOnGrid(nowUs, interval, g->phaseUs));
    }
    for (const auto& [id, item] : m_items)  // and join this one's
        if (item->events) item->events->attach(*this, *item);
    resetLifetimeCounter();
    m_messageSent = false;  // the new Session hears from it at the first expiry
    m_state = State::Normal;
}

void Subscription::queueInitialValues() {
    uint64_t overflows = 0;
    bool reportable = false;
    for (auto& [id, item] : m_items)
        if (item->mode == MonitoringMode::Reporting && item->requeueLast(overflows)) reportable = true;
    counters.monitoringQueueOverflowCount += overflows;
    if (reportable) markReportable(m_owner->home().now());
}

} // namespace ua
