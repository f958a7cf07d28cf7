#include "ua/server/history/AggregateFunctions.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/history/Interpolation.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace ua::history {

namespace {

using historian::kCalculated;
using historian::kInterpolated;
using historian::kMultiValue;
using historian::kPartial;

DataValue functionResult(Variant v, StatusCode s, uint32_t bits, int64_t timestamp) {
    DataValue dv(std::move(v));
    dv.setStatus(historian::withBits(s, bits));
    dv.setSourceTimestamp(DateTime{timestamp});
    return dv;
}

uint32_t functionPartialBit(const Series& series, const IntervalSpan& interval) {
    return partlyCovered(series, interval) ? kPartial : 0u;
}

// 5.4.3.2.1: the status of a result from the shares of usable and Bad data (counts or durations).
// Uncertain data counts as usable unless TreatUncertainAsBad, and makes the result Uncertain anyway.
// std::nullopt: the result is Bad.
std::optional<StatusCode> functionShareStatus(const AggregateSettings& settings, double usable, double bad,
                                              bool uncertainUsed) {
    const double total = usable + bad;
    if (total <= 0) return StatusCode(status::Good);
    if (bad > 0 && 100.0 * bad / total >= settings.percentDataBad) return std::nullopt;
    if (100.0 * usable / total >= settings.percentDataGood && !uncertainUsed) return StatusCode(status::Good);
    return StatusCode(status::UncertainDataSubNormal);
}

} // namespace

SampleRange samplesIn(const Series& series, const IntervalSpan& interval) {
    if (interval.backward) return {series.upperBound(interval.lo), series.upperBound(interval.hi)};
    return {series.lowerBound(interval.lo), series.lowerBound(interval.hi)};
}

bool beforeData(const Series& series, const IntervalSpan& interval) {
    if (!series.hasData()) return true;
    return interval.backward ? interval.hi < series.dataStart() : interval.hi <= series.dataStart();
}

bool afterData(const Series& series, const IntervalSpan& interval) {
    if (!series.hasData()) return true;
    return interval.backward ? interval.lo >= series.dataEnd() : interval.lo > series.dataEnd();
}

bool partlyCovered(const Series& series, const IntervalSpan& interval) {
    return series.hasData() && (interval.lo < series.dataStart() || interval.hi > series.dataEnd());
}

DataValue noDataValue(int64_t timestamp, uint32_t bits) {
    DataValue dv;
    dv.setStatus(historian::withBits(status::BadNoData, bits));
    dv.setSourceTimestamp(DateTime{timestamp});
    return dv;
}

DataValue interpolativeValue(const Series& series, const IntervalSpan& interval) {
    const Bound b = interpolatedBound(series, interval.start());
    if (!b.ok) return noDataValue(interval.start());
    return functionResult(Variant(b.v), b.status, b.raw ? 0u : kInterpolated, interval.start());
}

DataValue startBoundValue(const Series& series, const IntervalSpan& interval) {
    if (beforeData(series, interval) || afterData(series, interval)) return noDataValue(interval.start());
    const uint32_t partial = functionPartialBit(series, interval);
    const Bound b = simpleBound(series, interval.start());
    if (!b.ok) return noDataValue(interval.start(), partial);
    return functionResult(Variant(b.v), b.status, partial | (b.raw ? 0u : kInterpolated), interval.start());
}

DataValue averageValue(const Series& series, const IntervalSpan& interval) {
    if (beforeData(series, interval) || afterData(series, interval)) return noDataValue(interval.start());
    const SampleRange r = samplesIn(series, interval);
    double sum = 0;
    std::size_t used = 0, bad = 0;
    bool uncertain = false;
    for (std::size_t i = r.begin; i < r.end; ++i) {
        const Sample& s = series.samples()[i];
        if (series.usable(s)) {
            sum += s.v;
            ++used;
            uncertain = uncertain || s.q == Quality::Uncertain;
        } else if (series.bad(s)) {
            ++bad;
        }
    }
    const auto st = functionShareStatus(series.settings(), double(used), double(bad), uncertain);
    if (used == 0 || !st) return noDataValue(interval.start());
    return functionResult(Variant(sum / double(used)), *st, kCalculated | functionPartialBit(series, interval),
                          interval.start());
}

