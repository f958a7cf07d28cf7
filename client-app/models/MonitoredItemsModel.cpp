#include "models/MonitoredItemsModel.h"

#include "core/Connection.h"
#include "ValueText.h"
#include "models/DataTypeNames.h"
#include "models/ModelCall.h"
#include "models/NodeIdMime.h"
#include "models/TrendBuffer.h"
#include "models/ValueTree.h"

#include <QColor>
#include <QMimeData>
#include <QRegularExpression>
#include <algorithm>

namespace ua::clientapp {

namespace {
QString timeText(const DateTime& t, bool has) {
    if (!has) return {};
    return t.toQDateTime().toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString deadbandText(uint32_t type, double value) {
    switch (type) {
    case 1: return QStringLiteral("Absolute %1").arg(value);
    case 2: return QStringLiteral("Percent %1").arg(value);
    default: return QStringLiteral("None");
    }
}

// "None", "Absolute 0.5", "Percent 2", or a bare number (Absolute).
bool parseDeadband(const QString& text, uint32_t& type, double& value) {
    const QString t = text.trimmed();
    if (t.isEmpty() || t.compare(QStringLiteral("none"), Qt::CaseInsensitive) == 0) {
        type = 0;
        value = 0;
        return true;
    }
    static const QRegularExpression re(QStringLiteral("^(absolute|percent)?\\s*([-+0-9.eE]+)\\s*%?$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(t);
    if (!m.hasMatch()) return false;
    bool ok = false;
    const double v = m.captured(2).toDouble(&ok);
    if (!ok || v < 0) return false;
    type = m.captured(1).compare(QStringLiteral("percent"), Qt::CaseInsensitive) == 0 ? 2u : 1u;
    value = v;
    return true;
}
} // namespace

struct MonitoredItemsModel::Row {
    uint32_t clientHandle = 0;
    NodeId nodeId;              // null until a persistent NodeId is resolved
    QString persistentId;       // from a project, until resolved
    QString displayName;
    NodeId dataType;
    DataValue value;
    bool hasValue = false;
    StatusCode itemStatus = status::BadWaitingForInitialData;  // create/modify result until a value
    double samplingMs = -1;
    uint32_t queueSize = 1;
    uint32_t deadbandType = 0;
    double deadbandValue = 0;
    double revisedSamplingMs = 0;
    uint32_t revisedQueueSize = 0;
    bool created = false;       // exists in the current subscription
    bool creating = false;
    bool refused = false;       // the server refused to create it: not asked again on this Client
    bool described = false;
    bool trend = false;
};

MonitoredItemsModel::MonitoredItemsModel(Connection* connection, QObject* parent)
    : QAbstractTableModel(parent), m_connection(connection), m_names(new DataTypeNames(connection, this)) {
    connect(m_names, &DataTypeNames::namesResolved, this, [this] {
        if (!m_rows.empty()) emit dataChanged(index(0, DataTypeColumn), index(rowCount() - 1, DataTypeColumn));
    });
    connect(connection, &Connection::clientChanged, this, [this] { onClientChanged(); });
    connect(connection, &Connection::serverChanged, this, [this] { removeAllRows(); });
    connect(connection, &Connection::stateChanged, this, [this](ClientState s, StatusCode) {
        if (s == ClientState::Connected) {
            setStale(false);
            onStateChanged();
        } else if (s == ClientState::Reconnecting || s == ClientState::Disconnected) {
            setStale(true);
        }
    });
}

MonitoredItemsModel::~MonitoredItemsModel() {
    // The subscription goes with the Client (or stays until the Session closes); deleting it here
    // would need the Client, which may be gone already.
    if (m_subscription && m_connection)  // the Connection may be gone first
        if (Client* c = m_connection->client()) c->deleteSubscription(m_subscription, nullptr, {});
}

// --- Connection -------------------------------------------------------------------------------

void MonitoredItemsModel::onClientChanged() {
    m_loadingTypes = false;  // a load for the old Client never ends (DataTypeCache::setClient)
    ++m_generation;
    m_stale = false;  // no value is shown until the new Client delivers one
    m_subscription = 0;  // it belonged to the old Client
    m_creatingSubscription = false;
    m_revisedPublishingIntervalMs = 0;
    for (Row& r : m_rows) {
        r.created = r.creating = r.refused = false;
        r.hasValue = false;
        r.itemStatus = status::BadWaitingForInitialData;
        r.revisedSamplingMs = 0;
        r.revisedQueueSize = 0;
    }
    if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void MonitoredItemsModel::onStateChanged() {
    Client* client = m_connection->client();
    if (!detail::isConnected(client)) return;
    // Project items stored as "nsu=" strings: resolved with this Session's NamespaceArray.
    const NodeIdConverter conv = client->nodeIdConverter();
    std::vector<uint32_t> undescribed;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        Row& r = m_rows[i];
        if (r.nodeId.isNull() && !r.persistentId.isEmpty()) {
            if (auto id = parseUserNodeId(r.persistentId, conv)) {
                r.nodeId = *id;
            } else {
                r.itemStatus = status::BadNodeIdUnknown;  // its namespace is not on this server
                emitRowChanged(int(i), 0, ColumnCount - 1);
            }
        }
        if (!r.described && !r.nodeId.isNull()) undescribed.push_back(r.clientHandle);
    }
    if (!undescribed.empty()) describe(undescribed);
    createPending();
}

void MonitoredItemsModel::setStale(bool stale) {
    if (stale == m_stale) return;
    m_stale = stale;
    if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void MonitoredItemsModel::removeAllRows() {
    if (m_rows.empty()) return;
    std::vector<std::pair<uint32_t, QString>> trends;
    for (const Row& r : m_rows)
        if (r.trend) trends.emplace_back(r.clientHandle, r.displayName);
    beginResetModel();
    m_rows.clear();
    m_rowOfHandle.clear();
    endResetModel();
    for (const auto& [h, name] : trends) emit trendChanged(h, false, name);
}

// --- Rows -------------------------------------------------------------------------------------

void MonitoredItemsModel::addRows(std::vector<Row> rows) {
    if (rows.empty()) return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(rows.size()) - 1);
    std::vector<uint32_t> handles;
    for (Row& r : rows) {
        m_rowOfHandle[r.clientHandle] = int(m_rows.size());
        if (!r.nodeId.isNull()) handles.push_back(r.clientHandle);
        m_rows.push_back(std::move(r));
    }
    endInsertRows();
    for (int i = first; i < int(m_rows.size()); ++i)
        if (m_rows[std::size_t(i)].trend)
            emit trendChanged(m_rows[std::size_t(i)].clientHandle, true, m_rows[std::size_t(i)].displayName);
    if (detail::isConnected(m_connection->client())) {
        describe(handles);
        createPending();
    }
}

void MonitoredItemsModel::addNodes(const std::vector<NodeId>& nodes) {
    std::vector<Row> rows;
    for (const NodeId& n : nodes) {
        if (n.isNull()) continue;
        Row r;
        r.clientHandle = m_nextHandle++;
        r.nodeId = n;
        r.displayName = QString::fromStdString(n.toString());
        r.samplingMs = m_defaultSamplingMs;
        r.queueSize = m_defaultQueueSize;
        rows.push_back(std::move(r));
    }
    addRows(std::move(rows));
}

void MonitoredItemsModel::setItems(const std::vector<ProjectItem>& items) {
    if (!m_rows.empty()) removeRows(0, rowCount());
    Client* client = m_connection->client();
    std::vector<Row> rows;
    for (const ProjectItem& p : items) {
        Row r;
        r.clientHandle = m_nextHandle++;
        r.persistentId = p.nodeId;
        if (detail::isConnected(client)) r.nodeId = parseUserNodeId(p.nodeId, client->nodeIdConverter()).value_or(NodeId());
        if (r.nodeId.isNull() && detail::isConnected(client)) r.itemStatus = status::BadNodeIdUnknown;
        r.displayName = p.displayName.isEmpty() ? p.nodeId : p.displayName;
        r.samplingMs = p.samplingIntervalMs;
        r.queueSize = p.queueSize;
        r.deadbandType = p.deadbandType;
        r.deadbandValue = p.deadbandValue;
        r.trend = p.trend;
        rows.push_back(std::move(r));
    }
    addRows(std::move(rows));
}

std::vector<ProjectItem> MonitoredItemsModel::items() const {
    std::vector<ProjectItem> out;
    Client* client = m_connection->client();
    const NodeIdConverter conv = client ? client->nodeIdConverter() : NodeIdConverter();
    for (const Row& r : m_rows) {
        ProjectItem p;
        p.nodeId = r.nodeId.isNull() ? r.persistentId : persistentNodeId(r.nodeId, conv);
        p.displayName = r.displayName;
        p.samplingIntervalMs = r.samplingMs;
        p.queueSize = r.queueSize;
        p.deadbandType = r.deadbandType;
        p.deadbandValue = r.deadbandValue;
        p.trend = r.trend;
        out.push_back(std::move(p));
    }
    return out;
}

void MonitoredItemsModel::setDefaultItemSettings(double samplingIntervalMs, uint32_t queueSize) {
    m_defaultSamplingMs = samplingIntervalMs;
    m_defaultQueueSize = queueSize;
}

void MonitoredItemsModel::describe(std::vector<uint32_t> handles) {
    Client* client = m_connection->client();
    if (!client || handles.empty()) return;
    ReadRequest req;
    req.timestampsToReturn = TimestampsToReturn::Neither;
    std::vector<uint32_t> asked;
    for (uint32_t h : handles) {
        const int row = rowOfClientHandle(h);
        if (row < 0 || m_rows[std::size_t(row)].nodeId.isNull()) continue;
        asked.push_back(h);
        for (AttributeId a : {AttributeId::DisplayName, AttributeId::DataType}) {
            ReadValueId r;
            r.nodeId = m_rows[std::size_t(row)].nodeId;
            r.attributeId = uint32_t(a);
            req.nodesToRead.push_back(std::move(r));
        }
    }
    if (asked.empty()) return;
    QObject* op = m_connection->beginOperation(tr("Read names of %n item(s)", nullptr, int(asked.size())));
    const quint64 generation = m_generation;
    client->read(std::move(req), op,
                 detail::loggedOp<ReadResponse>(
                     m_connection, op, this, QStringLiteral("Read"),
                     QStringLiteral("DisplayName, DataType of %1 items").arg(asked.size()),
                     [this, asked, generation](const ServiceResult<ReadResponse>& r) {
                         if (generation != m_generation || !r.isGood()) return;
                         std::vector<NodeId> types;
                         for (std::size_t i = 0; i < asked.size() && 2 * i + 1 < r.response.results.size(); ++i) {
                             const int row = rowOfClientHandle(asked[i]);
                             if (row < 0) continue;
                             Row& rw = m_rows[std::size_t(row)];
                             rw.described = true;
                             if (const auto* t = r.response.results[2 * i].value.get<LocalizedText>())
                                 if (!t->text.isNull()) rw.displayName = t->text.toQString();
                             if (const auto* t = r.response.results[2 * i + 1].value.get<NodeId>()) {
                                 rw.dataType = *t;
                                 types.push_back(*t);
                             }
                             emitRowChanged(row, DisplayNameColumn, DataTypeColumn);
                             if (rw.trend) emit trendChanged(rw.clientHandle, true, rw.displayName);
                         }
                         m_names->lookup(types);
                     }));
}

// --- Subscription -----------------------------------------------------------------------------

MonitoredItemSettings MonitoredItemsModel::settingsOf(const Row& r) const {
    MonitoredItemSettings s;
    s.mode = MonitoringMode::Reporting;
    s.samplingIntervalMs = r.samplingMs;
    s.queueSize = r.queueSize;
    s.discardOldest = true;
    if (r.deadbandType != 0) s.dataChangeFilter = DataChangeFilter{DataChangeTrigger::StatusValue, r.deadbandType, r.deadbandValue};
    return s;
}

void MonitoredItemsModel::ensureSubscription() {
    Client* client = m_connection->client();
    if (m_subscription || m_creatingSubscription || !detail::isConnected(client)) return;
    m_creatingSubscription = true;
    SubscriptionHandlers handlers;
    handlers.notification = [this](const SubscriptionNotification& n) { onNotification(n); };
    handlers.status = [this](const SubscriptionStatusChange& c) {
        if (c.handle != m_subscription || c.event != SubscriptionEvent::Lost) return;
        // Given up by the Client: create it again with every item.
        m_subscription = 0;
        for (Row& r : m_rows) r.created = r.creating = false;
        createPending();
    };
    QObject* op = m_connection->beginOperation(tr("Create subscription"));
    const quint64 generation = m_generation;
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("CreateSubscription"),
                                                  QStringLiteral("%1 ms").arg(m_settings.publishingIntervalMs));
    // The context is the model: the notifications must keep coming after the operation ended.
    client->createSubscription(m_settings, this, handlers,
                               detail::endThen<SubscriptionInfo>(m_connection, op, this, [this, generation, log](const SubscriptionInfo& i) {
                                   log->record(i.status);
                                   if (generation != m_generation) return;
                                   m_creatingSubscription = false;
                                   if (i.status.isBad()) {
                                       for (std::size_t k = 0; k < m_rows.size(); ++k) {
                                           m_rows[k].itemStatus = i.status;
                                           emitRowChanged(int(k), StatusColumn, StatusColumn);
                                       }
                                       emit subscriptionChanged(i.status, 0);
                                       return;
                                   }
                                   m_subscription = i.handle;
                                   m_revisedPublishingIntervalMs = i.revisedPublishingIntervalMs;
                                   emit subscriptionChanged(i.status, i.revisedPublishingIntervalMs);
                                   createPending();
                               }));
}

void MonitoredItemsModel::createPending() {
    Client* client = m_connection->client();
    if (!detail::isConnected(client)) return;
    std::vector<MonitoredItemSpec> specs;
    for (Row& r : m_rows) {
        if (r.created || r.creating || r.refused || r.nodeId.isNull()) continue;
        MonitoredItemSpec s;
        s.clientHandle = r.clientHandle;
        s.nodeId = r.nodeId;
        s.settings = settingsOf(r);
        specs.push_back(std::move(s));
    }
    if (specs.empty()) return;
    if (!m_subscription) {
        ensureSubscription();  // createPending() again when it exists
        return;
    }
    for (const MonitoredItemSpec& s : specs) m_rows[std::size_t(rowOfClientHandle(s.clientHandle))].creating = true;
    const std::size_t count = specs.size();
    QObject* op = m_connection->beginOperation(tr("Create %n monitored item(s)", nullptr, int(count)));
    const quint64 generation = m_generation;
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("CreateMonitoredItems"),
                                                  QStringLiteral("%1 items").arg(count));
    std::vector<uint32_t> handles;
    for (const MonitoredItemSpec& s : specs) handles.push_back(s.clientHandle);
    auto cancelled = detail::onCancel(op, this, [this, handles, generation] {
        if (generation != m_generation) return;
        for (uint32_t h : handles) {
            const int row = rowOfClientHandle(h);
            if (row < 0 || !m_rows[std::size_t(row)].creating) continue;
            m_rows[std::size_t(row)].creating = false;
            m_rows[std::size_t(row)].itemStatus = status::BadRequestCancelledByClient;
            emitRowChanged(row, StatusColumn, StatusColumn);
        }
    });
    client->createMonitoredItems(
        m_subscription, std::move(specs), op,
        detail::endThen<MonitoredItemsResult>(m_connection, op, this, [this, generation, log, handles, cancelled](const MonitoredItemsResult& res) {
            *cancelled = true;
            log->record(res.status, detail::failures(res.items, [](const MonitoredItemResult& i) { return i.statusCode; }));
            if (generation != m_generation) return;
            for (uint32_t h : handles) {
                const int row = rowOfClientHandle(h);
                if (row < 0) continue;
                Row& r = m_rows[std::size_t(row)];
                r.creating = false;
                if (res.status.isBad()) r.itemStatus = res.status;
            }
            for (const MonitoredItemResult& i : res.items) {
                const int row = rowOfClientHandle(i.clientHandle);
                if (row < 0) {
                    // Removed while being created: delete it on the server too.
                    if (i.statusCode.isGood() && m_subscription)
                        if (Client* c = m_connection->client()) c->deleteMonitoredItems(m_subscription, {i.clientHandle}, nullptr, {});
                    continue;
                }
                Row& r = m_rows[std::size_t(row)];
                r.created = i.statusCode.isGood();
                r.refused = i.statusCode.isBad();
                r.itemStatus = i.statusCode;
                r.revisedSamplingMs = i.revisedSamplingIntervalMs;
                r.revisedQueueSize = i.revisedQueueSize;
                emitRowChanged(row, StatusColumn, DeadbandColumn);
            }
            emit itemsServiceFinished(QStringLiteral("CreateMonitoredItems"), res.status);
        }));
}

// Custom structures in a value: their DataTypes read once (Connection::dataTypes), then shown by field.
void MonitoredItemsModel::loadValueTypes(const Variant& value) {
    DataTypeCache* types = m_connection ? m_connection->dataTypes() : nullptr;
    if (!types || m_loadingTypes || !types->needsLoad(value)) return;
    m_loadingTypes = true;
    types->load(value, [this, alive = QPointer<MonitoredItemsModel>(this)] {
        if (!alive) return;  // the model went first
        m_loadingTypes = false;
        if (!m_rows.empty()) emit dataChanged(index(0, ValueColumn), index(rowCount() - 1, ValueColumn));
    });
}

void MonitoredItemsModel::onNotification(const SubscriptionNotification& n) {
    if (n.handle != m_subscription) return;
    for (const MonitoredItemNotification& c : n.dataChanges) {
        const int row = rowOfClientHandle(c.clientHandle);
        if (row < 0) continue;
        Row& r = m_rows[std::size_t(row)];
        r.value = c.value;
        r.hasValue = true;
        loadValueTypes(c.value.value);
        emitRowChanged(row, ValueColumn, ServerTimestampColumn);
        emit valueChanged(row, c.clientHandle, c.value);
    }
}

void MonitoredItemsModel::setSubscriptionSettings(const SubscriptionSettings& settings) {
    m_settings = settings;
    Client* client = m_connection->client();
    if (!m_subscription || !client) return;
    QObject* op = m_connection->beginOperation(tr("Modify subscription"));
    const quint64 generation = m_generation;
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("ModifySubscription"),
                                                  QStringLiteral("%1 ms").arg(settings.publishingIntervalMs));
    client->modifySubscription(m_subscription, settings, op,
                               detail::endThen<SubscriptionInfo>(m_connection, op, this, [this, generation, log](const SubscriptionInfo& i) {
                                   log->record(i.status);
                                   if (generation != m_generation) return;
                                   if (i.status.isGood()) m_revisedPublishingIntervalMs = i.revisedPublishingIntervalMs;
                                   emit subscriptionChanged(i.status, m_revisedPublishingIntervalMs);
                                   // Items sampling at the publishing interval (-1) follow it.
                                   for (std::size_t k = 0; k < m_rows.size(); ++k)
                                       if (m_rows[k].samplingMs < 0) emitRowChanged(int(k), SamplingIntervalColumn, SamplingIntervalColumn);
                               }));
}

void MonitoredItemsModel::setPublishingInterval(double ms) {
    SubscriptionSettings s = m_settings;
    s.publishingIntervalMs = ms;
    setSubscriptionSettings(s);
}

void MonitoredItemsModel::setItemSettings(int row, double samplingIntervalMs, uint32_t queueSize, uint32_t deadbandType,
                                          double deadbandValue) {
    if (row < 0 || row >= rowCount()) return;
    Row& r = m_rows[std::size_t(row)];
    r.samplingMs = samplingIntervalMs;
    r.queueSize = queueSize;
    r.deadbandType = deadbandType;
    r.deadbandValue = deadbandValue;
    emitRowChanged(row, SamplingIntervalColumn, DeadbandColumn);
    Client* client = m_connection->client();
    if (!r.created || !m_subscription || !client) return;
    const uint32_t handle = r.clientHandle;
    QObject* op = m_connection->beginOperation(tr("Modify monitored item"));
    const quint64 generation = m_generation;
    auto log = std::make_shared<detail::LogTimer>(
        m_connection, QStringLiteral("ModifyMonitoredItems"),
        QStringLiteral("%1: %2 ms, queue %3, %4").arg(r.displayName).arg(samplingIntervalMs).arg(queueSize).arg(deadbandText(deadbandType, deadbandValue)));
    client->modifyMonitoredItems(
        m_subscription, {MonitoredItemChange{handle, settingsOf(r)}}, op,
        detail::endThen<MonitoredItemsResult>(m_connection, op, this, [this, generation, log, handle](const MonitoredItemsResult& res) {
            log->record(res.status, detail::failures(res.items, [](const MonitoredItemResult& i) { return i.statusCode; }));
            if (generation != m_generation) return;
            const int row = rowOfClientHandle(handle);
            if (row >= 0) {
                Row& rw = m_rows[std::size_t(row)];
                StatusCode s = res.status;
                if (s.isGood() && !res.items.empty()) {
                    s = res.items[0].statusCode;
                    if (s.isGood()) {
                        rw.revisedSamplingMs = res.items[0].revisedSamplingIntervalMs;
                        rw.revisedQueueSize = res.items[0].revisedQueueSize;
                    }
                }
                rw.itemStatus = s;
                emitRowChanged(row, StatusColumn, DeadbandColumn);
            }
            emit itemsServiceFinished(QStringLiteral("ModifyMonitoredItems"), res.status);
        }));
}

bool MonitoredItemsModel::removeRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount()) return false;
    std::vector<uint32_t> created;
    std::vector<std::pair<uint32_t, QString>> trends;
    for (int i = row; i < row + count; ++i) {
        const Row& r = m_rows[std::size_t(i)];
        if (r.created) created.push_back(r.clientHandle);
        if (r.trend) trends.emplace_back(r.clientHandle, r.displayName);
    }
    beginRemoveRows({}, row, row + count - 1);
    m_rows.erase(m_rows.begin() + row, m_rows.begin() + row + count);
    m_rowOfHandle.clear();
    for (std::size_t i = 0; i < m_rows.size(); ++i) m_rowOfHandle[m_rows[i].clientHandle] = int(i);
    endRemoveRows();
    for (const auto& [h, name] : trends) emit trendChanged(h, false, name);
    Client* client = m_connection->client();
    if (created.empty() || !m_subscription || !client) return true;
    QObject* op = m_connection->beginOperation(tr("Delete %n monitored item(s)", nullptr, int(created.size())));
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("DeleteMonitoredItems"),
                                                  QStringLiteral("%1 items").arg(created.size()));
    client->deleteMonitoredItems(m_subscription, created, op,
                                 detail::endThen<MonitoredItemsResult>(m_connection, op, this, [this, log](const MonitoredItemsResult& res) {
                                     log->record(res.status, detail::failures(res.items, [](const MonitoredItemResult& i) { return i.statusCode; }));
                                     emit itemsServiceFinished(QStringLiteral("DeleteMonitoredItems"), res.status);
                                 }));
    return true;
}

