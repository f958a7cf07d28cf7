// What the address space shows of Historical Access (OPC 10000-11 5.2, 5.4.2; OPC 10000-5 6.3.2):
// a historized Variable (Historizing true, the HistoryRead and HistoryWrite bits of AccessLevel
// and UserAccessLevel, and its HistoricalDataConfiguration object "HA Configuration" with
// AggregateConfiguration, Stepped, MinTimeInterval, StartOfArchive and ServerTimestampSupported),
// and the Server's HistoryServerCapabilities and history operation limits.
#pragma once

#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/history/HistoryManager.h"

namespace ua {

// Marks the Variable node.node as historized and adds its "HA Configuration" object (NodeId
// "<id>/HA Configuration" in id's namespace); again for a node that has it only updates it.
// Bad_NodeIdUnknown, or Bad_NodeClassInvalid for a node that is not a Variable.
StatusCode markHistorized(AddressSpace& space, const HistorizedNode& node);
// Historizing false (the history and the AccessLevel bits stay: what was stored can still be read).
StatusCode unmarkHistorized(AddressSpace& space, const NodeId& id);

// Marks an Object or View as a HistoricalEventNode (OPC 10000-11 5.4): the HistoryRead bit of its
// EventNotifier (OPC 10000-3 8.59) and its HistoricalEventFilter Property (5.4.2: the
// BaseEventType fields the history keeps). Bad_NodeIdUnknown, or Bad_NodeClassInvalid for another
// NodeClass.
StatusCode markEventHistorized(AddressSpace& space, const NodeId& notifier);

// Fills Server.ServerCapabilities.HistoryServerCapabilities (data access, insert, replace, update,
// delete raw and at time; event access when config has event notifiers), MaxHistoryContinuationPoints and the history operation limits.
void installHistoryCapabilities(AddressSpace& space, const HistoryConfig& config, uint32_t maxNodesPerRead,
                                uint32_t maxNodesPerUpdate);

// The current value of a Variable, for sampling (its ValueSource, else its ValueCell); an empty
// reader when id is not a Variable.
HistoryManager::Reader valueReaderOf(const AddressSpace& space, const NodeId& id);

} // namespace ua
