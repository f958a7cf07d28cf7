#include "ua/server/subscriptions/SessionSubscriptions.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/common/Session.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

namespace ua {

SessionSubscriptions::SessionSubscriptions(SubscriptionScheduler& home, NodeId sessionId, TransferUser user,
                                           std::weak_ptr<Session> session)
    : SubscriptionOwner(home, home.config()), sender([](const ResponseTarget& t, PublishResponse&& r) { t.send(std::move(r)); }),
      m_sessionId(std::move(sessionId)), m_user(std::move(user)), m_session(std::move(session)) {
    // With a Session, nothing is readable until its roles have been read (should it be gone already).
    const std::weak_ptr<Session> none;
    if (const auto s = m_session.lock()) m_sessionScope = s->scope;
    if (m_session.owner_before(none) || none.owner_before(m_session)) {
        m_roles.store(0, std::memory_order_relaxed);
        m_permissions.store(0, std::memory_order_relaxed);
    }
    accessChanged();
    m_parkedExpiry.self = this;
    m_parkedTimer = Timer(home.timers(), &m_parkedExpiry);
}

SessionSubscriptions::~SessionSubscriptions() { removeAll(); }

bool SessionSubscriptions::sessionGone() const {
    const auto s = m_session.lock();
    return !s || s->closed;
}

void SessionSubscriptions::accessChanged() {
    if (const auto s = m_session.lock()) {
        m_roles.store(s->roles.load(), std::memory_order_relaxed);
        m_permissions.store(s->permissions.load(), std::memory_order_relaxed);
    }
}

TransferUser SessionSubscriptions::transferUser() const {
    std::lock_guard lock(m_userMutex);
    return m_user;
}

void SessionSubscriptions::setTransferUser(TransferUser user) {
    std::lock_guard lock(m_userMutex);
    m_user = std::move(user);
}

void SessionSubscriptions::emptied() { m_home->watchEmpty(*this); }

Subscription* SessionSubscriptions::find(uint32_t id) {
    auto it = m_subscriptions.find(id);
    return it == m_subscriptions.end() ? nullptr : it->second.get();
}

StatusCode SessionSubscriptions::create(const Subscription::Parameters& p, int64_t nowUs, Subscription** created) {
    const SubscriptionConfig& c = config();
    if (c.maxSubscriptionsPerSession && m_subscriptions.size() >= c.maxSubscriptionsPerSession)
        return status::BadTooManySubscriptions;
    const uint32_t id = m_home->registry().add(shared_from_this());
    if (!id) return status::BadTooManySubscriptions;
    auto s = std::make_unique<Subscription>(id, *this, p, nowUs);
    if (created) *created = s.get();
    m_subscriptions.emplace(id, std::move(s));
    return status::Good;
}

void SessionSubscriptions::dropSubscription(uint32_t id) {
    m_subscriptions.erase(id);
    m_home->registry().remove(id);
    if (m_subscriptions.empty()) emptied();
}

bool SessionSubscriptions::remove(uint32_t id) {
    if (!m_subscriptions.count(id)) return false;
    dropSubscription(id);
    // 5.14.1.2 DeleteClientPublReqQueue: the last Subscription gone, parked Publish requests are
    // answered (Bad_NoSubscription) rather than left hanging.
    if (m_subscriptions.empty() && m_statusMessages.empty()) answerParked(status::BadNoSubscription);
    return true;
}

void SessionSubscriptions::answerParked(StatusCode status) {
    while (!m_parked.empty()) {
        PublishResponse r;
        r.responseHeader.serviceResult = status;
        send(m_parked.front().target, std::move(r));
        m_parked.pop_front();
    }
}

void SessionSubscriptions::closeSession(bool deleteSubscriptions) {
    answerParked(status::BadSessionClosed);
    if (deleteSubscriptions) removeAll();
}

void SessionSubscriptions::removeAll() {
    while (!m_subscriptions.empty()) dropSubscription(m_subscriptions.begin()->first);
}

void SessionSubscriptions::send(const ResponseTarget& t, PublishResponse&& r) {
    if (r.responseHeader.serviceResult.isBad()) ++serviceCounters.publish.errors;
    sender(t, std::move(r));
}

void SessionSubscriptions::publish(const ResponseTarget& target, const PublishRequest& req, int64_t nowUs) {
    ++serviceCounters.publish.total;
    ParkedPublish p;
    p.target = target;
    if (req.requestHeader.timeoutHint) p.deadlineUs = nowUs + int64_t(req.requestHeader.timeoutHint) * 1000;
    p.results = Array<StatusCode>::emptyArray();
    for (const SubscriptionAcknowledgement& a : req.subscriptionAcknowledgements) {
        Subscription* s = find(a.subscriptionId);
        p.results.push_back(s ? s->acknowledge(a.sequenceNumber) : StatusCode(status::BadSubscriptionIdInvalid));
    }
    if (m_subscriptions.empty() && m_statusMessages.empty()) {
        PublishResponse r;
        r.responseHeader.serviceResult = status::BadNoSubscription;
        send(target, std::move(r));
        return;
    }
    for (auto& [id, s] : m_subscriptions) s->resetLifetimeCounter();  // the Client is alive
    // 5.14.5.1: the server shall accept more queued Publish requests than the Session has
    // Subscriptions, so the configured cap rises to one more than their count.
    const std::size_t max = std::max<std::size_t>(config().maxPublishRequestsPerSession, m_subscriptions.size() + 1);
    while (m_parked.size() >= max) {
        PublishResponse r;
        r.responseHeader.serviceResult = status::BadTooManyPublishRequests;
        send(m_parked.front().target, std::move(r));
        m_parked.pop_front();
    }
    const int64_t deadline = p.deadlineUs;
    m_parked.push_back(std::move(p));
    if (deadline && deadline < m_parkedArmedUs) {
        m_parkedArmedUs = deadline;
        m_parkedTimer.arm(deadline);
    }
    if (flushStatusMessages(nowUs)) return;
    serveLate(nowUs);
}

void SessionSubscriptions::serveLate(int64_t nowUs) {
    // The LATE Subscriptions (and those with more notifications) take waiting requests, highest
    // priority first (5.14.1.2: "processed immediately").
    while (!m_parked.empty()) {
        Subscription* best = nullptr;
        for (auto& [id, s] : m_subscriptions)
            if (s->wantsPublishRequest() && (!best || s->parameters().priority > best->parameters().priority)) best = s.get();
        if (!best || !best->publishNow(nowUs)) return;
    }
}

uint32_t SessionSubscriptions::cancel(uint32_t requestHandle) {
    uint32_t n = 0;
    for (auto it = m_parked.begin(); it != m_parked.end();) {
        if (it->target.requestHandle != requestHandle) { ++it; continue; }
        PublishResponse r;
        r.responseHeader.serviceResult = status::BadRequestCancelledByClient;
        send(it->target, std::move(r));
        it = m_parked.erase(it);
        ++n;
    }
    return n;
}

void SessionSubscriptions::expireParked(int64_t nowUs) {
    for (auto it = m_parked.begin(); it != m_parked.end();) {
        if (!it->deadlineUs || it->deadlineUs > nowUs) { ++it; continue; }
        PublishResponse r;
        r.responseHeader.serviceResult = status::BadTimeout;
        send(it->target, std::move(r));
        it = m_parked.erase(it);
    }
}

void SessionSubscriptions::armParkedTimer() {
    int64_t first = TimerQueue::kNever;
    for (const ParkedPublish& p : m_parked)  // at most maxPublishRequestsPerSession
        if (p.deadlineUs && p.deadlineUs < first) first = p.deadlineUs;
    m_parkedArmedUs = first;
    if (first == TimerQueue::kNever) m_parkedTimer.disarm();
    else m_parkedTimer.arm(first);
}

void SessionSubscriptions::ParkedExpiry::onTimer(uint32_t, int64_t, int64_t nowUs) {
    self->expireParked(nowUs);
    self->armParkedTimer();
}

bool SessionSubscriptions::hasPublishRequest(int64_t nowUs) {
    expireParked(nowUs);
    // Requests of a connection that has gone (the client reconnected on a new channel) are dropped.
    while (!m_parked.empty() && !m_parked.front().target.reachable()) m_parked.pop_front();
    return !m_parked.empty();
}

bool SessionSubscriptions::answerPublish(PublishResponse& resp, int64_t nowUs) {
    if (!hasPublishRequest(nowUs)) return false;
    ParkedPublish p = std::move(m_parked.front());
    m_parked.pop_front();
    resp.results = std::move(p.results);
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    send(p.target, std::move(resp));
    return true;
}

bool SessionSubscriptions::flushStatusMessages(int64_t nowUs) {
    bool sent = false;
    while (!m_statusMessages.empty() && hasPublishRequest(nowUs)) {
        PublishResponse r;
        r.subscriptionId = m_statusMessages.front().subscriptionId;
        r.notificationMessage = std::move(m_statusMessages.front().message);
        r.availableSequenceNumbers = Array<uint32_t>::emptyArray();
        m_statusMessages.pop_front();
        answerPublish(r, nowUs);
        sent = true;
    }
    return sent;
}

void SessionSubscriptions::queueStatusMessage(uint32_t subscriptionId, NotificationMessage msg, int64_t nowUs) {
    m_statusMessages.push_back(StatusMessage{subscriptionId, std::move(msg)});
    flushStatusMessages(nowUs);
}

void SessionSubscriptions::expired(Subscription& s, int64_t nowUs) {
    const uint32_t id = s.id();
    NotificationMessage m = s.statusChangeMessage(status::BadTimeout);
    dropSubscription(id);  // deletes s
    queueStatusMessage(id, std::move(m), nowUs);
}

void SessionSubscriptions::closeAll(StatusCode status, StatusCode parkedStatus, int64_t nowUs) {
    while (!m_subscriptions.empty()) {
        const uint32_t id = m_subscriptions.begin()->first;
        NotificationMessage m = m_subscriptions.begin()->second->statusChangeMessage(status);
        dropSubscription(id);
        m_statusMessages.push_back(StatusMessage{id, std::move(m)});
    }
    flushStatusMessages(nowUs);
    m_statusMessages.clear();
    answerParked(parkedStatus);
}

std::unique_ptr<Subscription> SessionSubscriptions::release(uint32_t id, int64_t nowUs) {
    auto it = m_subscriptions.find(id);
    if (it == m_subscriptions.end()) return nullptr;
    std::unique_ptr<Subscription> s = std::move(it->second);
    m_subscriptions.erase(it);
    if (m_subscriptions.empty()) emptied();
    s->detach();
    queueStatusMessage(id, s->statusChangeMessage(status::GoodSubscriptionTransferred), nowUs);
    // The last one moved away: once its StatusChangeNotification went out, the parked requests
    // left are answered as on deletion (5.14.8: Bad_NoSubscription), not left to time out.
    if (m_subscriptions.empty() && m_statusMessages.empty()) answerParked(status::BadNoSubscription);
    return s;
}

void SessionSubscriptions::adopt(std::unique_ptr<Subscription> s, int64_t nowUs) {
    const uint32_t id = s->id();
    s->attach(*this, nowUs);
    m_home->registry().setOwner(id, shared_from_this());
    m_subscriptions.emplace(id, std::move(s));
}

std::vector<SubscriptionDiagnosticsDataType> SessionSubscriptions::diagnostics() const {
    std::vector<SubscriptionDiagnosticsDataType> v;
    for (const auto& [id, s] : m_subscriptions) {
        const SubscriptionCounters& c = s->counters;
        SubscriptionDiagnosticsDataType d;
        d.sessionId = m_sessionId;
        d.subscriptionId = id;
        d.priority = s->parameters().priority;
        d.publishingInterval = s->parameters().publishingIntervalMs;
        d.maxKeepAliveCount = s->parameters().maxKeepAliveCount;
        d.maxLifetimeCount = s->parameters().lifetimeCount;
        d.maxNotificationsPerPublish = s->parameters().requestedMaxNotificationsPerPublish;  // 0: no limit
        d.publishingEnabled = s->parameters().publishingEnabled;
        d.modifyCount = uint32_t(c.modifyCount);
        d.enableCount = uint32_t(c.enableCount);
        d.disableCount = uint32_t(c.disableCount);
        d.republishRequestCount = uint32_t(c.republishRequestCount);
        d.republishMessageRequestCount = uint32_t(c.republishMessageRequestCount);
        d.republishMessageCount = uint32_t(c.republishMessageCount);
        d.transferRequestCount = uint32_t(c.transferRequestCount);
        d.transferredToAltClientCount = uint32_t(c.transferredToAltClientCount);
        d.transferredToSameClientCount = uint32_t(c.transferredToSameClientCount);
        d.publishRequestCount = uint32_t(c.publishRequestCount);
        d.dataChangeNotificationsCount = uint32_t(c.dataChangeNotificationsCount);
        d.eventNotificationsCount = uint32_t(c.eventNotificationsCount);
        d.notificationsCount = uint32_t(c.notificationsCount);
        d.latePublishRequestCount = uint32_t(c.latePublishRequestCount);
        d.currentKeepAliveCount = s->currentKeepAliveCount();
        d.currentLifetimeCount = s->currentLifetimeCount();
        d.unacknowledgedMessageCount = uint32_t(s->unacknowledgedMessageCount());
        d.discardedMessageCount = uint32_t(c.discardedMessageCount);
        d.monitoredItemCount = uint32_t(s->itemCount());
        d.disabledMonitoredItemCount = uint32_t(s->disabledItemCount());
        d.monitoringQueueOverflowCount = uint32_t(c.monitoringQueueOverflowCount);
        d.nextSequenceNumber = s->nextSequenceNumber();
        d.eventQueueOverFlowCount = uint32_t(c.eventQueueOverflowCount);
        v.push_back(std::move(d));
    }
    return v;
}

void SessionSubscriptions::fillSessionDiagnostics(SessionDiagnosticsDataType& d) const {
    const auto put = [](ServiceCounterDataType& out, const ServiceCount& c) {
        out.totalCount = c.total;
        out.errorCount = c.errors;
    };
    const SessionServiceCounters& c = serviceCounters;
    put(d.createSubscriptionCount, c.createSubscription);
    put(d.modifySubscriptionCount, c.modifySubscription);
    put(d.setPublishingModeCount, c.setPublishingMode);
    put(d.publishCount, c.publish);
    put(d.republishCount, c.republish);
    put(d.transferSubscriptionsCount, c.transferSubscriptions);
    put(d.deleteSubscriptionsCount, c.deleteSubscriptions);
    put(d.createMonitoredItemsCount, c.createMonitoredItems);
    put(d.modifyMonitoredItemsCount, c.modifyMonitoredItems);
    put(d.setMonitoringModeCount, c.setMonitoringMode);
    put(d.setTriggeringCount, c.setTriggering);
    put(d.deleteMonitoredItemsCount, c.deleteMonitoredItems);
    d.currentSubscriptionsCount = uint32_t(m_subscriptions.size());
    std::size_t items = 0;
    for (const auto& [id, s] : m_subscriptions) items += s->itemCount();
    d.currentMonitoredItemsCount = uint32_t(items);
    d.currentPublishRequestsInQueue = uint32_t(m_parked.size());
}

} // namespace ua
