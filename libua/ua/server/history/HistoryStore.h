// The raw history of Variables (OPC 10000-11 4.2 HistoricalDataNodes) kept in a HistoryDatabase:
// sampled values are appended to an open block per node in memory and written as a block of up to
// Options::blockValues DataValues once the block is full or its oldest unwritten value is older
// than Options::durabilityMs, so a node sampled every 100 ms costs one row write per 25 s instead
// of ten per second. Reads see the open blocks too. HistoryUpdate's insert, replace and delete
// work on the blocks in place and record what they changed (with its ModificationInfo) for Read
// Modified (OPC 10000-11 6.5.3.3).
//
// Every value is keyed by its SourceTimestamp (100-ns ticks since 1601): one value per timestamp
// and node. A crash loses at most the last durabilityMs of sampled values; a clean stop writes
// everything (flush(true)).
//
// One thread only (HistoryManager's): not thread-safe.
#pragma once

#include "ua/server/history/HistoryDatabase.h"
#include "ua/types/NodeId.h"
#include "ua/types/StatusCode.h"

#include <memory>
#include <string>
#include <unordered_map>

namespace ua {

// What a node's history keeps; 0 means no limit. Trimming removes whole blocks, so a node may keep
// up to one block more than maxValues, or values up to one block older than maxAgeMs.
struct HistoryLimits {
    uint64_t maxValues = 0;
    int64_t maxAgeMs = 0;  // ms
};

// Who changed history and when (OPC 10000-11 6.6.3 ModificationInfo).
struct HistoryChange {
    int64_t time = 0;  // ticks
    std::string user;
};

struct HistorySeriesInfo {
    std::string nodeId;     // NodeId::toString
    uint64_t values = 0;
    int64_t oldest = 0;     // ticks; 0 when empty
    int64_t newest = 0;
    HistoryLimits limits;
};

class HistoryStore {
public:
    struct Options {
        uint32_t blockValues = 256;
        int64_t durabilityMs = 10000;
    };
    explicit HistoryStore(const QString& path) : HistoryStore(path, Options{}) {}
    HistoryStore(const QString& path, Options options);

    bool ok() const { return m_db.ok(); }
    QString error() const { return m_db.error(); }

    // The series of a node (made when new); -1 when the database failed.
    int64_t series(const NodeId& node);
    // The series of a node that has history, or -1.
    int64_t findSeries(const NodeId& node) const;
    void setLimits(int64_t series, HistoryLimits limits);

    // A sampled value: kept (true) when its SourceTimestamp is set and newer than the newest stored.
    bool append(int64_t series, const DataValue& v);
    // Writes the open blocks whose oldest unwritten value was added more than durabilityMs before
    // nowMs (every open block when all), at most maxBlocks of them; one transaction. The number of
    // blocks written (maxBlocks: there may be more due).
    int flush(bool all, int64_t nowMs, int maxBlocks = INT32_MAX);
    // Applies the limits (one transaction); nowTicks is the current time.
    void trim(int64_t nowTicks);

    // Appends to out the values with SourceTimestamp in [lo, hi] (ticks), ascending or descending,
    // at most max of them (0: all).
    void read(int64_t series, int64_t lo, int64_t hi, bool ascending, std::size_t max, std::vector<DataValue>& out);
    // The newest value older than ts, the oldest value newer than ts.
    std::optional<DataValue> before(int64_t series, int64_t ts);
    std::optional<DataValue> after(int64_t series, int64_t ts);

    // HistoryUpdate of one value (OPC 10000-11 6.8.2 UpdateDataDetails), by its SourceTimestamp:
    // Good_EntryInserted, Good_EntryReplaced, Bad_EntryExists (insert), Bad_NoEntryExists (replace).
    enum class Mode { Insert = 1, Replace = 2, Update = 3 };
    StatusCode write(int64_t series, const DataValue& v, Mode mode, const HistoryChange& change);
    // Deletes the value at ts: Good, or Bad_NoEntryExists.
    StatusCode removeAt(int64_t series, int64_t ts, const HistoryChange& change);
    // Deletes the values in [lo, hi]: how many.
    uint64_t removeRange(int64_t series, int64_t lo, int64_t hi, const HistoryChange& change);
    // Deletes the modified values recorded in [lo, hi] (isDeleteModified): how many there were.
    uint64_t removeModified(int64_t series, int64_t lo, int64_t hi);
    // The recorded changes with a SourceTimestamp in [lo, hi], ascending.
    std::vector<HistoryModifiedRow> modified(int64_t series, int64_t lo, int64_t hi) { return m_db.modified(series, lo, hi); }

    std::vector<HistorySeriesInfo> info();
    // The database, for the event history (EventHistory.h), which keeps its own table.
    HistoryDatabase& database() { return m_db; }
    int64_t sizeBytes() const { return m_db.sizeBytes(); }

private:
    struct Series {
        int64_t id = 0;
        std::string nodeId;
        std::vector<DataValue> open;   // the newest values, not (all) written yet
        bool openStored = false;       // a row at open.front()'s timestamp holds part of it
        int64_t openSinceMs = 0;       // when its oldest unwritten value came
        int64_t newest = 0;            // ticks
        uint64_t count = 0;
        HistoryLimits limits;
    };
    Series* get(int64_t series);
    bool writeOpen(Series& s);
    // Writes the open block and empties it: every value of the series is in the database after.
    void settle(Series& s);
    // A database block, split in two when it grew beyond twice blockValues; oldFirst is the
    // first its row had (0: new).
    void putBlock(Series& s, HistoryBlockRow& b, int64_t oldFirst);
    void record(Series& s, const DataValue& v, uint32_t updateType, const HistoryChange& change);

    HistoryDatabase m_db;
    Options m_options;
    std::unordered_map<int64_t, Series> m_series;
    std::unordered_map<std::string, int64_t> m_byNode;
};

} // namespace ua
