// The Alarms view's models (issue 31 item 3; OPC 10000-9): the live list of the conditions of a
// notifier (the Server object, i=2253, by default) and the journal of the events received.
//
// AlarmsModel: a Subscription with one event MonitoredItem whose EventFilter is
// conditionEventFilter() (ua/client/ConditionEvent.h: the conditions and the refresh
// events), one row per condition (ConditionId and BranchId), replaced by each new event of it:
//   - an event with Retain false removes the row (the server says the client may forget it),
//     except that of a disabled condition: that row stays, "Disabled", so that Enable is at hand
//     (a disabled condition is not retained, OPC 10000-9 5.5.4);
//   - ConditionRefresh (OPC 10000-9 4.5, 5.5.7) is called when the item is created, when the
//     subscription was transferred to a new Session or created again, when messages were lost
//     and after a reconnect to the same Session; RefreshStart marks every row, the retained
//     conditions that follow unmark theirs, and RefreshEnd removes the rows still marked (but
//     disabled ones): what the server no longer retains goes;
//   - the Methods act on a row with its latest EventId (callMethod: Acknowledge, Confirm,
//     AddComment with a comment; TimedShelve, OneShotShelve, Unshelve; Enable, Disable;
//     ConditionCalls.h) and report the server's status exactly (methodFinished).
// Starts with start(); re-subscribed on a new Client once Connected; a connection to another
// server clears the rows and the journal (and a notifier outside namespace 0 goes back to the
// Server object), as EventsModel does. Calls are logged (CreateSubscription, CreateMonitoredItems,
// Call "ConditionRefresh", Call "Acknowledge <condition>", ...).
//
// AlarmJournalModel: every event of the item in arrival order, newest last, at most `capacity`
// (oldest removed first): conditions, and RefreshStart / RefreshEnd.
//
// AlarmsFilterModel: a QSortFilterProxyModel over either that keeps rows with a Severity at or
// above a threshold and whose source (SourceName, or the SourceNode's text) contains a text
// (case-insensitive); rows without a severity (the refresh events) pass the threshold.
//
// Qt::BackgroundRole: the Severity cell is always in its severity's colour (alarmSeverityColor),
// the rest of an active, enabled, unshelved condition's row too; Qt::ForegroundRole is grey for a
// disabled condition.
#pragma once

#include "ua/client/ConditionCalls.h"
#include "ua/client/ConditionEvent.h"
#include "ua/client/subscriptions/ClientSubscription.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QPointer>
#include <QSortFilterProxyModel>
#include <deque>
#include <vector>

namespace ua::clientapp {

class Connection;
class DataTypeNames;

// Red above 800, orange above 600, yellow above 400, blue-grey below (the server window's colours).
QColor alarmSeverityColor(uint16_t severity);

// The roles both models give on every cell of a row.
enum AlarmRole {
    SeverityRole = Qt::UserRole + 1,  // int: the Severity; -1 for a refresh event
    SourceRole,                       // QString: SourceName, else the SourceNode's text
    ConditionIdRole,                  // QString: the ConditionId's text ("" for a refresh event)
    EventIdRole,                      // QString: the EventId in hex
    ActiveRole,                       // bool (AlarmsModel)
    AckedRole,                        // bool (AlarmsModel; true when not acknowledgeable)
    ConfirmedRole,                    // bool (AlarmsModel; true without a ConfirmedState)
    EnabledRole,                      // bool (AlarmsModel)
    ShelvedRole,                      // bool (AlarmsModel)
};

class AlarmJournalModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Severity, Source, Condition, Event, State, Message, ColumnCount };
    Q_ENUM(Column)

    explicit AlarmJournalModel(DataTypeNames* names, int capacity = 1000, QObject* parent = nullptr);

    void append(const ConditionEvent& e);
    void clear();
    const ConditionEvent* eventAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    DataTypeNames* m_names;
    int m_capacity;
    std::deque<ConditionEvent> m_events;
};

class AlarmsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Severity, Time, Source, Condition, State, Message, Comment, ColumnCount };
    Q_ENUM(Column)

    explicit AlarmsModel(Connection* connection, QObject* parent = nullptr);
    ~AlarmsModel() override;

    // The notifier whose events are watched (default i=2253, the Server object); changing it
    // re-creates the item and clears the rows.
    void setNotifier(const ua::NodeId& notifier);
    ua::NodeId notifier() const { return m_notifier; }
    void setPublishingInterval(double ms);  // default 250 ms (before start())

    // Subscribes (and keeps subscribing after a new Client); stop() deletes the subscription
    // (the rows stay).
    void start();
    void stop();
    bool isRunning() const { return m_running; }
    // The event item's status: Good while subscribed, a failure (Bad_NodeIdUnknown,
    // Bad_MonitoredItemFilterUnsupported, ...), Bad_WaitingForInitialData before.
    ua::StatusCode status() const { return m_status; }
    // ConditionRefresh of the subscription now (see the header comment for when it runs by
    // itself). One at a time: asked again meanwhile, it runs once more after. Nothing before the
    // item exists.
    void refresh();
    // The last ConditionRefresh call's status (Bad_WaitingForInitialData before the first).
    ua::StatusCode refreshStatus() const { return m_refreshStatus; }
    // The number of RefreshEnd events seen (each completed refresh).
    int refreshesCompleted() const { return m_refreshesCompleted; }
    // Removes every row (and the journal's).
    void clear();

    const ConditionEvent* conditionAt(int row) const;
    // The row of a condition (its main branch by default), or -1.
    int rowOf(const ua::NodeId& conditionId, const ua::NodeId& branchId = {}) const;

    // Calls the Method on the row's condition (with the row's latest EventId; comment for
    // AddComment, Acknowledge and Confirm; shelvingTimeMs for TimedShelve). methodFinished
    // reports the status. False (nothing sent) for a row that does not exist or without a Client.
    bool callMethod(int row, ua::AlarmMethod method, const QString& comment = {}, double shelvingTimeMs = 0);
    // The last callMethod's status (Bad_WaitingForInitialData before the first).
    ua::StatusCode lastMethodStatus() const { return m_methodStatus; }

    AlarmJournalModel* journal() const { return m_journal; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void statusChanged(ua::StatusCode status);
    // A ConditionRefresh call returned (Good, or why not: Bad_NothingToDo, Bad_SubscriptionIdInvalid, ...).
    void refreshCalled(ua::StatusCode status);
    // A RefreshEnd arrived: the rows are what the server retains.
    void refreshCompleted();
    // A callMethod() returned: the Method ("Acknowledge"), the condition's name, the status.
    void methodFinished(const QString& method, const QString& condition, ua::StatusCode status);
    // Events of the item arrived (count of them, conditions and refresh events).
    void eventsReceived(int count);
    // The notifier was set back to the Server object (another server).
    void notifierReset(const ua::NodeId& notifier);

private:
    struct Row {
        ConditionEvent event;
        bool marked = false;  // by RefreshStart, until the condition comes again
    };
    void subscribe();
    void unsubscribe();
    void createItem();
    void onNotification(const ua::SubscriptionNotification& n);
    void onStatus(const ua::SubscriptionStatusChange& c);
    void apply(const ConditionEvent& e);
    void dropRow(int row);
    void setStatus(ua::StatusCode s);
    QVariant rowColor(const Row& r, int column, int role) const;

    QPointer<Connection> m_connection;
    DataTypeNames* m_names;
    AlarmJournalModel* m_journal;
    ua::NodeId m_notifier;
    double m_publishingIntervalMs = 250;
    std::vector<Row> m_rows;
    ua::SubscriptionHandle m_subscription = 0;
    uint32_t m_subscriptionId = 0;  // the server's id of m_subscription
    ua::NodeId m_sessionId;         // the Session the subscription belongs to
    uint32_t m_clientHandle = 0;
    uint32_t m_nextHandle = 1;
    bool m_running = false;
    bool m_itemReady = false;
    bool m_inRefresh = false;        // between RefreshStart and RefreshEnd
    bool m_refreshCalling = false;   // a ConditionRefresh call is outstanding
    bool m_refreshAgain = false;     // asked for while one was outstanding
    bool m_reconnecting = false;
    int m_refreshesCompleted = 0;
    ua::StatusCode m_status;
    ua::StatusCode m_refreshStatus;
    ua::StatusCode m_methodStatus;
    quint64 m_generation = 0;
};

class AlarmsFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit AlarmsFilterModel(QObject* parent = nullptr);

    // Rows with a Severity below are hidden (0: none).
    void setMinimumSeverity(int severity);
    int minimumSeverity() const { return m_minSeverity; }
    // Rows whose source does not contain the text (case-insensitive) are hidden ("": none).
    void setSourceFilter(const QString& text);
    QString sourceFilter() const { return m_source; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    int m_minSeverity = 0;
    QString m_source;
};

} // namespace ua::clientapp
