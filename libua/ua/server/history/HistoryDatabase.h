// The SQLite file behind Historical Access (OPC 10000-11), through QtSql: the rows and nothing
// else. HistoryStore.h decides what goes into them.
//
// Tables:
//   series(id, node_id TEXT UNIQUE)    one row per historized node (node_id: NodeId::toString)
//   blocks(series, first, last, count, data)   raw values, PRIMARY KEY(series, first): a block holds
//        up to a few hundred DataValues of one node with SourceTimestamps first..last (100-ns
//        ticks since 1601), ascending and unique; the blocks of a node never overlap. data is the
//        UA Binary encoding of the DataValues one after another (OPC 10000-6 5.2.2.17).
//   modified(series, ts, mod_time, update_type, user_name, data)  the values HistoryUpdate
//        inserted, replaced or deleted, with their ModificationInfo (OPC 10000-11 6.6.3).
//   events(id, notifier, time, data)  the events a historized notifier reported (OPC 10000-11
//        5.4): notifier is its NodeId::toString, time the event's Time field (ticks), id orders
//        events of the same time, data the event's type and fields (EventHistory.h encodes them).
// The database runs in WAL mode with synchronous=NORMAL: a commit survives a crash of the process.
//
// One thread only: the one that opened it (QSqlDatabase connections are per thread).
#pragma once

#include "ua/types/Variant.h"

#include <QString>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ua {

struct HistoryBlockRow {
    int64_t first = 0;  // SourceTimestamp of the first value, ticks
    int64_t last = 0;
    uint32_t count = 0;
    std::vector<DataValue> values;  // decoded, ascending
};

struct HistoryModifiedRow {
    DataValue value;
    int64_t modificationTime = 0;  // ticks
    uint32_t updateType = 0;       // HistoryUpdateType: 1 Insert, 2 Replace, 3 Update, 4 Delete
    std::string userName;
};

class HistoryDatabase {
public:
    // Opens (creates) the file; path ":memory:" keeps it in memory. error() is empty on success.
    explicit HistoryDatabase(const QString& path);
    ~HistoryDatabase();
    HistoryDatabase(const HistoryDatabase&) = delete;
    HistoryDatabase& operator=(const HistoryDatabase&) = delete;

    const QString& error() const { return m_error; }
    bool ok() const { return m_error.isEmpty(); }

    // The series id of a node, made when new.
    int64_t seriesOf(const std::string& nodeId);
    // Every series: id -> node id text.
    std::vector<std::pair<int64_t, std::string>> allSeries();
    // Newest SourceTimestamp and number of values stored of a series (0, 0 when empty).
    std::pair<int64_t, uint64_t> extent(int64_t series);

    bool begin();
    bool commit();

    // Writes (replaces) the block that starts at b.first.
    bool putBlock(int64_t series, const HistoryBlockRow& b);
    bool removeBlock(int64_t series, int64_t first);
    // The block whose first is the greatest <= ts, if any.
    std::optional<HistoryBlockRow> blockAtOrBefore(int64_t series, int64_t ts);
    // The block whose first is the smallest > ts, if any.
    std::optional<HistoryBlockRow> blockAfter(int64_t series, int64_t ts);
    // Visits the blocks with first in [fromFirst, toFirst], ascending (or descending), until visit
    // returns false.
    void visitBlocks(int64_t series, int64_t fromFirst, int64_t toFirst, bool ascending,
                     const std::function<bool(HistoryBlockRow&)>& visit);
    // The first values of the oldest blocks, oldest first (for trimming): (first, last, count).
    std::vector<HistoryBlockRow> oldestBlockHeads(int64_t series, int limit);

    bool addModified(int64_t series, const HistoryModifiedRow& m);
    // Modified rows with ts in [from, to], ascending by ts then modification time.
    std::vector<HistoryModifiedRow> modified(int64_t series, int64_t from, int64_t to);
    bool removeModified(int64_t series, int64_t from, int64_t to);

    // Events (one transaction for many: begin() / commit() around the calls).
    bool addEvent(const std::string& notifier, int64_t time, const QByteArray& data);
    // The events of a notifier with (time, id) after (fromTime, afterId) and time <= toTime,
    // ascending; or, descending, before (fromTime, afterId) and time >= toTime. afterId -1 /
    // INT64_MAX takes every event of fromTime. visit(id, time, data) returns false to stop.
    void visitEvents(const std::string& notifier, int64_t fromTime, int64_t afterId, int64_t toTime, bool ascending,
                     const std::function<bool(int64_t, int64_t, const QByteArray&)>& visit);
    // Removes the events of a notifier older than time; how many.
    int64_t removeEventsBefore(const std::string& notifier, int64_t time);
    // The events of a notifier: how many, and the newest Time (0, 0 when none).
    std::pair<uint64_t, int64_t> eventExtent(const std::string& notifier);

    // Bytes of the database file and its WAL.
    int64_t sizeBytes() const;

    static QByteArray encodeValues(const std::vector<DataValue>& values);
    static bool decodeValues(const QByteArray& data, std::vector<DataValue>& out);

private:
    bool exec(QSqlQuery& q);
    std::optional<HistoryBlockRow> oneBlock(QSqlQuery& q);
    QString m_connection;
    QString m_path;
    QString m_error;
};

} // namespace ua