// --- Access -----------------------------------------------------------------------------------

uint32_t MonitoredItemsModel::clientHandleAt(int row) const {
    return row >= 0 && row < rowCount() ? m_rows[std::size_t(row)].clientHandle : 0;
}

int MonitoredItemsModel::rowOfClientHandle(uint32_t clientHandle) const {
    auto it = m_rowOfHandle.find(clientHandle);
    return it == m_rowOfHandle.end() ? -1 : it->second;
}

NodeId MonitoredItemsModel::nodeIdAt(int row) const {
    return row >= 0 && row < rowCount() ? m_rows[std::size_t(row)].nodeId : NodeId();
}

QString MonitoredItemsModel::displayNameAt(int row) const {
    return row >= 0 && row < rowCount() ? m_rows[std::size_t(row)].displayName : QString();
}

const DataValue* MonitoredItemsModel::lastValueAt(int row) const {
    if (row < 0 || row >= rowCount() || !m_rows[std::size_t(row)].hasValue) return nullptr;
    return &m_rows[std::size_t(row)].value;
}

bool MonitoredItemsModel::trendAt(int row) const {
    return row >= 0 && row < rowCount() && m_rows[std::size_t(row)].trend;
}

void MonitoredItemsModel::setTrend(int row, bool on) {
    if (row < 0 || row >= rowCount() || m_rows[std::size_t(row)].trend == on) return;
    Row& r = m_rows[std::size_t(row)];
    r.trend = on;
    emitRowChanged(row, DisplayNameColumn, DisplayNameColumn);
    emit trendChanged(r.clientHandle, on, r.displayName);
}

