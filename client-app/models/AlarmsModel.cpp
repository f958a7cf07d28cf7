#include "models/AlarmsModel.h"

#include "SeverityColor.h"
#include "core/Connection.h"
#include "ValueText.h"
#include "models/DataTypeNames.h"
#include "models/ModelCall.h"
#include "ua/encoding/generated/NodeIds.h"

namespace ua::clientapp {

namespace {
constexpr uint32_t kAlarmQueueSize = 1000;  // events the server keeps between two Publishes (a refresh of many conditions)

QString alarmTimeText(const DateTime& t) {
    if (!t.ticks) return {};
    return t.toQDateTime().toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString alarmSourceText(const ConditionEvent& e) {
    if (!e.sourceName.isEmpty()) return e.sourceName.toQString();
    return e.sourceNode.isNull() ? QString() : QString::fromStdString(e.sourceNode.toString());
}

QString alarmConditionText(const ConditionEvent& e) {
    if (!e.conditionName.isEmpty()) return e.conditionName.toQString();
    return e.conditionId.isNull() ? QString() : QString::fromStdString(e.conditionId.toString());
}

// The roles both models share (AlarmRole).
QVariant alarmSharedRole(const ConditionEvent& e, int role) {
    switch (role) {
    case SeverityRole: return e.isCondition() || e.kind == ConditionEvent::Kind::Other ? int(e.severity) : -1;
    case SourceRole: return alarmSourceText(e);
    case ConditionIdRole: return e.conditionId.isNull() ? QString() : QString::fromStdString(e.conditionId.toString());
    case EventIdRole: return QString::fromStdString(eventIdHex(e.eventId));
    default: return {};
    }
}

bool alarmIsConnected(const Client* c) {
    return c && c->state() == ClientState::Connected;
}
} // namespace

QColor alarmSeverityColor(uint16_t severity) { return app::severityColor(severity); }

// --- AlarmJournalModel -------------------------------------------------------------------------

AlarmJournalModel::AlarmJournalModel(DataTypeNames* names, int capacity, QObject* parent)
    : QAbstractTableModel(parent), m_names(names), m_capacity(std::max(1, capacity)) {
    connect(m_names, &DataTypeNames::namesResolved, this, [this] {
        if (!m_events.empty()) emit dataChanged(index(0, Event), index(rowCount() - 1, Event));
    });
}

void AlarmJournalModel::append(const ConditionEvent& e) {
    if (int(m_events.size()) >= m_capacity) {
        beginRemoveRows({}, 0, 0);
        m_events.pop_front();
        endRemoveRows();
    }
    const int row = int(m_events.size());
    beginInsertRows({}, row, row);
    m_events.push_back(e);
    endInsertRows();
}

void AlarmJournalModel::clear() {
    if (m_events.empty()) return;
    beginResetModel();
    m_events.clear();
    endResetModel();
}

const ConditionEvent* AlarmJournalModel::eventAt(int row) const {
    if (row < 0 || row >= int(m_events.size())) return nullptr;
    return &m_events[std::size_t(row)];
}

int AlarmJournalModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_events.size());
}

int AlarmJournalModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlarmJournalModel::data(const QModelIndex& index, int role) const {
    const ConditionEvent* e = index.isValid() ? eventAt(index.row()) : nullptr;
    if (!e || index.column() >= ColumnCount) return {};
    if (role >= SeverityRole) return alarmSharedRole(*e, role);
    const bool refresh = e->kind == ConditionEvent::Kind::RefreshStart || e->kind == ConditionEvent::Kind::RefreshEnd;
    if (role == Qt::BackgroundRole && index.column() == Severity && !refresh) return alarmSeverityColor(e->severity);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (Column(index.column())) {
    case Time: return alarmTimeText(e->time);
    case Severity: return refresh ? QVariant() : QVariant(int(e->severity));
    case Source: return alarmSourceText(*e);
    case Condition: return alarmConditionText(*e);
    case Event:
        if (e->kind == ConditionEvent::Kind::RefreshStart) return QStringLiteral("RefreshStart");
        if (e->kind == ConditionEvent::Kind::RefreshEnd) return QStringLiteral("RefreshEnd");
        return e->eventType.isNull() ? QString() : m_names->nameOrLookup(e->eventType);
    case State: return e->isCondition() ? QString::fromStdString(conditionStateText(*e)) : QString();
    case Message: return e->message.text.toQString();
    case ColumnCount: break;
    }
    return {};
}

