// The Call dialog (issue 7 item 7; OPC 10000-4 5.11.2): a Method's input arguments by name and
// DataType, editable as text (MethodCallModel parses them as the declared type), Call, then the
// Method's status, the per-argument results (the Result column of the inputs) and the outputs.
// Non-modal; while a call runs, Cancel stops waiting for it (Connection::cancelOperations).
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through NodeId.h) before one.
#include <QDialog>

#include "ua/types/NodeId.h"

class QLabel;
class QPushButton;
class QTableView;

namespace ua::clientapp {

class Connection;
class MethodCallModel;

class CallDialog : public QDialog {
    Q_OBJECT
public:
    CallDialog(Connection* connection, const NodeId& method, const NodeId& object, QWidget* parent = nullptr);

    MethodCallModel* model() const { return m_model; }
    QTableView* inputsView() const { return m_inputs; }
    QTableView* outputsView() const { return m_outputs; }
    // The Call button.
    void call();

private:
    void setCalling(bool calling);

    Connection* m_connection;
    MethodCallModel* m_model;
    QLabel* m_title;
    QTableView* m_inputs;
    QTableView* m_outputs;
    QLabel* m_status;
    QPushButton* m_call;
    QPushButton* m_cancel;
};

} // namespace ua::clientapp
