// All Sessions of a Server. Creation, activation, closing and expiry take a lock; the request path
// does not: each connection keeps the Sessions it has used and checks their atomic state.
#pragma once

#include "ua/server/Session.h"

#include <QMutex>
#include <unordered_map>
#include <vector>

namespace ua {

class SessionManager {
public:
    explicit SessionManager(int maxSessions) : m_maxSessions(maxSessions) {}

    // A new Session bound to channelId, or nullptr when maxSessions are open (Bad_TooManySessions).
    SessionPtr create(uint32_t channelId, double timeoutMs, int64_t nowMs);
    SessionPtr find(const NodeId& authenticationToken) const;
    void remove(const SessionPtr& s);
    // Removes the Sessions of a closed channel that were never activated (OPC 10000-4 5.6.2).
    void channelClosed(uint32_t channelId);
    // Removes expired Sessions; returns how many.
    int expire(int64_t nowMs);
    int count() const;
    std::vector<SessionPtr> snapshot() const;

private:
    mutable QMutex m_mutex;
    std::unordered_map<NodeId, SessionPtr> m_byToken;
    int m_maxSessions;
};

} // namespace ua
