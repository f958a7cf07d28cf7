// Read Processed (OPC 10000-11 6.5.4 ReadProcessedDetails, the aggregates of OPC 10000-13) and
// Read At Time (6.5.5 ReadAtTimeDetails) over a HistoryStore: what raw values each needs is read
// from the store (the range and, on each side, outward to the first usable value: Aggregates.h),
// and the computation is history/Aggregates.h's and history/Interpolation.h's.
//
// A request of many intervals or times is answered in pieces of at most kMaxPerRead values with a
// ContinuationPoint (position: the index of the next interval or requested time). ReadAtTime
// returns the values in the order of reqTimes; an empty reqTimes is Bad_InvalidArgument (checked
// by the service with the details).
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/history/AggregateSettings.h"
#include "ua/server/history/HistoryManager.h"
#include "ua/server/history/RawHistoryRead.h"

namespace ua {

inline constexpr std::size_t kMaxProcessedPerRead = 10000;

// The AggregateConfiguration of a request over the node's own (OPC 10000-13 4.2.1.2): the node's
// when useServerCapabilitiesDefaults is true.
history::AggregateSettings aggregateSettings(const AggregateConfiguration& asked, const HistoricalSettings& node);

HistoryReadOutcome readProcessed(HistoryStore& store, int64_t series, const ReadProcessedDetails& d, std::size_t aggregateIndex,
                                 const history::AggregateSettings& settings, uint64_t firstInterval);
HistoryReadOutcome readAtTime(HistoryStore& store, int64_t series, const ReadAtTimeDetails& d,
                              const history::AggregateSettings& settings, uint64_t firstIndex);

} // namespace ua
