// The aggregates of OPC 10000-13 (ReadProcessed, OPC 10000-11 6.5.4) as pure functions of the raw
// values: no storage, no clock. Units: DateTime is 100-ns ticks since 1601; a ProcessingInterval is
// milliseconds (a Duration, as on the wire); Duration results (DurationGood/Bad) are milliseconds.
//
// What the caller must pass as `raw` (for the interval window it asks for, see IntervalWindow):
//   - the raw values of one variable ordered by sourceTimestamp, equal timestamps in stored order;
//   - every raw value with a sourceTimestamp in [min(start, end), max(start, end)] of the window;
//   - on each side, the values outward from that range up to and including the first usable one
//     (Good, or Uncertain while TreatUncertainAsBad is false, and numeric): the interpolated bounds
//     (3.1.8) need it; with UseSlopedExtrapolation, the two nearest usable ones before the range;
//   - the raw Bad_NoData entries a historian keeps where its collection starts or pauses (A.1), as
//     stored: they mark time without data, which is neither Good nor Bad.
// Where nothing exists beyond a side the data ends there: the first value passed is the start of the
// collection and the last value passed its latest point (5.3.3.2, Partial).
#pragma once

#include "ua/server/history/AggregateSettings.h"
#include "ua/server/history/Interpolation.h"
#include "ua/types/NodeId.h"

#include <optional>
#include <span>
#include <vector>

namespace ua::history {

// The supported AggregateFunctions of OPC 10000-13 5.4.3 (clause in brackets).
enum class Aggregate {
    Interpolative,      // 5.4.3.4: interpolated bounding value at each interval's start
    Average,            // 5.4.3.5: mean of the usable raw values
    TimeAverage,        // 5.4.3.6: time-weighted mean, interpolated bounds
    Total,              // 5.4.3.8: TimeAverage x interval length in seconds
    Minimum,            // 5.4.3.10: smallest Good raw value, timestamp interval start
    Maximum,            // 5.4.3.11
    MinimumActualTime,  // 5.4.3.12: smallest Good raw value with its own timestamp
    MaximumActualTime,  // 5.4.3.13
    Range,              // 5.4.3.14: Maximum - Minimum
    Count,              // 5.4.3.21: number of usable raw values (Int32)
    Start,              // 5.4.3.25: first raw value, as stored
    End,                // 5.4.3.26: last raw value, as stored
    Delta,              // 5.4.3.27: latest minus earliest usable raw value
    StartBound,         // 5.4.3.28: simple bounding value at each interval's start
    DurationGood,       // 5.4.3.31: milliseconds of usable data (Double)
    DurationBad,        // 5.4.3.32: milliseconds of Bad data (Double)
    PercentGood,        // 5.4.3.33: DurationGood / interval length x 100
    PercentBad,         // 5.4.3.34
};

// The ns=0 AggregateFunction objects (i=2341 Interpolative, i=2342 Average, ...), both ways;
// std::nullopt for any other NodeId (the service answers Bad_AggregateNotSupported).
std::optional<Aggregate> aggregateFromNodeId(const NodeId& id);
NodeId aggregateNodeId(Aggregate aggregate);

// Which intervals of the request to compute: `first` is the index of the first interval (0 for a
// new request; a continuation passes ProcessedValues::nextInterval), at most `max` of them.
struct IntervalWindow {
    uint64_t first = 0;
    uint32_t max = 10000;
};

struct ProcessedValues {
    // Good, or the operation-level error: Bad_InvalidArgument when start == end, when the
    // processing interval is negative, NaN or infinite, or not 0 but rounds to 0 ticks (below
    // 0.00005 ms), or when `window.first` is past the last interval or `window.max` is 0.
    StatusCode status;
    std::vector<DataValue> values;  // one per interval of the window, in processing order
    uint64_t nextInterval = 0;      // 0: the last interval is in `values`; else the next to ask for
};

// The intervals of a request (5.4.2.2): from `start` towards `end` (start > end: time runs
// backwards; each interval's timestamp is its start, the later of its two times) in steps of
// processingIntervalMs; the last one may be shorter. processingIntervalMs == 0, or one at least as
// long as the whole range, gives one interval. Returns 0 for the invalid requests listed above.
uint64_t intervalCount(DateTime start, DateTime end, double processingIntervalMs);

// One DataValue per interval of the window (5.4): the value (Double, except Count: Int32, and the
// raw values that Minimum/Maximum(ActualTime), Start and End return as stored), the StatusCode with
// the historian bits of 5.3.3 (historian::bitsOf), the sourceTimestamp the aggregate prescribes; no
// serverTimestamp. An interval without a result is Bad_NoData without a value.
// A forward interval includes its start and excludes its end; a backward one the other way round.
// Readings where the clause leaves a choice: Partial (5.3.3.2) is set when the interval reaches
// before the first or after the last value of the collection (not for a last interval that is only
// shorter; TimeAverage/Total extrapolate past the end and so set it only at the start); Start and
// End follow the processing direction; Delta is the later minus the earlier value in time; Total
// is TimeAverage x the interval's own length; a result whose data is Bad by PercentDataBad is
// Bad_NoData without a value.
ProcessedValues processAggregate(Aggregate aggregate, std::span<const DataValue> raw, DateTime start,
                                 DateTime end, double processingIntervalMs, const AggregateSettings& settings,
                                 IntervalWindow window = {});

} // namespace ua::history
