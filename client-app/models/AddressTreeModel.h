// The address space of the connected server as a lazy tree (issue 7 items 2, 12), for the window's
// tree view. The invisible root is the RootFolder (i=84): its children (Objects, Types, Views) are
// the top-level rows. A row is one ReferenceDescription of its parent's Browse (OPC 10000-4 5.8.2):
// forward HierarchicalReferences (i=33) with subtypes, every NodeClass, ResultMask All; the
// ContinuationPoints are followed by ua::Client::browse. Children are fetched on demand
// (canFetchMore/fetchMore, asynchronously: rows are inserted when the answer arrives) and each
// Browse is logged ("Browse", "<NodeId>") and can be cancelled (Connection::cancelOperations; the
// node can then be fetched again). New rows are probed at once (one Browse for all of them, one
// reference each): a node without hierarchical children is then fetched with none, so hasChildren()
// is false and a leaf Variable shows no expand arrow (issue 27 item 6).
//
// Follows the Connection: clientChanged or the first Connected state of a Client resets the tree
// (fetched again when the view asks); a reconnect to the same Session keeps it.
//
// Drag: mimeData() gives NodeIdMime.h's application/x-ua-nodeid + text/plain.
// Go to: goTo("ns=2;s=Demo.Scalars" / "nsu=...;..." / "i=2253", or a browse path
// "/Objects/2:Demo/2:Scalars" from the RootFolder, RelativePath.h's text form) resolves the target
// (TranslateBrowsePaths of every prefix of the path; for a NodeId, inverse hierarchical Browses up to
// the RootFolder), then fetches each level down to it; the index arrives through goToFinished().
#pragma once

#include "ua/client/common/ServiceResult.h"
#include "ua/encoding/generated/Types.h"
#include "ua/types/StatusCode.h"

#include <QAbstractItemModel>
#include <QIcon>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ua {
class Client;
}

namespace ua::clientapp {

class Connection;

class AddressTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        DisplayNameColumn,  // DisplayName text; DecorationRole: the NodeClass icon; ToolTipRole:
                            // BrowseName, NodeId, NodeClass, ReferenceType (and a Browse error)
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        NodeIdRole = Qt::UserRole + 1,  // QString: NodeId::toString() ("ns=2;s=Demo")
        PersistentNodeIdRole,           // QString: "nsu=<uri>;s=Demo" (NodeIdConverter)
        NodeClassRole,                  // int: ua::NodeClass (1 Object, 2 Variable, 4 Method, ...)
        BrowseNameRole,                 // QString: "2:Demo"
        ReferenceTypeRole,              // QString: the reference's ReferenceType NodeId text
        TypeDefinitionRole,             // QString: the TypeDefinition NodeId text (Objects, Variables)
        FetchStatusRole,                // uint: the StatusCode of this node's children Browse (0 Good)
    };
    Q_ENUM(Role)

    explicit AddressTreeModel(Connection* connection, QObject* parent = nullptr);
    ~AddressTreeModel() override;

    // The row's node (column any); null NodeId for an invalid index.
    ua::NodeId nodeIdAt(const QModelIndex& index) const;
    ua::NodeClass nodeClassAt(const QModelIndex& index) const;
    // The first fetched row showing node (column 0), breadth first; invalid if none is fetched.
    QModelIndex findFetched(const ua::NodeId& node) const;
    // Browses the node's children again (invalid index: the top level) and merges the answer:
    // rows that went are removed, new ones inserted, kept ones (and their fetched subtrees) stay.
    void refresh(const QModelIndex& index);
    // Whether a Browse of parent's children is running (a busy indicator; fetchFinished follows).
    bool isFetching(const QModelIndex& parent) const;
    // Drops everything and starts again from the RootFolder.
    void reset();

    // Go to a NodeId or a browse path (see the header comment); done and goToFinished() get the
    // index (column 0) or the failure: Bad_NoMatch / Bad_NodeIdUnknown from the server,
    // Bad_BrowseNameInvalid for a text that is neither a NodeId nor a path, Bad_NotFound when no
    // hierarchical path from the RootFolder leads to the node, Bad_ServerNotConnected.
    using GoToCallback = std::function<void(const QModelIndex& index, ua::StatusCode status)>;
    void goTo(const QString& nodeIdOrPath, GoToCallback done = {});

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;  // + ItemIsDragEnabled
    QStringList mimeTypes() const override;                        // application/x-ua-nodeid, text/plain
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    Qt::DropActions supportedDragActions() const override;         // CopyAction

signals:
    // A fetch of parent's children ended (parent invalid: the top level): Good, or why it failed
    // (the Browse's status or the node's BrowseResult status; the row's tooltip shows it too).
    void fetchFinished(const QModelIndex& parent, ua::StatusCode status);
    // The end of a goTo(): the index of the target (column 0), or invalid and the failure.
    void goToFinished(const QModelIndex& index, ua::StatusCode status);

private:
    struct Item;
    Item* itemOf(const QModelIndex& index) const;
    QModelIndex indexOf(const Item* item, int column = 0) const;
    void startFetch(Item* item, std::function<void(ua::StatusCode)> then = {});
    void applyBrowse(Item* item, const ua::ServiceResult<ua::BrowseResponse>& result);
    void probeChildren(std::vector<quint64> serials);
    void onClientChanged();
    void onConnected();
    void expandChain(std::vector<ua::NodeId> chain, std::size_t step, Item* at, GoToCallback done);
    void pathToRoot(ua::NodeId node, std::vector<ua::NodeId> chain, int depth, GoToCallback done);
    void finishGoTo(const QModelIndex& index, ua::StatusCode status, const GoToCallback& done);
    std::unique_ptr<Item> makeItem(Item* parent, const ua::ReferenceDescription& ref);
    void forget(Item* item);
    Item* live(quint64 serial) const;
    void renumber(Item* parent, int from);

    Connection* m_connection;
    std::unique_ptr<Item> m_root;
    std::unordered_map<quint64, Item*> m_live;  // every Item, by serial (answers may outlive Items)
    quint64 m_nextSerial = 1;
};

} // namespace ua::clientapp
