// The window's Event history (issue 30; OPC 10000-4 5.11.3 HistoryRead with ReadEventDetails, OPC
// 10000-11 6.5.2): the events a notifier's history keeps between two times, oldest first, as
// `ua-client history NODE --events` prints them. A read follows every ContinuationPoint (at most
// kPerRequest events a request) until the events are in or maxEvents stops it (its ContinuationPoint
// released, status Good_MoreData). Columns: Time (UTC, ISO 8601 with ms), Severity, Source, Event
// type, Message (core/HistoryText.h kHistoryEventFields).
//
// Outcome of a read (readFinished): Good or Good_NoData with the events; Good_MoreData stopped at
// maxEvents; the node's Bad_ status (Bad_HistoryOperationUnsupported for a node that keeps no events,
// Bad_NodeIdUnknown, ...) or the request's (Bad_ServerNotConnected without a Session, Bad_Timeout);
// the events read before a failure stay. Asynchronous, like every call of the models; a new read
// drops the answers of the one before.
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through NodeId.h) before one.
#include <QAbstractTableModel>
#include <QDateTime>
#include <QPointer>
#include <QStringList>

#include "ua/types/NodeId.h"
#include "ua/types/Strings.h"
#include "ua/types/StatusCode.h"

#include <vector>

namespace ua::clientapp {

class Connection;
class DataTypeNames;

class EventHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, SeverityColumn, SourceColumn, EventTypeColumn, MessageColumn, ColumnCount };
    static constexpr uint32_t kPerRequest = 1000;  // numValuesPerNode of each request

    explicit EventHistoryModel(Connection* connection, QObject* parent = nullptr);

    // Reads the events of notifier from from (included) to to (excluded), at most maxEvents (0: all).
    void read(const NodeId& notifier, const QDateTime& from, const QDateTime& to, quint64 maxEvents = 10000);
    bool reading() const { return m_reading; }
    StatusCode status() const { return m_status; }  // of the last read; Bad_WaitingForResponse before one
    int requests() const { return m_requests; }      // HistoryRead requests of the last read
    // The fields of row's event as text (the event type as its NodeId text; the column shows its name).
    QStringList eventFields(int row) const { return m_events.at(std::size_t(row)).fields; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void readFinished(ua::StatusCode status);

private:
    struct Row {
        QStringList fields;  // kHistoryEventFields, as text
        NodeId eventType;    // shown by name (DataTypeNames looks it up)
    };
    void readMore(quint64 generation, const ByteString& continuationPoint, bool release);
    void finish(StatusCode status);

    QPointer<Connection> m_connection;
    NodeId m_notifier;
    QDateTime m_from, m_to;
    quint64 m_maxEvents = 0;
    quint64 m_generation = 0;
    bool m_reading = false;
    StatusCode m_status = StatusCode(0x80B20000u);  // Bad_WaitingForResponse
    int m_requests = 0;
    std::vector<Row> m_events;
    DataTypeNames* m_names;
};

} // namespace ua::clientapp
