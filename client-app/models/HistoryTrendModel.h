// The series of the window's History trend (issue 30 item 5, as UaExpert's History Trend View): a
// table of the Variables whose history is shown, each with its colour, the values of its last read
// and that read's status, and the read they share: a time range (from .. to, or the last N minutes
// re-read every few seconds), raw values or one aggregate with its processing interval.
//
// A read is one HistoryRead of every series (Client::historyReadRaw or historyReadProcessed; the
// ContinuationPoints followed, docs/Client.md "History"), asynchronous like every call of the models
// (an operation of the Connection: Cancel drops it; logged as "HistoryRead"). Its outcome is per
// series: Good / Good_NoData / Good_MoreData (stopped at maxValuesPerSeries) with the values, or the
// node's Bad_ status (Bad_HistoryOperationUnsupported for a node without history, Bad_NodeIdUnknown,
// Bad_AggregateNotSupported, ...); a request refused as a whole gives every series its status.
// Nothing is thrown away on a failure but the values of the failed series.
//
// Drop target of application/x-ua-nodeid (NodeIdMime.h): the address tree's drag adds series.
#pragma once

#include "ua/client/common/ServiceResult.h"
#include "ua/client/history/HistoryRead.h"
#include "ua/types/NodeId.h"
#include "ua/types/StatusCode.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QDateTime>
#include <QStringList>
#include <vector>

class QTimer;

namespace ua::clientapp {

class Connection;

// One series: a node and what its last read gave.
struct HistorySeries {
    quint64 key = 0;                 // unique in the model; stays while rows move
    NodeId node;
    QString name;                    // the DisplayName (read when added), the NodeId text until then
    QColor color;
    StatusCode status;               // of the last read; Bad_WaitingForResponse before the first answer
    bool read = false;               // a read has answered for it
    std::vector<DataValue> values;   // of the last read, in the server's order (oldest first)
    uint32_t requests = 0;           // HistoryRead requests of the last read that carried it
};

// An aggregate the server offers (AggregateFunctions folders) or a standard one (AggregateNames.h).
struct HistoryAggregate {
    QString name;  // the BrowseName, "Average"
    NodeId id;
};

class HistoryTrendModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,    // the DisplayName; DecorationRole: the series' colour; tooltip the NodeId
        NodeIdColumn,  // "nsu=urn:ua-workbench:demo;s=Demo.Simulation.Sine" (the persistent form)
        CountColumn,   // the values of the last read ("" before it)
        StatusColumn,  // "Good", "Good_MoreData", "Bad_HistoryOperationUnsupported", "reading ..." (red when Bad)
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        KeyRole = Qt::UserRole + 1,  // quint64 on every cell
        StatusCodeRole,              // quint32, the last read's status code
        ColorRole,                   // QColor
    };
    Q_ENUM(Role)

    explicit HistoryTrendModel(Connection* connection, QObject* parent = nullptr);

    // --- Series ---
    // Adds a series per node not shown yet (their DisplayNames read with one Read), then reads.
    void addNodes(const std::vector<NodeId>& nodes);
    const std::vector<HistorySeries>& series() const { return m_series; }
    int rowOfKey(quint64 key) const;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;
    void clear();

    // --- What is read ---
    // An absolute range [start, end) (start before end; the server's Read Raw excludes end).
    void setTimeRange(const QDateTime& start, const QDateTime& end);
    // The last `minutes` up to the moment of each read (0 or less: the absolute range again).
    void setLastMinutes(double minutes);
    double lastMinutes() const { return m_lastMinutes; }
    bool isRelative() const { return m_lastMinutes > 0; }
    QDateTime rangeStart() const { return m_start; }
    QDateTime rangeEnd() const { return m_end; }
    // While relative, re-read every `seconds` (0: off); a tick while a read runs is skipped.
    void setCyclicUpdate(int seconds);
    int cyclicUpdateSeconds() const { return m_cyclicSeconds; }
    // Raw values (a null aggregate) or Read Processed with this AggregateFunction (i=2342 Average,
    // ...) and processing interval in ms (0: one interval for the whole range).
    void setAggregate(const NodeId& aggregate, double processingIntervalMs);
    NodeId aggregate() const { return m_aggregate; }
    double processingIntervalMs() const { return m_intervalMs; }
    // The most values a read keeps per series (the rest stays on the server: Good_MoreData).
    void setMaxValuesPerSeries(uint64_t max) { m_maxValues = max; }
    uint64_t maxValuesPerSeries() const { return m_maxValues; }

    // --- Reads ---
    // Reads every series (the range of a relative setting computed now); readFinished() follows.
    void read();
    bool isReading() const { return m_reading; }
    // The range the last read asked for (ms since the epoch): the chart's X axis.
    qint64 readStartMs() const { return m_readStartMs; }
    qint64 readEndMs() const { return m_readEndMs; }
    int readCount() const { return m_readCount; }

    // --- Aggregates ---
    // Browses the server's HistoryServerCapabilities.AggregateFunctions and ServerCapabilities.
    // AggregateFunctions; aggregatesLoaded() follows. Until then, and for a server that lists none,
    // aggregates() is the standard list of OPC 10000-13.
    void loadAggregates();
    const std::vector<HistoryAggregate>& aggregates() const { return m_aggregates; }
    bool aggregatesFromServer() const { return m_aggregatesFromServer; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QStringList mimeTypes() const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent) override;
    Qt::DropActions supportedDropActions() const override;

signals:
    // A read of every series ended (status: the request's; each series has its own).
    void readFinished(ua::StatusCode status);
    // The series' values or status changed (a read, a removal): the chart and the table redraw.
    void valuesChanged();
    void aggregatesLoaded(bool fromServer);

private:
    void describe(const std::vector<quint64>& keys);
    void finishRead(const ServiceResult<HistoryValues>& r, const std::vector<quint64>& keys);
    void emitRowChanged(int row);

    Connection* m_connection;
    std::vector<HistorySeries> m_series;
    quint64 m_nextKey = 1;
    int m_colorIndex = 0;
    QDateTime m_start;
    QDateTime m_end;
    double m_lastMinutes = 10;
    int m_cyclicSeconds = 0;
    QTimer* m_cyclic;
    NodeId m_aggregate;
    double m_intervalMs = 10000;
    uint64_t m_maxValues = 20000;
    bool m_reading = false;
    bool m_readAgain = false;
    quint64 m_generation = 0;
    qint64 m_readStartMs = 0;
    qint64 m_readEndMs = 0;
    int m_readCount = 0;
    std::vector<HistoryAggregate> m_aggregates;
    bool m_aggregatesFromServer = false;
};

} // namespace ua::clientapp
