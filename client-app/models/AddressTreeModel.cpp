#include "models/AddressTreeModel.h"

#include "NodeClassIcon.h"
#include "core/Connection.h"
#include "models/ModelCall.h"
#include "models/NodeIdMime.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QMimeData>
#include <QTimer>
#include <algorithm>
#include <map>
#include <set>

namespace ua::clientapp {

namespace {
constexpr uint32_t kMaxReferencesPerRequest = 1000;    // the server may send fewer; CPs are followed
constexpr std::size_t kProbeNodesPerRequest = 100;     // nodes per "has it children?" Browse
constexpr int kMaxDepthToRoot = 40;                    // inverse Browses when going to a NodeId

bool isUsable(const Client* client) {
    if (!client) return false;
    const ClientState s = client->state();
    return s == ClientState::Connected || s == ClientState::Reconnecting;
}

// A key that identifies a child among its siblings across Browses.
std::string childKey(const ReferenceDescription& r) {
    return r.referenceTypeId.toString() + '|' + r.nodeId.toString();
}

BrowseDescription hierarchical(const NodeId& node, BrowseDirection direction) {
    BrowseDescription d;
    d.nodeId = node;
    d.browseDirection = direction;
    d.referenceTypeId = NodeId(id::HierarchicalReferences);
    d.includeSubtypes = true;
    d.nodeClassMask = 0;  // every NodeClass
    d.resultMask = uint32_t(BrowseResultMask::All);
    return d;
}
} // namespace

struct AddressTreeModel::Item {
    Item* parent = nullptr;
    int row = 0;
    quint64 serial = 0;        // looked up in m_live by callbacks that may outlive the Item
    ReferenceDescription ref;  // how the parent refers to it (the root: only nodeId set)
    NodeId nodeId;             // the node in this session's namespace indexes (null: not local)
    std::vector<std::unique_ptr<Item>> children;
    enum class Fetch { No, Running, Done } fetch = Fetch::No;
    StatusCode fetchStatus;
    std::vector<std::function<void(StatusCode)>> waiters;
};

AddressTreeModel::AddressTreeModel(Connection* connection, QObject* parent)
    : QAbstractItemModel(parent), m_connection(connection) {
    ReferenceDescription rootRef;
    rootRef.nodeId = ExpandedNodeId(NodeId(id::RootFolder));
    rootRef.nodeClass = NodeClass::Object;
    m_root = makeItem(nullptr, rootRef);
    m_root->nodeId = NodeId(id::RootFolder);
    connect(connection, &Connection::clientChanged, this, [this] { onClientChanged(); });
    connect(connection, &Connection::stateChanged, this, [this](ClientState s, StatusCode) {
        if (s == ClientState::Connected) onConnected();
    });
}

AddressTreeModel::~AddressTreeModel() = default;

std::unique_ptr<AddressTreeModel::Item> AddressTreeModel::makeItem(Item* parent, const ReferenceDescription& ref) {
    auto item = std::make_unique<Item>();
    item->parent = parent;
    item->serial = m_nextSerial++;
    item->ref = ref;
    if (ref.nodeId.isLocal()) {
        if (ref.nodeId.namespaceUri.isNull()) {
            item->nodeId = ref.nodeId.nodeId;
        } else if (Client* c = m_connection->client()) {
            if (auto id = c->nodeIdConverter().toNodeId(ref.nodeId)) item->nodeId = *id;
        }
    }
    m_live[item->serial] = item.get();
    return item;
}

void AddressTreeModel::forget(Item* item) {
    for (auto& c : item->children) forget(c.get());
    m_live.erase(item->serial);
}

AddressTreeModel::Item* AddressTreeModel::live(quint64 serial) const {
    auto it = m_live.find(serial);
    return it == m_live.end() ? nullptr : it->second;
}

void AddressTreeModel::renumber(Item* parent, int from) {
    for (int i = from; i < int(parent->children.size()); ++i) parent->children[std::size_t(i)]->row = i;
}

// --- Connection -------------------------------------------------------------------------------

void AddressTreeModel::onClientChanged() {
    reset();
}

void AddressTreeModel::onConnected() {
    // The first Session of a Client (or one after a failed fetch): the view asks again.
    if (m_root->fetch == Item::Fetch::No || m_root->fetchStatus.isBad()) reset();
}

void AddressTreeModel::reset() {
    beginResetModel();
    for (auto& c : m_root->children) forget(c.get());
    m_root->children.clear();
    std::vector<std::function<void(StatusCode)>> waiters;
    waiters.swap(m_root->waiters);
    m_root->fetch = Item::Fetch::No;
    m_root->fetchStatus = StatusCode();
    // A new serial for the root: answers to the old tree's Browse find nothing.
    m_live.erase(m_root->serial);
    m_root->serial = m_nextSerial++;
    m_live[m_root->serial] = m_root.get();
    endResetModel();
    for (auto& w : waiters) w(status::BadRequestCancelledByClient);
}

// --- Browse -----------------------------------------------------------------------------------

void AddressTreeModel::startFetch(Item* item, std::function<void(StatusCode)> then) {
    if (then) item->waiters.push_back(std::move(then));
    if (item->fetch == Item::Fetch::Running) return;
    Client* client = m_connection->client();
    if (!isUsable(client) || item->nodeId.isNull()) {
        // Nothing to ask (not connected, or a node of another server): answered at once, later.
        const quint64 serial = item->serial;
        const StatusCode why = item->nodeId.isNull() ? StatusCode(status::BadNodeIdUnknown) : StatusCode(status::BadServerNotConnected);
        item->fetch = Item::Fetch::Running;
        QTimer::singleShot(0, this, [this, serial, why] {
            if (Item* it = live(serial)) {
                ServiceResult<BrowseResponse> r;
                r.status = why;
                applyBrowse(it, r);
            }
        });
        return;
    }
    item->fetch = Item::Fetch::Running;
    BrowseRequest req;
    req.requestedMaxReferencesPerNode = kMaxReferencesPerRequest;
    req.nodesToBrowse.push_back(hierarchical(item->nodeId, BrowseDirection::Forward));
    const QString nodeText = QString::fromStdString(item->nodeId.toString());
    QObject* op = m_connection->beginOperation(tr("Browse %1").arg(item->ref.displayName.text.toQString()));
    const quint64 serial = item->serial;
    auto finished = detail::onCancel(op, this, [this, serial] {
        if (Item* it = live(serial); it && it->fetch == Item::Fetch::Running) {
            ServiceResult<BrowseResponse> r;
            r.status = status::BadRequestCancelledByClient;
            applyBrowse(it, r);
            it->fetch = Item::Fetch::No;  // may be fetched again
        }
    });
    client->browse(std::move(req), BrowseOptions{}, op,
                   detail::loggedOp<BrowseResponse>(m_connection, op, this, QStringLiteral("Browse"), nodeText,
                                                    [this, serial, finished](const ServiceResult<BrowseResponse>& r) {
                                                        *finished = true;
                                                        if (Item* it = live(serial)) applyBrowse(it, r);
                                                    }));
}

void AddressTreeModel::applyBrowse(Item* item, const ServiceResult<BrowseResponse>& result) {
    StatusCode status = result.status;
    const BrowseResult* br = nullptr;
    if (status.isGood()) {
        if (result.response.results.empty()) status = status::BadUnknownResponse;
        else {
            br = &result.response.results[0];
            status = br->statusCode;
        }
    }
    item->fetch = Item::Fetch::Done;
    item->fetchStatus = status;
    const QModelIndex parentIndex = item == m_root.get() ? QModelIndex() : indexOf(item);
    if (br && status.isGood()) {
        // Merge: rows that went are removed, kept ones updated, new ones appended.
        std::map<std::string, const ReferenceDescription*> wanted;
        std::vector<const ReferenceDescription*> order;
        for (const ReferenceDescription& r : br->references) {
            if (wanted.emplace(childKey(r), &r).second) order.push_back(&r);
        }
        for (int i = int(item->children.size()) - 1; i >= 0; --i) {
            Item* c = item->children[std::size_t(i)].get();
            if (wanted.count(childKey(c->ref))) continue;
            beginRemoveRows(parentIndex, i, i);
            forget(c);
            item->children.erase(item->children.begin() + i);
            renumber(item, i);
            endRemoveRows();
        }
        std::set<std::string> kept;
        for (auto& c : item->children) {
            const std::string key = childKey(c->ref);
            kept.insert(key);
            const ReferenceDescription& fresh = *wanted[key];
            if (!(fresh == c->ref)) {
                c->ref = fresh;
                const QModelIndex idx = indexOf(c.get());
                emit dataChanged(idx, idx);
            }
        }
        std::vector<const ReferenceDescription*> added;
        for (const ReferenceDescription* r : order)
            if (!kept.count(childKey(*r))) added.push_back(r);
        if (!added.empty()) {
            const int first = int(item->children.size());
            beginInsertRows(parentIndex, first, first + int(added.size()) - 1);
            for (const ReferenceDescription* r : added) {
                auto child = makeItem(item, *r);
                child->row = int(item->children.size());
                item->children.push_back(std::move(child));
            }
            endInsertRows();
            std::vector<quint64> fresh;
            for (std::size_t i = std::size_t(first); i < item->children.size(); ++i) fresh.push_back(item->children[i]->serial);
            probeChildren(std::move(fresh));
        }
    }
    if (parentIndex.isValid()) emit dataChanged(parentIndex, parentIndex);  // tooltip, FetchStatusRole
    std::vector<std::function<void(StatusCode)>> waiters;
    waiters.swap(item->waiters);
    emit fetchFinished(parentIndex, status);
    for (auto& w : waiters) w(status);
}

// Whether new rows have children of their own (issue 27 item 6: a leaf Variable must not show an
// expand arrow until clicked): one Browse for all of them (in requests of kProbeNodesPerRequest),
// at most one reference per node, no fields. A node with none is marked fetched (Done, Good, no
// children): hasChildren() false, nothing to fetch; the view hears it through dataChanged. A node
// with children, or whose probe failed, stays as it was (fetched when expanded).
void AddressTreeModel::probeChildren(std::vector<quint64> serials) {
    Client* client = m_connection->client();
    if (!isUsable(client)) return;
    for (std::size_t from = 0; from < serials.size(); from += kProbeNodesPerRequest) {
        BrowseRequest req;
        req.requestedMaxReferencesPerNode = 1;
        std::vector<quint64> asked;
        for (std::size_t i = from; i < serials.size() && i < from + kProbeNodesPerRequest; ++i) {
            const Item* it = live(serials[i]);
            if (!it || it->nodeId.isNull() || it->fetch != Item::Fetch::No) continue;
            BrowseDescription d = hierarchical(it->nodeId, BrowseDirection::Forward);
            d.resultMask = 0;  // only whether there is a reference
            req.nodesToBrowse.push_back(std::move(d));
            asked.push_back(serials[i]);
        }
        if (asked.empty()) continue;
        const QString detailText = tr("whether %n node(s) have children", nullptr, int(asked.size()));
        QObject* op = m_connection->beginOperation(tr("Browse %n node(s)", nullptr, int(asked.size())));
        client->browse(std::move(req), BrowseOptions{1}, op,
                       detail::loggedOp<BrowseResponse>(
                           m_connection, op, this, QStringLiteral("Browse"), detailText,
                           [this, asked](const ServiceResult<BrowseResponse>& r) {
                               if (r.status.isBad() || r.response.results.size() != asked.size()) return;
                               for (std::size_t i = 0; i < asked.size(); ++i) {
                                   Item* it = live(asked[i]);
                                   const BrowseResult& br = r.response.results[i];
                                   if (!it || it->fetch != Item::Fetch::No || br.statusCode.isBad() || !br.references.empty()) continue;
                                   it->fetch = Item::Fetch::Done;
                                   it->fetchStatus = StatusCode();
                                   const QModelIndex idx = indexOf(it);
                                   emit dataChanged(idx, idx);
                               }
                           }));
    }
}

void AddressTreeModel::refresh(const QModelIndex& index) {
    Item* item = index.isValid() ? itemOf(index) : m_root.get();
    if (!item || item->fetch == Item::Fetch::Running) return;
    startFetch(item);
}

// --- Go to ------------------------------------------------------------------------------------

void AddressTreeModel::goTo(const QString& nodeIdOrPath, GoToCallback done) {
    Client* client = m_connection->client();
    if (!isUsable(client)) {
        finishGoTo({}, status::BadServerNotConnected, done);
        return;
    }
    const QString text = nodeIdOrPath.trimmed();
    if (auto id = parseUserNodeId(text, client->nodeIdConverter())) {
        pathToRoot(*id, {*id}, 0, std::move(done));
        return;
    }
    const std::optional<RelativePath> path = parseRelativePath(text.toStdString());
    if (!path || path->elements.empty()) {
        finishGoTo({}, status::BadBrowseNameInvalid, done);
        return;
    }
    // Every prefix of the path, so that each level's node is known.
    std::vector<BrowsePath> paths;
    for (std::size_t n = 1; n <= path->elements.size(); ++n) {
        BrowsePath p;
        p.startingNode = NodeId(id::RootFolder);
        p.relativePath.elements = Array<RelativePathElement>(
            std::vector<RelativePathElement>(path->elements.begin(), path->elements.begin() + std::ptrdiff_t(n)));
        paths.push_back(std::move(p));
    }
    QObject* op = m_connection->beginOperation(tr("Go to %1").arg(text));
    const quint64 generation = m_root->serial;
    client->translateBrowsePaths(
        std::move(paths), op,
        detail::loggedOp<TranslateBrowsePathsToNodeIdsResponse>(
            m_connection, op, this, QStringLiteral("TranslateBrowsePaths"), text,
            [this, generation, done](const ServiceResult<TranslateBrowsePathsToNodeIdsResponse>& r) {
                if (generation != m_root->serial) return finishGoTo({}, status::BadRequestCancelledByClient, done);
                if (r.status.isBad()) return finishGoTo({}, r.status, done);
                std::vector<NodeId> chain;
                const NodeIdConverter conv = m_connection->client() ? m_connection->client()->nodeIdConverter() : NodeIdConverter();
                for (const BrowsePathResult& step : r.response.results) {
                    if (step.statusCode.isBad()) return finishGoTo({}, step.statusCode, done);
                    std::optional<NodeId> found;
                    for (const BrowsePathTarget& t : step.targets) {
                        if (t.remainingPathIndex != detail::kPathTargetComplete || !t.targetId.isLocal()) continue;
                        found = t.targetId.namespaceUri.isNull() ? std::optional<NodeId>(t.targetId.nodeId) : conv.toNodeId(t.targetId);
                        if (found) break;
                    }
                    if (!found) return finishGoTo({}, status::BadNoMatch, done);
                    chain.push_back(*found);
                }
                expandChain(std::move(chain), 0, m_root.get(), done);
            }));
}

void AddressTreeModel::pathToRoot(NodeId node, std::vector<NodeId> chain, int depth, GoToCallback done) {
    if (node == NodeId(id::RootFolder)) {
        chain.pop_back();  // the RootFolder itself is the invisible root
        std::reverse(chain.begin(), chain.end());
        expandChain(std::move(chain), 0, m_root.get(), std::move(done));
        return;
    }
    Client* client = m_connection->client();
    if (!isUsable(client)) return finishGoTo({}, status::BadServerNotConnected, done);
    if (depth > kMaxDepthToRoot) return finishGoTo({}, status::BadNotFound, done);
    BrowseRequest req;
    BrowseDescription d = hierarchical(node, BrowseDirection::Inverse);
    d.resultMask = uint32_t(BrowseResultMask::ReferenceTypeInfo);
    req.nodesToBrowse.push_back(d);
    QObject* op = m_connection->beginOperation(tr("Go to %1").arg(QString::fromStdString(node.toString())));
    const quint64 generation = m_root->serial;
    client->browse(std::move(req), BrowseOptions{}, op,
                   detail::loggedOp<BrowseResponse>(
                       m_connection, op, this, QStringLiteral("Browse"),
                       QStringLiteral("inverse of %1").arg(QString::fromStdString(node.toString())),
                       [this, generation, chain = std::move(chain), depth, done](const ServiceResult<BrowseResponse>& r) mutable {
                           if (generation != m_root->serial) return finishGoTo({}, status::BadRequestCancelledByClient, done);
                           if (r.status.isBad()) return finishGoTo({}, r.status, done);
                           if (r.response.results.empty()) return finishGoTo({}, status::BadUnknownResponse, done);
                           const BrowseResult& br = r.response.results[0];
                           if (br.statusCode.isBad()) return finishGoTo({}, br.statusCode, done);
                           for (const ReferenceDescription& ref : br.references) {
                               if (!ref.nodeId.isLocal() || !ref.nodeId.namespaceUri.isNull()) continue;
                               const NodeId& p = ref.nodeId.nodeId;
                               if (std::find(chain.begin(), chain.end(), p) != chain.end()) continue;  // a loop
                               chain.push_back(p);
                               pathToRoot(p, std::move(chain), depth + 1, std::move(done));
                               return;
                           }
                           finishGoTo({}, status::BadNotFound, done);
                       }));
}

void AddressTreeModel::expandChain(std::vector<NodeId> chain, std::size_t step, Item* at, GoToCallback done) {
    if (step == chain.size()) {
        finishGoTo(at == m_root.get() ? QModelIndex() : indexOf(at), StatusCode(), done);
        return;
    }
    if (at->fetch != Item::Fetch::Done || at->fetchStatus.isBad()) {
        const quint64 serial = at->serial;
        if (at->fetch == Item::Fetch::Done) at->fetch = Item::Fetch::No;  // a failed fetch: try again
        startFetch(at, [this, serial, chain = std::move(chain), step, done](StatusCode s) mutable {
            Item* it = live(serial);
            if (!it) return finishGoTo({}, status::BadRequestCancelledByClient, done);
            if (s.isBad()) return finishGoTo({}, s, done);
            expandChain(std::move(chain), step, it, std::move(done));
        });
        return;
    }
    for (auto& c : at->children) {
        if (c->nodeId == chain[step]) {
            expandChain(std::move(chain), step + 1, c.get(), std::move(done));
            return;
        }
    }
    finishGoTo({}, status::BadNotFound, done);
}

void AddressTreeModel::finishGoTo(const QModelIndex& index, StatusCode status, const GoToCallback& done) {
    // Always after the caller returned (a goTo() answered at once must not call back inside goTo()).
    QPersistentModelIndex persistent(index);
    QTimer::singleShot(0, this, [this, persistent, status, done] {
        const QModelIndex idx = persistent;
        if (done) done(idx, status);
        emit goToFinished(idx, status);
    });
}

// --- Model ------------------------------------------------------------------------------------

AddressTreeModel::Item* AddressTreeModel::itemOf(const QModelIndex& index) const {
    if (!index.isValid()) return m_root.get();
    return static_cast<Item*>(index.internalPointer());
}

QModelIndex AddressTreeModel::indexOf(const Item* item, int column) const {
    if (!item || item == m_root.get()) return {};
    return createIndex(item->row, column, const_cast<Item*>(item));
}

NodeId AddressTreeModel::nodeIdAt(const QModelIndex& index) const {
    if (!index.isValid()) return {};
    return itemOf(index)->nodeId;
}

NodeClass AddressTreeModel::nodeClassAt(const QModelIndex& index) const {
    if (!index.isValid()) return NodeClass::Unspecified;
    return itemOf(index)->ref.nodeClass;
}

QModelIndex AddressTreeModel::findFetched(const NodeId& node) const {
    std::vector<const Item*> level{m_root.get()};
    while (!level.empty()) {
        std::vector<const Item*> next;
        for (const Item* it : level)
            for (const auto& c : it->children) {
                if (c->nodeId == node) return indexOf(c.get());
                next.push_back(c.get());
            }
        level.swap(next);
    }
    return {};
}

QModelIndex AddressTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (parent.isValid() && parent.column() != 0) return {};
    const Item* p = itemOf(parent);
    if (row >= int(p->children.size())) return {};
    return createIndex(row, column, p->children[std::size_t(row)].get());
}