QVariant AlarmJournalModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case Time: return tr("Time");
    case Severity: return tr("Severity");
    case Source: return tr("Source");
    case Condition: return tr("Condition");
    case Event: return tr("Event");
    case State: return tr("State");
    case Message: return tr("Message");
    case ColumnCount: break;
    }
    return {};
}

// --- AlarmsModel -------------------------------------------------------------------------------

AlarmsModel::AlarmsModel(Connection* connection, QObject* parent)
    : QAbstractTableModel(parent),
      m_connection(connection),
      m_names(new DataTypeNames(connection, this)),
      m_journal(new AlarmJournalModel(m_names, 1000, this)),
      m_notifier(NodeId(id::Server)),
      m_status(status::BadWaitingForInitialData),
      m_refreshStatus(status::BadWaitingForInitialData),
      m_methodStatus(status::BadWaitingForInitialData) {
    connect(connection, &Connection::clientChanged, this, [this] {
        ++m_generation;
        m_subscription = 0;  // it belonged to the old Client
        m_subscriptionId = 0;
        m_clientHandle = 0;
        m_itemReady = false;
        m_inRefresh = false;
        m_refreshCalling = m_refreshAgain = false;
        setStatus(status::BadWaitingForInitialData);
    });
    connect(connection, &Connection::serverChanged, this, [this] {
        clear();
        if (m_notifier.namespaceIndex() != 0) {  // its index means nothing on the new server
            static const NodeId server(id::Server);
            m_notifier = server;
            emit notifierReset(m_notifier);
        }
    });
    connect(connection, &Connection::stateChanged, this, [this](ClientState s, StatusCode) {
        if (s == ClientState::Reconnecting) {
            m_reconnecting = true;
            return;
        }
        if (s != ClientState::Connected) return;
        const bool wasReconnecting = m_reconnecting;
        m_reconnecting = false;
        if (m_running && !m_subscription) return subscribe();
        // Back on the same Session: the subscription lives on, but what happened meanwhile may
        // not all have come (OPC 10000-9 4.5). A new Session: Transferred / Recreated refresh.
        Client* client = m_connection ? m_connection->client() : nullptr;
        if (wasReconnecting && m_itemReady && client && client->sessionId() == m_sessionId) refresh();
    });
}

AlarmsModel::~AlarmsModel() {
    if (m_subscription && m_connection)
        if (Client* c = m_connection->client()) c->deleteSubscription(m_subscription, nullptr, {});
}

void AlarmsModel::setNotifier(const NodeId& notifier) {
    if (notifier == m_notifier) return;
    m_notifier = notifier;
    clear();
    if (m_running && m_subscription) createItem();
}

void AlarmsModel::setPublishingInterval(double ms) {
    m_publishingIntervalMs = ms;
}

void AlarmsModel::start() {
    m_running = true;
    if (!m_subscription) subscribe();
}

void AlarmsModel::stop() {
    m_running = false;
    unsubscribe();
}

void AlarmsModel::clear() {
    m_journal->clear();
    if (m_rows.empty()) return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void AlarmsModel::setStatus(StatusCode s) {
    if (s == m_status) return;
    m_status = s;
    emit statusChanged(s);
}

void AlarmsModel::subscribe() {
    Client* client = m_connection ? m_connection->client() : nullptr;
    if (!alarmIsConnected(client)) return;  // on Connected
    SubscriptionSettings settings;
    settings.publishingIntervalMs = m_publishingIntervalMs;
    SubscriptionHandlers handlers;
    handlers.notification = [this](const SubscriptionNotification& n) { onNotification(n); };
    handlers.status = [this](const SubscriptionStatusChange& c) { onStatus(c); };
    const quint64 generation = ++m_generation;
    m_subscription = 0;
    m_itemReady = false;
    QObject* op = m_connection->beginOperation(tr("Subscribe to alarms"));
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("CreateSubscription"),
                                                  QStringLiteral("alarms, %1 ms").arg(m_publishingIntervalMs));
    client->createSubscription(settings, this, handlers,
                               detail::endThen<SubscriptionInfo>(m_connection, op, this, [this, generation, log](const SubscriptionInfo& i) {
                                   log->record(i.status);
                                   if (generation != m_generation) {
                                       if (i.status.isGood() && m_connection)
                                           if (Client* c = m_connection->client()) c->deleteSubscription(i.handle, nullptr, {});
                                       return;
                                   }
                                   if (i.status.isBad()) return setStatus(i.status);
                                   m_subscription = i.handle;
                                   m_subscriptionId = i.subscriptionId;
                                   if (Client* c = m_connection ? m_connection->client() : nullptr) m_sessionId = c->sessionId();
                                   createItem();
                               }));
}

