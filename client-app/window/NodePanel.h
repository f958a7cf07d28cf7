// The selected node (issue 7 items 2, 3, 4, 12): its Attributes (AttributesModel; the Value is
// written in place: double-click or F2 on the Value cell, edit it in ValueEditorDelegate's editor of
// its built-in type (an array: ArrayEditorDialog), Enter; the write's status shows in
// the Status column and under the table; a custom structure's shape from the context menu of a
// row: "Add field" / "Remove field" for an optional field, "Choose union field" on a union or the
// field it holds, "Add element" on an array, "Insert element after" / "Remove element" on an element) over its References, forward and inverse
// (ReferencesModel; double-click a reference to go to its target in the tree). Refresh reads
// again.
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through NodeId.h) before one.
#include <QWidget>

#include "ua/types/NodeId.h"

class QLabel;
class QMenu;
class QModelIndex;
class QPoint;
class QTableView;
class QTreeView;

namespace ua::clientapp {

class ArrayEditorDialog;
class AttributesModel;
class Connection;
class ReferencesModel;

class NodePanel : public QWidget {
    Q_OBJECT
public:
    explicit NodePanel(Connection* connection, QWidget* parent = nullptr);

    void setNode(const NodeId& node);
    void refresh();
    AttributesModel* attributes() const { return m_attributes; }
    ReferencesModel* references() const { return m_references; }
    QTreeView* attributesView() const { return m_attributesView; }
    QTableView* referencesView() const { return m_referencesView; }
    // Starts editing the Value in place (as a double-click on it does); false without a Value.
    // The editor is ValueEditorDelegate's for the Value's built-in type; for an array, a button
    // that opens ArrayEditorDialog (openArrayEditor).
    bool editValue();
    // Opens the array editor on the current Value (non-modal; deleted when closed); nullptr when the
    // node has no Value.
    ArrayEditorDialog* openArrayEditor();
    // The actions on a custom structure's shape that apply to the row of index (its context menu;
    // nothing when none applies): addFieldAction, removeFieldAction, the submenu
    // chooseUnionFieldMenu (unionNoneAction, unionFieldAction_<name>), addElementAction,
    // removeElementAction; each calls its AttributesModel method (setFieldPresent, setUnionChoice,
    // insertArrayElement, removeArrayElement), whose Write's status shows as an edit's does.
    void fillStructureMenu(QMenu* menu, const QModelIndex& index);

signals:
    // A reference's target was double-clicked.
    void goToRequested(const QString& nodeId);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The Value column as wide as its widest text (NodeId, AccessLevel, ... whole; a horizontal
    // scroll bar when the panel is narrower), and at least what the other columns leave.
    void fitValueColumn();
    void attributesContextMenu(const QPoint& pos);

    AttributesModel* m_attributes;
    ReferencesModel* m_references;
    QTreeView* m_attributesView;
    QTableView* m_referencesView;
    QLabel* m_writeStatus;
};

} // namespace ua::clientapp
