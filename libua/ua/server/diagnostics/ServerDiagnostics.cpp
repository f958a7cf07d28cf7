#include "ua/server/diagnostics/ServerDiagnostics.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/common/Clock.h"
#include "ua/server/common/SessionManager.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"
#include "ua/transport/ContextRef.h"

#include <QPointer>
#include <algorithm>
#include <map>
#include <mutex>
#include <unordered_map>

namespace ua {

namespace {

constexpr const char* kServiceNames[kServiceKindCount] = {
    "Read", "HistoryRead", "Write", "HistoryUpdate", "Call",
    "CreateMonitoredItems", "ModifyMonitoredItems", "SetMonitoringMode", "SetTriggering", "DeleteMonitoredItems",
    "CreateSubscription", "ModifySubscription", "SetPublishingMode", "Publish", "Republish", "TransferSubscriptions",
    "DeleteSubscriptions",
    "AddNodes", "AddReferences", "DeleteNodes", "DeleteReferences",
    "Browse", "BrowseNext", "TranslateBrowsePathsToNodeIds", "QueryFirst", "QueryNext", "RegisterNodes", "UnregisterNodes",
    "FindServers", "GetEndpoints", "CreateSession", "ActivateSession", "CloseSession", "Cancel",
};

// The ServiceCounterDataType fields of SessionDiagnosticsDataType, in ServiceKind order.
constexpr std::size_t kSessionServiceKinds = std::size_t(ServiceKind::FindServers);
constexpr ServiceCounterDataType SessionDiagnosticsDataType::* kSessionFields[kSessionServiceKinds] = {
    &SessionDiagnosticsDataType::readCount,
    &SessionDiagnosticsDataType::historyReadCount,
    &SessionDiagnosticsDataType::writeCount,
    &SessionDiagnosticsDataType::historyUpdateCount,
    &SessionDiagnosticsDataType::callCount,
    &SessionDiagnosticsDataType::createMonitoredItemsCount,
    &SessionDiagnosticsDataType::modifyMonitoredItemsCount,
    &SessionDiagnosticsDataType::setMonitoringModeCount,
    &SessionDiagnosticsDataType::setTriggeringCount,
    &SessionDiagnosticsDataType::deleteMonitoredItemsCount,
    &SessionDiagnosticsDataType::createSubscriptionCount,
    &SessionDiagnosticsDataType::modifySubscriptionCount,
    &SessionDiagnosticsDataType::setPublishingModeCount,
    &SessionDiagnosticsDataType::publishCount,
    &SessionDiagnosticsDataType::republishCount,
    &SessionDiagnosticsDataType::transferSubscriptionsCount,
    &SessionDiagnosticsDataType::deleteSubscriptionsCount,
    &SessionDiagnosticsDataType::addNodesCount,
    &SessionDiagnosticsDataType::addReferencesCount,
    &SessionDiagnosticsDataType::deleteNodesCount,
    &SessionDiagnosticsDataType::deleteReferencesCount,
    &SessionDiagnosticsDataType::browseCount,
    &SessionDiagnosticsDataType::browseNextCount,
    &SessionDiagnosticsDataType::translateBrowsePathsToNodeIdsCount,
    &SessionDiagnosticsDataType::queryFirstCount,
    &SessionDiagnosticsDataType::queryNextCount,
    &SessionDiagnosticsDataType::registerNodesCount,
    &SessionDiagnosticsDataType::unregisterNodesCount,
};

// The home-thread counter of a subscription or MonitoredItem service.
const ServiceCount& homeCount(const SessionServiceCounters& c, ServiceKind k) {
    switch (k) {
    case ServiceKind::CreateMonitoredItems: return c.createMonitoredItems;
    case ServiceKind::ModifyMonitoredItems: return c.modifyMonitoredItems;
    case ServiceKind::SetMonitoringMode: return c.setMonitoringMode;
    case ServiceKind::SetTriggering: return c.setTriggering;
    case ServiceKind::DeleteMonitoredItems: return c.deleteMonitoredItems;
    case ServiceKind::CreateSubscription: return c.createSubscription;
    case ServiceKind::ModifySubscription: return c.modifySubscription;
    case ServiceKind::SetPublishingMode: return c.setPublishingMode;
    case ServiceKind::Publish: return c.publish;
    case ServiceKind::Republish: return c.republish;
    case ServiceKind::TransferSubscriptions: return c.transferSubscriptions;
    default: return c.deleteSubscriptions;
    }
}

// One service's counts of a Session: from the Session's counters or, for the subscription and
// MonitoredItem services, from its SessionSubscriptions (null: none yet).
ServiceCounterDataType sessionCount(const Session& s, const SessionSubscriptions* ss, ServiceKind k) {
    ServiceCounterDataType out;
    if (countedOnHome(k)) {
        if (!ss) return out;
        const ServiceCount& c = homeCount(ss->serviceCounters, k);
        out.totalCount = c.total;
        out.errorCount = c.errors;
        return out;
    }
    out.totalCount = s.counters[k].total;
    out.errorCount = s.counters[k].errors;
    return out;
}

String authenticationMechanism(UserTokenType t) {
    switch (t) {
    case UserTokenType::Anonymous: return String("Anonymous");
    case UserTokenType::UserName: return String("UserName");
    case UserTokenType::Certificate: return String("Certificate");
    case UserTokenType::IssuedToken: return String("IssuedToken");
    }
    return String();
}

// What a home thread contributes to a snapshot.
struct HomePart {
    std::vector<SubscriptionDiagnosticsDataType> subscriptions;
    struct SessionPart {
        uint32_t subscriptions = 0, monitoredItems = 0, publishRequests = 0;
    };
    std::unordered_map<NodeId, SessionPart> sessions;
    struct Rate {
        uint32_t items = 0, disabled = 0;
    };
    std::map<double, Rate> rates;  // by sampling interval (ms)
};

HomePart collectHome(const SubscriptionScheduler& home) {
    HomePart part;
    for (const auto& owner : home.sessions()) {
        // The scheduler's owners are the SessionSubscriptions of its Sessions.
        const auto* ss = static_cast<const SessionSubscriptions*>(owner.get());
        std::vector<SubscriptionDiagnosticsDataType> d = ss->diagnostics();
        part.subscriptions.insert(part.subscriptions.end(), std::make_move_iterator(d.begin()),
                                  std::make_move_iterator(d.end()));
        SessionDiagnosticsDataType sd;
        ss->fillSessionDiagnostics(sd);
        HomePart::SessionPart& sp = part.sessions[ss->sessionId()];
        sp.subscriptions += sd.currentSubscriptionsCount;
        sp.monitoredItems += sd.currentMonitoredItemsCount;
        sp.publishRequests += sd.currentPublishRequestsInQueue;
        for (const auto& [id, sub] : ss->subscriptions())
            for (const auto& [itemId, item] : sub->items()) {
                if (item->events) continue;  // event items are not sampled
                HomePart::Rate& r = part.rates[item->samplingIntervalMs];
                ++r.items;
                if (item->mode == MonitoringMode::Disabled) ++r.disabled;
            }
    }
    return part;
}

struct Waiter {
    ContextRef receiver;  // made on the receiver's thread (ContextRef.h)
    std::function<void(DiagnosticsSnapshotPtr)> done;
};

// Always queued, also on the receiver's thread: requestSnapshot's callers expect `done` after it
// returns. Dropped when the receiver is gone.
void deliver(const Waiter& w, const DiagnosticsSnapshotPtr& snapshot) {
    w.receiver.post([done = w.done, snapshot] { done(snapshot); });
}

// A collection that runs longer than this (a home thread stopped meanwhile) is given up and
// started again by the next request.
constexpr int64_t kCollectionGiveUpMs = 2000;

} // namespace

const char* serviceName(ServiceKind kind) {
    return std::size_t(kind) < kServiceKindCount ? kServiceNames[std::size_t(kind)] : "";
}

bool isSecurityRejection(StatusCode s) {
    switch (s.code & 0xFFFF0000u) {
    case status::BadUserAccessDenied.code:
    case status::BadIdentityTokenInvalid.code:
    case status::BadIdentityTokenRejected.code:
    case status::BadUserSignatureInvalid.code:
    case status::BadApplicationSignatureInvalid.code:
    case status::BadSecurityChecksFailed.code:
    case status::BadCertificateInvalid.code:
    case status::BadCertificateUriInvalid.code:
    case status::BadCertificateUntrusted.code:
    case status::BadCertificateTimeInvalid.code:
    case status::BadCertificateRevoked.code:
    case status::BadSecurityPolicyRejected.code:
    case status::BadSecurityModeRejected.code:
    case status::BadNonceInvalid.code:
    case status::BadIdentityChangeNotSupported.code:
        return true;
    default:
        return false;
    }
}

struct ServerDiagnostics::State {
    State(ServerDiagnostics& d, SessionManager& s, const QString& uri, const std::atomic<int>& channels)
        : self(d), sessions(s), applicationUri(uri), channelCount(channels) {}
    ServerDiagnostics& self;
    SessionManager& sessions;
    SubscriptionRegistry* registry = nullptr;
    const QString& applicationUri;
    const std::atomic<int>& channelCount;
    std::atomic<bool> enabled{true};
    std::atomic<uint32_t> publishingIntervals{0};  // of the latest snapshot

