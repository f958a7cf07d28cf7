// What the server's diagnostics look like at one moment (OPC 10000-5 6.3.3 to 6.3.5, DataTypes of
// clause 12): the ServerDiagnosticsSummary, one entry per Session, per Subscription and per
// SamplingInterval, and the request totals per service. Collected by ServerDiagnostics (see
// ServerDiagnostics.h) from the counters the request path keeps and from each Session's home
// thread; immutable once published, shared between readers (the address space's arrays, the
// server app's models) without a lock.
#pragma once

#include "ua/encoding/generated/Types.h"

#include <QString>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace ua {

// Every service that SessionDiagnosticsDataType counts (OPC 10000-5 12.11), plus the services
// served without a Session (counted server-wide only). The order is the order of the fields of
// SessionDiagnosticsDataType, then the Session-less ones.
enum class ServiceKind : uint8_t {
    Read, HistoryRead, Write, HistoryUpdate, Call,
    CreateMonitoredItems, ModifyMonitoredItems, SetMonitoringMode, SetTriggering, DeleteMonitoredItems,
    CreateSubscription, ModifySubscription, SetPublishingMode, Publish, Republish, TransferSubscriptions,
    DeleteSubscriptions,
    AddNodes, AddReferences, DeleteNodes, DeleteReferences,
    Browse, BrowseNext, TranslateBrowsePathsToNodeIds, QueryFirst, QueryNext, RegisterNodes, UnregisterNodes,
    // Not in SessionDiagnosticsDataType:
    FindServers, GetEndpoints, CreateSession, ActivateSession, CloseSession, Cancel,
    Count
};
constexpr std::size_t kServiceKindCount = std::size_t(ServiceKind::Count);
// The service's name as in OPC 10000-4 ("Read", "CreateMonitoredItems", ...).
const char* serviceName(ServiceKind kind);

// One Session (OPC 10000-5 12.11 and 12.13), plus what the server app shows beside them.
struct SessionSnapshot {
    SessionDiagnosticsDataType diagnostics;       // every field filled; counters as of takenMs
    SessionSecurityDiagnosticsDataType security;  // clientCertificate left empty in snapshots
                                                  // served to clients without SecurityAdmin
    QString peerAddress;                          // "host:port" of the SecureChannel's TCP peer
    uint32_t channelId = 0;
    bool activated = false;
};

struct DiagnosticsSnapshot {
    int64_t takenMs = 0;                          // Server::monotonicMs() when collected
    DateTime takenAt;                             // wall clock, same moment
    bool enabled = true;                          // ServerDiagnostics.EnabledFlag
    ServerDiagnosticsSummaryDataType summary;     // 12.9
    std::vector<SessionSnapshot> sessions;        // the open Sessions (activated or not)
    std::vector<SubscriptionDiagnosticsDataType> subscriptions;          // 12.15, every Subscription
    std::vector<SamplingIntervalDiagnosticsDataType> samplingIntervals;  // 12.8, one per rate in use
    // Requests received per service since start, server-wide (all Sessions, open or closed, and the
    // Session-less services); index with std::size_t(ServiceKind).
    std::array<ServiceCounterDataType, kServiceKindCount> services{};
    int channels = 0;                             // open SecureChannels
    uint64_t monitoredItems = 0;                  // server-wide MonitoredItem count
};

using DiagnosticsSnapshotPtr = std::shared_ptr<const DiagnosticsSnapshot>;

} // namespace ua
