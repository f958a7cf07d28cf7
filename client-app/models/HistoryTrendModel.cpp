#include "models/HistoryTrendModel.h"

#include "ValueText.h"
#include "core/Connection.h"
#include "models/ModelCall.h"
#include "models/NodeIdMime.h"
#include "ua/client/Client.h"
#include "ua/client/history/AggregateNames.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QMimeData>
#include <QTimer>
#include <algorithm>
#include <set>

namespace ua::clientapp {

namespace {

// Distinct on white and for the usual colour blindness (Okabe-Ito, then Tableau's), cycled.
const QColor& historySeriesColor(int i) {
    static const QColor colors[] = {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73),
                                    QColor(0xCC, 0x79, 0xA7), QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9),
                                    QColor(0x8C, 0x56, 0x4B), QColor(0x7F, 0x7F, 0x7F)};
    return colors[i % int(std::size(colors))];
}

// The standard aggregates (OPC 10000-13 5.4.3) for a server that names none.
std::vector<HistoryAggregate> standardHistoryAggregates() {
    std::vector<HistoryAggregate> out;
    for (const AggregateName& a : standardAggregates()) out.push_back({QString::fromLatin1(a.name), NodeId(a.id)});
    return out;
}

} // namespace

HistoryTrendModel::HistoryTrendModel(Connection* connection, QObject* parent)
    : QAbstractTableModel(parent), m_connection(connection), m_cyclic(new QTimer(this)), m_aggregates(standardHistoryAggregates()) {
    m_end = QDateTime::currentDateTimeUtc();
    m_start = m_end.addSecs(-600);
    connect(m_cyclic, &QTimer::timeout, this, [this] {
        if (isRelative() && !m_reading && !m_series.empty()) read();
    });
    // Another server: its NodeIds mean nothing here (as Data access, docs/ClientApp.md "Switching servers").
    connect(connection, &Connection::serverChanged, this, [this] {
        clear();
        m_aggregates = standardHistoryAggregates();
        m_aggregatesFromServer = false;
        emit aggregatesLoaded(false);
    });
    // A new Client: answers for the old one are dropped (their operations are gone with it).
    connect(connection, &Connection::clientChanged, this, [this] {
        ++m_generation;
        m_reading = false;
    });
}

// --- Series ------------------------------------------------------------------------------------

void HistoryTrendModel::addNodes(const std::vector<NodeId>& nodes) {
    std::vector<quint64> added;
    Client* client = m_connection->client();
    for (const NodeId& node : nodes) {
        if (node.isNull()) continue;
        if (std::any_of(m_series.begin(), m_series.end(), [&](const HistorySeries& s) { return s.node == node; })) continue;
        HistorySeries s;
        s.key = m_nextKey++;
        s.node = node;
        s.name = client ? persistentNodeId(node, client->nodeIdConverter()) : QString::fromStdString(node.toString());
        s.color = historySeriesColor(m_colorIndex++);
        s.status = status::BadWaitingForResponse;
        const int row = int(m_series.size());
        beginInsertRows({}, row, row);
        m_series.push_back(std::move(s));
        endInsertRows();
        added.push_back(m_series.back().key);
    }
    if (added.empty()) return;
    describe(added);
    emit valuesChanged();
    read();
}

int HistoryTrendModel::rowOfKey(quint64 key) const {
    for (std::size_t i = 0; i < m_series.size(); ++i)
        if (m_series[i].key == key) return int(i);
    return -1;
}

bool HistoryTrendModel::removeRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || row < 0 || count <= 0 || row + count > int(m_series.size())) return false;
    beginRemoveRows({}, row, row + count - 1);
    m_series.erase(m_series.begin() + row, m_series.begin() + row + count);
    endRemoveRows();
    emit valuesChanged();
    return true;
}

void HistoryTrendModel::clear() {
    if (m_series.empty()) return;
    beginResetModel();
    m_series.clear();
    ++m_generation;  // a read in flight is for series that are gone
    m_reading = false;
    endResetModel();
    emit valuesChanged();
}