    mutable std::mutex mutex;  // guards what follows; never taken on the request path
    DiagnosticsSnapshotPtr latest;
    std::vector<QPointer<SubscriptionScheduler>> homes;
    std::vector<Waiter> waiters;
    bool collecting = false;
    int64_t collectionStartedMs = 0;
    uint64_t generation = 0;
    std::map<double, uint32_t> maxItemsPerRate;  // SamplingIntervalDiagnostics maxMonitoredItemCount
    // The home-thread part of each Session in the latest snapshot.
    std::shared_ptr<const std::unordered_map<NodeId, HomePart::SessionPart>> homeSessions =
        std::make_shared<std::unordered_map<NodeId, HomePart::SessionPart>>();
    // sessionsNow()'s cache.
    std::shared_ptr<const std::vector<SessionSnapshot>> sessionsCache;
    int64_t sessionsCacheMs = 0;
    uint32_t sessionsCacheVersion = 0;

    // One collection: the parts of the home threads, merged by the last one to answer.
    struct Collection {
        std::mutex mutex;
        std::shared_ptr<DiagnosticsSnapshot> snapshot;
        std::vector<HomePart> parts;
        int pending = 0;
        uint64_t generation = 0;
    };
    void startCollection(uint64_t generation, std::vector<QPointer<SubscriptionScheduler>> homes);
    void finish(const std::shared_ptr<Collection>& c);
    void fillSessions(DiagnosticsSnapshot& snap, const std::unordered_map<NodeId, HomePart::SessionPart>& home) const;
    void fillSession(const Session& s, SessionSnapshot& out,
                     const HomePart::SessionPart* home) const;
    bool startIfIdle(int64_t now, std::unique_lock<std::mutex>& lock);
};

ServerDiagnostics::ServerDiagnostics(SessionManager& sessions, const QString& applicationUri,
                                     const std::atomic<int>& channelCount)
    : m_state(std::make_unique<State>(*this, sessions, applicationUri, channelCount)) {}
void ServerDiagnostics::setSubscriptionRegistry(SubscriptionRegistry& registry) { m_state->registry = &registry; }
ServerDiagnostics::~ServerDiagnostics() = default;

bool ServerDiagnostics::enabled() const { return m_state->enabled.load(std::memory_order_relaxed); }
void ServerDiagnostics::setEnabled(bool on) { m_state->enabled.store(on, std::memory_order_relaxed); }

DiagnosticsSnapshotPtr ServerDiagnostics::latest() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->latest;
}

