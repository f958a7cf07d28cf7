// A read-only tree of the server's address space (OPC 10000-3) for the server app: from a root
// node (default the RootFolder, i=84) along forward hierarchical references (HierarchicalReferences,
// i=33, and its subtypes), one row per target. Children are fetched lazily (canFetchMore /
// fetchMore) from the SharedAddressSpace's current snapshot; no lock, no request.
//
// Values: the Value column reads the node's current value the way a Read does
// (services/AttributeService.h readValue, with an unrestricted in-process context), once when
// first shown and again on refreshValues() for the rows the window says are visible (call it a few
// times a second from a timer with the visible indexes). Changed values emit dataChanged.
//
// Structure: refreshStructure() takes a new snapshot when the address space's version changed and
// brings every fetched level up to date with rowsInserted / rowsRemoved / dataChanged (a Session's
// diagnostics nodes come and go with it), so expanded branches stay expanded: never a reset.
#pragma once

#include "ua/server/common/ServiceContext.h"
#include "ua/server/addressspace/SharedAddressSpace.h"

#include <QAbstractItemModel>
#include <memory>
#include <vector>

namespace ua::serverapp {

class AddressSpaceModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        DisplayName,  // DisplayName text (BrowseName in the tooltip)
        NodeClass,    // "Object", "Variable", ...
        NodeId,       // "ns=1;i=1000"
        Value,        // Variables and VariableTypes: the current value's text (Bad status: its name)
        ColumnCount
    };
    Q_ENUM(Column)
    // On any cell: the row's NodeId as text.
    static constexpr int NodeIdRole = Qt::UserRole + 2;

    explicit AddressSpaceModel(SharedAddressSpace& space, ua::NodeId root = ua::NodeId(uint32_t(84)),
                               QObject* parent = nullptr);
    ~AddressSpaceModel() override;

    ua::NodeId nodeId(const QModelIndex& index) const;
    // The index of the first fetched row showing id (column 0), or invalid.
    QModelIndex findFetched(const ua::NodeId& id) const;

    // Re-reads the Values of these rows (any column of a row counts once).
    void refreshValues(const QModelIndexList& indexes);
    // Re-reads the Values of every fetched row that has shown one (on demand: a "Refresh" action).
    void refreshAllValues();
    // Follows address space changes (see above). Cheap when the version did not change.
    void refreshStructure();

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Item;
    Item* itemOf(const QModelIndex& index) const;
    QModelIndex indexOf(Item* item, int column = 0) const;
    void describe(Item& item) const;
    std::vector<ua::NodeId> childIds(const ua::NodeId& id) const;
    void readValue(Item& item) const;
    void syncChildren(Item& item);

    // Set from beginInsertRows/beginRemoveRows until the matching end call has returned.
    struct ChangeScope {
        explicit ChangeScope(bool& flag) : m_flag(flag) { m_flag = true; }
        ~ChangeScope() { m_flag = false; }
        bool& m_flag;
    };
    bool m_changing = false;

    SharedAddressSpace& m_space;
    std::shared_ptr<const AddressSpace> m_snapshot;
    uint64_t m_version = 0;
    NodeIndex m_hierarchical = kNoNode;
    OperationLimits m_limits;
    std::unique_ptr<Item> m_root;
};

} // namespace ua::serverapp
