#include "ua/server/common/SessionManager.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <QRandomGenerator>
#include <algorithm>
#include <array>
#include <cstring>

namespace ua {

SessionManager::TokenSource SessionManager::tokenSource = nullptr;

namespace {
void fillRandom(uint8_t* out, std::size_t n) {
    if (SessionManager::tokenSource) return SessionManager::tokenSource(out, n);
    for (std::size_t i = 0; i < n; i += 4) {
        const quint32 w = QRandomGenerator::system()->generate();
        std::memcpy(out + i, &w, std::min<std::size_t>(4, n - i));
    }
}

ByteString randomBytes(std::size_t n) {
    std::string s(n, '\0');
    fillRandom(reinterpret_cast<uint8_t*>(s.data()), n);
    return ByteString(std::move(s));
}

// The AuthenticationToken (OPC 10000-4 5.6.2.2) is a secret: 128 bits from the system's CSPRNG,
// held as a Guid NodeId so that decoding it in each request's RequestHeader allocates nothing (an
// opaque token of 32 bytes was a heap string per request on both sides).
Guid randomGuid() {
    std::array<uint8_t, 16> r;
    fillRandom(r.data(), r.size());
    Guid g;
    std::memcpy(&g.data1, r.data(), 4);
    std::memcpy(&g.data2, r.data() + 4, 2);
    std::memcpy(&g.data3, r.data() + 6, 2);
    std::memcpy(g.data4.data(), r.data() + 8, 8);
    return g;
}
} // namespace

namespace {
bool laterCheck(const auto& a, const auto& b) { return a.atMs > b.atMs; }  // std::*_heap: a min-heap

int64_t plusMs(int64_t at, double ms) {
    if (!(ms >= 0)) return at;  // NaN or negative: at once
    if (ms >= 1e15) return INT64_MAX;
    return at + int64_t(ms) + 1;
}
} // namespace

void SessionManager::forgetUnactivated(const Session* s) {
    for (std::size_t i = 0; i < m_unactivated.size(); ++i)
        if (m_unactivated[i].get() == s) {
            m_unactivated[i] = std::move(m_unactivated.back());
            m_unactivated.pop_back();
            return;
        }
}

void SessionManager::erased(Session& s, SessionEnd why) {
    if (!s.activated.load(std::memory_order_relaxed)) {
        m_pending.fetch_sub(1, std::memory_order_relaxed);
        forgetUnactivated(&s);
    }
    if (onRemoved) onRemoved(s, why);
}

void SessionManager::markActivated(const SessionPtr& s) {
    QMutexLocker lock(&m_mutex);
    if (s->activated.exchange(true)) return;
    if (m_byToken.count(s->authenticationToken)) {
        m_pending.fetch_sub(1, std::memory_order_relaxed);
        forgetUnactivated(s.get());
    }
}

int64_t SessionManager::nextCheckMs(const Session& s) const {
    const int64_t last = s.lastActivityMs.load(std::memory_order_relaxed);
    int64_t due = plusMs(last, s.timeoutMs);
    if (m_activationTimeoutMs && !s.activated.load(std::memory_order_relaxed))
        due = std::min(due, plusMs(last, double(m_activationTimeoutMs)));
    return due;
}

void SessionManager::scheduleCheck(const SessionPtr& s) {
    m_checks.push_back(ExpiryCheck{nextCheckMs(*s), s});
    std::push_heap(m_checks.begin(), m_checks.end(), laterCheck<ExpiryCheck, ExpiryCheck>);
}

SessionPtr SessionManager::create(uint32_t channelId, double timeoutMs, int64_t nowMs, StatusCode* refused) {
    auto s = std::make_shared<Session>();
    s->sessionId = NodeId(1, randomGuid());
    static std::atomic<uint32_t> scopes{0};
    do s->scope = scopes.fetch_add(1, std::memory_order_relaxed) + 1; while (s->scope == 0);
    s->authenticationToken = NodeId(0, randomGuid());
    s->serverNonce = randomBytes(32);
    s->timeoutMs = timeoutMs;
    s->channelId = channelId;
    s->touch(nowMs);
    QMutexLocker lock(&m_mutex);
    if (m_maxPending > 0 && m_pending.load(std::memory_order_relaxed) >= m_maxPending) {
        if (refused) *refused = status::BadServerTooBusy;
        return nullptr;
    }
    if (int(m_byToken.size()) >= m_maxSessions) {
        // 5.7.2.1: against misbehaving clients, the oldest Session not activated makes room.
        SessionPtr gone;
        for (const SessionPtr& u : m_unactivated)
            if (!gone || u->lastActivityMs < gone->lastActivityMs) gone = u;
        if (!gone) {
            if (refused) *refused = status::BadTooManySessions;
            return nullptr;
        }
        gone->closed = true;
        m_byToken.erase(gone->authenticationToken);
        erased(*gone, SessionEnd::Aborted);
    }
    m_byToken.emplace(s->authenticationToken, s);
    m_pending.fetch_add(1, std::memory_order_relaxed);
    m_unactivated.push_back(s);
    scheduleCheck(s);
    return s;
}

SessionPtr SessionManager::find(const NodeId& token) const {
    QMutexLocker lock(&m_mutex);
    auto it = m_byToken.find(token);
    return it == m_byToken.end() ? nullptr : it->second;
}

void SessionManager::remove(const SessionPtr& s, SessionEnd why) {
    s->closed = true;
    QMutexLocker lock(&m_mutex);
    if (m_byToken.erase(s->authenticationToken)) erased(*s, why);
}

void SessionManager::channelClosed(uint32_t channelId) {
    QMutexLocker lock(&m_mutex);
    for (std::size_t i = 0; i < m_unactivated.size();) {
        if (m_unactivated[i]->channelId != channelId) {
            ++i;
            continue;
        }
        const SessionPtr s = m_unactivated[i];  // erased() takes it out of m_unactivated
        s->closed = true;
        m_byToken.erase(s->authenticationToken);
        erased(*s, SessionEnd::Aborted);
    }
}

int SessionManager::expire(int64_t nowMs, std::vector<SessionPtr>* timedOut, std::vector<SessionPtr>* aborted) {
    QMutexLocker lock(&m_mutex);
    int n = 0;
    while (!m_checks.empty() && m_checks.front().atMs <= nowMs) {
        std::pop_heap(m_checks.begin(), m_checks.end(), laterCheck<ExpiryCheck, ExpiryCheck>);
        const SessionPtr s = m_checks.back().session.lock();
        m_checks.pop_back();
        if (!s || s->closed) continue;  // removed another way
        const auto it = m_byToken.find(s->authenticationToken);
        if (it == m_byToken.end() || it->second != s) continue;
        // Not activated: lastActivityMs is its creation time (no request is served before).
        const bool unactivated = m_activationTimeoutMs && !s->activated &&
                                 nowMs - s->lastActivityMs.load(std::memory_order_relaxed) > int64_t(m_activationTimeoutMs);
        if (s->expired(nowMs) || unactivated) {
            s->closed = true;
            m_byToken.erase(it);
            const SessionEnd why = unactivated && !s->expired(nowMs) ? SessionEnd::Aborted : SessionEnd::TimedOut;
            erased(*s, why);
            if (std::vector<SessionPtr>* list = why == SessionEnd::TimedOut ? timedOut : aborted) list->push_back(s);
            ++n;
        } else {
            scheduleCheck(s);  // active since: looked at again at its new deadline
        }
    }
    return n;
}

int SessionManager::count() const {
    QMutexLocker lock(&m_mutex);
    return int(m_byToken.size());
}

std::vector<SessionPtr> SessionManager::snapshot() const {
    QMutexLocker lock(&m_mutex);
    std::vector<SessionPtr> v;
    v.reserve(m_byToken.size());
    for (auto& [k, s] : m_byToken) v.push_back(s);
    return v;
}

SessionPtr SessionManager::findBySessionId(const NodeId& sessionId) const {
    QMutexLocker lock(&m_mutex);
    for (auto& [k, s] : m_byToken)
        if (s->sessionId == sessionId) return s;
    return nullptr;
}

void SessionManager::forEach(const std::function<void(const SessionPtr&)>& f) const {
    QMutexLocker lock(&m_mutex);
    for (auto& [k, s] : m_byToken) f(s);
}

} // namespace ua