void ServerDiagnostics::addHome(SubscriptionScheduler* home) {
    std::lock_guard lock(m_state->mutex);
    m_state->homes.emplace_back(home);
}

void ServerDiagnostics::clearHomes() {
    std::lock_guard lock(m_state->mutex);
    m_state->homes.clear();
}

void ServerDiagnostics::sessionRemoved(const Session& s, SessionEnd why) {
    ++m_counters.sessionsRemoved;
    if (why == SessionEnd::TimedOut) ++m_counters.sessionTimeouts;
    if (why == SessionEnd::Aborted) ++m_counters.sessionAborts;
    const auto ss = s.subscriptions.load();
    for (std::size_t k = 0; k < kServiceKindCount; ++k) {
        const ServiceKind kind = ServiceKind(k);
        uint32_t total = s.counters[kind].total, errors = s.counters[kind].errors;
        if (countedOnHome(kind) && ss) {
            total = homeCount(ss->serviceCounters, kind).total;
            errors = homeCount(ss->serviceCounters, kind).errors;
        }
        if (total) m_counters.retiredTotal[k].add(total);
        if (errors) m_counters.retiredErrors[k].add(errors);
    }
}

std::array<ServiceCounterDataType, kServiceKindCount> ServerDiagnostics::serviceTotals() const {
    std::array<ServiceCounterDataType, kServiceKindCount> out{};
    // Under the manager's lock, so that a Session being removed is counted once (sessionRemoved
    // runs under the same lock).
    m_state->sessions.forEach([&](const SessionPtr& s) {
        const auto ss = s->subscriptions.load();
        for (std::size_t k = 0; k < kServiceKindCount; ++k) {
            const ServiceCounterDataType c = sessionCount(*s, ss.get(), ServiceKind(k));
            out[k].totalCount += c.totalCount;
            out[k].errorCount += c.errorCount;
        }
    });
    for (std::size_t k = 0; k < kServiceKindCount; ++k) {
        out[k].totalCount += m_counters.retiredTotal[k] + m_counters.sessionlessTotal[k];
        out[k].errorCount += m_counters.retiredErrors[k] + m_counters.sessionlessErrors[k];
    }
    return out;
}

