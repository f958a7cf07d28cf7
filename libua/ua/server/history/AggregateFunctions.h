// The calculation of each aggregate for one interval (OPC 10000-13 5.4.3); Aggregates.cpp cuts the
// request into intervals and calls these. Times are 100-ns ticks.
#pragma once

#include "ua/server/history/AggregateSettings.h"

namespace ua::history {

// One ProcessingInterval: the time range [lo, hi] with the end that is excluded (hi when forward, lo
// when backward) and the timestamp of its results (lo when forward, hi when backward).
struct IntervalSpan {
    int64_t lo = 0;
    int64_t hi = 0;
    bool backward = false;
    int64_t start() const { return backward ? hi : lo; }
};

// The samples inside an interval: indices [begin, end) of Series::samples().
struct SampleRange {
    std::size_t begin = 0;
    std::size_t end = 0;
};
SampleRange samplesIn(const Series& series, const IntervalSpan& interval);

// Where the interval lies against the collection (5.3.3.2): no data at all in it (before the start
// or after the end of the data), or only partly covered by the data.
bool beforeData(const Series& series, const IntervalSpan& interval);
bool afterData(const Series& series, const IntervalSpan& interval);
bool partlyCovered(const Series& series, const IntervalSpan& interval);

DataValue noDataValue(int64_t timestamp, uint32_t bits = 0);

DataValue interpolativeValue(const Series& series, const IntervalSpan& interval);
DataValue startBoundValue(const Series& series, const IntervalSpan& interval);
DataValue averageValue(const Series& series, const IntervalSpan& interval);
DataValue countValue(const Series& series, const IntervalSpan& interval);
// TimeAverage, or Total (TimeAverage x interval length in seconds).
DataValue timeWeightedValue(const Series& series, const IntervalSpan& interval, bool total);
enum class Extreme { Minimum, Maximum, MinimumActualTime, MaximumActualTime, Range };
DataValue extremeValue(const Series& series, const IntervalSpan& interval, Extreme kind,
                       std::span<const DataValue> raw);
// Start (first) or End (last) raw value of the interval, as stored.
DataValue boundaryRawValue(const Series& series, const IntervalSpan& interval, bool last,
                           std::span<const DataValue> raw);
DataValue deltaValue(const Series& series, const IntervalSpan& interval);
// DurationGood/DurationBad (ms) or PercentGood/PercentBad.
DataValue durationValue(const Series& series, const IntervalSpan& interval, bool good, bool percent);

} // namespace ua::history
