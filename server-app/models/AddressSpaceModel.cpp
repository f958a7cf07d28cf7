#include "models/AddressSpaceModel.h"

#include "models/KeyedTableModel.h"
#include "ValueText.h"
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
    QString dataTypeText;          // Variables and VariableTypes
    bool writable = false;         // a Variable with CurrentWrite
    bool valueShown = false;       // the Value was read at least once (shown)
    QString valueText;
    QString statusText;
};

namespace {

// "Double", "Double[]", "Int32[,]" (ValueRank n >= 1: n - 1 commas), "BaseDataType (any rank)".
QString dataTypeText(const AddressSpace& space, const Node& n) {
    const Node* type = space.find(n.attrs->dataType);
    QString name = type ? type->displayName().text.toQString() : QString::fromStdString(n.attrs->dataType.toString());
    if (n.attrs->valueRank >= 1) return name + QLatin1Char('[') + QString(n.attrs->valueRank - 1, QLatin1Char(',')) + QLatin1Char(']');
    if (n.attrs->valueRank == 0) return name + QStringLiteral("[...]");  // OneOrMoreDimensions
    if (n.attrs->valueRank == -2) return name + QStringLiteral(" (any rank)");
    if (n.attrs->valueRank == -3) return name + QStringLiteral(" (scalar or [])");
    return name;
}

// The Value column: a matrix with its dimensions first ("2 x 3 [[1, 2, 3], [4, 5, 6]]").
QString valueText(const DataValue& v) {
    if (!v.hasValue) return QString();
    QString text = app::formatVariant(v.value, 20);
    const Array<int32_t>& dims = v.value.arrayDimensions();
    if (dims.size() > 1 && v.value.dimensionsMatch()) {
        QStringList d;
        for (int32_t n : dims) d << QString::number(n);
        text = d.join(QStringLiteral(" x ")) + QLatin1Char(' ') + text;
    }
    return text;
}

} // namespace

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
        item.dataTypeText.clear();
        item.writable = false;
        return;
    }
    item.displayName = n->displayName().text.toQString();
    item.browseName = QString::fromStdString(n->browseName.toString());
    item.nodeClass = n->nodeClass;
    const bool hasValue = n->nodeClass == ua::NodeClass::Variable || n->nodeClass == ua::NodeClass::VariableType;
    item.dataTypeText = hasValue ? dataTypeText(*m_snapshot, *n) : QString();
    item.writable = n->nodeClass == ua::NodeClass::Variable && (n->attrs->accessLevel & access::CurrentWrite);
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
        item.statusText.clear();
        return;
    }
    const DataValue v = currentValue(*m_snapshot, item.id);
    item.valueText = valueText(v);
    item.statusText = app::statusName(v.hasStatus ? v.status : StatusCode());
}

DataValue AddressSpaceModel::currentValue(const AddressSpace& space, const ua::NodeId& id) const {
    // As a Read from an unrestricted in-process caller (ServiceContext's defaults).
    const ServiceContext ctx{space, nullptr, m_limits, nullptr, DateTime::now()};
    ReadValueId rv;
    rv.nodeId = id;
    rv.attributeId = uint32_t(AttributeId::Value);
    return ua::readValue(ctx, rv, TimestampsToReturn::Neither);
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
    if (role == NodeClassRole) return int(it->nodeClass);
    if (role == Qt::ToolTipRole && index.column() == DisplayName) return it->browseName;
    if (role == Qt::ToolTipRole && index.column() == Value && it->writable)
        return tr("Double-click to write a value (as the administrator)");
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::EditRole) return {};
    switch (Column(index.column())) {
    case DisplayName: return it->displayName;
    case NodeClass: return QString::fromLatin1(enumName(it->nodeClass));
    case NodeId: return QString::fromStdString(it->id.toString());
    case DataType: return it->dataTypeText;
    case Value:
        // The editor gets the whole value as parseValue reads it back (no dimensions first, every
        // element), read when an edit starts; the cell shows the cached text.
        if (role == Qt::EditRole) {
            const DataValue v = currentValue(*m_snapshot, it->id);
            return v.hasValue ? app::formatVariant(v.value) : QString();
        }
        if (!it->valueShown) readValue(*it);  // first shown: read once (the cache is logically const)
        return it->valueText;
    case Status:
        if (!it->valueShown) readValue(*it);
        return it->statusText;
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
    case DataType: return tr("DataType");
    case Value: return tr("Value");
    case Status: return tr("Status");
    case ColumnCount: break;
    }
    return {};
}