void MonitoredItemsModel::emitRowChanged(int row, int firstColumn, int lastColumn) {
    emit dataChanged(index(row, firstColumn), index(row, lastColumn));
}

// --- Model ------------------------------------------------------------------------------------

int MonitoredItemsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MonitoredItemsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MonitoredItemsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& r = m_rows[std::size_t(index.row())];
    StatusCode shownStatus = r.itemStatus.isBad() || !r.hasValue ? r.itemStatus : r.value.status;
    // Lost connection: every row but one the server refused (its failure says more), also an item
    // created whose first value has not come yet (its create status, Good, is no news either).
    const bool stale = m_stale && !r.refused;
    if (stale) shownStatus = status::BadServerNotConnected;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case DisplayNameColumn: return r.displayName;
        case NodeIdColumn:
            return r.nodeId.isNull() ? r.persistentId : QString::fromStdString(r.nodeId.toString());
        case ValueColumn: return r.hasValue ? valueText(r.value.value, m_connection ? m_connection->dataTypes() : nullptr, detail::kShownElements) : QString();
        case DataTypeColumn:
            if (r.dataType.isNull()) return QString();
            return m_names->known(r.dataType).value_or(QString::fromStdString(r.dataType.toString()));
        case StatusColumn: return app::statusName(shownStatus);
        case SourceTimestampColumn: return timeText(r.value.sourceTimestamp, r.hasValue && r.value.hasSourceTimestamp);
        case ServerTimestampColumn: return timeText(r.value.serverTimestamp, r.hasValue && r.value.hasServerTimestamp);
        case SamplingIntervalColumn:
            if (role == Qt::EditRole) return r.samplingMs;
            return r.created ? QVariant(r.revisedSamplingMs) : QVariant(r.samplingMs);
        case QueueSizeColumn:
            if (role == Qt::EditRole) return uint(r.queueSize);
            return uint(r.created ? r.revisedQueueSize : r.queueSize);
        case DeadbandColumn: return deadbandText(r.deadbandType, r.deadbandValue);
        default: return {};
        }
    case Qt::CheckStateRole:
        if (index.column() == DisplayNameColumn) return r.trend ? Qt::Checked : Qt::Unchecked;
        return {};
    case Qt::ForegroundRole:
        if (stale && index.column() >= ValueColumn && index.column() <= ServerTimestampColumn) return QColor(0x8a, 0x8a, 0x8a);
        return {};
    case Qt::ToolTipRole:
        if (stale && (index.column() == ValueColumn || index.column() == StatusColumn))
            return r.hasValue ? tr("The connection to the server is lost: the last value received (status %1), not the current one")
                                    .arg(app::statusName(r.itemStatus.isBad() ? r.itemStatus : r.value.status))
                              : tr("The connection to the server is lost: no value received yet");
        if (index.column() == ValueColumn && r.hasValue) return valueText(r.value.value, m_connection ? m_connection->dataTypes() : nullptr, 0);
        if (index.column() == SamplingIntervalColumn) return tr("requested %1 ms").arg(r.samplingMs);
        if (index.column() == StatusColumn) return QString::fromLatin1(shownStatus.description());
        return {};
    case ClientHandleRole: return uint(r.clientHandle);
    case NodeIdRole: return r.nodeId.isNull() ? r.persistentId : QString::fromStdString(r.nodeId.toString());
    case NumericValueRole:
        if (r.hasValue && r.value.value.isScalar())
            if (auto v = TrendBuffer::numericValue(r.value.value)) return *v;
        return {};
    case StatusCodeRole: return uint(shownStatus.code);
    case StaleRole: return stale;
    default: return {};
    }
}