ServerDiagnosticsSummaryDataType ServerDiagnostics::summary() const {
    ServerDiagnosticsSummaryDataType d;
    const ServerCounters& c = m_counters;
    d.serverViewCount = 0;  // the server creates no Views
    d.currentSessionCount = uint32_t(m_state->sessions.count());
    d.cumulatedSessionCount = c.cumulatedSessions;
    d.securityRejectedSessionCount = c.securityRejectedSessions;
    d.rejectedSessionCount = c.rejectedSessions;
    d.sessionTimeoutCount = c.sessionTimeouts;
    d.sessionAbortCount = c.sessionAborts;
    d.currentSubscriptionCount = uint32_t(m_state->registry->subscriptionCount());
    d.cumulatedSubscriptionCount = m_state->registry->cumulatedCount();
    d.publishingIntervalCount = m_state->publishingIntervals.load(std::memory_order_relaxed);
    d.securityRejectedRequestsCount = c.securityRejectedRequests;
    d.rejectedRequestsCount = c.rejectedRequests;
    return d;
}

void ServerDiagnostics::requestSnapshot(QObject* receiver, std::function<void(DiagnosticsSnapshotPtr)> done,
                                        int maxAgeMs) {
    State& st = *m_state;
    Waiter w{ContextRef(receiver), std::move(done)};
    const int64_t now = monotonicMs();
    std::unique_lock lock(st.mutex);
    if (st.latest && maxAgeMs > 0 && now - st.latest->takenMs <= maxAgeMs) {
        const DiagnosticsSnapshotPtr snap = st.latest;
        lock.unlock();
        deliver(w, snap);
        return;
    }
    st.waiters.push_back(std::move(w));
    st.startIfIdle(now, lock);  // or share the running one
}

void ServerDiagnostics::State::startCollection(uint64_t gen, std::vector<QPointer<SubscriptionScheduler>> homeList) {
    auto c = std::make_shared<Collection>();
    c->generation = gen;
    c->snapshot = std::make_shared<DiagnosticsSnapshot>();
    std::vector<SubscriptionScheduler*> live;
    for (const auto& h : homeList)
        if (SubscriptionScheduler* p = h.data()) live.push_back(p);
    c->pending = int(live.size()) + 1;  // + this function's share
    for (SubscriptionScheduler* home : live) {
        QMetaObject::invokeMethod(home, [this, c, home] {
            HomePart part = collectHome(*home);
            bool last = false;
            {
                std::lock_guard lock(c->mutex);
                c->parts.push_back(std::move(part));
                last = --c->pending == 0;
            }
            if (last) finish(c);
        }, Qt::QueuedConnection);
    }
    bool last = false;
    {
        std::lock_guard lock(c->mutex);
        last = --c->pending == 0;
    }
    if (last) finish(c);
}