void AlarmsModel::unsubscribe() {
    ++m_generation;
    Client* client = m_connection ? m_connection->client() : nullptr;
    const SubscriptionHandle h = m_subscription;
    m_subscription = 0;
    m_subscriptionId = 0;
    m_clientHandle = 0;
    m_itemReady = false;
    m_inRefresh = false;
    m_refreshCalling = m_refreshAgain = false;
    setStatus(status::BadWaitingForInitialData);
    if (!h || !client) return;
    QObject* op = m_connection->beginOperation(tr("Unsubscribe from alarms"));
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("DeleteSubscriptions"), QStringLiteral("alarms"));
    client->deleteSubscription(h, op, detail::endThen<StatusCode>(m_connection, op, this, [log](const StatusCode& s) { log->record(s); }));
}

void AlarmsModel::createItem() {
    Client* client = m_connection ? m_connection->client() : nullptr;
    if (!client || !m_subscription) return;
    if (m_clientHandle) client->deleteMonitoredItems(m_subscription, {m_clientHandle}, nullptr, {});
    m_clientHandle = m_nextHandle++;
    m_itemReady = false;
    m_inRefresh = false;
    MonitoredItemSpec spec;
    spec.clientHandle = m_clientHandle;
    spec.nodeId = m_notifier;
    spec.attributeId = uint32_t(AttributeId::EventNotifier);
    spec.settings.samplingIntervalMs = 0;
    spec.settings.queueSize = kAlarmQueueSize;
    spec.settings.eventFilter = conditionEventFilter();
    const uint32_t handle = m_clientHandle;
    const quint64 generation = m_generation;
    const QString notifier = QString::fromStdString(m_notifier.toString());
    QObject* op = m_connection->beginOperation(tr("Monitor the alarms of %1").arg(notifier));
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("CreateMonitoredItems"),
                                                  QStringLiteral("alarms of %1 (condition events)").arg(notifier));
    setStatus(status::BadWaitingForInitialData);
    client->createMonitoredItems(
        m_subscription, {std::move(spec)}, op,
        detail::endThen<MonitoredItemsResult>(m_connection, op, this, [this, log, handle, generation](const MonitoredItemsResult& r) {
            StatusCode s = r.status;
            if (s.isGood()) s = r.items.empty() ? StatusCode(status::BadUnknownResponse) : r.items[0].statusCode;
            log->record(s);
            if (generation != m_generation || handle != m_clientHandle) return;
            setStatus(s);
            m_itemReady = s.isGood();
            if (m_itemReady) refresh();  // the conditions that are already there (OPC 10000-9 4.5)
        }));
}

void AlarmsModel::onStatus(const SubscriptionStatusChange& c) {
    if (c.handle != m_subscription) return;
    switch (c.event) {
    case SubscriptionEvent::Lost:
        m_subscription = 0;
        m_subscriptionId = 0;
        m_itemReady = false;
        setStatus(c.status);
        if (m_running) subscribe();
        break;
    case SubscriptionEvent::Transferred:
    case SubscriptionEvent::Recreated:
        m_subscriptionId = c.subscriptionId;
        if (m_connection)
            if (Client* client = m_connection->client()) m_sessionId = client->sessionId();
        m_inRefresh = false;
        refresh();
        break;
    case SubscriptionEvent::MessagesLost: refresh(); break;
    default: break;
    }
}

