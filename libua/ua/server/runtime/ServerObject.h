// The live Server object of namespace 0 (OPC 10000-5 6.3.1 ServerType): ServerStatus and its
// children (StartTime, CurrentTime, State, BuildInfo, SecondsTillShutdown, ShutdownReason) from
// callbacks, and NamespaceArray, ServerArray, ServiceLevel, Auditing and ServerCapabilities
// (OperationLimits, MaxBrowseContinuationPoints, string/array limits, profiles) as values.
#pragma once

#include "ua/encoding/EncodingLimits.h"
#include "ua/server/common/ServiceContext.h"
#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/subscriptions/SubscriptionConfig.h"

#include <atomic>
#include <memory>

namespace ua {

// What the Server object shows that changes while the server runs. Shared with the callbacks.
struct ServerRuntimeState {
    DateTime startTime = DateTime::now();
    std::atomic<int32_t> state{int32_t(ServerState::Running)};
    std::atomic<uint32_t> secondsTillShutdown{0};
    // ServerStatus.ShutdownReason (null until Server::shutdown() sets it).
    std::atomic<std::shared_ptr<const LocalizedText>> shutdownReason;
    BuildInfo buildInfo;
};

// Sets the values and callbacks on the namespace-0 nodes of the Server object. Call after every
// NodeManager is installed (the NamespaceArray is read from space). Bad_NodeIdUnknown when
// namespace 0 is not loaded.
StatusCode installServerObject(AddressSpace& space, std::shared_ptr<ServerRuntimeState> runtime,
                               const String& applicationUri, const OperationLimits& limits,
                               const EncodingLimits& encodingLimits);

// ServerCapabilities of the Subscription and MonitoredItem service sets (OPC 10000-5 6.3.2):
// MaxSubscriptions, MaxSubscriptionsPerSession, MaxMonitoredItems,
// MaxMonitoredItemsPerSubscription, MaxMonitoredItemsQueueSize (UInt32, 0 = no limit) and
// MinSupportedSampleRate (ms). Nodes the loaded NodeSet lacks are skipped.
StatusCode installSubscriptionCapabilities(AddressSpace& space, const SubscriptionConfig& config);

} // namespace ua
