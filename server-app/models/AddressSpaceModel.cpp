#include "models/AddressSpaceModel.h"

#include "models/KeyedTableModel.h"
#include "models/VariantText.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/services/AttributeService.h"

#include <unordered_map>
#include <unordered_set>

namespace ua::serverapp {

struct AddressSpaceModel::Item {
    ua::NodeId id;
    Item* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Item>> children;
    bool fetched = false;
    bool mayHaveChildren = false;  // a forward hierarchical reference exists
    QString displayName;
    QString browseName;
    ua::NodeClass nodeClass = ua::NodeClass::Unspecified;
    bool valueShown = false;       // the Value was read at least once (shown)
    QString valueText;
};

AddressSpaceModel::AddressSpaceModel(SharedAddressSpace& space, ua::NodeId root, QObject* parent)
    : QAbstractItemModel(parent), m_space(space), m_root(std::make_unique<Item>()) {
    m_version = m_space.version();
    m_snapshot = m_space.snapshot();
    m_hierarchical = m_snapshot->indexOf(ua::NodeId(uint32_t(33)));  // HierarchicalReferences
    m_root->id = std::move(root);
    describe(*m_root);
    for (ua::NodeId& c : childIds(m_root->id)) {
        auto item = std::make_unique<Item>();
        item->id = std::move(c);
        item->parent = m_root.get();
        item->row = int(m_root->children.size());
        describe(*item);
        m_root->children.push_back(std::move(item));
    }
    m_root->fetched = true;
}

AddressSpaceModel::~AddressSpaceModel() = default;

void AddressSpaceModel::describe(Item& item) const {
    const Node* n = m_snapshot->find(item.id);
    if (!n) {
        item.displayName = QString::fromStdString(item.id.toString());
        item.browseName.clear();
        item.nodeClass = ua::NodeClass::Unspecified;
        item.mayHaveChildren = false;
        return;
    }
    item.displayName = n->displayName.text.toQString();
    item.browseName = QString::fromStdString(n->browseName.toString());
    item.nodeClass = n->nodeClass;
    item.mayHaveChildren = false;
    if (m_hierarchical == kNoNode) return;
    for (const Reference& r : n->references)
        if (r.isForward && m_snapshot->isSubtypeOf(r.referenceType, m_hierarchical)) {
            item.mayHaveChildren = true;
            break;
        }
}

std::vector<ua::NodeId> AddressSpaceModel::childIds(const ua::NodeId& id) const {
    std::vector<ua::NodeId> out;
    const Node* n = m_snapshot->find(id);
    if (!n || m_hierarchical == kNoNode) return out;
    std::unordered_set<NodeIndex> seen;  // a target referenced twice (Organizes and HasComponent) shows once
    for (const Reference& r : n->references)
        if (r.isForward && m_snapshot->isSubtypeOf(r.referenceType, m_hierarchical) && seen.insert(r.target).second)
            out.push_back(m_snapshot->node(r.target).nodeId);
    return out;
}

void AddressSpaceModel::readValue(Item& item) const {
    item.valueShown = true;
    if (item.nodeClass != ua::NodeClass::Variable && item.nodeClass != ua::NodeClass::VariableType) {
        item.valueText.clear();
        return;
    }
    // As a Read from an unrestricted in-process caller (ServiceContext's defaults).
    const ServiceContext ctx{*m_snapshot, nullptr, m_limits, nullptr, DateTime::now()};
    ReadValueId rv;
    rv.nodeId = item.id;
    rv.attributeId = uint32_t(AttributeId::Value);
    item.valueText = dataValueText(ua::readValue(ctx, rv, TimestampsToReturn::Neither));
}

AddressSpaceModel::Item* AddressSpaceModel::itemOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Item*>(index.internalPointer()) : m_root.get();
}

QModelIndex AddressSpaceModel::indexOf(Item* item, int column) const {
    return item == m_root.get() ? QModelIndex() : createIndex(item->row, column, item);
}

ua::NodeId AddressSpaceModel::nodeId(const QModelIndex& index) const {
    return index.isValid() ? itemOf(index)->id : ua::NodeId();
}

QModelIndex AddressSpaceModel::findFetched(const ua::NodeId& id) const {
    std::vector<Item*> stack{m_root.get()};
    while (!stack.empty()) {
        Item* it = stack.back();
        stack.pop_back();
        for (const auto& c : it->children) {
            if (c->id == id) return indexOf(c.get());
            stack.push_back(c.get());
        }
    }
    return {};
}

QModelIndex AddressSpaceModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    const Item* p = itemOf(parent);
    if (row >= int(p->children.size())) return {};
    return createIndex(row, column, p->children[std::size_t(row)].get());
}

QModelIndex AddressSpaceModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    return indexOf(itemOf(child)->parent);
}

int AddressSpaceModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    return int(itemOf(parent)->children.size());
}

int AddressSpaceModel::columnCount(const QModelIndex&) const { return ColumnCount; }

bool AddressSpaceModel::hasChildren(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return false;
    const Item* it = itemOf(parent);
    return it->fetched ? !it->children.empty() : it->mayHaveChildren;
}

