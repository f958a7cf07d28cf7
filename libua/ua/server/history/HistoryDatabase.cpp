#include "ua/server/history/HistoryDatabase.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QUuid>
#include <QVariant>

namespace ua {

namespace {

const char* const kSchema[] = {
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "CREATE TABLE IF NOT EXISTS series(id INTEGER PRIMARY KEY, node_id TEXT UNIQUE NOT NULL)",
    "CREATE TABLE IF NOT EXISTS blocks(series INTEGER NOT NULL, first INTEGER NOT NULL, last INTEGER NOT NULL,"
    " count INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(series, first)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS modified(series INTEGER NOT NULL, ts INTEGER NOT NULL, mod_time INTEGER NOT NULL,"
    " update_type INTEGER NOT NULL, user_name TEXT NOT NULL, data BLOB NOT NULL)",
    "CREATE INDEX IF NOT EXISTS modified_by_series ON modified(series, ts)",
    "CREATE TABLE IF NOT EXISTS events(id INTEGER PRIMARY KEY, notifier TEXT NOT NULL, time INTEGER NOT NULL,"
    " data BLOB NOT NULL)",
    "CREATE INDEX IF NOT EXISTS events_by_notifier ON events(notifier, time, id)",
};

} // namespace

HistoryDatabase::HistoryDatabase(const QString& path)
    : m_connection(QStringLiteral("ua-history-") + QUuid::createUuid().toString(QUuid::WithoutBraces)), m_path(path) {
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    if (!db.isValid()) {
        m_error = QStringLiteral("the Qt SQLite driver is missing (Debian package libqt6sql6-sqlite)");
        return;
    }
    // A first start: the data folder may not exist yet (SQLite makes the file, not its folder).
    if (path != QLatin1String(":memory:")) QDir().mkpath(QFileInfo(path).absolutePath());
    db.setDatabaseName(path);
    if (!db.open()) {
        m_error = QStringLiteral("cannot open %1: %2").arg(path, db.lastError().text());
        return;
    }
    QSqlQuery q(db);
    for (const char* stmt : kSchema) {
        if (!q.exec(QString::fromLatin1(stmt))) {
            m_error = QStringLiteral("%1: %2").arg(path, q.lastError().text());
            return;
        }
    }
}

HistoryDatabase::~HistoryDatabase() {
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isOpen()) db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

bool HistoryDatabase::exec(QSqlQuery& q) {
    if (q.exec()) return true;
    m_error = q.lastError().text();
    return false;
}

int64_t HistoryDatabase::seriesOf(const std::string& nodeId) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT id FROM series WHERE node_id = ?"));
    q.addBindValue(QString::fromStdString(nodeId));
    if (exec(q) && q.next()) return q.value(0).toLongLong();
    q.prepare(QStringLiteral("INSERT INTO series(node_id) VALUES (?)"));
    q.addBindValue(QString::fromStdString(nodeId));
    if (!exec(q)) return -1;
    return q.lastInsertId().toLongLong();
}

std::vector<std::pair<int64_t, std::string>> HistoryDatabase::allSeries() {
    std::vector<std::pair<int64_t, std::string>> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, node_id FROM series ORDER BY id"));
    if (!exec(q)) return out;
    while (q.next()) out.emplace_back(q.value(0).toLongLong(), q.value(1).toString().toStdString());
    return out;
}

std::pair<int64_t, uint64_t> HistoryDatabase::extent(int64_t series) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT max(last), sum(count) FROM blocks WHERE series = ?"));
    q.addBindValue(qlonglong(series));
    if (!exec(q) || !q.next() || q.value(0).isNull()) return {0, 0};
    return {q.value(0).toLongLong(), q.value(1).toULongLong()};
}

bool HistoryDatabase::begin() { return QSqlDatabase::database(m_connection, false).transaction(); }
bool HistoryDatabase::commit() { return QSqlDatabase::database(m_connection, false).commit(); }

