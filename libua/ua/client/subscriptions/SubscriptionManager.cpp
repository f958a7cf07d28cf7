#include "ua/client/subscriptions/SubscriptionManager.h"

#include "ua/client/core/ClientCore.h"
#include "ua/client/subscriptions/SequenceNumbers.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QThread>
#include <QTimer>
#include <algorithm>

Q_LOGGING_CATEGORY(lcClientSub, "ua.client.subscriptions", QtInfoMsg)

namespace ua {

namespace {

// A gap larger than this is not republished number by number (a server restart, a wrap): it is
// reported lost as one range.
constexpr uint32_t kMaxGap = 1000;

// A result that never reached the server or came from no server (nothing was decoded): the
// acknowledgements it carried are sent again.
template <class Resp>
bool nothingReceived(const ServiceResult<Resp>& r) {
    return r.status.isBad() && r.response.responseHeader.requestHandle == 0;
}

bool contains(const Array<uint32_t>& a, uint64_t extended) {
    return std::find(a.begin(), a.end(), wireSequence(extended)) != a.end();
}

CreateSubscriptionRequest createRequest(const SubscriptionSettings& settings) {
    CreateSubscriptionRequest req;
    req.requestedPublishingInterval = settings.publishingIntervalMs;
    req.requestedLifetimeCount = settings.lifetimeCount;
    req.requestedMaxKeepAliveCount = settings.maxKeepAliveCount;
    req.maxNotificationsPerPublish = settings.maxNotificationsPerPublish;
    req.publishingEnabled = settings.publishingEnabled;
    req.priority = settings.priority;
    return req;
}

} // namespace

// Where a subscription's handlers run (see Client.h "Threads").
struct SubscriptionManager::Sink {
    ContextRef context;  // not set: the handlers run on the I/O thread
    SubscriptionHandlers handlers;

