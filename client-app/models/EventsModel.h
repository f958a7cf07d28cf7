// The events view (issue 7 item 8): a Subscription with one event MonitoredItem (OPC 10000-4 5.12.1.3:
// the EventNotifier attribute, 12) on a notifier (the Server object, i=2253, by default) whose
// EventFilter selects BaseEventType fields (OPC 10000-5 6.4.2; eventField/makeEventFilter of
// ClientSubscription.h); one row per event, newest last, at most `capacity` rows (the oldest removed
// first). The columns are the selected fields, in order (default Time, SourceName, EventType,
// Severity, Message). Changing the notifier or the fields re-creates the item (and clears the
// rows: the columns change). Starts with start(); re-created on a new Client once Connected. A new
// connection to another server (Connection::serverChanged) clears the rows, and a notifier outside
// namespace 0 goes back to the Server object: the events shown are the connected server's only
// (issue 27 item 1).
// Calls are logged ("CreateSubscription", "CreateMonitoredItems", ...).
#pragma once

#include "ua/client/subscriptions/ClientSubscription.h"
#include "ua/types/Variant.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QStringList>
#include <deque>

namespace ua::clientapp {

class Connection;
class DataTypeNames;

class EventsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        RawValueRole = Qt::UserRole + 1,  // QString: formatVariant of the field, unformatted by name
        SeverityRole,                     // int on every cell: the Severity field when selected, else -1
    };
    Q_ENUM(Role)

    explicit EventsModel(Connection* connection, int capacity = 1000, QObject* parent = nullptr);
    ~EventsModel() override;

    // BaseEventType's fields (OPC 10000-5 6.4.2) a user can pick: EventId, EventType, SourceNode,
    // SourceName, Time, ReceiveTime, LocalTime, Message, Severity, ConditionClassId,
    // ConditionClassName (a path "A/B" of namespace-0 browse names is accepted too).
    static QStringList availableFields();
    static QStringList defaultFields();  // Time, SourceName, EventType, Severity, Message

    // The notifier (an Object with SubscribeToEvents; default i=2253 Server) and the fields.
    void setNotifier(const ua::NodeId& notifier);
    ua::NodeId notifier() const { return m_notifier; }
    void setFields(const QStringList& fields);
    QStringList fields() const { return m_fields; }
    void setPublishingInterval(double ms);  // default 250 ms

    // Subscribes (and keeps subscribing after a new Client); stop() deletes the subscription.
    void start();
    void stop();
    bool isRunning() const { return m_running; }
    void clear();
    // The item's status: Good while subscribed, a failure (Bad_NodeIdUnknown for a notifier that
    // does not exist, Bad_MonitoredItemFilterUnsupported, ...), Bad_WaitingForInitialData before.
    ua::StatusCode status() const { return m_status; }
    // The selected fields of an event row, in the order of fields().
    const ua::Array<ua::Variant>* eventAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // rows were appended (count events of one notification).
    void eventsReceived(int count);
    void statusChanged(ua::StatusCode status);
    // The notifier was set back to the Server object (another server: see the header comment).
    void notifierReset(const ua::NodeId& notifier);

private:
    void subscribe();
    void unsubscribe();
    void createItem();
    void onNotification(const ua::SubscriptionNotification& n);
    void setStatus(ua::StatusCode s);
    QString fieldText(int column, const ua::Variant& v) const;

    QPointer<Connection> m_connection;  // the destructor deletes the subscription if it still exists
    DataTypeNames* m_names;
    int m_capacity;
    ua::NodeId m_notifier;
    QStringList m_fields;
    double m_publishingIntervalMs = 250;
    std::deque<ua::Array<ua::Variant>> m_events;
    ua::SubscriptionHandle m_subscription = 0;
    uint32_t m_clientHandle = 0;  // the current event item (a new one per re-creation)
    uint32_t m_nextHandle = 1;
    bool m_running = false;
    ua::StatusCode m_status;
    quint64 m_generation = 0;
};

} // namespace ua::clientapp
