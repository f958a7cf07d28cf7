#include "ua/server/SessionManager.h"

#include <QRandomGenerator>

namespace ua {

static ByteString randomBytes(int n) {
    std::string s(std::size_t(n), '\0');
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(s.data()), qsizetype(n / 4));
    return ByteString(std::move(s));
}

SessionPtr SessionManager::create(uint32_t channelId, double timeoutMs, int64_t nowMs) {
    auto s = std::make_shared<Session>();
    s->sessionId = NodeId(1, Guid::random());
    s->authenticationToken = NodeId(0, randomBytes(32));
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