void AlarmsModel::refresh() {
    Client* client = m_connection ? m_connection->client() : nullptr;
    if (!client || !m_subscription || !m_subscriptionId || !m_itemReady) return;
    if (m_refreshCalling) {
        m_refreshAgain = true;
        return;
    }
    m_refreshCalling = true;
    const quint64 generation = m_generation;
    const uint32_t id = m_subscriptionId;
    QObject* op = m_connection->beginOperation(tr("ConditionRefresh"));
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("Call"),
                                                  QStringLiteral("ConditionRefresh of subscription %1").arg(id));
    // A cancelled operation (the window's Cancel) drops the callback: allow the next refresh.
    auto finished = detail::onCancel(op, this, [this, generation] {
        if (generation == m_generation) m_refreshCalling = false;
    });
    conditionRefresh(*client, id, op, detail::endThen<StatusCode>(m_connection, op, this, [this, log, generation, finished](const StatusCode& s) {
                         *finished = true;
                         log->record(s);
                         if (generation != m_generation) return;
                         m_refreshCalling = false;
                         m_refreshStatus = s;
                         emit refreshCalled(s);
                         if (m_refreshAgain) {
                             m_refreshAgain = false;
                             refresh();
                         }
                     }));
}

void AlarmsModel::onNotification(const SubscriptionNotification& n) {
    if (n.handle != m_subscription) return;
    int count = 0;
    for (const EventFieldList& f : n.events) {
        if (f.clientHandle != m_clientHandle) continue;
        const ConditionEvent e = parseConditionEvent(f.eventFields);
        m_journal->append(e);
        apply(e);
        ++count;
    }
    if (count) emit eventsReceived(count);
}

void AlarmsModel::apply(const ConditionEvent& e) {
    switch (e.kind) {
    case ConditionEvent::Kind::RefreshStart:
        m_inRefresh = true;
        for (Row& r : m_rows) r.marked = true;
        return;
    case ConditionEvent::Kind::RefreshEnd:
        if (!m_inRefresh) return;  // the end of a refresh whose start this item did not see
        m_inRefresh = false;
        for (int row = int(m_rows.size()) - 1; row >= 0; --row)
            if (m_rows[std::size_t(row)].marked && m_rows[std::size_t(row)].event.enabled) dropRow(row);
        for (Row& r : m_rows) r.marked = false;
        ++m_refreshesCompleted;
        emit refreshCompleted();
        return;
    case ConditionEvent::Kind::Other: return;
    case ConditionEvent::Kind::Condition: break;
    }
    const int row = rowOf(e.conditionId, e.branchId);
    if (!e.retain && e.enabled) {
        if (row >= 0) dropRow(row);
        return;
    }
    if (row < 0) {
        const int at = int(m_rows.size());
        beginInsertRows({}, at, at);
        m_rows.push_back(Row{e, false});
        endInsertRows();
        return;
    }
    Row& r = m_rows[std::size_t(row)];
    ConditionEvent next = e;
    if (!e.enabled) {
        // A disabled condition's other fields may be missing (Bad_ConditionDisabled in their place):
        // keep what the row showed.
        if (next.sourceName.isEmpty()) next.sourceName = r.event.sourceName;
        if (next.conditionName.isEmpty()) next.conditionName = r.event.conditionName;
        if (next.message.text.isEmpty()) next.message = r.event.message;
        if (!next.severity) next.severity = r.event.severity;
    }
    r.event = std::move(next);
    r.marked = false;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void AlarmsModel::dropRow(int row) {
    beginRemoveRows({}, row, row);
    m_rows.erase(m_rows.begin() + row);
    endRemoveRows();
}

const ConditionEvent* AlarmsModel::conditionAt(int row) const {
    if (row < 0 || row >= int(m_rows.size())) return nullptr;
    return &m_rows[std::size_t(row)].event;
}

int AlarmsModel::rowOf(const NodeId& conditionId, const NodeId& branchId) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const ConditionEvent& e = m_rows[i].event;
        // A null BranchId and an absent one are the same: the condition itself.
        if (e.conditionId == conditionId && (e.branchId == branchId || (e.branchId.isNull() && branchId.isNull()))) return int(i);
    }
    return -1;
}

