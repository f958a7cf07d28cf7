// The Alarms page (issue 31 item 2): the server's alarm conditions, live (AlarmsModel: state in
// its severity's colour, acknowledgement, shelving, input value, last event), a form that defines
// a new alarm on a Variable (kind, input NodeId, limits, deadband, severities, message, normal or
// alarm value; Server::addAlarm), and Acknowledge / Remove for the chosen rows. Alarms added here
// last until the server stops; those of every start are in ua-server.json's "alarms"
// (docs/Alarms.md). Each change is an audit line of the window's administrator.
#pragma once

#include "LiveServer.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace ua::serverapp {
class AlarmsModel;
}

namespace ua::app {

class AlarmsPage : public QWidget, public ServerView {
    Q_OBJECT
public:
    explicit AlarmsPage(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    QTableView* view() const { return m_view; }
    serverapp::AlarmsModel* model() const { return m_model; }
    // The form's fields (tests fill them).
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* inputEdit() const { return m_input; }
    QComboBox* kindBox() const { return m_kind; }
    QLineEdit* limitEdit(int i) const { return m_limits[i]; }  // 0 HighHigh, 1 High, 2 Low, 3 LowLow
    QLineEdit* valueEdit() const { return m_value; }
    QLabel* statusLabel() const { return m_status; }
    // Adds the alarm the form describes; false (and the reason in the status line) when it is refused.
    bool addFromForm();
    void acknowledgeChosen();
    void removeChosen();

protected:
    // Shown: refreshed at once (the timer refreshes only a visible page).
    void showEvent(QShowEvent* event) override;

private:
    void refreshed();
    std::vector<int> chosenRows() const;

    LiveServer* m_live = nullptr;
    serverapp::AlarmsModel* m_model = nullptr;
    QTableView* m_view;
    QLabel* m_status;
    QLineEdit* m_name;
    QComboBox* m_kind;
    QLineEdit* m_input;
    QLineEdit* m_limits[4];
    QDoubleSpinBox* m_deadband;
    QSpinBox* m_severity;
    QSpinBox* m_critical;
    QLineEdit* m_message;
    QLineEdit* m_value;
    QPushButton* m_add;
    QPushButton* m_ack;
    QPushButton* m_remove;
    QTimer m_timer;
};

} // namespace ua::app