void ServerDiagnostics::State::fillSession(const Session& s, SessionSnapshot& out,
                                           const HomePart::SessionPart* home) const {
    SessionDiagnosticsDataType& d = out.diagnostics;
    SessionSecurityDiagnosticsDataType& sec = out.security;
    {
        std::lock_guard lock(s.activationMutex);
        d.sessionName = s.sessionName;
        d.clientDescription = s.client;
        d.endpointUrl = s.endpointUrl;
        d.localeIds = s.localeIds;
        d.maxResponseMessageSize = s.maxResponseMessageSize;
        d.clientConnectionTime = s.createdAt;
        sec.clientUserIdOfSession = String(s.clientUserId);
        sec.clientUserIdHistory = Array<String>::emptyArray();
        for (const std::string& u : s.clientUserIdHistory) sec.clientUserIdHistory.push_back(String(u));
        sec.authenticationMechanism = authenticationMechanism(s.userTokenType);
        sec.securityMode = s.securityMode;
        sec.securityPolicyUri = s.securityPolicyUri;
        sec.clientCertificate = ByteString(s.clientCertificate);
        out.peerAddress = s.peerAddress;
    }
    d.sessionId = s.sessionId;
    d.serverUri = String::fromQString(applicationUri);
    d.actualSessionTimeout = s.timeoutMs;
    // The wall-clock time of the last request: its monotonic ms plus an offset taken once, so that
    // an idle Session's value does not move between snapshots (a monitored item on it would report
    // changes that did not happen).
    // Both clocks are read to the ms, so the sum can be up to a ms off either way: it is kept
    // between the connection time and now (a contact cannot be before the one or after the other).
    static const int64_t wallOffsetTicks = DateTime::now().ticks - monotonicMs() * DateTime::kTicksPerMs;
    const int64_t contact = wallOffsetTicks + s.lastActivityMs.load(std::memory_order_relaxed) * DateTime::kTicksPerMs;
    d.clientLastContactTime = DateTime{std::max(d.clientConnectionTime.ticks, std::min(contact, DateTime::now().ticks))};
    if (home) {
        d.currentSubscriptionsCount = home->subscriptions;
        d.currentMonitoredItemsCount = home->monitoredItems;
        d.currentPublishRequestsInQueue = home->publishRequests;
    }
    const auto ss = s.subscriptions.load();
    for (std::size_t k = 0; k < kServiceKindCount; ++k) {
        const ServiceCounterDataType c = sessionCount(s, ss.get(), ServiceKind(k));
        if (k < kSessionServiceKinds) d.*kSessionFields[k] = c;
        d.totalRequestCount.totalCount += c.totalCount;
        d.totalRequestCount.errorCount += c.errorCount;
    }
    d.unauthorizedRequestCount = s.counters.unauthorized;
    sec.sessionId = s.sessionId;
    sec.encoding = String("UA Binary");
    sec.transportProtocol = String("opc.tcp");
    out.channelId = s.channelId.load(std::memory_order_relaxed);
    out.activated = s.activated.load(std::memory_order_relaxed);
}

void ServerDiagnostics::State::fillSessions(DiagnosticsSnapshot& snap,
                                            const std::unordered_map<NodeId, HomePart::SessionPart>& home) const {
    const std::vector<SessionPtr> all = sessions.snapshot();
    snap.sessions.reserve(all.size());
    for (const SessionPtr& s : all) {
        SessionSnapshot out;
        const auto it = home.find(s->sessionId);
        fillSession(*s, out, it == home.end() ? nullptr : &it->second);
        snap.sessions.push_back(std::move(out));
    }
}

SessionSnapshot ServerDiagnostics::describe(const Session& s) const {
    std::shared_ptr<const std::unordered_map<NodeId, HomePart::SessionPart>> home;
    {
        std::lock_guard lock(m_state->mutex);
        home = m_state->homeSessions;
    }
    SessionSnapshot out;
    const auto it = home->find(s.sessionId);
    m_state->fillSession(s, out, it == home->end() ? nullptr : &it->second);
    return out;
}

std::shared_ptr<const std::vector<SessionSnapshot>> ServerDiagnostics::sessionsNow() const {
    State& st = *m_state;
    const int64_t now = monotonicMs();
    const uint32_t version = sessionSetVersion();
    std::shared_ptr<const std::unordered_map<NodeId, HomePart::SessionPart>> home;
    {
        std::lock_guard lock(st.mutex);
        if (st.sessionsCache && st.sessionsCacheVersion == version && now - st.sessionsCacheMs < 100)
            return st.sessionsCache;
        home = st.homeSessions;
    }
    auto v = std::make_shared<std::vector<SessionSnapshot>>();
    for (const SessionPtr& s : st.sessions.snapshot()) {
        SessionSnapshot out;
        const auto it = home->find(s->sessionId);
        st.fillSession(*s, out, it == home->end() ? nullptr : &it->second);
        v->push_back(std::move(out));
    }
    std::lock_guard lock(st.mutex);
    st.sessionsCache = v;
    st.sessionsCacheMs = now;
    st.sessionsCacheVersion = version;
    return v;
}

