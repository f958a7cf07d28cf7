// The references of one node, forward and inverse (issue 7 item 2), for the window's references
// table: Browse (OPC 10000-4 5.8.2) of the node with BrowseDirection Both, ReferenceType References
// (i=31) with subtypes, every NodeClass, ResultMask All (ContinuationPoints followed by
// ua::Client::browse), then the names of the ReferenceTypes and TypeDefinitions (DataTypeNames:
// the standard ones without a call, others with one Read of their DisplayNames). Forward references
// first, each group in the server's order. Logged as "Browse" / "Read"; cancellable.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/types/StatusCode.h"

#include <QAbstractTableModel>
#include <vector>

namespace ua::clientapp {

class Connection;
class DataTypeNames;

class ReferencesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        DirectionColumn,       // "Forward" / "Inverse"
        ReferenceTypeColumn,   // the ReferenceType's name ("HasComponent"); tooltip: its NodeId
        TargetNameColumn,      // the target's DisplayName; DecorationRole: nodeClassIcon (app-common)
        TargetNodeIdColumn,    // the target's NodeId text ("ns=2;s=Demo.Scalars"; other server: "svr=1;...")
        NodeClassColumn,       // the target's NodeClass name ("Variable")
        TypeDefinitionColumn,  // the TypeDefinition's name ("BaseDataVariableType"), empty for none
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        NodeIdRole = Qt::UserRole + 1,  // QString on every cell: the target NodeId text
        IsForwardRole,                  // bool
        NodeClassRole,                  // int: ua::NodeClass of the target
    };
    Q_ENUM(Role)

    explicit ReferencesModel(Connection* connection, QObject* parent = nullptr);

    // Shows node's references (a reset now, rows when the Browse answers); a null NodeId clears.
    void setNode(const ua::NodeId& node);
    ua::NodeId node() const { return m_node; }
    // Browses the same node again.
    void refresh();
    // The reference of a row (any column).
    const ua::ReferenceDescription* referenceAt(int row) const;
    ua::NodeId targetNodeIdAt(int row) const;  // null for a target on another server
    ua::StatusCode status() const { return m_status; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // The Browse for node() ended (Good, the service or the node's status).
    void loaded(ua::StatusCode status);

private:
    void browse();

    Connection* m_connection;
    DataTypeNames* m_names;
    ua::NodeId m_node;
    std::vector<ua::ReferenceDescription> m_rows;
    ua::StatusCode m_status;
    quint64 m_generation = 0;
};

} // namespace ua::clientapp