bool AlarmsModel::callMethod(int row, AlarmMethod method, const QString& comment, double shelvingTimeMs) {
    const ConditionEvent* e = conditionAt(row);
    Client* client = m_connection ? m_connection->client() : nullptr;
    if (!e || !client) return false;
    AlarmMethodCall call;
    call.method = method;
    call.conditionId = e->conditionId;
    call.eventId = e->eventId;
    call.comment.text = String::fromQString(comment);
    call.shelvingTimeMs = shelvingTimeMs;
    const QString name = QLatin1String(alarmMethodName(method));
    const QString condition = alarmConditionText(*e);
    QObject* op = m_connection->beginOperation(tr("%1 %2").arg(name, condition));
    QString what = QStringLiteral("%1 %2 (%3)").arg(name, condition, QString::fromStdString(e->conditionId.toString()));
    if (method == AlarmMethod::TimedShelve) what += QStringLiteral(" for %1 ms").arg(shelvingTimeMs);
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("Call"), what);
    callAlarmMethod(*client, call, op, detail::endThen<StatusCode>(m_connection, op, this, [this, log, name, condition](const StatusCode& s) {
                            log->record(s);
                            m_methodStatus = s;
                            emit methodFinished(name, condition, s);
                        }));
    return true;
}

int AlarmsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AlarmsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlarmsModel::rowColor(const Row& r, int column, int role) const {
    const ConditionEvent& e = r.event;
    if (role == Qt::ForegroundRole) return e.enabled ? QVariant() : QVariant(QColor(Qt::gray));
    if (!e.enabled) return {};
    const QColor c = alarmSeverityColor(e.severity);
    if (column == Severity) return c;
    if (e.active.value_or(false) && !e.shelved()) return c.lighter(130);
    return {};
}

QVariant AlarmsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size()) || index.column() >= ColumnCount) return {};
    const Row& r = m_rows[std::size_t(index.row())];
    const ConditionEvent& e = r.event;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (Column(index.column())) {
        case Severity: return int(e.severity);
        case Time: return alarmTimeText(e.time);
        case Source: return alarmSourceText(e);
        case Condition:
            return role == Qt::ToolTipRole ? QStringLiteral("%1\nConditionId %2\nEventId %3")
                                                 .arg(alarmConditionText(e), QString::fromStdString(e.conditionId.toString()),
                                                      QString::fromStdString(eventIdHex(e.eventId)))
                                           : alarmConditionText(e);
        case State: return QString::fromStdString(conditionStateText(e));
        case Message: return e.message.text.toQString();
        case Comment: return e.comment.text.toQString();
        case ColumnCount: break;
        }
        return {};
    case Qt::BackgroundRole:
    case Qt::ForegroundRole: return rowColor(r, index.column(), role);
    case ActiveRole: return e.active.value_or(false);
    case AckedRole: return e.acked.value_or(true);
    case ConfirmedRole: return e.confirmed.value_or(true);
    case EnabledRole: return e.enabled;
    case ShelvedRole: return e.shelved();
    default: return role >= SeverityRole ? alarmSharedRole(e, role) : QVariant();
    }
}

QVariant AlarmsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case Severity: return tr("Severity");
    case Time: return tr("Time");
    case Source: return tr("Source");
    case Condition: return tr("Condition");
    case State: return tr("State");
    case Message: return tr("Message");
    case Comment: return tr("Comment");
    case ColumnCount: break;
    }
    return {};
}

// --- AlarmsFilterModel -------------------------------------------------------------------------

AlarmsFilterModel::AlarmsFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void AlarmsFilterModel::setMinimumSeverity(int severity) {
    if (severity == m_minSeverity) return;
    m_minSeverity = severity;
    invalidateFilter();
}

void AlarmsFilterModel::setSourceFilter(const QString& text) {
    if (text == m_source) return;
    m_source = text;
    invalidateFilter();
}

bool AlarmsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    const int severity = i.data(SeverityRole).toInt();
    if (severity >= 0 && severity < m_minSeverity) return false;
    if (!m_source.isEmpty() && !i.data(SourceRole).toString().contains(m_source, Qt::CaseInsensitive)) return false;
    return true;
}

} // namespace ua::clientapp
