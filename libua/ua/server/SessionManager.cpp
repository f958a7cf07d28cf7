#include "ua/server/SessionManager.h"

#include <QRandomGenerator>
#include <array>

namespace ua {

static ByteString randomBytes(int n) {
    std::string s(std::size_t(n), '\0');
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(s.data()), qsizetype(n / 4));
    return ByteString(std::move(s));
}

// The AuthenticationToken (OPC 10000-4 5.6.2.2) is a secret: 128 bits from the system's CSPRNG,
// held as a Guid NodeId so that decoding it in each request's RequestHeader allocates nothing (an
// opaque token of 32 bytes was a heap string per request on both sides).
static NodeId randomToken() {
    Guid g;
    std::array<quint32, 4> r;
    QRandomGenerator::system()->fillRange(r.data(), qsizetype(r.size()));
    g.data1 = r[0];
    g.data2 = uint16_t(r[1]);
    g.data3 = uint16_t(r[1] >> 16);
    for (std::size_t i = 0; i < 8; ++i) g.data4[i] = uint8_t(r[2 + i / 4] >> (8 * (i % 4)));
    return NodeId(0, g);
}

SessionPtr SessionManager::create(uint32_t channelId, double timeoutMs, int64_t nowMs) {
    auto s = std::make_shared<Session>();
    s->sessionId = NodeId(1, Guid::random());
    s->authenticationToken = randomToken();
    s->serverNonce = randomBytes(32);
    s->timeoutMs = timeoutMs;
    s->channelId = channelId;
    s->touch(nowMs);
    QMutexLocker lock(&m_mutex);
    if (int(m_byToken.size()) >= m_maxSessions) return nullptr;
    m_byToken.emplace(s->authenticationToken, s);
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
    if (m_byToken.erase(s->authenticationToken) && onRemoved) onRemoved(*s, why);
}

void SessionManager::channelClosed(uint32_t channelId) {
    QMutexLocker lock(&m_mutex);
    for (auto it = m_byToken.begin(); it != m_byToken.end();) {
        if (!it->second->activated && it->second->channelId == channelId) {
            it->second->closed = true;
            if (onRemoved) onRemoved(*it->second, SessionEnd::Aborted);
            it = m_byToken.erase(it);
        } else {
            ++it;
        }
    }
}

int SessionManager::expire(int64_t nowMs) {
    QMutexLocker lock(&m_mutex);
    int n = 0;
    for (auto it = m_byToken.begin(); it != m_byToken.end();) {
        if (it->second->expired(nowMs)) {
            it->second->closed = true;
            if (onRemoved) onRemoved(*it->second, SessionEnd::TimedOut);
            it = m_byToken.erase(it);
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
