#include "ua/server/history/ProcessedHistoryRead.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/history/Aggregates.h"
#include "ua/server/history/Interpolation.h"

#include <algorithm>

namespace ua {

namespace {

// The most raw values read beyond a side of the range looking for a usable one.
constexpr std::size_t kMaxOutward = 100000;
// The most raw values one Read Processed computes from (about 100 MB of DataValues).
constexpr std::size_t kMaxRawPerRead = 1000000;

bool usable(const DataValue& v, const history::AggregateSettings& s) {
    const StatusCode st = v.hasStatus ? v.status : StatusCode();
    if (st.isBad() || (st.isUncertain() && s.treatUncertainAsBad)) return false;
    if (!v.hasValue || !v.value.isScalar()) return false;
    const BuiltInType t = v.value.type();
    return t >= BuiltInType::Boolean && t <= BuiltInType::Double;
}

// The raw values of [lo, hi] and, on each side, outward up to `wanted` usable ones, ascending.
std::vector<DataValue> rawAround(HistoryStore& store, int64_t series, int64_t lo, int64_t hi, const history::AggregateSettings& s) {
    std::vector<DataValue> before, inner, after;
    const int wantedBefore = s.useSlopedExtrapolation ? 2 : 1;
    for (int64_t from = lo; from > INT64_MIN && before.size() < kMaxOutward;) {
        const std::size_t had = before.size();
        store.read(series, INT64_MIN, from - 1, false, 64, before);
        if (before.size() == had) break;
        if (std::count_if(before.begin(), before.end(), [&](const DataValue& v) { return usable(v, s); }) >= wantedBefore) break;
        from = before.back().sourceTimestamp.ticks;
    }
    store.read(series, lo, hi, true, 0, inner);
    for (int64_t from = hi; from < INT64_MAX && after.size() < kMaxOutward;) {
        const std::size_t had = after.size();
        store.read(series, from + 1, INT64_MAX, true, 64, after);
        if (after.size() == had) break;
        if (std::any_of(after.begin() + std::ptrdiff_t(had), after.end(), [&](const DataValue& v) { return usable(v, s); })) break;
        from = after.back().sourceTimestamp.ticks;
    }
    std::vector<DataValue> out;
    out.reserve(before.size() + inner.size() + after.size());
    out.insert(out.end(), std::make_move_iterator(before.rbegin()), std::make_move_iterator(before.rend()));
    out.insert(out.end(), std::make_move_iterator(inner.begin()), std::make_move_iterator(inner.end()));
    out.insert(out.end(), std::make_move_iterator(after.begin()), std::make_move_iterator(after.end()));
    return out;
}

int64_t addMs(int64_t ticks, double ms) {
    const double t = double(ticks) + ms * double(DateTime::kTicksPerMs);
    return t >= 9.2e18 ? INT64_MAX : t <= -9.2e18 ? INT64_MIN : int64_t(t);
}

} // namespace

history::AggregateSettings aggregateSettings(const AggregateConfiguration& asked, const HistoricalSettings& node) {
    history::AggregateSettings s;
    s.stepped = node.stepped;
    if (asked.useServerCapabilitiesDefaults) {
        s.treatUncertainAsBad = node.treatUncertainAsBad;
        s.percentDataBad = node.percentDataBad;
        s.percentDataGood = node.percentDataGood;
        s.useSlopedExtrapolation = node.useSlopedExtrapolation;
    } else {
        s.treatUncertainAsBad = asked.treatUncertainAsBad;
        s.percentDataBad = std::min<uint8_t>(asked.percentDataBad, 100);
        s.percentDataGood = std::min<uint8_t>(asked.percentDataGood, 100);
        s.useSlopedExtrapolation = asked.useSlopedExtrapolation;
    }
    return s;
}

HistoryReadOutcome readProcessed(HistoryStore& store, int64_t series, const ReadProcessedDetails& d, std::size_t aggregateIndex,
                                 const history::AggregateSettings& settings, uint64_t firstInterval) {
    HistoryReadOutcome r;
    const auto aggregate = aggregateIndex < d.aggregateType.size() ? history::aggregateFromNodeId(d.aggregateType[aggregateIndex])
                                                                   : std::nullopt;
    if (!aggregate) {
        r.status = status::BadAggregateNotSupported;
        return r;
    }
    const uint64_t count = history::intervalCount(d.startTime, d.endTime, d.processingInterval);
    if (count == 0) {
        r.status = status::BadInvalidArgument;
        return r;
    }
    // The window: at most kMaxProcessedPerRead intervals, fewer while their time range holds more
    // than kMaxRawPerRead raw values (halved down to one interval), so that a year of one-second
    // data is never read into memory at once; the rest follows with a ContinuationPoint.
    const bool forward = d.endTime >= d.startTime;
    const double step = d.processingInterval == 0 ? 0 : d.processingInterval * (forward ? 1 : -1);
    uint32_t windowMax = uint32_t(kMaxProcessedPerRead);
    int64_t a = 0, b = 0;
    for (;;) {
        const uint64_t last = std::min<uint64_t>(count, firstInterval + windowMax);
        a = count == 1 ? d.startTime.ticks : addMs(d.startTime.ticks, step * double(firstInterval));
        b = count == 1 || last == count ? d.endTime.ticks : addMs(d.startTime.ticks, step * double(last));
        if (forward) b = std::min(b, d.endTime.ticks);
        else b = std::max(b, d.endTime.ticks);
        if (windowMax == 1 || series < 0) break;
        std::vector<DataValue> probe;
        store.read(series, std::min(a, b), std::max(a, b), true, kMaxRawPerRead + 1, probe);
        if (probe.size() <= kMaxRawPerRead) break;
        windowMax = std::max<uint32_t>(1, windowMax / 2);
    }
    const std::vector<DataValue> raw = series < 0 ? std::vector<DataValue>{}
                                                  : rawAround(store, series, std::min(a, b), std::max(a, b), settings);
    history::ProcessedValues p = history::processAggregate(*aggregate, raw, d.startTime, d.endTime, d.processingInterval, settings,
                                                           history::IntervalWindow{firstInterval, windowMax});
    if (p.status.isBad()) {
        r.status = p.status;
        return r;
    }
    r.values = std::move(p.values);
    if (p.nextInterval != 0) {
        r.more = true;
        r.next = {1, int64_t(p.nextInterval)};
        r.status = status::GoodMoreData;
    } else {
        r.status = status::Good;
    }
    return r;
}

HistoryReadOutcome readAtTime(HistoryStore& store, int64_t series, const ReadAtTimeDetails& d,
                              const history::AggregateSettings& settings, uint64_t firstIndex) {
    HistoryReadOutcome r;
    if (firstIndex >= d.reqTimes.size()) {
        r.status = status::BadContinuationPointInvalid;
        return r;
    }
    const std::size_t end = std::min<std::size_t>(d.reqTimes.size(), std::size_t(firstIndex) + kMaxProcessedPerRead);
    const std::span<const DateTime> times(d.reqTimes.data() + firstIndex, end - std::size_t(firstIndex));
    const auto [lo, hi] = std::minmax_element(times.begin(), times.end());
    const std::vector<DataValue> raw = series < 0 ? std::vector<DataValue>{} : rawAround(store, series, lo->ticks, hi->ticks, settings);
    r.values = history::interpolateAt(raw, times, d.useSimpleBounds, settings);
    if (end < d.reqTimes.size()) {
        r.more = true;
        r.next = {1, int64_t(end)};
        r.status = status::GoodMoreData;
    } else {
        r.status = status::Good;
    }
    return r;
}

} // namespace ua
