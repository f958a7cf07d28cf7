// The address space panel (issue 7 items 2, 12): the "Go to NodeId or browse path" field over the
// lazily browsed tree (AddressTreeModel). Nodes are dragged out of the tree (to the Data access
// table: one drag to monitor, or to the History tab); the context menu has Monitor and Add to
// history trend (Variables), Call... (Methods), Copy NodeId and Refresh; a double-click on a Method opens the Call dialog. Add folder / Add object /
// Add variable... and Delete call the server's NodeManagement services (AddNodes, DeleteNodes;
// app-common/NewNodeItems.h): the parent's children are browsed again, a refusal (Bad_UserAccessDenied,
// Bad_BrowseNameDuplicated, ...) shows under the field.
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through NodeId.h) before one.
#include <QWidget>

#include "ua/types/NodeId.h"
#include "ua/types/StatusCode.h"

class QLabel;
class QLineEdit;
class QTreeView;

namespace ua::clientapp {

class AddressTreeModel;
class Connection;

class AddressPanel : public QWidget {
    Q_OBJECT
public:
    explicit AddressPanel(Connection* connection, QWidget* parent = nullptr);

    AddressTreeModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    // Goes to a NodeId ("ns=1;s=Demo", "nsu=...;...", "i=2253") or a browse path
    // ("/Objects/Server"): the tree expands down to it and selects it; a failure is shown under the field.
    void goTo(const QString& nodeIdOrPath);
    // The selected node (null when none).
    NodeId currentNode() const;
    // AddNodes of a child named name below the node at parent (a row of the tree); DeleteNodes of
    // the node at index. nodeManagementFinished() tells the outcome.
    void addChild(const QModelIndex& parent, int newNodeClass, const QString& name);
    void deleteNode(const QModelIndex& index);

signals:
    void nodeSelected(const ua::NodeId& node);
    // Every selected Variable at once (one Read and one CreateMonitoredItems for all of them).
    void monitorRequested(const std::vector<ua::NodeId>& nodes);
    // "Add to history trend": every selected Variable.
    void historyTrendRequested(const std::vector<ua::NodeId>& nodes);
    void callRequested(const ua::NodeId& method, const ua::NodeId& object);
    // goTo() ended: Good (the node is selected) or why not.
    void goToFinished(ua::StatusCode status);
    // addChild() or deleteNode() ended: the operation's status and the node added (null otherwise).
    void nodeManagementFinished(ua::StatusCode status, ua::NodeId node);

private:
    void contextMenu(const QPoint& pos);
    void showRefusal(const QString& what, StatusCode status);
    // The selected Variables (the node at the cursor when none is selected).
    std::vector<NodeId> selectedVariables() const;

    Connection* m_connection;
    AddressTreeModel* m_model;
    QLineEdit* m_goTo;
    QLabel* m_goToStatus;
    QTreeView* m_tree;
};

} // namespace ua::clientapp
