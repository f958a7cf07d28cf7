// Browse with ContinuationPoints (OPC 10000-4 5.8.2 Browse, 5.8.3 BrowseNext): what follows a
// Browse's first answer until every node's references are in, or until BrowseOptions says stop.
// It makes its BrowseNext calls through the function it is given (ClientCore::call), and knows
// nothing else of the client.
#pragma once

#include "ua/client/common/ServiceResult.h"
#include "ua/encoding/generated/Types.h"

#include <cstdint>
#include <functional>

namespace ua {

struct BrowseOptions {
    // 0: follow every ContinuationPoint with BrowseNext until the server has returned all
    // references. N > 0: stop once a node has N references and release its ContinuationPoint
    // (BrowseNext with releaseContinuationPoints = true, OPC 10000-4 5.8.3).
    uint32_t maxReferencesPerNode = 0;
};

// Makes a BrowseNext call (timeoutMs as for ClientCore::call).
using BrowseNextCall = std::function<void(BrowseNextRequest&& request, uint32_t timeoutMs, ServiceCallback<BrowseNextResponse> done)>;

// The callback for the Browse call: a Bad status completes done at once; otherwise the
// ContinuationPoints of the answer are followed (or released) with BrowseNext calls of timeoutMs
// through browseNext, and done gets the Browse's results with every reference appended (a node
// still open when a BrowseNext fails ends with that failure, its ContinuationPoint released).
ServiceCallback<BrowseResponse> followContinuationPoints(BrowseOptions options, uint32_t timeoutMs, BrowseNextCall browseNext,
                                                         ServiceCallback<BrowseResponse> done);

} // namespace ua
