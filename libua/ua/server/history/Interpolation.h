// Bounding values (OPC 10000-13 3.1.7-3.1.9) and ReadAtTime (OPC 10000-11 6.5.5.2).
// Times are 100-ns ticks (ua::DateTime).
#pragma once

#include "ua/server/history/AggregateSettings.h"

#include <span>
#include <vector>

namespace ua::history {

// The value of a series at one time.
struct Bound {
    bool ok = false;             // false: no value (status is then Bad_NoData)
    double v = 0;
    StatusCode status;           // Good, the raw code of a raw value, Uncertain_DataSubNormal or Bad_NoData
    bool raw = false;            // a raw value sits exactly at the time (no Interpolated bit)
    bool extrapolated = false;   // the time is past the last value that could be used
};

// Interpolated bounding value (3.1.8): from the nearest usable values before and after `t`, sloped
// or stepped per settings().stepped; Uncertain_DataSubNormal when values that cannot be used lie
// between them, when one of them is Uncertain, or when `t` is past the last usable value
// (extrapolated, sloped only with useSlopedExtrapolation and two usable values before `t`);
// Bad_NoData when no usable value precedes `t`.
Bound interpolatedBound(const Series& series, int64_t t);

// Simple bounding value (3.1.9): from the nearest raw values before and after `t` whatever their
// quality. Bad_NoData when a raw value at `t` is Bad, when the value before is Bad or missing, and
// when no value follows `t` (past the end of the data no value is extrapolated: 3.1.9 lets the
// Server choose, and Annex A's StartBound returns Bad_NoData there). Uncertain_DataSubNormal when
// the value before is Uncertain, or, sloped, when the value after is Bad or Uncertain (a Bad value
// after holds the value before).
Bound simpleBound(const Series& series, int64_t t);

// ReadAtTime (OPC 10000-11 6.5.5.2): one DataValue per requested time, in the order of `times`. A raw
// value at that exact time is returned as stored (Raw: no info bits; the first of several). Otherwise
// the simple (useSimpleBounds) or interpolated bounding value, with the Interpolated bit, its
// sourceTimestamp the requested time; Bad_NoData (no value, no bits) where there is none. `raw` is
// ordered by sourceTimestamp and holds every raw value within [min(times), max(times)] and, on each
// side, the values outward up to and including the first usable one (two with sloped extrapolation).
std::vector<DataValue> interpolateAt(std::span<const DataValue> raw, std::span<const DateTime> times,
                                     bool useSimpleBounds, const AggregateSettings& settings);

} // namespace ua::history
