// The Event history tab (issue 30; OPC 10000-11 6.5.2): the events a notifier's history keeps
// (EventHistoryModel), as `ua-client history NODE --events` reads them:
//   top     the notifier (a NodeId or "nsu=" text; i=2253, the Server object, by default), the range
//           (the last N minutes), Read
//   a line  the outcome: how many events in how many requests, or the status in words (a node that
//           keeps no events: Bad_HistoryOperationUnsupported); wrapped, so the window stays narrow
//   below   the events, oldest first: Time (UTC), Severity, Source, Event type, Message
// The read is asynchronous, as every call of the models.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace ua::clientapp {

class Connection;
class EventHistoryModel;

class EventHistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit EventHistoryPanel(Connection* connection, QWidget* parent = nullptr);

    EventHistoryModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QLabel* status() const { return m_status; }
    // Reads the notifier's events of the last minutes (what Read does); false when notifier is not
    // a NodeId (said in the status line).
    bool read(const QString& notifier, int minutes);

private:
    void finished();

    Connection* m_connection;
    EventHistoryModel* m_model;
    QLineEdit* m_notifier;
    QSpinBox* m_minutes;
    QPushButton* m_read;
    QLabel* m_status;
    QTableView* m_view;
};

} // namespace ua::clientapp