bool ServerDiagnostics::State::startIfIdle(int64_t now, std::unique_lock<std::mutex>& lock) {
    if (collecting && now - collectionStartedMs < kCollectionGiveUpMs) return false;
    collecting = true;
    collectionStartedMs = now;
    const uint64_t gen = ++generation;
    std::vector<QPointer<SubscriptionScheduler>> h = homes;
    lock.unlock();
    startCollection(gen, std::move(h));
    return true;
}

uint64_t ServerDiagnostics::collectionCount() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->generation;
}

void ServerDiagnostics::refresh(int maxAgeMs) {
    State& st = *m_state;
    const int64_t now = monotonicMs();
    std::unique_lock lock(st.mutex);
    if (st.latest && now - st.latest->takenMs <= maxAgeMs) return;
    st.startIfIdle(now, lock);
}

void ServerDiagnostics::State::finish(const std::shared_ptr<Collection>& c) {
    DiagnosticsSnapshot& snap = *c->snapshot;
    snap.takenMs = monotonicMs();
    snap.takenAt = DateTime::now();
    snap.enabled = enabled.load(std::memory_order_relaxed);
    std::unordered_map<NodeId, HomePart::SessionPart> perSession;
    std::map<double, HomePart::Rate> rates;
    for (HomePart& p : c->parts) {
        snap.subscriptions.insert(snap.subscriptions.end(), std::make_move_iterator(p.subscriptions.begin()),
                                  std::make_move_iterator(p.subscriptions.end()));
        for (const auto& [id, sp] : p.sessions) {
            HomePart::SessionPart& to = perSession[id];
            to.subscriptions += sp.subscriptions;
            to.monitoredItems += sp.monitoredItems;
            to.publishRequests += sp.publishRequests;
        }
        for (const auto& [rate, r] : p.rates) {
            rates[rate].items += r.items;
            rates[rate].disabled += r.disabled;
        }
    }
    fillSessions(snap, perSession);
    std::map<double, int> intervals;
    for (const SubscriptionDiagnosticsDataType& s : snap.subscriptions) ++intervals[s.publishingInterval];
    publishingIntervals.store(uint32_t(intervals.size()), std::memory_order_relaxed);
    for (const auto& [id, sp] : perSession) snap.monitoredItems += sp.monitoredItems;
    snap.channels = channelCount.load(std::memory_order_relaxed);

    std::vector<Waiter> waiting;
    {
        std::lock_guard lock(mutex);
        for (const auto& [rate, r] : rates) {
            uint32_t& max = maxItemsPerRate[rate];
            max = std::max(max, r.items);
            SamplingIntervalDiagnosticsDataType sd;
            sd.samplingInterval = rate;
            sd.monitoredItemCount = r.items;
            sd.maxMonitoredItemCount = max;
            sd.disabledMonitoredItemCount = r.disabled;
            snap.samplingIntervals.push_back(sd);
        }
        homeSessions = std::make_shared<const std::unordered_map<NodeId, HomePart::SessionPart>>(perSession);
        if (c->generation == generation) {
            collecting = false;
            waiting.swap(waiters);
        }
    }
    // The summary and the service totals (the latter take the SessionManager's lock, not ours).
    DiagnosticsSnapshotPtr published;
    {
        ServerDiagnosticsSummaryDataType sum;
        const ServerCounters& k = self.counters();
        sum.currentSessionCount = uint32_t(snap.sessions.size());
        sum.cumulatedSessionCount = k.cumulatedSessions;
        sum.securityRejectedSessionCount = k.securityRejectedSessions;
        sum.rejectedSessionCount = k.rejectedSessions;
        sum.sessionTimeoutCount = k.sessionTimeouts;
        sum.sessionAbortCount = k.sessionAborts;
        sum.currentSubscriptionCount = uint32_t(snap.subscriptions.size());
        sum.cumulatedSubscriptionCount = registry->cumulatedCount();
        sum.publishingIntervalCount = uint32_t(intervals.size());
        sum.securityRejectedRequestsCount = k.securityRejectedRequests;
        sum.rejectedRequestsCount = k.rejectedRequests;
        snap.summary = sum;
        snap.services = self.serviceTotals();
        published = c->snapshot;
    }
    {
        std::lock_guard lock(mutex);
        if (!latest || latest->takenMs <= snap.takenMs) latest = published;
    }
    for (const Waiter& w : waiting) deliver(w, published);
}

} // namespace ua
