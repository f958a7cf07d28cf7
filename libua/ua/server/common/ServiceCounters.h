// The counters the request path keeps for the server's diagnostics (OPC 10000-5 12.9
// ServerDiagnosticsSummaryDataType, 12.11 SessionDiagnosticsDataType, 12.12 ServiceCounterDataType),
// each at the cost of an increment: no lock, no allocation.
//
// Who writes what:
// - SessionCounters (one per Session): the services served with the Session, except the
//   subscription and MonitoredItem services, are counted by ServiceDispatcher.cpp's serve<> on the
//   I/O thread that serves the Session (one at a time): a relaxed load + store, no locked
//   instruction. The subscription and MonitoredItem services are counted on the Session's home
//   thread in SessionSubscriptions::serviceCounters (subscriptions/SessionSubscriptions.h), where
//   their result (a parked Publish answered later) is known.
// - ServerCounters (one per Server): the summary counters and the services counted without a
//   Session (FindServers, GetEndpoints, CreateSession, ActivateSession, and requests rejected before
//   their Session was found), from any thread: relaxed fetch_add, only on paths that are not per
//   request (session establishment, rejections).
// Readers (ServerDiagnostics, any thread) load them relaxed.
#pragma once

#include "ua/server/common/DiagnosticsSnapshot.h"
#include "ua/types/StatusCode.h"

#include <atomic>
#include <cstdint>

namespace ua {

// A counter with one writer thread at a time (a relaxed load + store, not a locked add); any
// thread may read it.
class RelaxedCounter {
public:
    void operator++() { m_value.store(m_value.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
    uint32_t load() const { return m_value.load(std::memory_order_relaxed); }
    operator uint32_t() const { return load(); }

private:
    std::atomic<uint32_t> m_value{0};
};

// A counter written from any thread (a relaxed fetch_add): for rare events only.
class SharedCounter {
public:
    void operator++() { m_value.fetch_add(1, std::memory_order_relaxed); }
    void add(uint32_t n) { m_value.fetch_add(n, std::memory_order_relaxed); }
    uint32_t load() const { return m_value.load(std::memory_order_relaxed); }
    operator uint32_t() const { return load(); }

private:
    std::atomic<uint32_t> m_value{0};
};

// One ServiceCounterDataType (OPC 10000-5 12.12): requests received, and those answered with a Bad
// serviceResult (a ServiceFault). One writer thread at a time.
struct ServiceCount {
    RelaxedCounter total;
    RelaxedCounter errors;
};

// The subscription and MonitoredItem services (counted on the home thread, SessionSubscriptions).
constexpr bool countedOnHome(ServiceKind k) {
    return k >= ServiceKind::CreateMonitoredItems && k <= ServiceKind::DeleteSubscriptions;
}

// The per-Session counters serve<> keeps (indexed by ServiceKind; the entries of the kinds that
// countedOnHome() stay 0, and so do FindServers, GetEndpoints and CreateSession).
struct SessionCounters {
    std::array<ServiceCount, kServiceKindCount> services;
    // Requests of the Session answered with a security status (isSecurityRejection): 12.11
    // unauthorizedRequestCount.
    RelaxedCounter unauthorized;
    ServiceCount& operator[](ServiceKind k) { return services[std::size_t(k)]; }
    const ServiceCount& operator[](ServiceKind k) const { return services[std::size_t(k)]; }
};

// A status that means "rejected due to security constraints" (OPC 10000-5 12.9
// securityRejectedSessionCount / securityRejectedRequestsCount): the user or application identity
// or the channel's security did not pass (Bad_UserAccessDenied, Bad_IdentityToken*,
// Bad_UserSignatureInvalid, Bad_ApplicationSignatureInvalid, Bad_SecurityChecksFailed,
// Bad_Certificate*, Bad_SecurityPolicyRejected, Bad_SecurityModeRejected, Bad_NonceInvalid,
// Bad_IdentityChangeNotSupported).
bool isSecurityRejection(StatusCode s);

// Server-wide counters (written from any thread, rarely).
struct ServerCounters {
    // 12.9
    SharedCounter cumulatedSessions;        // CreateSession answered Good
    SharedCounter securityRejectedSessions; // CreateSession / ActivateSession rejected, security status
    SharedCounter rejectedSessions;         // CreateSession / ActivateSession rejected (any Bad)
    SharedCounter sessionTimeouts;          // Sessions removed because their timeout ran out
    SharedCounter sessionAborts;            // Sessions removed because of an error (channel lost before activation)
    SharedCounter sessionsRemoved;          // Sessions removed for any reason
    SharedCounter securityRejectedRequests; // requests answered with a ServiceFault, security status
    SharedCounter rejectedRequests;         // requests answered with a ServiceFault (any Bad)
    // Services counted without a Session (total and errors, any thread).
    std::array<SharedCounter, kServiceKindCount> sessionlessTotal;
    std::array<SharedCounter, kServiceKindCount> sessionlessErrors;
    // The counters of Sessions that have been removed (folded in by ServerDiagnostics).
    std::array<SharedCounter, kServiceKindCount> retiredTotal;
    std::array<SharedCounter, kServiceKindCount> retiredErrors;

    // A request answered with a ServiceFault (status bad) at the time it was served.
    void rejected(StatusCode bad) {
        ++rejectedRequests;
        if (isSecurityRejection(bad)) ++securityRejectedRequests;
    }
};

} // namespace ua
