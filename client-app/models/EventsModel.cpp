#include "models/EventsModel.h"

#include "core/Connection.h"
#include "ValueText.h"
#include "models/DataTypeNames.h"
#include "models/ModelCall.h"
#include "ua/encoding/generated/NodeIds.h"

namespace ua::clientapp {

namespace {
constexpr uint32_t kEventQueueSize = 1000;  // events the server keeps between two Publishes

} // namespace

EventsModel::EventsModel(Connection* connection, int capacity, QObject* parent)
    : QAbstractTableModel(parent),
      m_connection(connection),
      m_names(new DataTypeNames(connection, this)),
      m_capacity(std::max(1, capacity)),
      m_notifier(NodeId(id::Server)),
      m_fields(defaultFields()),
      m_status(status::BadWaitingForInitialData) {
    connect(m_names, &DataTypeNames::namesResolved, this, [this] {
        const int col = m_fields.indexOf(QStringLiteral("EventType"));
        if (col >= 0 && !m_events.empty()) emit dataChanged(index(0, col), index(rowCount() - 1, col));
    });
    connect(connection, &Connection::clientChanged, this, [this] {
        ++m_generation;
        m_subscription = 0;  // it belonged to the old Client
        m_clientHandle = 0;
        setStatus(status::BadWaitingForInitialData);
    });
    connect(connection, &Connection::serverChanged, this, [this] {
        clear();
        if (m_notifier.namespaceIndex() != 0) {  // its index means nothing on the new server
            static const NodeId server(id::Server);  // (a temporary NodeId moved in: GCC 12's -Wmaybe-uninitialized)
            m_notifier = server;
            emit notifierReset(m_notifier);
        }
    });
    connect(connection, &Connection::stateChanged, this, [this](ClientState s, StatusCode) {
        if (s == ClientState::Connected && m_running && !m_subscription) subscribe();
    });
}

EventsModel::~EventsModel() {
    if (m_subscription && m_connection)
        if (Client* c = m_connection->client()) c->deleteSubscription(m_subscription, nullptr, {});
}

QStringList EventsModel::availableFields() {
    return {QStringLiteral("EventId"),  QStringLiteral("EventType"),   QStringLiteral("SourceNode"),
            QStringLiteral("SourceName"), QStringLiteral("Time"),      QStringLiteral("ReceiveTime"),
            QStringLiteral("LocalTime"), QStringLiteral("Message"),     QStringLiteral("Severity"),
            QStringLiteral("ConditionClassId"), QStringLiteral("ConditionClassName")};
}

QStringList EventsModel::defaultFields() {
    return {QStringLiteral("Time"), QStringLiteral("SourceName"), QStringLiteral("EventType"), QStringLiteral("Severity"),
            QStringLiteral("Message")};
}

void EventsModel::setNotifier(const NodeId& notifier) {
    if (notifier == m_notifier) return;
    m_notifier = notifier;
    clear();
    if (m_running && m_subscription) createItem();
}

void EventsModel::setFields(const QStringList& fields) {
    if (fields == m_fields || fields.isEmpty()) return;
    beginResetModel();
    m_fields = fields;
    m_events.clear();
    endResetModel();
    if (m_running && m_subscription) createItem();
}

void EventsModel::setPublishingInterval(double ms) {
    m_publishingIntervalMs = ms;
    Client* client = m_connection ? m_connection->client() : nullptr;
    if (!m_subscription || !client) return;
    SubscriptionSettings s;
    s.publishingIntervalMs = ms;
    QObject* op = m_connection->beginOperation(tr("Modify events subscription"));
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("ModifySubscription"), QStringLiteral("events, %1 ms").arg(ms));
    client->modifySubscription(m_subscription, s, op,
                               detail::endThen<SubscriptionInfo>(m_connection, op, this, [log](const SubscriptionInfo& i) { log->record(i.status); }));
}

void EventsModel::start() {
    m_running = true;
    if (!m_subscription) subscribe();
}

void EventsModel::stop() {
    m_running = false;
    unsubscribe();
}

void EventsModel::clear() {
    if (m_events.empty()) return;
    beginResetModel();
    m_events.clear();
    endResetModel();
}

void EventsModel::setStatus(StatusCode s) {
    if (s == m_status) return;
    m_status = s;
    emit statusChanged(s);
}

void EventsModel::subscribe() {
    Client* client = m_connection ? m_connection->client() : nullptr;
    if (!detail::isConnected(client)) return;  // on Connected
    SubscriptionSettings settings;
    settings.publishingIntervalMs = m_publishingIntervalMs;
    SubscriptionHandlers handlers;
    handlers.notification = [this](const SubscriptionNotification& n) { onNotification(n); };
    handlers.status = [this](const SubscriptionStatusChange& c) {
        if (c.handle == m_subscription && c.event == SubscriptionEvent::Lost) {
            m_subscription = 0;
            setStatus(c.status);
            if (m_running) subscribe();
        }
    };
    const quint64 generation = ++m_generation;
    m_subscription = 0;
    QObject* op = m_connection->beginOperation(tr("Subscribe to events"));
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("CreateSubscription"),
                                                  QStringLiteral("events, %1 ms").arg(m_publishingIntervalMs));
    client->createSubscription(settings, this, handlers,
                               detail::endThen<SubscriptionInfo>(m_connection, op, this, [this, generation, log](const SubscriptionInfo& i) {
                                   log->record(i.status);
                                   if (generation != m_generation) {
                                       // stopped or restarted meanwhile: not wanted any more
                                       if (i.status.isGood() && m_connection)
                                           if (Client* c = m_connection->client()) c->deleteSubscription(i.handle, nullptr, {});
                                       return;
                                   }
                                   if (i.status.isBad()) return setStatus(i.status);
                                   m_subscription = i.handle;
                                   createItem();
                               }));
}