DataValue countValue(const Series& series, const IntervalSpan& interval) {
    if (beforeData(series, interval) || afterData(series, interval)) return noDataValue(interval.start());
    const SampleRange r = samplesIn(series, interval);
    int32_t used = 0, bad = 0;
    bool uncertain = false;
    for (std::size_t i = r.begin; i < r.end; ++i) {
        const Sample& s = series.samples()[i];
        if (series.usable(s)) {
            ++used;
            uncertain = uncertain || s.q == Quality::Uncertain;
        } else if (series.bad(s)) {
            ++bad;
        }
    }
    const auto st = functionShareStatus(series.settings(), double(used), double(bad), uncertain);
    if (!st) return noDataValue(interval.start());
    return functionResult(Variant(used), *st, kCalculated | functionPartialBit(series, interval), interval.start());
}

DataValue timeWeightedValue(const Series& series, const IntervalSpan& interval, bool total) {
    struct Point {
        int64_t t;
        double v;
        bool ok;
        bool uncertain;
    };
    std::vector<Point> points;
    const Bound first = interpolatedBound(series, interval.lo);
    points.push_back({interval.lo, first.v, first.ok, first.status.isUncertain()});
    const std::size_t innerEnd = series.lowerBound(interval.hi);
    for (std::size_t i = series.upperBound(interval.lo); i < innerEnd; ++i) {
        const Sample& s = series.samples()[i];
        if (series.usable(s)) points.push_back({s.t, s.v, true, s.q == Quality::Uncertain});
    }
    const Bound last = interpolatedBound(series, interval.hi);
    points.push_back({interval.hi, last.v, last.ok, last.status.isUncertain()});

    const bool stepped = series.settings().stepped;
    double area = 0, good = 0, uncertain = 0, bad = 0;
    std::size_t cursor = series.upperBound(interval.lo);  // for the values skipped between two points
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
        const Point& a = points[k];
        const Point& b = points[k + 1];
        const double dt = double(b.t - a.t);
        bool skipped = false;
        for (; cursor < innerEnd && series.samples()[cursor].t < b.t; ++cursor)
            skipped = skipped || (series.samples()[cursor].t > a.t && !series.usable(series.samples()[cursor]));
        if (dt <= 0) continue;
        if (!a.ok || !b.ok) {
            bad += dt;
            continue;
        }
        area += stepped ? a.v * dt : (a.v + b.v) / 2 * dt;
        if (a.uncertain || (b.uncertain && !stepped) || skipped) uncertain += dt;
        else good += dt;
    }
    const double used = good + uncertain;
    const bool asBad = series.settings().treatUncertainAsBad;
    const auto st = functionShareStatus(series.settings(), asBad ? good : used, asBad ? bad + uncertain : bad,
                                        uncertain > 0);
    if (used <= 0 || !st) return noDataValue(interval.start());
    const double average = area / used;
    const double seconds = double(interval.hi - interval.lo) / double(DateTime::kTicksPerMs * 1000);
    const uint32_t partial = series.hasData() && interval.lo < series.dataStart() ? kPartial : 0u;
    return functionResult(Variant(total ? average * seconds : average), *st, kCalculated | partial, interval.start());
}