void HistoryTrendModel::describe(const std::vector<quint64>& keys) {
    Client* client = m_connection->client();
    if (!client) return;
    ReadRequest req;
    req.timestampsToReturn = TimestampsToReturn::Neither;
    for (quint64 key : keys) {
        ReadValueId r;
        r.nodeId = m_series[std::size_t(rowOfKey(key))].node;
        r.attributeId = uint32_t(AttributeId::DisplayName);
        req.nodesToRead.push_back(std::move(r));
    }
    QObject* op = m_connection->beginOperation(tr("Read names of %n history series", nullptr, int(keys.size())));
    client->read(std::move(req), op,
                 detail::loggedOp<ReadResponse>(m_connection, op, this, QStringLiteral("Read"),
                                                QStringLiteral("DisplayName of %1 history series").arg(keys.size()),
                                                [this, keys](const ServiceResult<ReadResponse>& r) {
                                                    if (!r.isGood()) return;
                                                    for (std::size_t i = 0; i < keys.size() && i < r.response.results.size(); ++i) {
                                                        const int row = rowOfKey(keys[i]);
                                                        const auto* t = r.response.results[i].value.get<LocalizedText>();
                                                        if (row < 0 || !t || t->text.isNull()) continue;
                                                        m_series[std::size_t(row)].name = t->text.toQString();
                                                        emitRowChanged(row);
                                                    }
                                                    emit valuesChanged();
                                                }));
}

// --- Settings ----------------------------------------------------------------------------------

void HistoryTrendModel::setTimeRange(const QDateTime& start, const QDateTime& end) {
    m_start = start;
    m_end = end;
    m_lastMinutes = 0;
    m_cyclic->stop();
}

void HistoryTrendModel::setLastMinutes(double minutes) {
    m_lastMinutes = std::max(0.0, minutes);
    setCyclicUpdate(m_cyclicSeconds);
}

void HistoryTrendModel::setCyclicUpdate(int seconds) {
    m_cyclicSeconds = std::max(0, seconds);
    if (m_cyclicSeconds > 0 && isRelative()) m_cyclic->start(m_cyclicSeconds * 1000);
    else m_cyclic->stop();
}

void HistoryTrendModel::setAggregate(const NodeId& aggregate, double processingIntervalMs) {
    m_aggregate = aggregate;
    m_intervalMs = std::max(0.0, processingIntervalMs);
}

// --- Reads -------------------------------------------------------------------------------------

