#include "models/HistoryModel.h"

#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/history/HistoryDatabase.h"
#include "ua/server/history/HistoryManager.h"
#include "ua/server/runtime/Server.h"

#include <QCoreApplication>
#include <QLocale>

#include <map>

namespace ua::serverapp {

namespace {

QDateTime toDateTime(int64_t ticks) {
    return ticks > 0 ? DateTime{ticks}.toQDateTime() : QDateTime();
}

QString duration(qint64 ms) {
    if (ms <= 0) return QObject::tr("no limit");
    if (ms % 86'400'000 == 0) return QObject::tr("%n day(s)", nullptr, int(ms / 86'400'000));
    if (ms % 3'600'000 == 0) return QObject::tr("%n hour(s)", nullptr, int(ms / 3'600'000));
    return QObject::tr("%1 s").arg(double(ms) / 1000.0);
}

} // namespace

std::string persistentNodeIdText(const AddressSpace& space, const NodeId& node) {
    const std::vector<String>& uris = space.namespaces();
    if (node.namespaceIndex() == 0 || node.namespaceIndex() >= uris.size()) return node.toString();
    return ExpandedNodeId(node, uris[node.namespaceIndex()]).toString();
}

HistoryModel::HistoryModel(Server* server, QObject* parent) : KeyedTableModel(parent), m_server(server) {}

HistoryModel::~HistoryModel() { *m_alive = false; }

QString HistoryModel::databasePath() const {
    return m_server && m_server->history() ? m_server->history()->config().databasePath : QString();
}

void HistoryModel::refresh() {
    HistoryManager* history = m_server ? m_server->history() : nullptr;
    if (!history) return;
    // What is sampled now, with its settings (any thread), merged on the history thread with what
    // the store holds.
    std::map<std::string, HistorizedNode> sampled;
    for (const HistorizedNode& h : history->historized()) sampled[h.node.toString()] = h;
    const std::vector<HistorizedNotifier> notifiers = m_server->config().history.eventNotifiers;  // resolved at start
    // The answer goes to the application's thread (this model's), where `alive` is read and cleared.
    history->run([self = this, alive = m_alive, sampled = std::move(sampled), notifiers](HistoryStore& store) mutable {
        std::vector<HistoryRow> rows;
        for (const HistorySeriesInfo& i : store.info()) {
            HistoryRow r;
            r.nodeId = QString::fromStdString(i.nodeId);
            r.values = i.values;
            r.oldest = toDateTime(i.oldest);
            r.newest = toDateTime(i.newest);
            if (const auto it = sampled.find(i.nodeId); it != sampled.end()) {
                r.historizing = true;
                r.samplingIntervalMs = it->second.samplingIntervalMs;
                r.maxValues = it->second.limits.maxValues;
                r.maxAgeMs = it->second.limits.maxAgeMs;
                sampled.erase(it);
            }
            rows.push_back(std::move(r));
        }
        for (const auto& [key, h] : sampled) {  // historized, nothing stored yet
            HistoryRow r;
            r.nodeId = QString::fromStdString(key);
            r.historizing = true;
            r.samplingIntervalMs = h.samplingIntervalMs;
            r.maxValues = h.limits.maxValues;
            r.maxAgeMs = h.limits.maxAgeMs;
            rows.push_back(std::move(r));
        }
        for (const HistorizedNotifier& n : notifiers) {  // the events kept (written once a second)
            HistoryRow r;
            const std::string key = n.node.toString();
            r.nodeId = QString::fromStdString(key);
            r.events = r.historizing = true;
            r.maxAgeMs = n.maxAgeMs;
            const auto [count, newest] = store.database().eventExtent(key);
            r.values = count;
            r.newest = toDateTime(newest);
            store.database().visitEvents(key, INT64_MIN, -1, INT64_MAX, true, [&r](int64_t, int64_t time, const QByteArray&) {
                r.oldest = toDateTime(time);
                return false;  // the first is the oldest
            });
            rows.push_back(std::move(r));
        }
        const qint64 bytes = store.sizeBytes();
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, alive, rows = std::move(rows), bytes]() mutable {
            if (*alive) self->take(std::move(rows), bytes);
        }, Qt::QueuedConnection);
    });
}

void HistoryModel::take(std::vector<HistoryRow> rows, qint64 bytes) {
    m_databaseBytes = bytes;
    replaceRows(std::move(rows));
    emit refreshed();
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const HistoryRow& r = rowAt(index.row());
    const QLocale locale;
    if (role == SortRole) {
        switch (index.column()) {
        case NodeId: return r.nodeId;
        case Historizing: return r.historizing;
        case Values: return r.values;
        case Oldest: return r.oldest;
        case Newest: return r.newest;
        case SamplingInterval: return r.samplingIntervalMs;
        case MaxValues: return r.maxValues;
        case MaxAge: return r.maxAgeMs;
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case NodeId: return r.nodeId;
    case Historizing: return r.historizing ? tr("yes") : tr("no");
    case Values: return locale.toString(r.values);
    case Oldest: return r.oldest.isValid() ? r.oldest.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) : QString();
    case Newest: return r.newest.isValid() ? r.newest.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) : QString();
    case SamplingInterval: return r.events ? tr("events") : r.historizing ? tr("%1 ms").arg(r.samplingIntervalMs) : QString();
    case MaxValues: return r.maxValues ? locale.toString(r.maxValues) : tr("no limit");
    case MaxAge: return duration(r.maxAgeMs);
    default: return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NodeId: return tr("Node");
    case Historizing: return tr("Sampled");
    case Values: return tr("Values");
    case Oldest: return tr("Oldest");
    case Newest: return tr("Newest");
    case SamplingInterval: return tr("Interval");
    case MaxValues: return tr("Max values");
    case MaxAge: return tr("Max age");
    default: return {};
    }
}

} // namespace ua::serverapp
