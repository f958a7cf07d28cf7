// All Sessions of a Server. Creation, activation, closing and expiry take a lock; the request path
// does not: each connection keeps the Sessions it has used and checks their atomic state.
#pragma once

#include "ua/server/common/Session.h"

#include <QMutex>
#include <atomic>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ua {

// Why a Session left the SessionManager (OPC 10000-5 12.9 sessionTimeoutCount / sessionAbortCount).
enum class SessionEnd {
    Closed,          // CloseSession
    TimedOut,        // no request within its timeout
    Aborted,         // never activated: its channel closed, activationTimeoutMs passed, or room was made at maxSessions
    ClosedByServer,  // Server::closeSession (an administrator)
};

class SessionManager {
public:
    // Where the random bytes of a new Session come from: its AuthenticationToken (a secret, OPC
    // 10000-4 5.6.2.2), its sessionId and its first serverNonce. nullptr (the default): the
    // system's CSPRNG. The fuzz harnesses (tests/fuzz) set a deterministic source so that an input,
    // which carries the token in each request, replays the same way; never set it in a product.
    // Not thread-safe: set it before any Session is created.
    using TokenSource = void (*)(uint8_t* out, std::size_t size);
    static TokenSource tokenSource;

    // maxPending: Sessions created and not yet activated at once (0: no bound); activationTimeoutMs:
    // a Session not activated this long after its creation is removed by expire() (0: only its
    // own timeout). AdmissionConfig.h.
    explicit SessionManager(int maxSessions, int maxPending = 0, uint32_t activationTimeoutMs = 0)
        : m_maxSessions(maxSessions), m_maxPending(maxPending), m_activationTimeoutMs(activationTimeoutMs) {}

    // Sets maxPending (before the server starts).
    void setPendingLimit(int maxPending) { m_maxPending = maxPending; }
    // A new Session bound to channelId. At maxSessions the oldest Session not yet activated (by
    // creation time, ms resolution) is removed first (OPC 10000-4 5.7.2.1; counted as aborted). nullptr with *refused =
    // Bad_TooManySessions when every Session is activated, Bad_ServerTooBusy when maxPending are
    // not activated yet.
    SessionPtr create(uint32_t channelId, double timeoutMs, int64_t nowMs, StatusCode* refused = nullptr);
    // True when maxPending Sessions wait for their activation: CreateSession is answered
    // Bad_ServerTooBusy before it signs anything. Lock-free.
    bool establishmentsFull() const { return m_maxPending > 0 && m_pending.load(std::memory_order_relaxed) >= m_maxPending; }
    int pendingCount() const { return m_pending.load(std::memory_order_relaxed); }
    // The first ActivateSession of s succeeded: it is activated and no longer pending. Later calls
    // change nothing.
    void markActivated(const SessionPtr& s);
    SessionPtr find(const NodeId& authenticationToken) const;
    void remove(const SessionPtr& s, SessionEnd why = SessionEnd::Closed);
    // Removes the Sessions of a closed channel that were never activated (OPC 10000-4 5.6.2).
    void channelClosed(uint32_t channelId);
    // Removes expired Sessions, and those not activated within activationTimeoutMs; returns how many.
    // The first kind is appended to *timedOut, the second to *aborted, when given (for their audit
    // events, raised by the caller after the manager's lock is released).
    int expire(int64_t nowMs, std::vector<SessionPtr>* timedOut = nullptr, std::vector<SessionPtr>* aborted = nullptr);
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
    int m_maxPending;
    uint32_t m_activationTimeoutMs;
    std::atomic<int> m_pending{0};  // Sessions not activated (changed under m_mutex)
    // The Sessions not activated yet (as many as m_pending): channelClosed() and making room at
    // maxSessions look at these only, not at every Session.
    std::vector<SessionPtr> m_unactivated;
    // When each Session is to be looked at next: a min-heap by atMs. An entry is the Session's
    // deadline as it was when pushed; one whose Session was active since is pushed again with its
    // new deadline, so expire() costs O(log n) per Session and timeout, not a scan of all of them
    // every second (10,000 Sessions: the scan was 2 % of the server's CPU at 3,000 requests/s).
    struct ExpiryCheck {
        int64_t atMs;
        std::weak_ptr<Session> session;
    };
    std::vector<ExpiryCheck> m_checks;
    int64_t nextCheckMs(const Session& s) const;  // when s can first be expired or aborted
    void scheduleCheck(const SessionPtr& s);
    void forgetUnactivated(const Session* s);
    void erased(Session& s, SessionEnd why);  // under m_mutex, after removal from m_byToken
};

} // namespace ua