void HistoryTrendModel::read() {
    if (m_series.empty()) return;
    if (m_reading) {
        // One read at a time: the settings changed meanwhile, so read again once it answers.
        m_readAgain = true;
        return;
    }
    std::vector<NodeId> nodes;
    std::vector<quint64> keys;
    for (const HistorySeries& s : m_series) {
        nodes.push_back(s.node);
        keys.push_back(s.key);
    }
    QDateTime start = m_start, end = m_end;
    if (isRelative()) {
        end = QDateTime::currentDateTimeUtc();
        start = end.addMSecs(-qint64(m_lastMinutes * 60000.0));
    }
    m_readStartMs = start.toMSecsSinceEpoch();
    m_readEndMs = end.toMSecsSinceEpoch();
    Client* client = m_connection->client();
    if (!client) {
        finishRead(ServiceResult<HistoryValues>{StatusCode(status::BadServerNotConnected), {}}, keys);
        return;
    }
    m_reading = true;
    m_readAgain = false;
    const quint64 generation = ++m_generation;
    HistoryReadOptions options;
    options.maxValues = m_maxValues;
    options.timestampsToReturn = TimestampsToReturn::Both;
    const char* aggregateName = m_aggregate.isNull() ? nullptr : aggregateNameOf(m_aggregate);
    const QString what = m_aggregate.isNull() ? QStringLiteral("raw")
                                              : QStringLiteral("%1 per %2 ms")
                                                    .arg(aggregateName ? QString::fromLatin1(aggregateName)
                                                                       : QString::fromStdString(m_aggregate.toString()))
                                                    .arg(m_intervalMs);
    const QString detail = QStringLiteral("%1 of %2 series, %3 .. %4")
                               .arg(what)
                               .arg(nodes.size())
                               .arg(start.toString(Qt::ISODateWithMs), end.toString(Qt::ISODateWithMs));
    QObject* op = m_connection->beginOperation(tr("History of %n series", nullptr, int(nodes.size())));
    auto done = detail::loggedOp<HistoryValues>(m_connection, op, this, QStringLiteral("HistoryRead"), detail,
                                                [this, keys, generation](const ServiceResult<HistoryValues>& r) {
                                                    if (generation != m_generation) return;
                                                    finishRead(r, keys);
                                                });
    // The user's Cancel drops the answer: the read is over (the series keep what they had).
    auto finished = detail::onCancel(op, this, [this, generation] {
        if (generation != m_generation) return;
        m_reading = false;
        emit readFinished(StatusCode(status::BadRequestCancelledByClient));
    });
    auto marked = [finished, done](const ServiceResult<HistoryValues>& r) {
        *finished = true;
        done(r);
    };
    if (m_aggregate.isNull()) {
        ReadRawModifiedDetails details;
        details.isReadModified = false;
        details.startTime = DateTime::fromQDateTime(start);
        details.endTime = DateTime::fromQDateTime(end);
        details.numValuesPerNode = 1000;  // per request; the ContinuationPoints bring the rest
        details.returnBounds = false;
        client->historyReadRaw(nodes, details, options, op, marked);
    } else {
        HistoryProcessedRead processed;
        processed.startTime = DateTime::fromQDateTime(start);
        processed.endTime = DateTime::fromQDateTime(end);
        processed.processingIntervalMs = m_intervalMs;
        processed.aggregateTypes = {m_aggregate};
        client->historyReadProcessed(nodes, processed, options, op, marked);
    }
}

void HistoryTrendModel::finishRead(const ServiceResult<HistoryValues>& r, const std::vector<quint64>& keys) {
    m_reading = false;
    ++m_readCount;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const int row = rowOfKey(keys[i]);
        if (row < 0) continue;  // removed meanwhile
        HistorySeries& s = m_series[std::size_t(row)];
        s.read = true;
        if (!r.isGood()) {
            s.status = r.status;
            s.values.clear();
            s.requests = 0;
        } else if (i >= r.response.nodes.size()) {
            s.status = status::BadUnknownResponse;
            s.values.clear();
        } else {
            const HistoryNodeValues& h = r.response.nodes[i];
            s.status = h.status;
            s.values = h.values;
            s.requests = h.requests;
        }
        emitRowChanged(row);
    }
    emit valuesChanged();
    emit readFinished(r.status);
    if (m_readAgain) read();
}