bool MonitoredItemsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.row() >= rowCount()) return false;
    const int row = index.row();
    const Row& r = m_rows[std::size_t(row)];
    if (role == Qt::CheckStateRole && index.column() == DisplayNameColumn) {
        setTrend(row, value.toInt() == Qt::Checked);
        return true;
    }
    if (role != Qt::EditRole) return false;
    bool ok = false;
    switch (index.column()) {
    case SamplingIntervalColumn: {
        const double ms = value.toDouble(&ok);
        if (!ok || ms < -1) return false;
        setItemSettings(row, ms, r.queueSize, r.deadbandType, r.deadbandValue);
        return true;
    }
    case QueueSizeColumn: {
        const uint q = value.toUInt(&ok);
        if (!ok) return false;
        setItemSettings(row, r.samplingMs, q, r.deadbandType, r.deadbandValue);
        return true;
    }
    case DeadbandColumn: {
        uint32_t type = 0;
        double v = 0;
        if (!parseDeadband(value.toString(), type, v)) return false;
        setItemSettings(row, r.samplingMs, r.queueSize, type, v);
        return true;
    }
    default:
        return false;
    }
}

Qt::ItemFlags MonitoredItemsModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::ItemIsDropEnabled;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDropEnabled;
    switch (index.column()) {
    case DisplayNameColumn: return f | Qt::ItemIsUserCheckable;
    case SamplingIntervalColumn:
    case QueueSizeColumn:
    case DeadbandColumn: return f | Qt::ItemIsEditable;
    default: return f;
    }
}

