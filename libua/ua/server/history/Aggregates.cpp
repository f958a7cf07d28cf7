#include "ua/server/history/Aggregates.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/history/AggregateFunctions.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ua::history {

namespace {

struct AggregateNodeEntry {
    Aggregate aggregate;
    uint32_t id;
};

constexpr AggregateNodeEntry kAggregateIds[] = {
    {Aggregate::Interpolative, id::AggregateFunction_Interpolative},
    {Aggregate::Average, id::AggregateFunction_Average},
    {Aggregate::TimeAverage, id::AggregateFunction_TimeAverage},
    {Aggregate::Total, id::AggregateFunction_Total},
    {Aggregate::Minimum, id::AggregateFunction_Minimum},
    {Aggregate::Maximum, id::AggregateFunction_Maximum},
    {Aggregate::MinimumActualTime, id::AggregateFunction_MinimumActualTime},
    {Aggregate::MaximumActualTime, id::AggregateFunction_MaximumActualTime},
    {Aggregate::Range, id::AggregateFunction_Range},
    {Aggregate::Count, id::AggregateFunction_Count},
    {Aggregate::Start, id::AggregateFunction_Start},
    {Aggregate::End, id::AggregateFunction_End},
    {Aggregate::Delta, id::AggregateFunction_Delta},
    {Aggregate::StartBound, id::AggregateFunction_StartBound},
    {Aggregate::DurationGood, id::AggregateFunction_DurationGood},
    {Aggregate::DurationBad, id::AggregateFunction_DurationBad},
    {Aggregate::PercentGood, id::AggregateFunction_PercentGood},
    {Aggregate::PercentBad, id::AggregateFunction_PercentBad},
};

// The request's range in ticks, clamped to DateTime's range so that its length fits an int64.
struct AggregateRequestRange {
    int64_t start = 0;
    int64_t end = 0;
    int64_t span() const { return start < end ? end - start : start - end; }
};

AggregateRequestRange aggregateRange(DateTime start, DateTime end) {
    const auto clampTicks = [](int64_t t) { return std::max<int64_t>(t, 0); };
    return {clampTicks(start.ticks), clampTicks(end.ticks)};
}

// The length of one interval in ticks (the whole range for one interval); 0: invalid.
int64_t aggregateStep(const AggregateRequestRange& range, double processingIntervalMs) {
    if (range.start == range.end || !std::isfinite(processingIntervalMs) || !(processingIntervalMs >= 0))
        return 0;
    if (processingIntervalMs == 0) return range.span();
    const double ticks = processingIntervalMs * double(DateTime::kTicksPerMs);
    if (ticks >= double(range.span())) return range.span();
    return std::llround(ticks);  // < span, so it fits; 0 when below half a tick
}

DataValue aggregateOne(Aggregate aggregate, const Series& series, const IntervalSpan& interval,
                       std::span<const DataValue> raw) {
    switch (aggregate) {
    case Aggregate::Interpolative: return interpolativeValue(series, interval);
    case Aggregate::Average: return averageValue(series, interval);
    case Aggregate::TimeAverage: return timeWeightedValue(series, interval, false);
    case Aggregate::Total: return timeWeightedValue(series, interval, true);
    case Aggregate::Minimum: return extremeValue(series, interval, Extreme::Minimum, raw);
    case Aggregate::Maximum: return extremeValue(series, interval, Extreme::Maximum, raw);
    case Aggregate::MinimumActualTime: return extremeValue(series, interval, Extreme::MinimumActualTime, raw);
    case Aggregate::MaximumActualTime: return extremeValue(series, interval, Extreme::MaximumActualTime, raw);
    case Aggregate::Range: return extremeValue(series, interval, Extreme::Range, raw);
    case Aggregate::Count: return countValue(series, interval);
    case Aggregate::Start: return boundaryRawValue(series, interval, false, raw);
    case Aggregate::End: return boundaryRawValue(series, interval, true, raw);
    case Aggregate::Delta: return deltaValue(series, interval);
    case Aggregate::StartBound: return startBoundValue(series, interval);
    case Aggregate::DurationGood: return durationValue(series, interval, true, false);
    case Aggregate::DurationBad: return durationValue(series, interval, false, false);
    case Aggregate::PercentGood: return durationValue(series, interval, true, true);
    case Aggregate::PercentBad: return durationValue(series, interval, false, true);
    }
    return noDataValue(interval.start());
}

} // namespace

std::optional<Aggregate> aggregateFromNodeId(const NodeId& nodeId) {
    if (nodeId.namespaceIndex() != 0 || nodeId.idType() != NodeId::IdType::Numeric) return std::nullopt;
    for (const AggregateNodeEntry& a : kAggregateIds)
        if (a.id == nodeId.numeric()) return a.aggregate;
    return std::nullopt;
}

NodeId aggregateNodeId(Aggregate aggregate) {
    for (const AggregateNodeEntry& a : kAggregateIds)
        if (a.aggregate == aggregate) return NodeId(a.id);
    return NodeId();
}

uint64_t intervalCount(DateTime start, DateTime end, double processingIntervalMs) {
    const AggregateRequestRange range = aggregateRange(start, end);
    const int64_t step = aggregateStep(range, processingIntervalMs);
    if (step <= 0) return 0;
    return uint64_t(range.span() / step) + (range.span() % step != 0 ? 1u : 0u);
}

ProcessedValues processAggregate(Aggregate aggregate, std::span<const DataValue> raw, DateTime start,
                                 DateTime end, double processingIntervalMs, const AggregateSettings& settings,
                                 IntervalWindow window) {
    ProcessedValues out;
    const AggregateRequestRange range = aggregateRange(start, end);
    const int64_t step = aggregateStep(range, processingIntervalMs);
    const uint64_t count = intervalCount(start, end, processingIntervalMs);
    if (count == 0 || window.first >= count || window.max == 0) {
        out.status = status::BadInvalidArgument;
        return out;
    }
    const uint64_t n = std::min<uint64_t>(count - window.first, window.max);
    const Series series(raw, settings);
    const bool backward = range.start > range.end;
    out.values.reserve(std::size_t(n));
    for (uint64_t i = window.first; i < window.first + n; ++i) {
        const int64_t offset = int64_t(i) * step;  // <= span: no overflow
        IntervalSpan interval;
        interval.backward = backward;
        if (backward) {
            interval.hi = range.start - offset;
            interval.lo = std::max(range.end, interval.hi - step);
        } else {
            interval.lo = range.start + offset;
            interval.hi = interval.lo + std::min(step, range.end - interval.lo);
        }
        out.values.push_back(aggregateOne(aggregate, series, interval, raw));
    }
    out.nextInterval = window.first + n < count ? window.first + n : 0;
    return out;
}

} // namespace ua::history