void HistoryTrendModel::emitRowChanged(int row) {
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

// --- Aggregates --------------------------------------------------------------------------------

void HistoryTrendModel::loadAggregates() {
    Client* client = m_connection->client();
    if (!client) return;
    BrowseRequest req;
    for (uint32_t folder : {id::HistoryServerCapabilities_AggregateFunctions, id::Server_ServerCapabilities_AggregateFunctions}) {
        BrowseDescription d;
        d.nodeId = NodeId(folder);
        d.browseDirection = BrowseDirection::Forward;
        d.referenceTypeId = NodeId(id::HierarchicalReferences);
        d.includeSubtypes = true;
        d.nodeClassMask = uint32_t(NodeClass::Object);
        d.resultMask = uint32_t(BrowseResultMask::All);
        req.nodesToBrowse.push_back(d);
    }
    QObject* op = m_connection->beginOperation(tr("Browse the aggregates"));
    client->browse(std::move(req), BrowseOptions{}, op,
                   detail::loggedOp<BrowseResponse>(
                       m_connection, op, this, QStringLiteral("Browse"), QStringLiteral("AggregateFunctions"),
                       [this](const ServiceResult<BrowseResponse>& r) {
                           std::vector<HistoryAggregate> found;
                           std::set<std::string> seen;
                           if (r.isGood())
                               for (const BrowseResult& result : r.response.results) {
                                   if (result.statusCode.isBad()) continue;
                                   for (const ReferenceDescription& ref : result.references) {
                                       if (!ref.nodeId.isLocal() || !seen.insert(ref.nodeId.nodeId.toString()).second) continue;
                                       QString name = ref.browseName.name.toQString();
                                       if (name.isEmpty()) name = ref.displayName.text.toQString();
                                       found.push_back({name, ref.nodeId.nodeId});
                                   }
                               }
                           m_aggregatesFromServer = !found.empty();
                           if (m_aggregatesFromServer) {
                               // In the order of OPC 10000-13 (the standard ones), then the vendor's by name.
                               auto rank = [](const HistoryAggregate& a) {
                                   const auto all = standardAggregates();
                                   for (std::size_t i = 0; i < all.size(); ++i)
                                       if (a.id == NodeId(all[i].id)) return int(i);
                                   return int(all.size());
                               };
                               std::stable_sort(found.begin(), found.end(), [&](const HistoryAggregate& a, const HistoryAggregate& b) {
                                   const int ra = rank(a), rb = rank(b);
                                   return ra != rb ? ra < rb : a.name < b.name;
                               });
                               m_aggregates = std::move(found);
                           } else {
                               m_aggregates = standardHistoryAggregates();
                           }
                           emit aggregatesLoaded(m_aggregatesFromServer);
                       }));
}

// --- Item model --------------------------------------------------------------------------------

int HistoryTrendModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_series.size());
}

int HistoryTrendModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryTrendModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_series.size())) return {};
    const HistorySeries& s = m_series[std::size_t(index.row())];
    switch (role) {
    case KeyRole: return s.key;
    case StatusCodeRole: return quint32(s.status.code);
    case ColorRole: return s.color;
    case Qt::DecorationRole:
        return index.column() == NameColumn ? QVariant(s.color) : QVariant();
    case Qt::ForegroundRole:
        return index.column() == StatusColumn && s.status.isBad() && s.read ? QVariant(QColor(0xb0, 0x00, 0x20)) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == StatusColumn && s.read)
            return QStringLiteral("%1 (%2 request(s))").arg(app::statusName(s.status)).arg(s.requests);
        return QString::fromStdString(s.node.toString());
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return s.name;
        case NodeIdColumn: {
            Client* client = m_connection->client();
            return client ? persistentNodeId(s.node, client->nodeIdConverter()) : QString::fromStdString(s.node.toString());
        }
        case CountColumn: return s.read ? QVariant(qulonglong(s.values.size())) : QVariant();
        case StatusColumn: return s.read ? app::statusName(s.status) : tr("reading ...");
        }
        return {};
    default: return {};
    }
}

QVariant HistoryTrendModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn: return tr("Series");
    case NodeIdColumn: return tr("NodeId");
    case CountColumn: return tr("Values");
    case StatusColumn: return tr("Status");
    }
    return {};
}

Qt::ItemFlags HistoryTrendModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::ItemIsDropEnabled;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDropEnabled;
}

QStringList HistoryTrendModel::mimeTypes() const {
    return {QString::fromLatin1(kNodeIdMimeType)};
}

bool HistoryTrendModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int, const QModelIndex&) const {
    return acceptsNodeIdDrop(data, action);
}

bool HistoryTrendModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent) {
    if (!canDropMimeData(data, action, row, column, parent)) return false;
    Client* client = m_connection->client();
    const std::vector<NodeId> nodes = nodeIdsFromMimeData(data, client ? client->nodeIdConverter() : NodeIdConverter());
    if (nodes.empty()) return false;
    addNodes(nodes);
    return true;
}

Qt::DropActions HistoryTrendModel::supportedDropActions() const {
    return Qt::CopyAction | Qt::MoveAction;
}

} // namespace ua::clientapp