QVariant MonitoredItemsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case DisplayNameColumn: return tr("Display name");
    case NodeIdColumn: return tr("NodeId");
    case ValueColumn: return tr("Value");
    case DataTypeColumn: return tr("DataType");
    case StatusColumn: return tr("Status");
    case SourceTimestampColumn: return tr("Source timestamp");
    case ServerTimestampColumn: return tr("Server timestamp");
    case SamplingIntervalColumn: return tr("Sampling (ms)");
    case QueueSizeColumn: return tr("Queue size");
    case DeadbandColumn: return tr("Deadband");
    default: return {};
    }
}

QStringList MonitoredItemsModel::mimeTypes() const {
    return {QString::fromLatin1(kNodeIdMimeType)};
}

bool MonitoredItemsModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int, const QModelIndex&) const {
    return acceptsNodeIdDrop(data, action);
}

bool MonitoredItemsModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                                       const QModelIndex& parent) {
    if (!canDropMimeData(data, action, row, column, parent)) return false;
    Client* client = m_connection->client();
    const std::vector<NodeId> nodes = nodeIdsFromMimeData(data, client ? client->nodeIdConverter() : NodeIdConverter());
    if (nodes.empty()) return false;
    addNodes(nodes);
    return true;
}

Qt::DropActions MonitoredItemsModel::supportedDropActions() const {
    return Qt::CopyAction | Qt::MoveAction;
}

} // namespace ua::clientapp
