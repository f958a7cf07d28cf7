// The server's history as its window shows it (issue 30 item 1): one row per node that is
// historized or has stored values (ua/server/history/HistoryStore.h HistorySeriesInfo), with the
// values kept, the oldest and newest SourceTimestamps, the sampling interval and the limits; and
// the size of the database file. refresh() asks the history thread; the rows change when it has
// answered (refreshed()). Qt Core only: tested headless (tests/serverapp/tst_history_model.cpp).
#pragma once

#include "models/KeyedTableModel.h"

#include <QDateTime>
#include <QString>

#include <memory>
#include <string>

namespace ua {
class AddressSpace;
class NodeId;
class Server;
}

namespace ua::serverapp {

// A node's id as the configuration file keeps it (ua-server.json history.nodes): "nsu=URI;..." with
// the namespace's URI in space, which stays right when namespace indexes move; namespace 0 (and an
// index space does not know) as the plain NodeId text.
std::string persistentNodeIdText(const AddressSpace& space, const NodeId& node);

struct HistoryRow {
    QString nodeId;          // NodeId text
    bool historizing = false;  // sampled now
    quint64 values = 0;
    QDateTime oldest, newest;  // invalid when there are none
    double samplingIntervalMs = 0;  // 0: not sampled
    quint64 maxValues = 0;          // 0: no limit
    qint64 maxAgeMs = 0;            // 0: no limit
    // A notifier whose events are kept (ua-server.json history.events): values counts its events,
    // oldest and newest are their Time fields, the interval says "events".
    bool events = false;
    friend bool operator==(const HistoryRow&, const HistoryRow&) = default;
};

class HistoryModel : public KeyedTableModel<HistoryRow, QString> {
    Q_OBJECT
public:
    enum Column { NodeId, Historizing, Values, Oldest, Newest, SamplingInterval, MaxValues, MaxAge, ColumnCount };

    // server may be null or have no history: the model stays empty.
    explicit HistoryModel(Server* server, QObject* parent = nullptr);
    ~HistoryModel() override;

    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Asks the history thread for the current rows (asynchronous; refreshed() when they are in).
    void refresh();
    // Bytes of the SQLite file and its WAL at the last refresh.
    qint64 databaseBytes() const { return m_databaseBytes; }
    QString databasePath() const;

signals:
    void refreshed();

protected:
    QString keyOf(const HistoryRow& row) const override { return row.nodeId; }

private:
    void take(std::vector<HistoryRow> rows, qint64 bytes);
    Server* m_server;
    qint64 m_databaseBytes = 0;
    // False once the model is gone: read and written on the application's thread only (a refresh
    // answered after the model was deleted is dropped there).
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace ua::serverapp
