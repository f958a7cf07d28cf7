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
// Columns: Name, NodeClass, NodeId, DataType (the DataType node's DisplayName and the ValueRank:
// "Double", "Double[]", "Int32[,]"), Value (ValueText.h: DateTimes in UTC with their "Z", arrays
// "[a, b]", matrices "2 x 3 [[..], [..]]"), Status ("Good", "Bad_WaitingForInitialData").
// NodeClassRole on any cell gives the NodeClass (the window draws its icon).
//
// Writing (an administrator's, issue 27 item 10): the Value of a Variable whose AccessLevel has
// CurrentWrite is editable; setData parses the text as the Variable's DataType and ValueRank
// (ValueText.h parseValue) and writes it as an unrestricted in-process Write (OPC 10000-4 5.10.4,
// services/AttributeService.h handleWrite), with an audit line naming the administrator, the node
// and the value. On failure it returns false and lastError() says why (the parse error, or the
// Write's status, e.g. Bad_TypeMismatch).
//
// Structure: refreshStructure() takes a new snapshot when the address space's version changed and
// brings every fetched level up to date with rowsInserted / rowsRemoved / dataChanged (a Session's
// diagnostics nodes come and go with it), so expanded branches stay expanded: never a reset.
#pragma once

#include "models/AdminAudit.h"
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
        DataType,     // Variables and VariableTypes: "Double", "Double[]", "UInt32[,]"
        Value,        // Variables and VariableTypes: the current value's text (editable, see above)
        Status,       // Variables and VariableTypes: the value's StatusCode name
        ColumnCount
    };
    Q_ENUM(Column)
    // On any cell: the row's NodeId as text.
    static constexpr int NodeIdRole = Qt::UserRole + 2;
    // On any cell: the row's NodeClass (int, OPC 10000-3 NodeClass).
    static constexpr int NodeClassRole = Qt::UserRole + 3;

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
    // Who writes values (default: the window's administrator, lines only).
    void setAudit(AdminAudit audit) { m_audit = std::move(audit); }
    // Why the last setData failed ("" after a success).
    QString lastError() const { return m_error; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;  // + ItemIsEditable: a writable Value
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

private:
    struct Item;
    Item* itemOf(const QModelIndex& index) const;
    QModelIndex indexOf(Item* item, int column = 0) const;
    void describe(Item& item) const;
    std::vector<ua::NodeId> childIds(const ua::NodeId& id) const;
    void readValue(Item& item) const;
    DataValue currentValue(const AddressSpace& space, const ua::NodeId& id) const;  // as a Read does
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
    AdminAudit m_audit;
    QString m_error;
};

} // namespace ua::serverapp