Qt::ItemFlags AddressSpaceModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractItemModel::flags(index);
    if (checkIndex(index, CheckIndexOption::IndexIsValid) && index.column() == Value && itemOf(index)->writable)
        f |= Qt::ItemIsEditable;
    return f;
}

bool AddressSpaceModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    m_error.clear();
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid) || index.column() != Value) return false;
    Item* it = itemOf(index);
    const QString text = value.toString();
    const QString node = QStringLiteral("'%1' (%2)").arg(it->displayName, QString::fromStdString(it->id.toString()));
    const QString notDone = tr("could not write the Value of %1").arg(node);
    const std::shared_ptr<const AddressSpace> snapshot = m_space.snapshot();
    const Node* n = snapshot->find(it->id);
    if (!n || n->nodeClass != ua::NodeClass::Variable) {
        m_error = tr("%1 is not a Variable of the address space (any more)").arg(node);
        m_audit.line(false, {}, notDone, m_error);
        return false;
    }
    // The DataType's built-in type; for an abstract or unknown one, the current value's.
    std::optional<BuiltInType> type = app::builtInTypeOf(n->attrs->dataType);
    const DataValue current = currentValue(*snapshot, it->id);
    if ((!type || *type == BuiltInType::Variant) && current.hasValue && current.value.type() != BuiltInType::Null)
        type = current.value.type();
    if (!type || *type == BuiltInType::ExtensionObject || *type == BuiltInType::Variant) {
        m_error = tr("a value of DataType %1 cannot be written as text here").arg(it->dataTypeText);
        m_audit.line(false, {}, notDone, m_error);
        return false;
    }
    const app::ParseResult parsed = app::parseValue(text, *type, n->attrs->valueRank);
    if (!parsed.ok()) {
        m_error = parsed.error;
        m_audit.line(false, {}, notDone, QStringLiteral("%1 (%2)").arg(parsed.error, app::statusName(parsed.status)));
        return false;
    }
    WriteRequest request;
    WriteValue wv;
    wv.nodeId = it->id;
    wv.attributeId = uint32_t(AttributeId::Value);
    wv.value.setValue(parsed.value);
    request.nodesToWrite = Array<WriteValue>{std::move(wv)};
    WriteResponse response;
    ServiceContext writeCtx{*snapshot, &m_space, m_limits, nullptr, DateTime::now()};
    handleWrite(writeCtx, request, response);
    StatusCode s = response.responseHeader.serviceResult;
    if (s.isGood() && response.results.size() == 1) s = response.results[0];
    if (s.isBad()) {
        m_error = tr("the Write returned %1").arg(app::statusName(s));
        m_audit.line(false, {}, notDone, app::statusName(s));
        return false;
    }
    m_audit.line(true, tr("wrote %1 to the Value of %2").arg(app::formatVariant(parsed.value, 20), node), {});
    const QString before = it->valueText + it->statusText;
    readValue(*it);
    if (it->valueText + it->statusText != before) emit dataChanged(indexOf(it, Value), indexOf(it, Status), {Qt::DisplayRole, SortRole});
    return true;
}

void AddressSpaceModel::refreshValues(const QModelIndexList& indexes) {
    std::unordered_set<Item*> done;
    for (const QModelIndex& i : indexes) {
        if (!checkIndex(i, CheckIndexOption::IndexIsValid)) continue;
        Item* it = itemOf(i);
        if (!done.insert(it).second) continue;
        const QString before = it->valueText;
        const QString statusBefore = it->statusText;
        readValue(*it);
        if (it->valueText != before || it->statusText != statusBefore)
            emit dataChanged(indexOf(it, Value), indexOf(it, Status), {Qt::DisplayRole, SortRole});
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
        const QString type = c->dataTypeText;
        const bool writable = c->writable;
        describe(*c);
        if (name != c->displayName || cls != c->nodeClass || had != c->mayHaveChildren || type != c->dataTypeText ||
            writable != c->writable)
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
