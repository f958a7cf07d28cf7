#include "ua/server/SessionManager.h"

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

void SessionManager::erased(Session& s, SessionEnd why) {
    if (!s.activated.load(std::memory_order_relaxed)) m_pending.fetch_sub(1, std::memory_order_relaxed);
    if (onRemoved) onRemoved(s, why);
}

void SessionManager::markActivated(const SessionPtr& s) {
    QMutexLocker lock(&m_mutex);
    if (s->activated.exchange(true)) return;
    if (m_byToken.count(s->authenticationToken)) m_pending.fetch_sub(1, std::memory_order_relaxed);
}

SessionPtr SessionManager::create(uint32_t channelId, double timeoutMs, int64_t nowMs, StatusCode* refused) {
    auto s = std::make_shared<Session>();
    s->sessionId = NodeId(1, randomGuid());
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
        auto oldest = m_byToken.end();
        for (auto it = m_byToken.begin(); it != m_byToken.end(); ++it)
            if (!it->second->activated && (oldest == m_byToken.end() || it->second->lastActivityMs < oldest->second->lastActivityMs))
                oldest = it;
        if (oldest == m_byToken.end()) {
            if (refused) *refused = status::BadTooManySessions;
            return nullptr;
        }
        const SessionPtr gone = oldest->second;
        gone->closed = true;
        m_byToken.erase(oldest);
        erased(*gone, SessionEnd::Aborted);
    }
    m_byToken.emplace(s->authenticationToken, s);
    m_pending.fetch_add(1, std::memory_order_relaxed);
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
    for (auto it = m_byToken.begin(); it != m_byToken.end();) {
        if (!it->second->activated && it->second->channelId == channelId) {
            const SessionPtr s = it->second;
            s->closed = true;
            it = m_byToken.erase(it);
            erased(*s, SessionEnd::Aborted);
        } else {
            ++it;
        }
    }
}

int SessionManager::expire(int64_t nowMs) {
    QMutexLocker lock(&m_mutex);
    int n = 0;
    for (auto it = m_byToken.begin(); it != m_byToken.end();) {
        Session& s = *it->second;
        // Not activated: lastActivityMs is its creation time (no request is served before).
        const bool unactivated = m_activationTimeoutMs && !s.activated &&
                                 nowMs - s.lastActivityMs.load(std::memory_order_relaxed) > int64_t(m_activationTimeoutMs);
        if (s.expired(nowMs) || unactivated) {
            const SessionPtr keep = it->second;
            keep->closed = true;
            it = m_byToken.erase(it);
            erased(*keep, unactivated && !keep->expired(nowMs) ? SessionEnd::Aborted : SessionEnd::TimedOut);
            ++n;
        } else {
            ++it;
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