bool HistoryDatabase::putBlock(int64_t series, const HistoryBlockRow& b) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO blocks(series, first, last, count, data) VALUES (?, ?, ?, ?, ?)"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(qlonglong(b.first));
    q.addBindValue(qlonglong(b.last));
    q.addBindValue(uint(b.values.size()));
    q.addBindValue(encodeValues(b.values));
    return exec(q);
}

bool HistoryDatabase::removeBlock(int64_t series, int64_t first) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("DELETE FROM blocks WHERE series = ? AND first = ?"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(qlonglong(first));
    return exec(q);
}

std::optional<HistoryBlockRow> HistoryDatabase::oneBlock(QSqlQuery& q) {
    if (!exec(q) || !q.next()) return std::nullopt;
    HistoryBlockRow b;
    b.first = q.value(0).toLongLong();
    b.last = q.value(1).toLongLong();
    b.count = q.value(2).toUInt();
    if (!decodeValues(q.value(3).toByteArray(), b.values)) return std::nullopt;
    return b;
}

std::optional<HistoryBlockRow> HistoryDatabase::blockAtOrBefore(int64_t series, int64_t ts) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT first, last, count, data FROM blocks WHERE series = ? AND first <= ? "
                             "ORDER BY first DESC LIMIT 1"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(qlonglong(ts));
    return oneBlock(q);
}

std::optional<HistoryBlockRow> HistoryDatabase::blockAfter(int64_t series, int64_t ts) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT first, last, count, data FROM blocks WHERE series = ? AND first > ? "
                             "ORDER BY first ASC LIMIT 1"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(qlonglong(ts));
    return oneBlock(q);
}

void HistoryDatabase::visitBlocks(int64_t series, int64_t fromFirst, int64_t toFirst, bool ascending,
                                  const std::function<bool(HistoryBlockRow&)>& visit) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    q.prepare(ascending ? QStringLiteral("SELECT first, last, count, data FROM blocks WHERE series = ? AND first >= ? "
                                         "AND first <= ? ORDER BY first ASC")
                        : QStringLiteral("SELECT first, last, count, data FROM blocks WHERE series = ? AND first >= ? "
                                         "AND first <= ? ORDER BY first DESC"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(qlonglong(fromFirst));
    q.addBindValue(qlonglong(toFirst));
    if (!exec(q)) return;
    HistoryBlockRow b;
    while (q.next()) {
        b.first = q.value(0).toLongLong();
        b.last = q.value(1).toLongLong();
        b.count = q.value(2).toUInt();
        if (!decodeValues(q.value(3).toByteArray(), b.values)) continue;  // a damaged block is skipped
        if (!visit(b)) return;
    }
}

std::vector<HistoryBlockRow> HistoryDatabase::oldestBlockHeads(int64_t series, int limit) {
    std::vector<HistoryBlockRow> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT first, last, count FROM blocks WHERE series = ? ORDER BY first ASC LIMIT ?"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(limit);
    if (!exec(q)) return out;
    while (q.next()) {
        HistoryBlockRow b;
        b.first = q.value(0).toLongLong();
        b.last = q.value(1).toLongLong();
        b.count = q.value(2).toUInt();
        out.push_back(std::move(b));
    }
    return out;
}

bool HistoryDatabase::addModified(int64_t series, const HistoryModifiedRow& m) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO modified(series, ts, mod_time, update_type, user_name, data) VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(qlonglong(m.value.sourceTimestamp.ticks));
    q.addBindValue(qlonglong(m.modificationTime));
    q.addBindValue(m.updateType);
    q.addBindValue(QString::fromStdString(m.userName));
    q.addBindValue(encodeValues({m.value}));
    return exec(q);
}

std::vector<HistoryModifiedRow> HistoryDatabase::modified(int64_t series, int64_t from, int64_t to) {
    std::vector<HistoryModifiedRow> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT mod_time, update_type, user_name, data FROM modified WHERE series = ? AND ts >= ? "
                             "AND ts <= ? ORDER BY ts ASC, mod_time ASC"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(qlonglong(from));
    q.addBindValue(qlonglong(to));
    if (!exec(q)) return out;
    std::vector<DataValue> one;
    while (q.next()) {
        if (!decodeValues(q.value(3).toByteArray(), one) || one.size() != 1) continue;
        HistoryModifiedRow m;
        m.value = std::move(one.front());
        m.modificationTime = q.value(0).toLongLong();
        m.updateType = q.value(1).toUInt();
        m.userName = q.value(2).toString().toStdString();
        out.push_back(std::move(m));
    }
    return out;
}

