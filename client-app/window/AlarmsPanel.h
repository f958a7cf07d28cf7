// The Alarms tab (issue 31 item 3), as UaExpert's Event View with its Alarms list: the live
// conditions of the Server object (AlarmsModel: severity in its colour, time, source, condition,
// state, message, comment), newest first, over the journal of every condition and refresh event
// received; a severity threshold and a source filter apply to both (AlarmsFilterModel).
// On the selected conditions: Acknowledge, Confirm and Add comment with the Comment field's text;
// Shelve (timed, for the minutes given; one shot; unshelve); Enable and Disable. Every button
// works on any selected condition whatever its state, so that a server's answer to a call it must
// refuse (Bad_ConditionBranchAlreadyAcked, Bad_ConditionNotShelved, ...) can be seen: the result
// line shows each call's status exactly. ConditionRefresh runs when the tab subscribes (the first
// time it is shown while connected) and after a reconnect; the Refresh button runs it again.
#pragma once

#include "ua/client/ConditionCalls.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QToolButton;

namespace ua::clientapp {

class AlarmsFilterModel;
class AlarmsModel;
class Connection;

class AlarmsPanel : public QWidget {
    Q_OBJECT
public:
    explicit AlarmsPanel(Connection* connection, QWidget* parent = nullptr);

    AlarmsModel* model() const { return m_model; }
    AlarmsFilterModel* filter() const { return m_filter; }
    AlarmsFilterModel* journalFilter() const { return m_journalFilter; }
    QTableView* view() const { return m_view; }
    QTableView* journalView() const { return m_journalView; }
    QLineEdit* commentEdit() const { return m_comment; }
    QSpinBox* shelveMinutesBox() const { return m_shelveMinutes; }
    QSpinBox* minSeverityBox() const { return m_minSeverity; }
    QLineEdit* sourceEdit() const { return m_source; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* resultLabel() const { return m_result; }

    // Subscribes (the model's start()) when connected.
    void start();
    // A Session became active: subscribes when the tab is visible (else when it is shown).
    void connected();
    // Selects the condition's row in the view (the model's row); false when it is filtered out.
    bool selectRow(int modelRow);
    // The model rows of the selected conditions.
    QList<int> selectedRows() const;
    // Calls the Method on every selected condition (comment from the Comment field, the shelving
    // time from the minutes box); the number of calls made.
    int act(ua::AlarmMethod method);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void updateStatus();
    void showContextMenu(const QPoint& pos);

    Connection* m_connection;
    AlarmsModel* m_model;
    AlarmsFilterModel* m_filter;
    AlarmsFilterModel* m_journalFilter;
    QPushButton* m_start;
    QSpinBox* m_minSeverity;
    QLineEdit* m_source;
    QLabel* m_status;
    QTableView* m_view;
    QTableView* m_journalView;
    QLineEdit* m_comment;
    QToolButton* m_shelve;
    QSpinBox* m_shelveMinutes;
    QLabel* m_result;
    bool m_sized = false;
};

} // namespace ua::clientapp