bool AddressSpaceModel::canFetchMore(const QModelIndex& parent) const {
    // Not while rows are being inserted or removed: a fetch from a slot of those signals (a view's,
    // QAbstractItemModelTester's) would begin an insertion inside the one being announced.
    if (m_changing || (parent.isValid() && parent.column() != 0)) return false;
    const Item* it = itemOf(parent);
    return !it->fetched && it->mayHaveChildren;
}

void AddressSpaceModel::fetchMore(const QModelIndex& parent) {
    if (!canFetchMore(parent)) return;
    Item* it = itemOf(parent);
    it->fetched = true;
    std::vector<ua::NodeId> ids = childIds(it->id);
    if (ids.empty()) return;
    const ChangeScope scope(m_changing);
    beginInsertRows(parent, 0, int(ids.size()) - 1);
    for (ua::NodeId& id : ids) {
        auto c = std::make_unique<Item>();
        c->id = std::move(id);
        c->parent = it;
        c->row = int(it->children.size());
        describe(*c);
        it->children.push_back(std::move(c));
    }
    endInsertRows();
}

QVariant AddressSpaceModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    Item* it = itemOf(index);
    if (role == NodeIdRole) return QString::fromStdString(it->id.toString());
    if (role == Qt::ToolTipRole && index.column() == DisplayName) return it->browseName;
    if (role != Qt::DisplayRole && role != SortRole) return {};
    switch (Column(index.column())) {
    case DisplayName: return it->displayName;
    case NodeClass: return QString::fromLatin1(toString(it->nodeClass));
    case NodeId: return QString::fromStdString(it->id.toString());
    case Value:
        if (!it->valueShown) readValue(*it);  // first shown: read once (the cache is logically const)
        return it->valueText;
    case ColumnCount: break;
    }
    return {};
}

QVariant AddressSpaceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case DisplayName: return tr("Name");
    case NodeClass: return tr("NodeClass");
    case NodeId: return tr("NodeId");
    case Value: return tr("Value");
    case ColumnCount: break;
    }
    return {};
}

void AddressSpaceModel::refreshValues(const QModelIndexList& indexes) {
    std::unordered_set<Item*> done;
    for (const QModelIndex& i : indexes) {
        if (!checkIndex(i, CheckIndexOption::IndexIsValid)) continue;
        Item* it = itemOf(i);
        if (!done.insert(it).second) continue;
        const QString before = it->valueText;
        readValue(*it);
        if (it->valueText != before) {
            const QModelIndex v = indexOf(it, Value);
            emit dataChanged(v, v, {Qt::DisplayRole, SortRole});
        }
    }
}

void AddressSpaceModel::refreshAllValues() {
    QModelIndexList shown;
    std::vector<Item*> stack{m_root.get()};
    while (!stack.empty()) {
        Item* it = stack.back();
        stack.pop_back();
        for (const auto& c : it->children) {
            if (c->valueShown) shown.append(indexOf(c.get()));
            stack.push_back(c.get());
        }
    }
    refreshValues(shown);
}

void AddressSpaceModel::refreshStructure() {
    const uint64_t v = m_space.version();
    if (v == m_version) return;
    m_version = v;
    m_snapshot = m_space.snapshot();
    m_hierarchical = m_snapshot->indexOf(ua::NodeId(uint32_t(33)));
    syncChildren(*m_root);
}

void AddressSpaceModel::syncChildren(Item& item) {
    const QModelIndex parentIndex = indexOf(&item);
    const std::vector<ua::NodeId> ids = childIds(item.id);
    std::unordered_map<ua::NodeId, std::size_t> wanted;
    for (std::size_t i = 0; i < ids.size(); ++i) wanted.emplace(ids[i], i);

    // Children that are gone: removed in runs, from the end.
    auto& ch = item.children;
    for (int last = int(ch.size()) - 1; last >= 0;) {
        if (wanted.count(ch[std::size_t(last)]->id)) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !wanted.count(ch[std::size_t(first - 1)]->id)) --first;
        const ChangeScope scope(m_changing);
        beginRemoveRows(parentIndex, first, last);
        ch.erase(ch.begin() + first, ch.begin() + last + 1);
        for (std::size_t r = std::size_t(first); r < ch.size(); ++r) ch[r]->row = int(r);
        endRemoveRows();
        last = first - 1;
    }

    // Those that stay: attributes refreshed, fetched levels followed.
    std::unordered_set<ua::NodeId> present;
    for (auto& c : ch) {
        present.insert(c->id);
        const QString name = c->displayName;
        const auto cls = c->nodeClass;
        const bool had = c->mayHaveChildren;
        describe(*c);
        if (name != c->displayName || cls != c->nodeClass || had != c->mayHaveChildren)
            emit dataChanged(indexOf(c.get(), 0), indexOf(c.get(), ColumnCount - 1));
        if (c->fetched) syncChildren(*c);
    }

    // New children, appended.
    std::vector<ua::NodeId> added;
    for (const ua::NodeId& id : ids)
        if (!present.count(id)) added.push_back(id);
    if (added.empty() || !item.fetched) return;
    const int first = int(ch.size());
    const ChangeScope scope(m_changing);
    beginInsertRows(parentIndex, first, first + int(added.size()) - 1);
    for (ua::NodeId& id : added) {
        auto c = std::make_unique<Item>();
        c->id = std::move(id);
        c->parent = &item;
        c->row = int(ch.size());
        describe(*c);
        ch.push_back(std::move(c));
    }
    endInsertRows();
}

} // namespace ua::serverapp
