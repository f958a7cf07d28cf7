#include "ua/server/history/HistoryStore.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <algorithm>

namespace ua {

namespace {

int64_t tsOf(const DataValue& v) { return v.sourceTimestamp.ticks; }

// The first position in values (ascending by timestamp) whose timestamp is >= ts.
std::vector<DataValue>::iterator lowerBound(std::vector<DataValue>& values, int64_t ts) {
    return std::lower_bound(values.begin(), values.end(), ts, [](const DataValue& v, int64_t t) { return tsOf(v) < t; });
}

// Appends the values of one block (ascending) that lie in [lo, hi] to out, in the order asked;
// false once out holds max values.
bool take(const std::vector<DataValue>& values, int64_t lo, int64_t hi, bool ascending, std::size_t max,
          std::size_t& taken, std::vector<DataValue>& out) {
    const auto first = std::lower_bound(values.begin(), values.end(), lo, [](const DataValue& v, int64_t t) { return tsOf(v) < t; });
    const auto last = std::upper_bound(values.begin(), values.end(), hi, [](int64_t t, const DataValue& v) { return t < tsOf(v); });
    if (first >= last) return max == 0 || taken < max;
    auto push = [&](const DataValue& v) {
        out.push_back(v);
        return max == 0 || ++taken < max;
    };
    if (ascending) {
        for (auto it = first; it != last; ++it)
            if (!push(*it)) return false;
    } else {
        for (auto it = last; it != first;)
            if (!push(*--it)) return false;
    }
    return max == 0 || taken < max;
}

} // namespace

HistoryStore::HistoryStore(const QString& path, Options options) : m_db(path), m_options(options) {
    m_options.blockValues = std::max<uint32_t>(m_options.blockValues, 2);
    if (!m_db.ok()) return;
    for (auto& [id, node] : m_db.allSeries()) {
        Series& s = m_series[id];
        s.id = id;
        s.nodeId = node;
        std::tie(s.newest, s.count) = m_db.extent(id);
        m_byNode[node] = id;
    }
}

HistoryStore::Series* HistoryStore::get(int64_t series) {
    const auto it = m_series.find(series);
    return it == m_series.end() ? nullptr : &it->second;
}

int64_t HistoryStore::series(const NodeId& node) {
    const std::string key = node.toString();
    if (const auto it = m_byNode.find(key); it != m_byNode.end()) return it->second;
    const int64_t id = m_db.seriesOf(key);
    if (id < 0) return -1;
    Series& s = m_series[id];
    s.id = id;
    s.nodeId = key;
    m_byNode[key] = id;
    return id;
}

int64_t HistoryStore::findSeries(const NodeId& node) const {
    const auto it = m_byNode.find(node.toString());
    return it == m_byNode.end() ? -1 : it->second;
}

void HistoryStore::setLimits(int64_t series, HistoryLimits limits) {
    if (Series* s = get(series)) s->limits = limits;
}

bool HistoryStore::append(int64_t series, const DataValue& v) {
    Series* s = get(series);
    if (!s || !v.hasSourceTimestamp || tsOf(v) <= s->newest) return false;
    if (s->open.empty() || s->openSinceMs == 0) s->openSinceMs = DateTime::now().ticks / DateTime::kTicksPerMs;
    s->open.push_back(v);
    s->newest = tsOf(v);
    ++s->count;
    if (s->open.size() >= m_options.blockValues) {
        writeOpen(*s);
        s->open.clear();
        s->openStored = false;
        s->openSinceMs = 0;
    }
    return true;
}

bool HistoryStore::writeOpen(Series& s) {
    if (s.open.empty()) return true;
    HistoryBlockRow b;
    b.first = tsOf(s.open.front());
    b.last = tsOf(s.open.back());
    b.values = s.open;
    const bool ok = m_db.putBlock(s.id, b);
    s.openStored = ok;
    s.openSinceMs = 0;
    return ok;
}

int HistoryStore::flush(bool all, int64_t nowMs, int maxBlocks) {
    int written = 0;
    bool open = false;
    for (auto& [id, s] : m_series) {
        if (written >= maxBlocks) break;
        if (s.open.empty() || s.openSinceMs == 0) continue;
        if (!all && nowMs - s.openSinceMs < m_options.durabilityMs) continue;
        if (!open) open = m_db.begin();
        if (writeOpen(s)) ++written;
    }
    if (open) m_db.commit();
    return written;
}

void HistoryStore::settle(Series& s) {
    if (s.open.empty()) return;
    if (s.openSinceMs != 0 || !s.openStored) writeOpen(s);
    s.open.clear();
    s.openStored = false;
    s.openSinceMs = 0;
}

void HistoryStore::trim(int64_t nowTicks) {
    bool open = false;
    for (auto& [id, s] : m_series) {
        if (s.limits.maxValues == 0 && s.limits.maxAgeMs <= 0) continue;
        const int64_t cutoff = s.limits.maxAgeMs > 0 ? nowTicks - s.limits.maxAgeMs * DateTime::kTicksPerMs : 0;
        for (bool more = true; more;) {
            more = false;
            for (const HistoryBlockRow& head : m_db.oldestBlockHeads(id, 64)) {
                const bool tooOld = cutoff > 0 && head.last < cutoff;
                const bool tooMany = s.limits.maxValues > 0 && s.count >= s.limits.maxValues + head.count;
                if (!tooOld && !tooMany) break;
                if (!open) open = m_db.begin();
                if (s.openStored && !s.open.empty() && head.first == tsOf(s.open.front())) break;  // the open block stays
                if (!m_db.removeBlock(id, head.first)) break;
                s.count -= std::min<uint64_t>(s.count, head.count);
                more = true;
            }
        }
    }
    if (open) m_db.commit();
}

void HistoryStore::read(int64_t series, int64_t lo, int64_t hi, bool ascending, std::size_t max,
                        std::vector<DataValue>& out) {
    Series* s = get(series);
    if (!s || lo > hi) return;
    std::size_t taken = 0;
    const int64_t openFirst = s->open.empty() ? INT64_MAX : tsOf(s->open.front());
    if (!ascending && !take(s->open, lo, hi, false, max, taken, out)) return;
    bool more = true;
    if (lo < openFirst) {
        const auto start = m_db.blockAtOrBefore(s->id, lo);
        const int64_t fromFirst = start ? start->first : lo;
        const int64_t toFirst = std::min(hi, openFirst - 1);
        m_db.visitBlocks(s->id, fromFirst, toFirst, ascending, [&](HistoryBlockRow& b) {
            if (b.last < lo) return true;
            more = take(b.values, lo, hi, ascending, max, taken, out);
            return more;
        });
    }
    if (ascending && more) take(s->open, lo, hi, true, max, taken, out);
}

std::optional<DataValue> HistoryStore::before(int64_t series, int64_t ts) {
    std::vector<DataValue> one;
    if (ts > INT64_MIN) read(series, INT64_MIN, ts - 1, false, 1, one);
    if (one.empty()) return std::nullopt;
    return std::move(one.front());
}

std::optional<DataValue> HistoryStore::after(int64_t series, int64_t ts) {
    std::vector<DataValue> one;
    if (ts < INT64_MAX) read(series, ts + 1, INT64_MAX, true, 1, one);
    if (one.empty()) return std::nullopt;
    return std::move(one.front());
}

void HistoryStore::putBlock(Series& s, HistoryBlockRow& b, int64_t oldFirst) {
    if (b.values.empty()) {
        if (oldFirst != 0) m_db.removeBlock(s.id, oldFirst);
        return;
    }
    b.first = tsOf(b.values.front());
    b.last = tsOf(b.values.back());
    if (oldFirst != 0 && oldFirst != b.first) m_db.removeBlock(s.id, oldFirst);
    if (b.values.size() <= 2 * std::size_t(m_options.blockValues)) {
        m_db.putBlock(s.id, b);
        return;
    }
    HistoryBlockRow tail;
    tail.values.assign(b.values.begin() + std::ptrdiff_t(b.values.size() / 2), b.values.end());
    b.values.resize(b.values.size() / 2);
    b.last = tsOf(b.values.back());
    tail.first = tsOf(tail.values.front());
    tail.last = tsOf(tail.values.back());
    m_db.putBlock(s.id, b);
    m_db.putBlock(s.id, tail);
}

void HistoryStore::record(Series& s, const DataValue& v, uint32_t updateType, const HistoryChange& change) {
    HistoryModifiedRow m;
    m.value = v;
    m.modificationTime = change.time;
    m.updateType = updateType;
    m.userName = change.user;
    m_db.addModified(s.id, m);
}

StatusCode HistoryStore::write(int64_t series, const DataValue& v, Mode mode, const HistoryChange& change) {
    Series* s = get(series);
    if (!s) return status::BadNoEntryExists;
    const int64_t ts = tsOf(v);
    settle(*s);
    m_db.begin();
    std::optional<HistoryBlockRow> b = m_db.blockAtOrBefore(s->id, ts);
    StatusCode result = status::GoodEntryInserted;
    if (b && ts <= b->last) {
        const auto it = lowerBound(b->values, ts);
        if (it != b->values.end() && tsOf(*it) == ts) {
            if (mode == Mode::Insert) {
                m_db.commit();
                return status::BadEntryExists;
            }
            record(*s, *it, uint32_t(mode == Mode::Replace ? 2 : 3), change);
            *it = v;
            result = status::GoodEntryReplaced;
        } else {
            if (mode == Mode::Replace) {
                m_db.commit();
                return status::BadNoEntryExists;
            }
            b->values.insert(it, v);
        }
        putBlock(*s, *b, b->first);
    } else {
        if (mode == Mode::Replace) {
            m_db.commit();
            return status::BadNoEntryExists;
        }
        // Between blocks, before the first or after the last: the block before takes it while it has
        // room, else the one after, else a block of its own.
        const std::size_t room = 2 * std::size_t(m_options.blockValues);
        std::optional<HistoryBlockRow> next;
        if (b && b->values.size() < room) {
            b->values.push_back(v);
            putBlock(*s, *b, b->first);
        } else if ((next = m_db.blockAfter(s->id, ts)) && next->values.size() < room) {
            next->values.insert(next->values.begin(), v);
            putBlock(*s, *next, next->first);
        } else {
            HistoryBlockRow single;
            single.values.push_back(v);
            putBlock(*s, single, 0);
        }
    }
    if (result == status::GoodEntryInserted) {
        ++s->count;
        record(*s, v, mode == Mode::Insert ? 1 : 3, change);
    }
    s->newest = std::max(s->newest, ts);
    m_db.commit();
    return result;
}

StatusCode HistoryStore::removeAt(int64_t series, int64_t ts, const HistoryChange& change) {
    Series* s = get(series);
    if (!s) return status::BadNoEntryExists;
    settle(*s);
    std::optional<HistoryBlockRow> b = m_db.blockAtOrBefore(s->id, ts);
    if (!b || ts > b->last) return status::BadNoEntryExists;
    const auto it = lowerBound(b->values, ts);
    if (it == b->values.end() || tsOf(*it) != ts) return status::BadNoEntryExists;
    m_db.begin();
    record(*s, *it, 4, change);
    b->values.erase(it);
    putBlock(*s, *b, b->first);
    --s->count;
    if (ts == s->newest) s->newest = m_db.extent(s->id).first;
    m_db.commit();
    return status::Good;
}

uint64_t HistoryStore::removeRange(int64_t series, int64_t lo, int64_t hi, const HistoryChange& change) {
    Series* s = get(series);
    if (!s || lo > hi) return 0;
    settle(*s);
    std::vector<HistoryBlockRow> touched;
    const auto start = m_db.blockAtOrBefore(s->id, lo);
    m_db.visitBlocks(s->id, start ? start->first : lo, hi, true, [&](HistoryBlockRow& b) {
        if (b.last >= lo) touched.push_back(std::move(b));
        return true;
    });
    uint64_t removed = 0;
    m_db.begin();
    for (HistoryBlockRow& b : touched) {
        const int64_t oldFirst = b.first;
        std::vector<DataValue> kept;
        for (DataValue& v : b.values) {
            if (tsOf(v) >= lo && tsOf(v) <= hi) {
                record(*s, v, 4, change);
                ++removed;
            } else {
                kept.push_back(std::move(v));
            }
        }
        b.values = std::move(kept);
        putBlock(*s, b, oldFirst);
    }
    s->count -= std::min(s->count, removed);
    if (removed) s->newest = m_db.extent(s->id).first;
    m_db.commit();
    return removed;
}

uint64_t HistoryStore::removeModified(int64_t series, int64_t lo, int64_t hi) {
    const uint64_t n = m_db.modified(series, lo, hi).size();
    if (n) m_db.removeModified(series, lo, hi);
    return n;
}

std::vector<HistorySeriesInfo> HistoryStore::info() {
    std::vector<HistorySeriesInfo> out;
    for (auto& [id, s] : m_series) {
        HistorySeriesInfo i;
        i.nodeId = s.nodeId;
        i.values = s.count;
        i.newest = s.newest;
        i.limits = s.limits;
        const auto heads = m_db.oldestBlockHeads(id, 1);
        i.oldest = !heads.empty() ? heads.front().first : s.open.empty() ? 0 : tsOf(s.open.front());
        out.push_back(std::move(i));
    }
    std::sort(out.begin(), out.end(), [](const HistorySeriesInfo& a, const HistorySeriesInfo& b) { return a.nodeId < b.nodeId; });
    return out;
}

} // namespace ua
