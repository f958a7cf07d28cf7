// All Sessions of a Server. Creation, activation, closing and expiry take a lock; the request path
// does not: each connection keeps the Sessions it has used and checks their atomic state.
#pragma once

#include "ua/server/Session.h"

#include <QMutex>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ua {

// Why a Session left the SessionManager (OPC 10000-5 12.9 sessionTimeoutCount / sessionAbortCount).
enum class SessionEnd {
    Closed,          // CloseSession
    TimedOut,        // no request within its timeout
    Aborted,         // its channel closed before it was activated
    ClosedByServer,  // Server::closeSession (an administrator)
};

class SessionManager {
public:
    explicit SessionManager(int maxSessions) : m_maxSessions(maxSessions) {}

    // A new Session bound to channelId, or nullptr when maxSessions are open (Bad_TooManySessions).
    SessionPtr create(uint32_t channelId, double timeoutMs, int64_t nowMs);
    SessionPtr find(const NodeId& authenticationToken) const;
    void remove(const SessionPtr& s, SessionEnd why = SessionEnd::Closed);
    // Removes the Sessions of a closed channel that were never activated (OPC 10000-4 5.6.2).
    void channelClosed(uint32_t channelId);
    // Removes expired Sessions; returns how many.
    int expire(int64_t nowMs);
    int count() const;
    std::vector<SessionPtr> snapshot() const;
    // The open Session with this sessionId (not the authenticationToken), or nullptr. Linear.
    SessionPtr findBySessionId(const NodeId& sessionId) const;
    // Calls f for every open Session under the lock (f must not call back into the manager).
    void forEach(const std::function<void(const SessionPtr&)>& f) const;
    // Called under the lock for every Session removed (ServerDiagnostics folds its counters in), so
    // that forEach sees each Session either open or removed, never both or neither. Set before
    // start.
    std::function<void(const Session&, SessionEnd)> onRemoved;

private:
    mutable QMutex m_mutex;
    std::unordered_map<NodeId, SessionPtr> m_byToken;
    int m_maxSessions;
};

} // namespace ua
