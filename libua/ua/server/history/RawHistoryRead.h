// Read Raw and Read Modified (OPC 10000-11 6.5.3 ReadRawModifiedDetails) over a HistoryStore:
// the time domain, the order, the Bounding Values (4.6) and where a read paused by
// numValuesPerNode goes on.
//
// The time domain. At least two of startTime, endTime (DateTime.MinValue: not given) and
// numValuesPerNode (0: no limit) must be given, else Bad_InvalidTimestampArgument. The values
// run forward from startTime, or backward (newest first) when endTime < startTime or only endTime
// is given. startTime is included, endTime excluded; with returnBounds both are included, and when
// no value lies exactly on one of them the nearest value outside takes its place (the value before
// startTime going forward), or, when there is none, a value with no Value, the bound's timestamp
// and Bad_BoundNotFound. startTime == endTime reads the value at that instant (with its bounds when
// asked). The bounds count towards numValuesPerNode.
//
// Read Modified returns the values HistoryUpdate inserted, replaced or deleted with their
// ModificationInfo, in the same order rules; returnBounds must be false (else Bad_InvalidArgument)
// and both times must be given.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/history/HistoryStore.h"

namespace ua {

// The most values one read returns per node (published as HistoryServerCapabilities
// MaxReturnDataValues); more follow with a ContinuationPoint even when numValuesPerNode is 0.
inline constexpr std::size_t kMaxReturnDataValues = 10000;

// Where a read stands: phase 0 start bound, 1 the values (position: the SourceTimestamp to go on
// from, in ticks, or for Read Modified the index of the next record), 2 end bound, 3 done.
struct HistoryReadPosition {
    int phase = 0;
    int64_t position = 0;
};

struct HistoryReadOutcome {
    StatusCode status;             // Good, Good_NoData, Good_MoreData (a ContinuationPoint follows), or Bad_...
    std::vector<DataValue> values;
    std::vector<ModificationInfo> modifications;  // Read Modified: one per value
    bool more = false;
    HistoryReadPosition next;      // when more
};

// Checks the details alone: Good, Bad_InvalidTimestampArgument or Bad_InvalidArgument.
StatusCode checkRawModifiedDetails(const ReadRawModifiedDetails& d);

HistoryReadOutcome readRaw(HistoryStore& store, int64_t series, const ReadRawModifiedDetails& d, HistoryReadPosition at);
HistoryReadOutcome readModified(HistoryStore& store, int64_t series, const ReadRawModifiedDetails& d, HistoryReadPosition at);

} // namespace ua
