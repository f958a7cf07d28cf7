#include "models/EventHistoryModel.h"

#include "core/Connection.h"
#include "core/HistoryText.h"
#include "models/DataTypeNames.h"
#include "ValueText.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <iterator>

namespace ua::clientapp {

namespace {

// The text of one field as the table shows it (UTC times, as `ua-client history --events`).
QString eventFieldText(const Variant& v) {
    if (const DateTime* t = v.get<DateTime>()) return historyTimeText(*t);
    if (const LocalizedText* l = v.get<LocalizedText>()) return l->text.toQString();
    if (const NodeId* n = v.get<NodeId>()) return QString::fromStdString(n->toString());
    return v.isNull() ? QString() : app::formatVariant(v);
}

} // namespace

EventHistoryModel::EventHistoryModel(Connection* connection, QObject* parent)
    : QAbstractTableModel(parent), m_connection(connection), m_names(new DataTypeNames(connection, this)) {
    connect(m_names, &DataTypeNames::namesResolved, this, [this] {
        if (!m_events.empty()) emit dataChanged(index(0, EventTypeColumn), index(rowCount() - 1, EventTypeColumn));
    });
}

void EventHistoryModel::read(const NodeId& notifier, const QDateTime& from, const QDateTime& to, quint64 maxEvents) {
    beginResetModel();
    m_events.clear();
    endResetModel();
    m_notifier = notifier;
    m_from = from;
    m_to = to;
    m_maxEvents = maxEvents;
    m_requests = 0;
    m_reading = true;
    readMore(++m_generation, ByteString(), false);
}

void EventHistoryModel::readMore(quint64 generation, const ByteString& continuationPoint, bool release) {
    Client* client = m_connection ? m_connection->client() : nullptr;
    if (!client) return finish(status::BadServerNotConnected);
    const quint64 left = m_maxEvents ? m_maxEvents - m_events.size() : 0;
    const uint32_t perRequest = release ? 0 : uint32_t(m_maxEvents ? std::min<quint64>(left, kPerRequest) : kPerRequest);
    HistoryReadRequest req = historyEventRequest(m_notifier, DateTime::fromQDateTime(m_from), DateTime::fromQDateTime(m_to),
                                                 perRequest, continuationPoint, release);
    ++m_requests;
    client->call<HistoryReadRequest, HistoryReadResponse>(
        std::move(req), this, [this, generation, release](const ServiceResult<HistoryReadResponse>& r) {
            if (generation != m_generation) return;  // a newer read started
            if (release) return finish(status::GoodMoreData);
            if (!r.isGood()) return finish(r.status);
            if (r.response.results.size() != 1) return finish(status::BadUnknownResponse);
            const HistoryReadResult& result = r.response.results[0];
            if (const HistoryEvent* h = result.historyData.get<HistoryEvent>(); h && h->events.size() > 0) {
                beginInsertRows({}, rowCount(), rowCount() + int(h->events.size()) - 1);
                for (const HistoryEventFieldList& e : h->events) {
                    Row row;
                    for (std::size_t i = 0; i < std::size(kHistoryEventFields); ++i)
                        row.fields << (i < e.eventFields.size() ? eventFieldText(e.eventFields[i]) : QString());
                    if (e.eventFields.size() > EventTypeColumn)
                        if (const NodeId* type = e.eventFields[EventTypeColumn].get<NodeId>()) row.eventType = *type;
                    m_events.push_back(std::move(row));
                }
                endInsertRows();
            }
            if (result.statusCode.isBad() || result.continuationPoint.isEmpty()) return finish(result.statusCode);
            // maxEvents reached with more on the server: its ContinuationPoint is released.
            const bool full = m_maxEvents && m_events.size() >= m_maxEvents;
            readMore(generation, result.continuationPoint, full);
        });
}

void EventHistoryModel::finish(StatusCode status) {
    m_reading = false;
    m_status = status;
    emit readFinished(status);
}

int EventHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_events.size());
}

int EventHistoryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventHistoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const Row& row = m_events[std::size_t(index.row())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        if (index.column() == EventTypeColumn && !row.eventType.isNull()) {
            const QString name = m_names->nameOrLookup(row.eventType);
            return role == Qt::ToolTipRole ? QString::fromStdString(row.eventType.toString()) : name;
        }
        return row.fields.value(index.column());
    }
    if (role == Qt::TextAlignmentRole && index.column() == SeverityColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant EventHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time (UTC)");
    case SeverityColumn:
        return tr("Severity");
    case SourceColumn:
        return tr("Source");
    case EventTypeColumn:
        return tr("Event type");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace ua::clientapp
