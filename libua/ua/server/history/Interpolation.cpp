#include "ua/server/history/Interpolation.h"

#include "ua/encoding/generated/StatusCodes.h"

namespace ua::history {

namespace {

double interpolationLine(const Sample& a, const Sample& b, int64_t t) {
    if (b.t == a.t) return a.v;
    return a.v + (b.v - a.v) * double(t - a.t) / double(b.t - a.t);
}

Bound interpolationNoData() {
    Bound b;
    b.status = status::BadNoData;
    return b;
}

Bound interpolationOf(double v, StatusCode s) {
    Bound b;
    b.ok = true;
    b.v = v;
    b.status = s;
    return b;
}

} // namespace

Bound interpolatedBound(const Series& series, int64_t t) {
    const auto& xs = series.samples();
    const std::size_t first = series.lowerBound(t);
    const std::size_t past = series.upperBound(t);
    for (std::size_t i = first; i < past; ++i) {  // a usable raw value at t is the bound
        if (series.usable(xs[i])) {
            Bound b = interpolationOf(xs[i].v, xs[i].status);
            b.raw = true;
            return b;
        }
    }
    std::size_t before = first;
    while (before > 0 && !series.usable(xs[before - 1])) --before;
    if (before == 0) return interpolationNoData();
    const Sample& prev = xs[before - 1];
    std::size_t after = past;
    while (after < xs.size() && !series.usable(xs[after])) ++after;

    if (after == xs.size()) {  // past the last usable value: extrapolated, always Uncertain
        Bound b = interpolationOf(prev.v, status::UncertainDataSubNormal);
        b.extrapolated = true;
        if (series.settings().useSlopedExtrapolation && !series.settings().stepped) {
            std::size_t second = before - 1;
            while (second > 0 && !series.usable(xs[second - 1])) --second;
            if (second > 0) b.v = interpolationLine(xs[second - 1], prev, t);
        }
        return b;
    }
    // Values that cannot be used between the two (or, stepped, between the value before and t).
    const std::size_t skippedEnd = series.settings().stepped ? past : after;
    bool uncertain = prev.q == Quality::Uncertain || (!series.settings().stepped && xs[after].q == Quality::Uncertain);
    for (std::size_t i = before; i < skippedEnd && !uncertain; ++i) uncertain = !series.usable(xs[i]);
    const double v = series.settings().stepped ? prev.v : interpolationLine(prev, xs[after], t);
    return interpolationOf(v, uncertain ? status::UncertainDataSubNormal : StatusCode(status::Good));
}

Bound simpleBound(const Series& series, int64_t t) {
    const auto& xs = series.samples();
    const std::size_t first = series.lowerBound(t);
    const std::size_t past = series.upperBound(t);
    if (first < past) {  // a raw value at t is the bound, whatever its quality
        const Sample& s = xs[first];
        if (!series.usable(s)) return interpolationNoData();
        Bound b = interpolationOf(s.v, s.status);
        b.raw = true;
        return b;
    }
    if (first == 0 || past == xs.size()) return interpolationNoData();
    const Sample& prev = xs[first - 1];
    const Sample& next = xs[past];
    if (!series.usable(prev)) return interpolationNoData();
    bool uncertain = prev.q == Quality::Uncertain;
    double v = prev.v;
    if (!series.settings().stepped) {
        if (series.usable(next)) v = interpolationLine(prev, next, t);
        uncertain = uncertain || next.q != Quality::Good || !series.usable(next);
    }
    return interpolationOf(v, uncertain ? status::UncertainDataSubNormal : StatusCode(status::Good));
}

std::vector<DataValue> interpolateAt(std::span<const DataValue> raw, std::span<const DateTime> times,
                                     bool useSimpleBounds, const AggregateSettings& settings) {
    const Series series(raw, settings);
    std::vector<DataValue> out;
    out.reserve(times.size());
    for (const DateTime& time : times) {
        const std::size_t at = series.lowerBound(time.ticks);
        if (at < series.samples().size() && series.samples()[at].t == time.ticks) {
            out.push_back(raw[series.samples()[at].index]);
            continue;
        }
        const Bound b = useSimpleBounds ? simpleBound(series, time.ticks) : interpolatedBound(series, time.ticks);
        DataValue dv;
        if (b.ok) {
            dv.setValue(Variant(b.v));
            dv.setStatus(historian::withBits(b.status, historian::kInterpolated));
        } else {
            dv.setStatus(status::BadNoData);
        }
        dv.setSourceTimestamp(time);
        out.push_back(std::move(dv));
    }
    return out;
}

} // namespace ua::history
