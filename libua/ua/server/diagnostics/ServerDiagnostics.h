// The server's diagnostics (OPC 10000-5 6.3.3 ServerDiagnosticsType): counters the request path
// bumps at the cost of an increment, and snapshots (DiagnosticsSnapshot.h) collected on demand
// from them and from each Session's home thread. The address space's diagnostic arrays and the
// server app's views read snapshots; nothing here takes a lock on the request path.
//
// Throttling: a snapshot younger than maxAgeMs is served as it is, and requests that arrive while
// a collection runs share it, so a burst of readers (or of Session creations) does not rebuild the
// arrays once each.
#pragma once

#include "ua/server/common/DiagnosticsSnapshot.h"
#include "ua/server/common/ServiceCounters.h"

#include <QString>

#include <atomic>
#include <functional>

class QObject;

namespace ua {

class SessionManager;
class SubscriptionRegistry;
class SubscriptionScheduler;
struct Session;
enum class SessionEnd;

class ServerDiagnostics {
public:
    // Reads the server's Sessions, ApplicationUri (the serverUri of SessionDiagnostics) and count of
    // open SecureChannels, all of which outlive it.
    ServerDiagnostics(SessionManager& sessions, const QString& applicationUri, const std::atomic<int>& channelCount);
    // The Subscription counts (set once by the Server, before any snapshot).
    void setSubscriptionRegistry(SubscriptionRegistry& registry);
    ~ServerDiagnostics();
    ServerDiagnostics(const ServerDiagnostics&) = delete;
    ServerDiagnostics& operator=(const ServerDiagnostics&) = delete;

    // Calls done on receiver's thread (queued) with a snapshot at most maxAgeMs old: the cached
    // one, or a new one collected from every home thread. Not called when receiver is destroyed
    // first. maxAgeMs 0: always a new collection (shared with the requests made while it runs).
    // Any thread.
    void requestSnapshot(QObject* receiver, std::function<void(DiagnosticsSnapshotPtr)> done, int maxAgeMs = 200);
    // The last collected snapshot (null before the first). Any thread.
    DiagnosticsSnapshotPtr latest() const;
    // The ServerDiagnosticsSummary from the counters now: a few relaxed loads (and the
    // SessionManager's and SubscriptionRegistry's locks for the current counts);
    // publishingIntervalCount is the latest snapshot's. Any thread.
    ServerDiagnosticsSummaryDataType summary() const;
    // Requests per service since start, server-wide, now: the Session-less counts, those of removed
    // Sessions and those of the open ones (under the SessionManager's lock). Any thread.
    std::array<ServiceCounterDataType, kServiceKindCount> serviceTotals() const;
    // One Session now (OPC 10000-5 12.11, 12.13): its fields and counters as of this call, its
    // current Subscription / MonitoredItem / Publish counts as of the latest snapshot. Any thread.
    SessionSnapshot describe(const Session& s) const;
    // Every open Session as describe() gives it, rebuilt at most every 100 ms, and at once when a
    // Session was created or removed since (the address space's SessionDiagnosticsArray and
    // SessionSecurityDiagnosticsArray). Any thread.
    std::shared_ptr<const std::vector<SessionSnapshot>> sessionsNow() const;
    // Starts a collection (nothing waits for it) when the latest snapshot is older than maxAgeMs
    // and none runs. Any thread.
    void refresh(int maxAgeMs);
    // Collections started since start (each asks every home thread once). Any thread.
    uint64_t collectionCount() const;
    // Changes whenever a Session is created or removed. Any thread.
    uint32_t sessionSetVersion() const { return m_counters.cumulatedSessions + m_counters.sessionsRemoved; }
    // ServerDiagnostics.EnabledFlag (writable through the address space by SecurityAdmin /
    // ConfigureAdmin). While false the arrays read as empty and the per-Session objects are not
    // maintained; the summary counters keep counting (they cost an increment).
    bool enabled() const;
    void setEnabled(bool on);

    // --- Used by the server (not by readers) ---
    // The counters the request path bumps (ServiceCounters.h). Any thread.
    ServerCounters& counters() { return m_counters; }
    // The home threads whose Subscriptions a snapshot collects (Server::start / stop).
    void addHome(SubscriptionScheduler* home);
    void clearHomes();
    // A Session left the SessionManager (called under its lock): its counters are folded into the
    // server-wide totals, and a timeout or abort counted.
    void sessionRemoved(const Session& s, SessionEnd why);

private:
    ServerCounters m_counters;
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace ua