DataValue extremeValue(const Series& series, const IntervalSpan& interval, Extreme kind,
                       std::span<const DataValue> raw) {
    if (beforeData(series, interval) || afterData(series, interval)) return noDataValue(interval.start());
    const SampleRange r = samplesIn(series, interval);
    const Sample* lowest = nullptr;
    const Sample* highest = nullptr;
    int lowCount = 0, highCount = 0;
    bool anyBad = false;
    for (std::size_t i = r.begin; i < r.end; ++i) {  // time order: the first of equals is the oldest
        const Sample& s = series.samples()[i];
        anyBad = anyBad || series.bad(s);
        if (s.q != Quality::Good || !s.numeric) continue;
        if (!lowest || s.v < lowest->v) { lowest = &s; lowCount = 0; }
        if (!highest || s.v > highest->v) { highest = &s; highCount = 0; }
        lowCount += s.v == lowest->v;
        highCount += s.v == highest->v;
    }
    if (!lowest) return noDataValue(interval.start());
    const bool wantLow = kind == Extreme::Minimum || kind == Extreme::MinimumActualTime;
    bool beyond = false;  // an Uncertain value (used, not treated as Bad) beyond the Good extreme
    for (std::size_t i = r.begin; i < r.end; ++i) {
        const Sample& s = series.samples()[i];
        if (s.q != Quality::Uncertain || !series.usable(s)) continue;
        const bool below = s.v < lowest->v, above = s.v > highest->v;
        beyond = beyond || (kind == Extreme::Range ? below || above : wantLow ? below : above);
    }
    const StatusCode st = anyBad || beyond ? status::UncertainDataSubNormal : status::Good;
    const uint32_t partial = functionPartialBit(series, interval);
    const uint32_t uncertainCalc = st == status::Good ? 0u : kCalculated;
    if (kind == Extreme::Range)
        return functionResult(Variant(highest->v - lowest->v), st, kCalculated | partial, interval.start());
    const Sample& chosen = wantLow ? *lowest : *highest;
    const uint32_t multi = (wantLow ? lowCount : highCount) > 1 ? kMultiValue : 0u;
    if (kind == Extreme::MinimumActualTime || kind == Extreme::MaximumActualTime)
        return functionResult(raw[chosen.index].value, st, uncertainCalc | multi | partial, chosen.t);
    const uint32_t calc = chosen.t != interval.start() ? kCalculated : uncertainCalc;
    return functionResult(raw[chosen.index].value, st, calc | multi | partial, interval.start());
}

DataValue boundaryRawValue(const Series& series, const IntervalSpan& interval, bool last,
                           std::span<const DataValue> raw) {
    const SampleRange r = samplesIn(series, interval);
    const bool fromLatest = last != interval.backward;  // processing order, not time order
    for (std::size_t k = 0; k < r.end - r.begin; ++k) {
        const Sample& s = series.samples()[fromLatest ? r.end - 1 - k : r.begin + k];
        if (s.q != Quality::NoData) return raw[s.index];
    }
    return noDataValue(interval.start());
}

DataValue deltaValue(const Series& series, const IntervalSpan& interval) {
    if (beforeData(series, interval) || afterData(series, interval)) return noDataValue(interval.start());
    const SampleRange r = samplesIn(series, interval);
    const Sample* earliest = nullptr;
    const Sample* latest = nullptr;
    bool anyBad = false;
    for (std::size_t i = r.begin; i < r.end; ++i) {
        const Sample& s = series.samples()[i];
        anyBad = anyBad || series.bad(s);
        if (s.q != Quality::Good || !s.numeric) continue;
        if (!earliest) earliest = &s;
        latest = &s;
    }
    if (!earliest) return noDataValue(interval.start());
    const StatusCode st = anyBad ? status::UncertainDataSubNormal : status::Good;
    return functionResult(Variant(latest->v - earliest->v), st, kCalculated | functionPartialBit(series, interval),
                          interval.start());
}

DataValue durationValue(const Series& series, const IntervalSpan& interval, bool good, bool percent) {
    if (beforeData(series, interval) || afterData(series, interval)) return noDataValue(interval.start());
    // Each raw value holds its quality until the next one (simple bounds, stepped); time outside
    // the collection and after a NoData gap marker counts as neither Good nor Bad.
    const auto& xs = series.samples();
    const int64_t hi = std::min(interval.hi, series.dataEnd());
    int64_t x = std::max(interval.lo, series.dataStart());
    double ticks = 0;
    std::size_t next = series.upperBound(x);
    while (x < hi && next > 0) {
        const Sample& governing = xs[next - 1];
        const int64_t y = next < xs.size() ? std::min(xs[next].t, hi) : hi;
        if (good ? series.usable(governing) : series.bad(governing)) ticks += double(y - x);
        x = y;
        next = series.upperBound(x);
    }
    const double value = percent ? 100.0 * ticks / double(interval.hi - interval.lo)
                                 : ticks / double(DateTime::kTicksPerMs);
    return functionResult(Variant(value), status::Good, kCalculated | functionPartialBit(series, interval), interval.start());
}

} // namespace ua::history
