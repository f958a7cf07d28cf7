// What a HistoryRead of the client asks for and what it completes with (OPC 10000-4 5.11.3,
// OPC 10000-11 6.5): the options of a read, the values of each node once every ContinuationPoint
// has been followed (HistoryContinuation.h), and Read Processed's request in a form without traps.
// Units: DateTime is 100-ns ticks since 1601 (ua/types/DateTime.h); a processing interval is
// milliseconds (a Duration, as on the wire).
#pragma once

#include "ua/encoding/generated/Types.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ua {

struct HistoryReadOptions {
    // Per node: 0 follows every ContinuationPoint until the server has sent all values. N > 0 stops
    // a node once N values are in: values beyond N are dropped, its ContinuationPoint is released
    // (HistoryRead with releaseContinuationPoints = true), and its status is Good_MoreData.
    // The server's work per request is bounded by the details' numValuesPerNode (Read Raw), not by this.
    uint64_t maxValues = 0;
    // Sent as the request's TimestampsToReturn; Neither is refused by servers (Bad_TimestampsToReturnInvalid).
    TimestampsToReturn timestampsToReturn = TimestampsToReturn::Both;
};

// The history of one node of the request, in the order of the request's nodes.
struct HistoryNodeValues {
    // The node's outcome:
    //   Good, Good_NoData, ... the status of the server's last result for the node (every value in);
    //   Good_MoreData         stopped at HistoryReadOptions::maxValues, more values left on the server;
    //   Bad_...               the server's operation status (Bad_NodeIdUnknown, Bad_HistoryOperationUnsupported,
    //                         Bad_AggregateNotSupported, Bad_ContinuationPointInvalid, ...), or the failure of a
    //                         continuation request (its service status, Bad_Timeout, Bad_UnknownResponse
    //                         when the server answered with another number of results or a body that is not
    //                         HistoryData); the values that came before a failure stay.
    StatusCode status;
    std::vector<DataValue> values;                // in the order the server returned them
    std::vector<ModificationInfo> modifications;  // Read Modified only: one per value
    uint32_t requests = 0;                        // HistoryRead requests that carried the node (1 + continuations)
};

struct HistoryValues {
    std::vector<HistoryNodeValues> nodes;  // one per node of the request; empty when the first request failed
};

// Read Processed (OPC 10000-11 6.5.4) without the generated struct's zero AggregateConfiguration
// (PercentDataGood 0 and PercentDataBad 0 is an invalid combination, Bad_AggregateInvalidInputs).
struct HistoryProcessedRead {
    DateTime startTime;
    DateTime endTime;                // before startTime: the intervals run backwards in time
    double processingIntervalMs = 0; // 0: one interval from startTime to endTime
    // The AggregateFunction of each node (i=2342 Average, ...; AggregateNames.h), in the order of the
    // nodes. A single one is used for every node; any other count is sent as given (the server
    // answers Bad_AggregateListMismatch).
    std::vector<NodeId> aggregateTypes;
    // nullopt: useServerCapabilitiesDefaults = true (the node's or the server's AggregateConfiguration).
    std::optional<AggregateConfiguration> aggregateConfiguration;

    ReadProcessedDetails details(std::size_t nodeCount) const;
};

// The HistoryReadRequest of nodes (no IndexRange, default encoding, no ContinuationPoint).
HistoryReadRequest makeHistoryReadRequest(const std::vector<NodeId>& nodes, ExtensionObject details,
                                          TimestampsToReturn timestampsToReturn);

} // namespace ua
