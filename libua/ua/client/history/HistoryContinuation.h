// HistoryRead with ContinuationPoints (OPC 10000-4 5.11.3; OPC 10000-11 6.3): what follows the first
// answer until every node's values are in, or until HistoryReadOptions::maxValues says stop. It
// makes its HistoryRead calls through the function it is given (ClientCore::call) and knows nothing
// else of the client.
//
// A continuation request repeats the first one's details and TimestampsToReturn (OPC 10000-4 5.11.3.2:
// the server ignores them with a ContinuationPoint, but some check them) for the nodes still open,
// each with its ContinuationPoint; Read Processed's aggregateType list is cut to those nodes, so that
// it still matches nodesToRead. A node stopped early, or left open by a failed continuation, has its
// ContinuationPoint released with releaseContinuationPoints = true (nothing waits for that answer).
#pragma once

#include "ua/client/common/ServiceResult.h"
#include "ua/client/history/HistoryRead.h"
#include "ua/encoding/generated/Types.h"

#include <cstdint>
#include <functional>

namespace ua {

// Makes a HistoryRead call (timeoutMs as for ClientCore::call).
using HistoryReadCall = std::function<void(HistoryReadRequest&& request, uint32_t timeoutMs, ServiceCallback<HistoryReadResponse> done)>;

// The callback for the first HistoryRead, which was (or will be) sent as `first`. A Bad service
// status (or a response whose number of results differs from the request's nodes:
// Bad_UnknownResponse) completes done with that status and no nodes. Otherwise each node's
// HistoryData (or HistoryModifiedData) is collected, its ContinuationPoints followed (or released)
// with further calls of timeoutMs through historyRead, and done gets one HistoryNodeValues per node
// (HistoryRead.h) with status Good.
ServiceCallback<HistoryReadResponse> followHistoryContinuationPoints(const HistoryReadRequest& first, HistoryReadOptions options,
                                                                     uint32_t timeoutMs, HistoryReadCall historyRead,
                                                                     ServiceCallback<HistoryValues> done);

} // namespace ua
