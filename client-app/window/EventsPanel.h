// The Events tab (issue 7 item 8): the notifier (the Server object, i=2253, by default; a NodeId or
// "nsu=" text), the fields (a menu of BaseEventType's fields to tick), Subscribe/Stop, and the
// events as a table (EventsModel), newest last, scrolled along. It subscribes by itself the first
// time the tab is shown while connected.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QToolButton;

namespace ua::clientapp {

class Connection;
class EventsModel;

class EventsPanel : public QWidget {
    Q_OBJECT
public:
    explicit EventsPanel(Connection* connection, QWidget* parent = nullptr);

    EventsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    // Sets the notifier from text (NodeId or nsu= form) and the fields, and subscribes.
    bool subscribe(const QString& notifier, const QStringList& fields = {});
    // Sets the notifier field (subscribed with the next subscribe() or when the tab is shown).
    void setNotifierText(const QString& text);
    // The notifier as typed (persistent form when the session knows the namespace).
    QString notifierText() const;
    // The fields selected (columns of the table).
    void setFields(const QStringList& fields);
    // A Session became active: subscribes when the tab is visible (else when it is shown).
    void connected();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void fillFieldsMenu();
    void updateStatus();

    Connection* m_connection;
    EventsModel* m_model;
    QLineEdit* m_notifier;
    QToolButton* m_fields;
    QPushButton* m_start;
    QLabel* m_status;
    QTableView* m_view;
    bool m_sized = false;
};

} // namespace ua::clientapp