QModelIndex AddressTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    const Item* p = itemOf(child)->parent;
    return indexOf(p);
}

int AddressTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    return int(itemOf(parent)->children.size());
}

int AddressTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

bool AddressTreeModel::hasChildren(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return false;
    const Item* it = itemOf(parent);
    if (!it->children.empty()) return true;
    if (it->fetch == Item::Fetch::Done) return false;
    return !it->nodeId.isNull();
}

bool AddressTreeModel::canFetchMore(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return false;
    const Item* it = itemOf(parent);
    return it->fetch == Item::Fetch::No && !it->nodeId.isNull() && isUsable(m_connection->client());
}

bool AddressTreeModel::isFetching(const QModelIndex& parent) const {
    return itemOf(parent)->fetch == Item::Fetch::Running;
}

void AddressTreeModel::fetchMore(const QModelIndex& parent) {
    if (!canFetchMore(parent)) return;
    startFetch(itemOf(parent));
}

QVariant AddressTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Item* it = itemOf(index);
    const ReferenceDescription& r = it->ref;
    switch (role) {
    case Qt::DisplayRole: {
        const QString text = r.displayName.text.toQString();
        return text.isEmpty() ? r.browseName.name.toQString() : text;
    }
    case Qt::DecorationRole:
        return app::nodeClassIcon(r.nodeClass);
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1\nBrowseName: %2\nNodeId: %3\nNodeClass: %4")
                          .arg(r.displayName.text.toQString(), QString::fromStdString(r.browseName.toString()),
                               QString::fromStdString(r.nodeId.toString()), QString::fromLatin1(enumName(r.nodeClass)));
        if (it->fetchStatus.isBad()) tip += QStringLiteral("\nBrowse: %1").arg(app::statusName(it->fetchStatus));
        return tip;
    }
    case NodeIdRole:
        return QString::fromStdString(it->nodeId.isNull() ? r.nodeId.toString() : it->nodeId.toString());
    case PersistentNodeIdRole: {
        if (it->nodeId.isNull()) return QString::fromStdString(r.nodeId.toString());
        Client* c = m_connection->client();
        return persistentNodeId(it->nodeId, c ? c->nodeIdConverter() : NodeIdConverter());
    }
    case NodeClassRole:
        return int(r.nodeClass);
    case BrowseNameRole:
        return QString::fromStdString(r.browseName.toString());
    case ReferenceTypeRole:
        return QString::fromStdString(r.referenceTypeId.toString());
    case TypeDefinitionRole:
        return r.typeDefinition.nodeId.isNull() ? QString() : QString::fromStdString(r.typeDefinition.toString());
    case FetchStatusRole:
        return uint(it->fetchStatus.code);
    default:
        return {};
    }
}

QVariant AddressTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section != DisplayNameColumn) return {};
    return tr("Address space");
}

Qt::ItemFlags AddressTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (!itemOf(index)->nodeId.isNull()) f |= Qt::ItemIsDragEnabled;
    return f;
}

QStringList AddressTreeModel::mimeTypes() const {
    return {QString::fromLatin1(kNodeIdMimeType), QStringLiteral("text/plain")};
}

QMimeData* AddressTreeModel::mimeData(const QModelIndexList& indexes) const {
    std::vector<NodeId> nodes;
    for (const QModelIndex& i : indexes) {
        if (!i.isValid()) continue;
        const NodeId& n = itemOf(i)->nodeId;
        if (!n.isNull() && std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
    }
    if (nodes.empty()) return nullptr;
    Client* c = m_connection->client();
    return makeNodeIdMimeData(nodes, c ? c->nodeIdConverter() : NodeIdConverter());
}

Qt::DropActions AddressTreeModel::supportedDragActions() const {
    return Qt::CopyAction;
}

} // namespace ua::clientapp