void EventsModel::unsubscribe() {
    ++m_generation;
    Client* client = m_connection ? m_connection->client() : nullptr;
    const SubscriptionHandle h = m_subscription;
    m_subscription = 0;
    m_clientHandle = 0;
    setStatus(status::BadWaitingForInitialData);
    if (!h || !client) return;
    QObject* op = m_connection->beginOperation(tr("Unsubscribe from events"));
    auto log = std::make_shared<detail::LogTimer>(m_connection, QStringLiteral("DeleteSubscriptions"), QStringLiteral("events"));
    client->deleteSubscription(h, op, detail::endThen<StatusCode>(m_connection, op, this, [log](const StatusCode& s) { log->record(s); }));
}

void EventsModel::createItem() {
    Client* client = m_connection ? m_connection->client() : nullptr;
    if (!client || !m_subscription) return;
    // The previous item (other fields or notifier) goes.
    if (m_clientHandle) client->deleteMonitoredItems(m_subscription, {m_clientHandle}, nullptr, {});
    m_clientHandle = m_nextHandle++;
    std::vector<std::string> fields;
    for (const QString& f : m_fields) fields.push_back(f.toStdString());
    MonitoredItemSpec spec;
    spec.clientHandle = m_clientHandle;
    spec.nodeId = m_notifier;
    spec.attributeId = uint32_t(AttributeId::EventNotifier);
    spec.settings.samplingIntervalMs = 0;
    spec.settings.queueSize = kEventQueueSize;
    spec.settings.eventFilter = makeEventFilter(fields);
    const uint32_t handle = m_clientHandle;
    const quint64 generation = m_generation;
    QObject* op = m_connection->beginOperation(tr("Monitor events of %1").arg(QString::fromStdString(m_notifier.toString())));
    auto log = std::make_shared<detail::LogTimer>(
        m_connection, QStringLiteral("CreateMonitoredItems"),
        QStringLiteral("events of %1: %2").arg(QString::fromStdString(m_notifier.toString()), m_fields.join(QStringLiteral(", "))));
    setStatus(status::BadWaitingForInitialData);
    client->createMonitoredItems(
        m_subscription, {std::move(spec)}, op,
        detail::endThen<MonitoredItemsResult>(m_connection, op, this, [this, log, handle, generation](const MonitoredItemsResult& r) {
            StatusCode s = r.status;
            if (s.isGood()) s = r.items.empty() ? StatusCode(status::BadUnknownResponse) : r.items[0].statusCode;
            log->record(s);
            if (generation != m_generation || handle != m_clientHandle) return;
            setStatus(s);
        }));
}

void EventsModel::onNotification(const SubscriptionNotification& n) {
    if (n.handle != m_subscription) return;
    std::vector<const EventFieldList*> fresh;
    for (const EventFieldList& e : n.events)
        if (e.clientHandle == m_clientHandle) fresh.push_back(&e);
    if (fresh.empty()) return;
    // Only the newest `capacity` of this batch can stay.
    if (int(fresh.size()) > m_capacity) fresh.erase(fresh.begin(), fresh.end() - m_capacity);
    const int overflow = int(m_events.size() + fresh.size()) - m_capacity;
    if (overflow > 0) {
        beginRemoveRows({}, 0, overflow - 1);
        m_events.erase(m_events.begin(), m_events.begin() + overflow);
        endRemoveRows();
    }
    const int first = int(m_events.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    for (const EventFieldList* e : fresh) m_events.push_back(e->eventFields);
    endInsertRows();
    emit eventsReceived(int(fresh.size()));
}

const Array<Variant>* EventsModel::eventAt(int row) const {
    if (row < 0 || row >= int(m_events.size())) return nullptr;
    return &m_events[std::size_t(row)];
}

QString EventsModel::fieldText(int column, const Variant& v) const {
    const QString& field = m_fields[column];
    if (const DateTime* t = v.get<DateTime>())
        return t->toQDateTime().toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    if (const LocalizedText* t = v.get<LocalizedText>()) return t->text.toQString();
    if (field == QLatin1String("EventType") || field == QLatin1String("ConditionClassId"))
        if (const NodeId* id = v.get<NodeId>()) return m_names->nameOrLookup(*id);
    return app::formatVariant(v, 20);
}

int EventsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_events.size());
}

int EventsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_fields.size());
}

QVariant EventsModel::data(const QModelIndex& index, int role) const {
    const Array<Variant>* e = index.isValid() ? eventAt(index.row()) : nullptr;
    if (!e || index.column() >= columnCount()) return {};
    const std::size_t col = std::size_t(index.column());
    const Variant none;
    const Variant& v = col < e->size() ? (*e)[col] : none;
    switch (role) {
    case Qt::DisplayRole: return fieldText(index.column(), v);
    case Qt::ToolTipRole:
    case RawValueRole: return app::formatVariant(v);
    case SeverityRole: {
        const qsizetype s = m_fields.indexOf(QStringLiteral("Severity"));
        if (s < 0 || std::size_t(s) >= e->size()) return -1;
        if (const uint16_t* sev = (*e)[std::size_t(s)].get<uint16_t>()) return int(*sev);
        return -1;
    }
    default: return {};
    }
}

QVariant EventsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= m_fields.size()) return {};
    return m_fields[section];
}

} // namespace ua::clientapp
