// What a HistoryUpdate of the client sends (OPC 10000-4 5.11.5; OPC 10000-11 6.8): the details of
// raw values only, one operation per entry, each on one node.
//   UpdateDataDetails         Insert (a value at a new SourceTimestamp), Replace (an existing one),
//                             Update (either); the values are keyed by their sourceTimestamp
//   DeleteRawModifiedDetails  the values in [startTime, endTime) (isDeleteModified: the recorded
//                             modifications instead of the values)
//   DeleteAtTimeDetails       the values at the given times
// The response has one HistoryUpdateResult per operation: its statusCode (Bad_NodeIdUnknown,
// Bad_HistoryOperationUnsupported, Bad_UserAccessDenied, Bad_NoData, ...) and for UpdateData and
// DeleteAtTime one operationResult per value / time (Good_EntryInserted, Good_EntryReplaced,
// Bad_EntryExists, Bad_NoEntryExists, Bad_InvalidTimestamp, ...).
#pragma once

#include "ua/encoding/generated/Types.h"

#include <variant>
#include <vector>

namespace ua {

using HistoryUpdateOperation = std::variant<UpdateDataDetails, DeleteRawModifiedDetails, DeleteAtTimeDetails>;

// The request with each operation as its ExtensionObject, in order.
HistoryUpdateRequest makeHistoryUpdateRequest(std::vector<HistoryUpdateOperation> operations);

} // namespace ua