    template <class F>
    void run(F f) const {
        if (!context.isSet()) f();
        else context.run(std::move(f));  // dropped once the context is gone
    }
};

SubscriptionManager::SubscriptionManager(ClientCore* core, const ClientConfig& config, uint32_t maxPublishRequests)
    : QObject(core), m_core(core), m_requestTimeoutMs(config.requestTimeoutMs), m_maxPublish(std::max<uint32_t>({1, maxPublishRequests, config.publishRequests})),
      m_publishRequests(config.publishRequests),
      m_watchdog(new QTimer(this)) {
    m_watchdog->setSingleShot(true);
    connect(m_watchdog, &QTimer::timeout, this, &SubscriptionManager::onWatchdog);
    connect(core, &ClientCore::stateChanged, this, &SubscriptionManager::onStateChanged);  // same thread: direct
}

SubscriptionManager::~SubscriptionManager() = default;

int64_t SubscriptionManager::nowMs() {
    static const QElapsedTimer clock = [] { QElapsedTimer t; t.start(); return t; }();
    return clock.elapsed();
}

ClientSubscriptionCounters SubscriptionManager::counters() const {
    ClientSubscriptionCounters c;
    c.subscriptions = m_counters.subscriptions.load(std::memory_order_relaxed);
    c.publishOutstanding = m_counters.publishOutstanding.load(std::memory_order_relaxed);
    c.publishTarget = m_counters.publishTarget.load(std::memory_order_relaxed);
    c.publishResponses = m_counters.publishResponses.load(std::memory_order_relaxed);
    c.notificationMessages = m_counters.notificationMessages.load(std::memory_order_relaxed);
    c.keepAlives = m_counters.keepAlives.load(std::memory_order_relaxed);
    c.acknowledgementsSent = m_counters.acknowledgementsSent.load(std::memory_order_relaxed);
    c.acknowledgementsUnknown = m_counters.acknowledgementsUnknown.load(std::memory_order_relaxed);
    c.republishRequests = m_counters.republishRequests.load(std::memory_order_relaxed);
    c.messagesRepublished = m_counters.messagesRepublished.load(std::memory_order_relaxed);
    c.messagesLost = m_counters.messagesLost.load(std::memory_order_relaxed);
    c.tooManyPublishRequests = m_counters.tooManyPublishRequests.load(std::memory_order_relaxed);
    return c;
}

SubscriptionManager::Sub* SubscriptionManager::find(SubscriptionHandle h) {
    const auto it = m_subs.find(h);
    return it == m_subs.end() ? nullptr : &it->second;
}

SubscriptionManager::Sub* SubscriptionManager::findById(uint32_t subscriptionId) {
    if (subscriptionId == 0) return nullptr;
    for (auto& [h, s] : m_subs)
        if (s.id == subscriptionId) return &s;
    return nullptr;
}

uint32_t SubscriptionManager::activeCount() const {
    uint32_t n = 0;
    for (const auto& [h, s] : m_subs) n += s.id != 0;
    return n;
}

void SubscriptionManager::forget(SubscriptionHandle h) {
    Sub* s = find(h);
    if (!s) return;
    const uint32_t id = s->id;
    std::erase_if(m_acks, [id](const SubscriptionAcknowledgement& a) { return a.subscriptionId == id; });
    m_subs.erase(h);
    m_counters.subscriptions.store(uint32_t(m_subs.size()), std::memory_order_relaxed);
    m_counters.publishTarget.store(publishTarget(), std::memory_order_relaxed);
}

// ---------------------------------------------------------------------------------------------
// Subscription service set (OPC 10000-4 5.13)

void SubscriptionManager::createSubscription(const SubscriptionSettings& settings, ContextRef context,
                                             SubscriptionHandlers handlers, SubscriptionCallback done) {
    const SubscriptionHandle h = m_nextHandle++;
    Sub& s = m_subs[h];
    s.handle = h;
    s.settings = settings;
    auto sink = std::make_shared<Sink>();
    sink->context = std::move(context);
    sink->handlers = std::move(handlers);
    s.sink = std::move(sink);
    m_counters.subscriptions.store(uint32_t(m_subs.size()), std::memory_order_relaxed);

    CreateSubscriptionRequest req = createRequest(settings);
    m_core->call<CreateSubscriptionRequest, CreateSubscriptionResponse>(
        std::move(req), 0, [this, h, done](const ServiceResult<CreateSubscriptionResponse>& r) {
            SubscriptionInfo info;
            info.status = r.status;
            info.handle = h;
            Sub* s = find(h);
            if (r.status.isBad() || !s) {
                if (r.status.isGood()) {  // deleted meanwhile: do not leave it on the server
                    DeleteSubscriptionsRequest del;
                    del.subscriptionIds = Array<uint32_t>{r.response.subscriptionId};
                    m_core->call<DeleteSubscriptionsRequest, DeleteSubscriptionsResponse>(std::move(del), 0, {});
                    info.status = status::BadSubscriptionIdInvalid;
                }
                forget(h);
                if (done) done(info);
                return;
            }
            s->id = r.response.subscriptionId;
            s->revisedIntervalMs = r.response.revisedPublishingInterval;
            s->revisedKeepAliveCount = r.response.revisedMaxKeepAliveCount;
            s->lastHeardMs = nowMs();
            info.subscriptionId = s->id;
            info.revisedPublishingIntervalMs = r.response.revisedPublishingInterval;
            info.revisedLifetimeCount = r.response.revisedLifetimeCount;
            info.revisedMaxKeepAliveCount = r.response.revisedMaxKeepAliveCount;
            fillPipeline();
            armWatchdog();
            if (done) done(info);
        });
}

void SubscriptionManager::modifySubscription(SubscriptionHandle h, const SubscriptionSettings& settings, SubscriptionCallback done) {
    Sub* s = find(h);
    if (!s || s->id == 0) {
        if (done) done({status::BadSubscriptionIdInvalid, h});
        return;
    }
    ModifySubscriptionRequest req;
    req.subscriptionId = s->id;
    req.requestedPublishingInterval = settings.publishingIntervalMs;
    req.requestedLifetimeCount = settings.lifetimeCount;
    req.requestedMaxKeepAliveCount = settings.maxKeepAliveCount;
    req.maxNotificationsPerPublish = settings.maxNotificationsPerPublish;
    req.priority = settings.priority;
    m_core->call<ModifySubscriptionRequest, ModifySubscriptionResponse>(
        std::move(req), 0, [this, h, settings, done](const ServiceResult<ModifySubscriptionResponse>& r) {
            SubscriptionInfo info;
            info.status = r.status;
            info.handle = h;
            Sub* s = find(h);
            if (s && r.status.isGood()) {
                const bool enabled = s->settings.publishingEnabled;  // ModifySubscription does not change it
                s->settings = settings;
                s->settings.publishingEnabled = enabled;
                s->revisedIntervalMs = r.response.revisedPublishingInterval;
                s->revisedKeepAliveCount = r.response.revisedMaxKeepAliveCount;
                s->lastHeardMs = nowMs();
                info.subscriptionId = s->id;
                info.revisedPublishingIntervalMs = r.response.revisedPublishingInterval;
                info.revisedLifetimeCount = r.response.revisedLifetimeCount;
                info.revisedMaxKeepAliveCount = r.response.revisedMaxKeepAliveCount;
                armWatchdog();
            }
            if (done) done(info);
        });
}

void SubscriptionManager::deleteSubscription(SubscriptionHandle h, StatusCallback done) {
    Sub* s = find(h);
    if (!s) {
        if (done) done(status::BadSubscriptionIdInvalid);
        return;
    }
    const uint32_t id = s->id;
    forget(h);  // later notifications of it are dropped
    if (id == 0) {
        if (done) done(status::Good);
        return;
    }
    DeleteSubscriptionsRequest req;
    req.subscriptionIds = Array<uint32_t>{id};
    m_core->call<DeleteSubscriptionsRequest, DeleteSubscriptionsResponse>(
        std::move(req), 0, [done](const ServiceResult<DeleteSubscriptionsResponse>& r) {
            StatusCode st = r.status;
            if (st.isGood()) st = r.response.results.size() == 1 ? r.response.results[0] : status::BadUnknownResponse;
            if (done) done(st);
        });
}

// ---------------------------------------------------------------------------------------------
// Publish pipeline and acknowledgements (OPC 10000-4 5.13.5, 6.5)

uint32_t SubscriptionManager::publishTarget() const {
    const uint32_t n = activeCount();
    if (n == 0) return 0;
    const uint32_t wanted = m_publishRequests ? m_publishRequests : std::clamp<uint32_t>(n + 1, 2, std::max<uint32_t>(2, m_maxPublish));
    return std::max<uint32_t>(1, std::min({wanted, m_maxPublish, m_serverLimit}));
}

uint32_t SubscriptionManager::publishTimeoutMs() const {
    // A Publish may wait at the server for a keep-alive of each subscription ahead of it.
    double longest = 0;
    for (const auto& [h, s] : m_subs) longest = std::max(longest, s.revisedIntervalMs * s.revisedKeepAliveCount);
    const double t = longest * (publishTarget() + 1) + 5000;
    return std::max(m_requestTimeoutMs, uint32_t(std::min(t, 3'600'000.0)));
}

void SubscriptionManager::fillPipeline() {
    const uint32_t target = publishTarget();
    m_counters.publishTarget.store(target, std::memory_order_relaxed);
    if (m_recovering || m_core->state() != ClientState::Connected) return;
    // Bounded: a Publish that fails at once (not sent) must not loop here.
    for (uint32_t n = target > m_outstanding ? target - m_outstanding : 0; n > 0; --n) sendPublish();
}

void SubscriptionManager::sendPublish() {
    PublishRequest req;
    std::vector<SubscriptionAcknowledgement> acks;
    acks.swap(m_acks);
    req.subscriptionAcknowledgements = Array<SubscriptionAcknowledgement>(acks);
    m_counters.acknowledgementsSent.fetch_add(acks.size(), std::memory_order_relaxed);
    ++m_outstanding;
    m_counters.publishOutstanding.store(m_outstanding, std::memory_order_relaxed);
    const uint64_t gen = m_sessionGen;
    m_core->call<PublishRequest, PublishResponse>(std::move(req), publishTimeoutMs(),
                                                  [this, acks = std::move(acks), gen](const ServiceResult<PublishResponse>& r) {
                                                      onPublish(r, acks, gen);
                                                  });
}

void SubscriptionManager::onPublish(const ServiceResult<PublishResponse>& r, const std::vector<SubscriptionAcknowledgement>& acks,
                                    uint64_t gen) {
    if (gen != m_sessionGen) return;  // a Publish of a Session we no longer use
    if (m_outstanding) --m_outstanding;
    m_counters.publishOutstanding.store(m_outstanding, std::memory_order_relaxed);
    const StatusCode st = r.status;
    if (st.isGood()) {
        m_counters.publishResponses.fetch_add(1, std::memory_order_relaxed);
        const PublishResponse& resp = r.response;
        for (std::size_t i = 0; i < std::min(acks.size(), resp.results.size()); ++i) {
            const StatusCode a = resp.results[i];
            if (a == status::BadSequenceNumberUnknown) {
                // Tolerated (e.g. an acknowledgement sent again after a lost response).
                m_counters.acknowledgementsUnknown.fetch_add(1, std::memory_order_relaxed);
                qCInfo(lcClientSub) << "acknowledgement of" << acks[i].subscriptionId << acks[i].sequenceNumber << "unknown to the server";
            } else if (a.isBad()) {
                qCDebug(lcClientSub) << "acknowledgement of" << acks[i].subscriptionId << acks[i].sequenceNumber << ":"
                                     << QString::fromStdString(a.name());
            }
        }
        if (Sub* s = findById(resp.subscriptionId)) handleMessage(*s, resp.notificationMessage, resp.availableSequenceNumbers, false);
        fillPipeline();
        return;
    }
    if (nothingReceived(r)) m_acks.insert(m_acks.begin(), acks.begin(), acks.end());  // no answer: it may not have arrived
    if (st == status::BadTooManyPublishRequests) {
        // The server keeps as many as are still outstanding: never ask for more than that.
        m_counters.tooManyPublishRequests.fetch_add(1, std::memory_order_relaxed);
        m_serverLimit = std::max<uint32_t>(1, m_outstanding);
        m_counters.publishTarget.store(publishTarget(), std::memory_order_relaxed);
        qCInfo(lcClientSub) << "Bad_TooManyPublishRequests: keeping" << m_serverLimit << "Publish requests outstanding";
        return;
    }
    if (st == status::BadTimeout) {  // the server's timeoutHint or ours: ask again
        fillPipeline();
        return;
    }
    if (st == status::BadNoSubscription) {
        qCDebug(lcClientSub) << "Publish: Bad_NoSubscription with" << activeCount() << "subscriptions known";
        return;
    }
    // A lost connection: onStateChanged(Connected) refills. Anything else would only repeat.
    qCDebug(lcClientSub) << "Publish failed:" << QString::fromStdString(st.name());
}

// ---------------------------------------------------------------------------------------------
// Notifications, gaps and Republish (OPC 10000-4 5.13.6, 7.25)

void SubscriptionManager::handleMessage(Sub& s, const NotificationMessage& m, const Array<uint32_t>& available, bool republished) {
    s.lastHeardMs = nowMs();
    if (s.keepAliveMissing) {
        s.keepAliveMissing = false;
        status(s, SubscriptionEvent::KeepAliveResumed, status::Good);
        armWatchdog();
    }
    const uint64_t seq = extendSequence(m.sequenceNumber, s.lastDelivered + 1);
    if (m.notificationData.empty()) {
        // A keep-alive carries the next sequence number: everything below it was sent.
        m_counters.keepAlives.fetch_add(1, std::memory_order_relaxed);
        if (!republished && seq > s.lastDelivered + 1) noteGap(s, seq, available);
        if (!republished) s.resync = false;
        flush(s);
        return;
    }
    m_acks.push_back({s.id, m.sequenceNumber});
    if (seq <= s.lastDelivered || s.held.count(seq)) return;  // seen already
    SubscriptionNotification n;
    n.handle = s.handle;
    n.subscriptionId = s.id;
    n.sequenceNumber = m.sequenceNumber;
    n.publishTime = m.publishTime;
    n.republished = republished;
    std::vector<StatusCode> statusChanges;
    for (const ExtensionObject& x : m.notificationData) {
        if (const auto* dc = x.get<DataChangeNotification>()) n.dataChanges.insert(n.dataChanges.end(), dc->monitoredItems.begin(), dc->monitoredItems.end());
        else if (const auto* ev = x.get<EventNotificationList>()) n.events.insert(n.events.end(), ev->events.begin(), ev->events.end());
        else if (const auto* sc = x.get<StatusChangeNotification>()) statusChanges.push_back(sc->status);
    }
    if (!republished) {
        noteGap(s, seq, available);
        s.resync = false;
    }
    s.missing.erase(seq);
    s.lost.erase(seq);
    s.held.emplace(seq, std::move(n));
    const SubscriptionHandle h = s.handle;
    flush(s);
    for (StatusCode st : statusChanges) {
        Sub* again = find(h);
        if (!again) break;
        serverStatusChange(*again, st);
    }
}

void SubscriptionManager::noteGap(Sub& s, uint64_t upTo, const Array<uint32_t>& available) {
    const uint64_t next = s.lastDelivered + 1;
    if (upTo <= next) return;
    if (upTo - next > kMaxGap) {
        qCWarning(lcClientSub) << "subscription" << s.id << ": sequence numbers" << wireSequence(next) << "to"
                               << wireSequence(upTo - 1) << "lost";
        m_counters.messagesLost.fetch_add(uint32_t(upTo - next), std::memory_order_relaxed);
        status(s, SubscriptionEvent::MessagesLost, status::BadMessageNotAvailable, wireSequence(next), wireSequence(upTo - 1));
        s.lastDelivered = upTo - 1;
        s.held.erase(s.held.begin(), s.held.lower_bound(upTo));
        s.missing.erase(s.missing.begin(), s.missing.lower_bound(upTo));
        s.lost.erase(s.lost.begin(), s.lost.lower_bound(upTo));
        return;
    }
    for (uint64_t k = next; k < upTo; ++k) {
        if (s.held.count(k) || s.missing.count(k) || s.lost.count(k) || s.skipped.count(k)) continue;
        if (contains(available, k)) {
            s.missing.insert(k);
            republish(s, k);
        } else if (s.resync) {
            // Right after a transfer: a number the TransferResult did not list was never meant
            // for us (e.g. the StatusChangeNotification Good_SubscriptionTransferred that went to
            // the old Session), or is gone; either way there is nothing to ask for.
            s.skipped.insert(k);
        } else {
            s.lost.insert(k);  // the server has it no more
        }
    }
}

void SubscriptionManager::republish(Sub& s, uint64_t seq) {
    if (s.republishInFlight.count(seq) || m_core->state() != ClientState::Connected) return;  // sent after the reconnect
    s.republishInFlight.insert(seq);
    m_counters.republishRequests.fetch_add(1, std::memory_order_relaxed);
    qCDebug(lcClientSub) << "Republish" << s.id << wireSequence(seq);
    RepublishRequest req;
    req.subscriptionId = s.id;
    req.retransmitSequenceNumber = wireSequence(seq);
    m_core->call<RepublishRequest, RepublishResponse>(
        std::move(req), 0, [this, h = s.handle, id = s.id, seq](const ServiceResult<RepublishResponse>& r) {
            Sub* s = find(h);
            if (!s || s->id != id) return;
            s->republishInFlight.erase(seq);
            if (r.status.isGood() && r.response.notificationMessage.sequenceNumber == wireSequence(seq)) {
                m_counters.messagesRepublished.fetch_add(1, std::memory_order_relaxed);
                s->missing.erase(seq);
                handleMessage(*s, r.response.notificationMessage, {}, true);
                return;
            }
            if (nothingReceived(r)) return;  // the connection went: sent again once it is back
            // Bad_MessageNotAvailable (or Bad_SubscriptionIdInvalid, ...): the data is lost.
            s->missing.erase(seq);
            s->lost.insert(seq);
            flush(*s);
        });
}

void SubscriptionManager::flush(Sub& s) {
    uint64_t lostFirst = 0, lostLast = 0;
    auto reportLost = [&] {
        if (!lostFirst) return;
        m_counters.messagesLost.fetch_add(uint32_t(lostLast - lostFirst + 1), std::memory_order_relaxed);
        qCInfo(lcClientSub) << "subscription" << s.id << ": messages" << wireSequence(lostFirst) << "to"
                            << wireSequence(lostLast) << "lost";
        status(s, SubscriptionEvent::MessagesLost, status::BadMessageNotAvailable, wireSequence(lostFirst),
               wireSequence(lostLast));
        lostFirst = lostLast = 0;
    };
    for (;;) {
        const uint64_t next = s.lastDelivered + 1;
        const auto h = s.held.find(next);
        if (h != s.held.end()) {
            reportLost();
            SubscriptionNotification n = std::move(h->second);
            s.held.erase(h);
            s.lastDelivered = next;
            if (!n.dataChanges.empty() || !n.events.empty()) deliver(s, std::move(n));
            continue;
        }
        if (s.skipped.erase(next)) {
            qCInfo(lcClientSub) << "subscription" << s.id << ": sequence number" << wireSequence(next)
                                << "skipped after the transfer";
            s.lastDelivered = next;
            continue;
        }
        if (s.lost.erase(next)) {
            if (!lostFirst) lostFirst = next;
            lostLast = next;
            s.lastDelivered = next;
            continue;
        }
        break;
    }
    reportLost();
}

void SubscriptionManager::deliver(Sub& s, SubscriptionNotification&& n) {
    m_counters.notificationMessages.fetch_add(1, std::memory_order_relaxed);
    struct Delivery {
        SubscriptionNotification n;
        std::vector<std::pair<std::size_t, std::shared_ptr<const ItemCallbacks>>> data, events;
    };
    auto d = std::make_shared<Delivery>();
    d->n = std::move(n);
    for (std::size_t i = 0; i < d->n.dataChanges.size(); ++i) {
        const auto it = s.items.find(d->n.dataChanges[i].clientHandle);
        if (it != s.items.end() && it->second.callbacks && it->second.callbacks->onDataChange) d->data.emplace_back(i, it->second.callbacks);
    }
    for (std::size_t i = 0; i < d->n.events.size(); ++i) {
        const auto it = s.items.find(d->n.events[i].clientHandle);
        if (it != s.items.end() && it->second.callbacks && it->second.callbacks->onEvent) d->events.emplace_back(i, it->second.callbacks);
    }
    std::shared_ptr<const Sink> sink = s.sink;
    sink->run([sink, d] {
        for (const auto& [i, cb] : d->data) cb->onDataChange(d->n.dataChanges[i].value);
        for (const auto& [i, cb] : d->events) cb->onEvent(d->n.events[i].eventFields);
        if (sink->handlers.notification) sink->handlers.notification(d->n);
    });
}

void SubscriptionManager::status(Sub& s, SubscriptionEvent e, StatusCode st, uint32_t first, uint32_t last) {
    std::shared_ptr<const Sink> sink = s.sink;
    if (!sink->handlers.status) return;
    SubscriptionStatusChange c;
    c.handle = s.handle;
    c.subscriptionId = s.id;
    c.event = e;
    c.status = st;
    c.firstSequenceNumber = first;
    c.lastSequenceNumber = last;
    sink->run([sink, c] { sink->handlers.status(c); });
}

void SubscriptionManager::serverStatusChange(Sub& s, StatusCode st) {
    // OPC 10000-4 7.25.4 StatusChangeNotification.
    qCInfo(lcClientSub) << "subscription" << s.id << "StatusChangeNotification" << QString::fromStdString(st.name());
    status(s, SubscriptionEvent::ServerStatusChange, st);
    if (st == status::BadTimeout) {
        // Its lifetime ran out on the server (it is deleted there): create it again.
        recreate(s.handle, st);
    } else if (st == status::GoodSubscriptionTransferred) {
        // Another Session took it: it is no longer ours.
        status(s, SubscriptionEvent::Lost, st);
        forget(s.handle);
    }
}

// ---------------------------------------------------------------------------------------------
// Reconnect: the same Session resumes; a new one gets the subscriptions transferred or re-created

void SubscriptionManager::onStateChanged(ClientState state) {
    if (state != ClientState::Connected) {
        m_watchdog->stop();
        return;
    }
    const NodeId sid = m_core->snapshot().sessionId;
    if (sid == m_sessionId) {
        // Reconnected to the same Session (5.6.3): the subscriptions live on; ask again for what
        // the lost connection swallowed.
        const int64_t now = nowMs();
        for (auto& [h, s] : m_subs) {
            s.lastHeardMs = now;
            if (s.id == 0) continue;
            const std::vector<uint64_t> missing(s.missing.begin(), s.missing.end());
            for (uint64_t k : missing) republish(s, k);
        }
        fillPipeline();
        armWatchdog();
        return;
    }
    m_sessionId = sid;
    ++m_sessionGen;  // answers to the old Session's Publish requests are ignored
    m_outstanding = 0;
    m_serverLimit = UINT32_MAX;
    m_counters.publishOutstanding.store(0, std::memory_order_relaxed);
    recover();
}

void SubscriptionManager::recover() {
    std::vector<SubscriptionHandle> handles;
    Array<uint32_t> ids = Array<uint32_t>::emptyArray();
    for (auto& [h, s] : m_subs) {
        if (s.id == 0) continue;
        s.republishInFlight.clear();
        handles.push_back(h);
        ids.push_back(s.id);
    }
    if (handles.empty()) {
        fillPipeline();
        return;
    }
    m_recovering = true;
    TransferSubscriptionsRequest req;
    req.subscriptionIds = ids;
    req.sendInitialValues = true;
    qCInfo(lcClientSub) << "new Session: TransferSubscriptions of" << ids.size() << "subscriptions";
    m_core->call<TransferSubscriptionsRequest, TransferSubscriptionsResponse>(
        std::move(req), 0, [this, handles, ids, gen = m_sessionGen](const ServiceResult<TransferSubscriptionsResponse>& r) {
            if (gen != m_sessionGen) return;  // yet another Session: its own recover() runs
            m_recovering = false;
            const bool usable = r.status.isGood() && r.response.results.size() == handles.size();
            for (std::size_t i = 0; i < handles.size(); ++i) {
                Sub* s = find(handles[i]);
                if (!s || s->id != ids[i]) continue;
                const StatusCode st = usable ? r.response.results[i].statusCode : (r.status.isBad() ? r.status : status::BadUnknownResponse);
                if (st.isBad()) {
                    qCInfo(lcClientSub) << "subscription" << s->id << "not transferred:" << QString::fromStdString(st.name()) << "; creating it again";
                    recreate(handles[i], st);
                    continue;
                }
                s->lastHeardMs = nowMs();
                s->resync = true;
                status(*s, SubscriptionEvent::Transferred, status::Good);
                const Array<uint32_t>& available = r.response.results[i].availableSequenceNumbers;
                // 5.13.7: acknowledge the listed messages we will not ask for (those delivered already).
                uint64_t newest = 0;
                for (uint32_t k : available) {
                    const bool queued = std::any_of(m_acks.begin(), m_acks.end(), [&](const SubscriptionAcknowledgement& a) {
                        return a.subscriptionId == s->id && a.sequenceNumber == k;
                    });
                    const uint64_t e = extendSequence(k, s->lastDelivered + 1);
                    newest = std::max(newest, e);
                    if (e <= s->lastDelivered && !queued) m_acks.push_back({s->id, k});
                }
                const std::vector<uint64_t> missing(s->missing.begin(), s->missing.end());  // asked for before the loss
                for (uint64_t k : missing) republish(*s, k);
                if (newest) noteGap(*s, newest + 1, available);
                flush(*s);
            }
            fillPipeline();
            armWatchdog();
        });
}

void SubscriptionManager::recreate(SubscriptionHandle h, StatusCode why) {
    Sub* s = find(h);
    if (!s) return;
    const uint32_t oldId = s->id;
    std::erase_if(m_acks, [oldId](const SubscriptionAcknowledgement& a) { return a.subscriptionId == oldId; });
    s->id = 0;
    s->lastDelivered = 0;
    s->held.clear();
    s->missing.clear();
    s->republishInFlight.clear();
    s->lost.clear();
    s->skipped.clear();
    s->resync = false;
    for (auto& [ch, item] : s->items) item.monitoredItemId = 0;
    m_counters.publishTarget.store(publishTarget(), std::memory_order_relaxed);
    const SubscriptionSettings& settings = s->settings;
    CreateSubscriptionRequest req = createRequest(settings);
    m_core->call<CreateSubscriptionRequest, CreateSubscriptionResponse>(
        std::move(req), 0, [this, h, why](const ServiceResult<CreateSubscriptionResponse>& r) {
            Sub* s = find(h);
            if (!s) return;
            if (r.status.isBad()) {
                qCWarning(lcClientSub) << "subscription not created again:" << QString::fromStdString(r.status.name());
                status(*s, SubscriptionEvent::Lost, r.status);
                forget(h);
                return;
            }
            s->id = r.response.subscriptionId;
            s->revisedIntervalMs = r.response.revisedPublishingInterval;
            s->revisedKeepAliveCount = r.response.revisedMaxKeepAliveCount;
            s->lastHeardMs = nowMs();
            std::vector<uint32_t> handles;
            for (const auto& [ch, item] : s->items) handles.push_back(ch);
            auto announce = [this, h, why](const MonitoredItemsResult&) {
                if (Sub* s = find(h)) status(*s, SubscriptionEvent::Recreated, why);
            };
            if (handles.empty()) announce({});
            else sendCreateItems(*s, std::move(handles), announce);
            fillPipeline();
            armWatchdog();
        });
}

// ---------------------------------------------------------------------------------------------
// Keep-alive supervision

namespace {
// The silence allowed before a subscription's keep-alive counts as missing: its keep-alive period
// (revised publishing interval x revised max keep-alive count) and half of it again, at least
// 500 ms more. Both values come from the server: a NaN, negative, infinite or huge interval must
// neither reach the conversion to int64_t (undefined) nor overflow lastHeardMs + this, so the
// period is clamped into [0, 10^15 ms] (31,000 years: never reached, far from INT64_MAX).
int64_t silenceAllowedMs(double intervalMs, uint32_t keepAliveCount) {
    constexpr double kMaxPeriodMs = 1e15;
    double period = intervalMs * std::max<uint32_t>(1, keepAliveCount);
    if (!(period >= 0)) period = 0;  // also NaN
    period = std::min(period, kMaxPeriodMs);
    return int64_t(period + std::max(500.0, period / 2));
}
} // namespace

void SubscriptionManager::armWatchdog() {
    if (m_core->state() != ClientState::Connected) return;
    int64_t earliest = INT64_MAX;
    for (const auto& [h, s] : m_subs)
        if (s.id != 0 && !s.keepAliveMissing)
            earliest = std::min(earliest, s.lastHeardMs + silenceAllowedMs(s.revisedIntervalMs, s.revisedKeepAliveCount));
    if (earliest == INT64_MAX) {
        m_watchdog->stop();
        return;
    }
    m_watchdog->start(int(std::clamp<int64_t>(earliest - nowMs(), 0, 0x7FFFFFFF)));
}

void SubscriptionManager::onWatchdog() {
    if (m_core->state() != ClientState::Connected) return;
    const int64_t now = nowMs();
    bool suspect = false;
    for (auto& [h, s] : m_subs) {
        if (s.id == 0 || s.keepAliveMissing) continue;
        if (now < s.lastHeardMs + silenceAllowedMs(s.revisedIntervalMs, s.revisedKeepAliveCount)) continue;
        s.keepAliveMissing = true;
        suspect = true;
        qCInfo(lcClientSub) << "subscription" << s.id << ": no message or keep-alive for" << now - s.lastHeardMs << "ms";
        status(s, SubscriptionEvent::KeepAliveMissing, status::BadTimeout);
    }
    if (suspect) m_core->probeConnection();  // no answer there: the reconnect logic takes over
    armWatchdog();
}

} // namespace ua
