#include "ua/server/history/RawHistoryRead.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <algorithm>

namespace ua {

namespace {

// The time domain of a request (see the header).
struct Domain {
    bool ascending = true;
    int64_t from = 0;     // where the read starts (ticks)
    bool hasTo = false;
    int64_t to = 0;       // where it stops
    int64_t lo = 0, hi = 0;  // the values' range, inclusive
    bool bounds = false;
    std::size_t max = 0;  // numValuesPerNode; 0: all
};

Domain domainOf(const ReadRawModifiedDetails& d) {
    Domain m;
    const bool startSet = !d.startTime.isMin(), endSet = !d.endTime.isMin();
    m.ascending = startSet && (!endSet || d.endTime >= d.startTime);
    m.from = startSet ? d.startTime.ticks : d.endTime.ticks;
    m.hasTo = startSet && endSet;
    m.to = d.endTime.ticks;
    m.bounds = d.returnBounds;
    // At most kMaxReturnDataValues per node and read, whatever numValuesPerNode says (0 included):
    // the rest follows with a ContinuationPoint (OPC 10000-11 6.3 lets the Server return fewer).
    m.max = d.numValuesPerNode == 0 ? kMaxReturnDataValues : std::min<std::size_t>(d.numValuesPerNode, kMaxReturnDataValues);
    const bool point = m.hasTo && m.from == m.to;
    if (m.ascending) {
        m.lo = m.from;
        m.hi = !m.hasTo ? INT64_MAX : (m.bounds || point) ? m.to : m.to - 1;
    } else {
        m.hi = m.from;
        m.lo = !m.hasTo ? INT64_MIN : m.bounds ? m.to : m.to + 1;
    }
    return m;
}

DataValue boundNotFound(int64_t ts) {
    DataValue v;
    v.setStatus(status::BadBoundNotFound);
    v.setSourceTimestamp(DateTime{ts});
    return v;
}

bool hasValueAt(HistoryStore& store, int64_t series, int64_t ts) {
    std::vector<DataValue> one;
    store.read(series, ts, ts, true, 1, one);
    return !one.empty();
}

// The bound at ts: the value there is already among the values; else the nearest one outward
// (before when outwardIsEarlier), or Bad_BoundNotFound.
std::optional<DataValue> boundAt(HistoryStore& store, int64_t series, int64_t ts, bool outwardIsEarlier) {
    if (hasValueAt(store, series, ts)) return std::nullopt;
    std::optional<DataValue> v = outwardIsEarlier ? store.before(series, ts) : store.after(series, ts);
    return v ? std::move(*v) : boundNotFound(ts);
}

} // namespace

StatusCode checkRawModifiedDetails(const ReadRawModifiedDetails& d) {
    const bool startSet = !d.startTime.isMin(), endSet = !d.endTime.isMin();
    if (int(startSet) + int(endSet) + int(d.numValuesPerNode != 0) < 2) return status::BadInvalidTimestampArgument;
    if (d.isReadModified && d.returnBounds) return status::BadInvalidArgument;
    if (d.isReadModified && !(startSet && endSet)) return status::BadInvalidTimestampArgument;
    return status::Good;
}

HistoryReadOutcome readRaw(HistoryStore& store, int64_t series, const ReadRawModifiedDetails& d, HistoryReadPosition at) {
    HistoryReadOutcome r;
    const Domain m = domainOf(d);
    const auto full = [&] { return m.max != 0 && r.values.size() >= m.max; };
    const auto pause = [&](int phase, int64_t position) {
        r.more = true;
        r.next = {phase, position};
        r.status = status::GoodMoreData;
        return r;
    };
    if (at.phase == 0) {
        if (m.bounds)
            if (auto b = boundAt(store, series, m.from, m.ascending)) r.values.push_back(std::move(*b));
        at = {1, m.from};
    }
    if (at.phase == 1) {
        if (full()) return pause(1, at.position);
        const int64_t lo = m.ascending ? at.position : m.lo;
        const int64_t hi = m.ascending ? m.hi : at.position;
        // One more than fits tells whether the read pauses, and where it goes on.
        const std::size_t want = m.max == 0 ? 0 : m.max - r.values.size() + 1;
        std::vector<DataValue> got;
        store.read(series, lo, hi, m.ascending, want, got);
        if (want != 0 && got.size() == want) {
            const int64_t next = got.back().sourceTimestamp.ticks;
            got.pop_back();
            for (DataValue& v : got) r.values.push_back(std::move(v));
            return pause(1, next);
        }
        for (DataValue& v : got) r.values.push_back(std::move(v));
        at = {2, 0};
    }
    if (at.phase == 2 && m.bounds && m.hasTo) {
        std::optional<DataValue> b = boundAt(store, series, m.to, !m.ascending);
        if (b && m.hasTo && m.from == m.to && b->status == status::BadBoundNotFound && !r.values.empty() &&
            r.values.front().status == status::BadBoundNotFound)
            b.reset();  // one instant: a single "not found" for it
        if (b) {
            if (full()) return pause(2, 0);
            r.values.push_back(std::move(*b));
        }
    }
    r.status = r.values.empty() ? status::GoodNoData : status::Good;
    return r;
}

HistoryReadOutcome readModified(HistoryStore& store, int64_t series, const ReadRawModifiedDetails& d, HistoryReadPosition at) {
    HistoryReadOutcome r;
    const Domain m = domainOf(d);
    std::vector<HistoryModifiedRow> rows = store.modified(series, m.lo, m.hi);
    if (!m.ascending) std::reverse(rows.begin(), rows.end());
    std::size_t i = at.phase == 1 ? std::size_t(std::max<int64_t>(at.position, 0)) : 0;
    for (; i < rows.size(); ++i) {
        if (m.max != 0 && r.values.size() >= m.max) {
            r.more = true;
            r.next = {1, int64_t(i)};
            r.status = status::GoodMoreData;
            return r;
        }
        ModificationInfo info;
        info.modificationTime = DateTime{rows[i].modificationTime};
        info.updateType = HistoryUpdateType(rows[i].updateType);
        info.userName = String(rows[i].userName);
        r.values.push_back(std::move(rows[i].value));
        r.modifications.push_back(std::move(info));
    }
    r.status = r.values.empty() ? status::GoodNoData : status::Good;
    return r;
}

} // namespace ua