bool HistoryDatabase::removeModified(int64_t series, int64_t from, int64_t to) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("DELETE FROM modified WHERE series = ? AND ts >= ? AND ts <= ?"));
    q.addBindValue(qlonglong(series));
    q.addBindValue(qlonglong(from));
    q.addBindValue(qlonglong(to));
    return exec(q);
}

bool HistoryDatabase::addEvent(const std::string& notifier, int64_t time, const QByteArray& data) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO events(notifier, time, data) VALUES (?, ?, ?)"));
    q.addBindValue(QString::fromStdString(notifier));
    q.addBindValue(qlonglong(time));
    q.addBindValue(data);
    return exec(q);
}

void HistoryDatabase::visitEvents(const std::string& notifier, int64_t fromTime, int64_t afterId, int64_t toTime, bool ascending,
                                  const std::function<bool(int64_t, int64_t, const QByteArray&)>& visit) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    // (time, id) compared as a pair: later than the position (or earlier, backwards), within the end.
    q.prepare(ascending ? QStringLiteral("SELECT id, time, data FROM events WHERE notifier = ? AND (time > ? OR (time = ? AND id > ?)) "
                                         "AND time <= ? ORDER BY time ASC, id ASC")
                        : QStringLiteral("SELECT id, time, data FROM events WHERE notifier = ? AND (time < ? OR (time = ? AND id < ?)) "
                                         "AND time >= ? ORDER BY time DESC, id DESC"));
    q.addBindValue(QString::fromStdString(notifier));
    q.addBindValue(qlonglong(fromTime));
    q.addBindValue(qlonglong(fromTime));
    q.addBindValue(qlonglong(afterId));
    q.addBindValue(qlonglong(toTime));
    if (!exec(q)) return;
    while (q.next())
        if (!visit(q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toByteArray())) return;
}

int64_t HistoryDatabase::removeEventsBefore(const std::string& notifier, int64_t time) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("DELETE FROM events WHERE notifier = ? AND time < ?"));
    q.addBindValue(QString::fromStdString(notifier));
    q.addBindValue(qlonglong(time));
    return exec(q) ? q.numRowsAffected() : 0;
}

std::pair<uint64_t, int64_t> HistoryDatabase::eventExtent(const std::string& notifier) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT count(*), max(time) FROM events WHERE notifier = ?"));
    q.addBindValue(QString::fromStdString(notifier));
    if (!exec(q) || !q.next() || q.value(1).isNull()) return {0, 0};
    return {q.value(0).toULongLong(), q.value(1).toLongLong()};
}

int64_t HistoryDatabase::sizeBytes() const {
    if (m_path == QLatin1String(":memory:")) return 0;
    return QFileInfo(m_path).size() + QFileInfo(m_path + QStringLiteral("-wal")).size();
}

QByteArray HistoryDatabase::encodeValues(const std::vector<DataValue>& values) {
    Buffer buf;
    BinaryEncoder e(buf, EncodingLimits::defaults());
    e.writePod<uint32_t>(uint32_t(values.size()));
    for (const DataValue& v : values) encode(e, v);
    if (!e.ok()) return {};
    return QByteArray(reinterpret_cast<const char*>(buf.data()), qsizetype(buf.size()));
}

bool HistoryDatabase::decodeValues(const QByteArray& data, std::vector<DataValue>& out) {
    out.clear();
    BinaryDecoder d(reinterpret_cast<const uint8_t*>(data.constData()), std::size_t(data.size()), EncodingLimits::defaults());
    const uint32_t n = d.readPod<uint32_t>();
    if (!d.ok() || n > d.remaining()) return false;
    out.resize(n);
    for (DataValue& v : out) decode(d, v);
    return d.ok() && d.atEnd();
}

} // namespace ua
