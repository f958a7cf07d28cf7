#include "models/AttributesModel.h"

#include "core/Connection.h"
#include "ValueText.h"
#include "models/DataTypeNames.h"
#include "models/ModelCall.h"
#include "models/StructureEdit.h"
#include "models/ValueTree.h"

#include <QPointer>
#include <QStringList>

namespace ua::clientapp {

namespace {

constexpr uint32_t kFirstAttribute = 1;   // NodeId
constexpr uint32_t kLastAttribute = 27;   // AccessLevelEx

const char* attributeName(uint32_t id) {
    static const char* const names[] = {
        "", "NodeId", "NodeClass", "BrowseName", "DisplayName", "Description", "WriteMask",
        "UserWriteMask", "IsAbstract", "Symmetric", "InverseName", "ContainsNoLoops", "EventNotifier",
        "Value", "DataType", "ValueRank", "ArrayDimensions", "AccessLevel", "UserAccessLevel",
        "MinimumSamplingInterval", "Historizing", "Executable", "UserExecutable", "DataTypeDefinition",
        "RolePermissions", "UserRolePermissions", "AccessRestrictions", "AccessLevelEx"};
    return id <= kLastAttribute ? names[id] : "";
}

// Bit names of a mask (OPC 10000-3 8.57 AccessLevelType, 8.59 EventNotifierType, 8.58 AccessLevelExType).
QString maskText(uint64_t value, std::initializer_list<std::pair<uint64_t, const char*>> bits) {
    QStringList names;
    for (const auto& [bit, name] : bits)
        if (value & bit) names << QString::fromLatin1(name);
    if (names.isEmpty()) return QStringLiteral("None (0)");
    return names.join(QStringLiteral(" | ")) + QStringLiteral(" (%1)").arg(value);
}

const std::initializer_list<std::pair<uint64_t, const char*>> kAccessLevelBits = {
    {1, "CurrentRead"}, {2, "CurrentWrite"}, {4, "HistoryRead"}, {8, "HistoryWrite"},
    {16, "SemanticChange"}, {32, "StatusWrite"}, {64, "TimestampWrite"}};
const std::initializer_list<std::pair<uint64_t, const char*>> kAccessLevelExBits = {
    {1, "CurrentRead"}, {2, "CurrentWrite"}, {4, "HistoryRead"}, {8, "HistoryWrite"},
    {16, "SemanticChange"}, {32, "StatusWrite"}, {64, "TimestampWrite"}, {256, "NonatomicRead"},
    {512, "NonatomicWrite"}, {1024, "WriteFullArrayOnly"}, {2048, "NoSubDataTypes"}, {4096, "NonVolatile"},
    {8192, "Constant"}};
const std::initializer_list<std::pair<uint64_t, const char*>> kEventNotifierBits = {
    {1, "SubscribeToEvents"}, {4, "HistoryRead"}, {8, "HistoryWrite"}};

std::optional<int64_t> integerOf(const Variant& v) {
    if (auto p = v.get<int32_t>()) return *p;
    if (auto p = v.get<uint32_t>()) return *p;
    if (auto p = v.get<uint8_t>()) return *p;
    if (auto p = v.get<int8_t>()) return *p;
    if (auto p = v.get<uint16_t>()) return *p;
    if (auto p = v.get<int16_t>()) return *p;
    return std::nullopt;
}

QString valueRankText(int64_t rank) {
    switch (rank) {
    case -3: return QStringLiteral("-3 (ScalarOrOneDimension)");
    case -2: return QStringLiteral("-2 (Any)");
    case -1: return QStringLiteral("-1 (Scalar)");
    case 0: return QStringLiteral("0 (OneOrMoreDimensions)");
    case 1: return QStringLiteral("1 (OneDimension)");
    default: return QStringLiteral("%1 (%1 Dimensions)").arg(rank);
    }
}

// A shape change's outcome (StructureEdit.h) as rewriteStructure takes it.
StatusCode shapeChanged(bool ok) {
    return ok ? StatusCode() : StatusCode(status::BadInvalidArgument);
}

bool isAbstractDataType(const NodeId& t) {
    // BaseDataType, Number, Integer, UInteger: the value's own type says what to write.
    return t.namespaceIndex() == 0 && t.idType() == NodeId::IdType::Numeric &&
           (t.numeric() == 24 || t.numeric() == 26 || t.numeric() == 27 || t.numeric() == 28);
}

} // namespace

struct AttributesModel::Item {
    Item* parent = nullptr;
    int row = 0;
    uint32_t attributeId = 0;  // top-level rows
    QString name;
    QString text;
    QString typeName;
    DataValue dataValue;        // top-level rows: what the Read returned
    StatusCode status;          // read status; the Value row: the last write's status after a write
    QString statusText;         // what the Status column shows
    int elementIndex = -1;      // an element of the Value array: its flat index
    std::vector<std::unique_ptr<Item>> children;
    StructureFieldRow field;  // a field of a custom structure (ValueTree.h)
};

AttributesModel::AttributesModel(Connection* connection, QObject* parent)
    : QAbstractItemModel(parent), m_connection(connection), m_names(new DataTypeNames(connection, this)) {
    connect(m_names, &DataTypeNames::namesResolved, this, [this] {
        // DataType names arrived: the DataType attribute's text and the Value's type.
        for (auto& r : m_rows) {
            if (r->attributeId == uint32_t(AttributeId::DataType) || r->attributeId == uint32_t(AttributeId::Value)) {
                r->text = attributeText(r->attributeId, r->dataValue);
                if (r->attributeId == uint32_t(AttributeId::Value)) {
                    const QString t = m_names->known(dataType()).value_or(QString());
                    if (!t.isEmpty()) r->typeName = t + (r->dataValue.value.isArray() ? QStringLiteral("[]") : QString());
                }
                emit dataChanged(indexOf(r.get(), 0), indexOf(r.get(), ColumnCount - 1));
            }
        }
    });
    connect(connection, &Connection::clientChanged, this, [this] { setNode({}); });
}

// The Value's custom structures: once their DataTypes are loaded (DataTypeCache), the rows again.
void AttributesModel::loadValueTypes(const std::vector<DataValue>& values) {
    DataTypeCache* types = m_connection->dataTypes();
    const std::size_t at = uint32_t(AttributeId::Value) - kFirstAttribute;
    if (at >= values.size() || m_typesLoadedFor == m_generation) return;
    const quint64 generation = m_generation;
    auto again = [this, alive = QPointer<AttributesModel>(this), generation, values] {
        if (alive && generation == m_generation) applyRead(values);
    };
    if (types->needsLoad(values[at].value)) {
        m_typesLoadedFor = m_generation;
        types->load(values[at].value, std::move(again));
        return;
    }
    // An empty array of a DataType of the server's own: that type (for "Add element").
    const std::size_t typeAt = uint32_t(AttributeId::DataType) - kFirstAttribute;
    const auto* xs = values[at].value.get<Array<ExtensionObject>>();
    const NodeId* t = typeAt < values.size() ? values[typeAt].value.get<NodeId>() : nullptr;
    if (xs && xs->empty() && t && t->namespaceIndex() != 0 && !types->resolve(*t) && types->failure(*t).isEmpty()) {
        m_typesLoadedFor = m_generation;
        types->loadDataTypes({*t}, std::move(again));
    }
}

AttributesModel::~AttributesModel() = default;

void AttributesModel::setNode(const NodeId& node) {
    beginResetModel();
    ++m_generation;
    m_node = node;
    m_rows.clear();
    endResetModel();
    if (!node.isNull()) read(false);
}

void AttributesModel::refresh() {
    if (!m_node.isNull()) read(true);
}

void AttributesModel::read(bool keepRows) {
    (void)keepRows;  // rows are always kept where the attribute is still there (applyRead)
    Client* client = m_connection->client();
    if (!client) {
        emit loaded(status::BadServerNotConnected);
        return;
    }
    ReadRequest req;
    req.maxAge = 0;
    req.timestampsToReturn = TimestampsToReturn::Both;
    for (uint32_t id = kFirstAttribute; id <= kLastAttribute; ++id) {
        ReadValueId r;
        r.nodeId = m_node;
        r.attributeId = id;
        req.nodesToRead.push_back(std::move(r));
    }
    const QString nodeText = QString::fromStdString(m_node.toString());
    QObject* op = m_connection->beginOperation(tr("Read attributes of %1").arg(nodeText));
    const quint64 generation = ++m_generation;
    client->read(std::move(req), op,
                 detail::loggedOp<ReadResponse>(m_connection, op, this, QStringLiteral("Read"),
                                                QStringLiteral("attributes of %1").arg(nodeText),
                                                [this, generation](const ServiceResult<ReadResponse>& r) {
                                                    if (generation != m_generation) return;
                                                    if (r.isGood()) {
                                                        std::vector<DataValue> values(r.response.results.begin(),
                                                                                      r.response.results.end());
                                                        applyRead(values);
                                                        loadValueTypes(values);
                                                        lookupEnumNames();
                                                    }
                                                    emit loaded(r.status);
                                                }));
}

QString AttributesModel::attributeText(uint32_t attributeId, const DataValue& dv) const {
    if (dv.status.isBad() && !dv.hasValue) return QString();
    const Variant& v = dv.value;
    const std::optional<int64_t> n = integerOf(v);
    switch (AttributeId(attributeId)) {
    case AttributeId::NodeClass:
        if (n) return QStringLiteral("%1 (%2)").arg(QString::fromLatin1(enumName(NodeClass(*n)))).arg(*n);
        break;
    case AttributeId::ValueRank:
        if (n) return valueRankText(*n);
        break;
    case AttributeId::AccessLevel:
    case AttributeId::UserAccessLevel:
        if (n) return maskText(uint64_t(*n), kAccessLevelBits);
        break;
    case AttributeId::AccessLevelEx:
        if (n) return maskText(uint64_t(*n), kAccessLevelExBits);
        break;
    case AttributeId::EventNotifier:
        if (n) return maskText(uint64_t(*n), kEventNotifierBits);
        break;
    case AttributeId::DataType:
        if (const NodeId* t = v.get<NodeId>()) {
            const QString id = QString::fromStdString(t->toString());
            if (auto name = m_names->known(*t)) return QStringLiteral("%1 (%2)").arg(*name, id);
            return id;
        }
        break;
    case AttributeId::Value:
        return app::formatVariant(v, detail::kShownElements);
    default:
        break;
    }
    return app::formatVariant(v, detail::kShownElements);
}

namespace {
// Builds the child Items of a value from ValueNodes.
template <class ItemT>
void addNodes(ItemT* parent, std::vector<ValueNode>&& nodes) {
    for (ValueNode& n : nodes) {
        auto c = std::make_unique<ItemT>();
        c->parent = parent;
        c->row = int(parent->children.size());
        c->name = std::move(n.name);
        c->text = std::move(n.text);
        c->typeName = std::move(n.typeName);
        c->elementIndex = n.elementIndex;
        c->field = std::move(n.field);
        addNodes(c.get(), std::move(n.children));
        parent->children.push_back(std::move(c));
    }
}

// Whether two value trees have the same rows (then the texts are updated in place).
template <class ItemT>
bool sameShape(const ItemT& a, const ItemT& b) {
    if (a.children.size() != b.children.size() || a.name != b.name) return false;
    for (std::size_t i = 0; i < a.children.size(); ++i)
        if (!sameShape(*a.children[i], *b.children[i])) return false;
    return true;
}
} // namespace

void AttributesModel::applyRead(const std::vector<DataValue>& values) {
    // The rows the node has now, in AttributeId order.
    std::vector<std::unique_ptr<Item>> fresh;
    for (std::size_t i = 0; i < values.size() && i < kLastAttribute; ++i) {
        const DataValue& dv = values[i];
        if (dv.status == status::BadAttributeIdInvalid) continue;
        auto it = std::make_unique<Item>();
        it->attributeId = uint32_t(i + kFirstAttribute);
        it->name = QString::fromLatin1(attributeName(it->attributeId));
        it->dataValue = dv;
        it->status = dv.status;
        it->statusText = app::statusName(dv.status);
        fresh.push_back(std::move(it));
    }
    // Names of DataTypes not known yet.
    for (auto& it : fresh)
        if (it->attributeId == uint32_t(AttributeId::DataType))
            if (const NodeId* t = it->dataValue.value.get<NodeId>()) m_names->lookup({*t});
    // Texts need the DataType (for the Value's type) so the rows are complete before they are shown.
    auto finishRow = [&](Item* it) {
        it->text = attributeText(it->attributeId, it->dataValue);
        if (it->attributeId == uint32_t(AttributeId::Value)) {
            const NodeId t = [&] {
                for (auto& f : fresh)
                    if (f->attributeId == uint32_t(AttributeId::DataType))
                        if (const NodeId* id = f->dataValue.value.get<NodeId>()) return *id;
                return NodeId();
            }();
            const std::optional<QString> name = t.isNull() ? std::nullopt : m_names->known(t);
            const QString base = name ? *name : valueTypeName(it->dataValue.value, m_connection->dataTypes());
            it->typeName = name && it->dataValue.value.isArray() ? base + QStringLiteral("[]") : base;
        } else if (!it->dataValue.value.isNull()) {
            it->typeName = valueTypeName(it->dataValue.value);
        }
        // Arrays and structures of any attribute (the Value, DataTypeDefinition, RolePermissions,
        // ArrayDimensions) as child rows; only the Value's are editable (flags()).
        const bool isValue = it->attributeId == uint32_t(AttributeId::Value);
        if (isValue) it->text = valueText(it->dataValue.value, m_connection->dataTypes(), detail::kShownElements);
        addNodes(it, valueChildren(it->dataValue.value, 1000, isValue ? m_connection->dataTypes() : nullptr));
        if (isValue) {
            it->field = valueRowField(it->dataValue.value, m_connection->dataTypes());
            // An empty Value array of custom structures: its DataType says what an element is.
            const auto* xs = it->dataValue.value.get<Array<ExtensionObject>>();
            if (xs && xs->empty() && !it->dataValue.value.isNull()) {
                const NodeId t = [&] {
                    for (auto& f : fresh)
                        if (f->attributeId == uint32_t(AttributeId::DataType))
                            if (const NodeId* id = f->dataValue.value.get<NodeId>()) return *id;
                    return NodeId();
                }();
                const auto r = t.isNull() ? std::nullopt : m_connection->dataTypes()->resolve(t);
                it->field.isArray = r && r->kind == ResolvedDataType::Kind::Structure;
            }
            if (it->dataValue.value.arrayDimensions().size() > 1) it->field.isArray = false;  // a matrix keeps its shape
        }
    };
    for (auto& it : fresh) finishRow(it.get());

    // Same attributes as shown: update in place (expanded rows stay expanded); else a reset.
    bool same = fresh.size() == m_rows.size();
    for (std::size_t i = 0; same && i < fresh.size(); ++i)
        same = fresh[i]->attributeId == m_rows[i]->attributeId && sameShape(*fresh[i], *m_rows[i]);
    if (!same) {
        beginResetModel();
        m_rows = std::move(fresh);
        for (std::size_t i = 0; i < m_rows.size(); ++i) m_rows[i]->row = int(i);
        endResetModel();
        return;
    }
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        Item* old = m_rows[i].get();
        Item* now = fresh[i].get();
        // Keep a write result shown on the Value row until the next write.
        const bool keepWrite = old->attributeId == uint32_t(AttributeId::Value) && old->statusText.startsWith(QStringLiteral("Write"));
        old->dataValue = now->dataValue;
        old->text = now->text;
        old->typeName = now->typeName;
        old->field = now->field;
        if (!keepWrite) {
            old->status = now->status;
            old->statusText = now->statusText;
        }
        std::vector<std::pair<Item*, Item*>> stack{{old, now}};
        while (!stack.empty()) {
            auto [o, n] = stack.back();
            stack.pop_back();
            for (std::size_t k = 0; k < o->children.size(); ++k) {
                Item* oc = o->children[k].get();
                Item* nc = n->children[k].get();
                oc->text = nc->text;
                oc->typeName = nc->typeName;
                oc->elementIndex = nc->elementIndex;
                oc->field = nc->field;  // e.g. an optional field made present: now editable
                stack.emplace_back(oc, nc);
            }
            if (!o->children.empty())
                emit dataChanged(indexOf(o->children.front().get(), 0), indexOf(o->children.back().get(), ColumnCount - 1));
        }
    }
    if (!m_rows.empty()) emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

void AttributesModel::readValueAgain() {
    Client* client = m_connection->client();
    if (!client || m_node.isNull()) return;
    // A full refresh keeps the rows and updates the Value (and its children) in place.
    read(true);
}

void AttributesModel::lookupEnumNames() {
    // An enumeration: an Int32 Value whose DataType is not Int32 itself (builtInTypeOf maps
    // subtypes of Enumeration to Int32; other namespaces' types have an Int32 value).
    const NodeId t = dataType();
    Client* client = m_connection->client();
    if (!client || t.isNull() || valueBuiltInType() != BuiltInType::Int32 || t == NodeId(uint32_t(BuiltInType::Int32)) ||
        isAbstractDataType(t) || t == NodeId(id::Enumeration)) {
        m_enumDataType = {};
        m_enumNames.clear();
        m_enumValues.clear();
        return;
    }
    if (t == m_enumDataType) return;
    m_enumDataType = {};  // another DataType's names are not shown while this one's are read
    m_enumNames.clear();
    m_enumValues.clear();
    // TranslateBrowsePaths (OPC 10000-4 5.8.4) DataType -HasProperty-> 0:EnumStrings and 0:EnumValues,
    // then one Read of the Values found.
    std::vector<BrowsePath> paths;
    for (const char* name : {"EnumStrings", "EnumValues"}) {
        BrowsePath p;
        p.startingNode = t;
        RelativePathElement e;
        e.referenceTypeId = NodeId(id::HasProperty);
        e.includeSubtypes = true;
        e.targetName = QualifiedName{0, String(name)};
        p.relativePath.elements.push_back(std::move(e));
        paths.push_back(std::move(p));
    }
    const quint64 generation = m_generation;
    QObject* op = m_connection->beginOperation(tr("Read the names of %1").arg(QString::fromStdString(t.toString())));
    client->translateBrowsePaths(
        std::move(paths), op,
        detail::loggedOp<TranslateBrowsePathsToNodeIdsResponse>(
            m_connection, op, this, QStringLiteral("TranslateBrowsePathsToNodeIds"),
            QStringLiteral("EnumStrings / EnumValues of %1").arg(QString::fromStdString(t.toString())),
            [this, generation, t](const ServiceResult<TranslateBrowsePathsToNodeIdsResponse>& r) {
                if (generation != m_generation || !r.isGood()) return;
                std::vector<NodeId> found;
                for (const BrowsePathResult& res : r.response.results)
                    if (res.statusCode.isGood() && !res.targets.empty() && res.targets[0].targetId.isLocal())
                        found.push_back(res.targets[0].targetId.nodeId);
                Client* client = m_connection->client();
                if (found.empty() || !client) return;
                QObject* op = m_connection->beginOperation(tr("Read the names of %1").arg(QString::fromStdString(t.toString())));
                client->readValues(found, op,
                                   detail::loggedOp<ReadResponse>(
                                       m_connection, op, this, QStringLiteral("Read"),
                                       QStringLiteral("enumeration names of %1").arg(QString::fromStdString(t.toString())),
                                       [this, generation, t](const ServiceResult<ReadResponse>& rr) {
                                           if (generation != m_generation || !rr.isGood()) return;
                                           QStringList names;
                                           QVariantList values;
                                           for (const DataValue& dv : rr.response.results) {
                                               if (const auto* strings = dv.value.get<Array<LocalizedText>>()) {
                                                   for (std::size_t i = 0; i < strings->size(); ++i) {
                                                       names << (*strings)[i].text.toQString();
                                                       values << qlonglong(i);
                                                   }
                                               } else if (const auto* list = dv.value.get<Array<ExtensionObject>>()) {
                                                   for (const ExtensionObject& eo : *list)
                                                       if (const auto* ev = eo.get<EnumValueType>()) {
                                                           names << ev->displayName.text.toQString();
                                                           values << qlonglong(ev->value);
                                                       }
                                               }
                                               if (!names.isEmpty()) break;
                                           }
                                           m_enumDataType = t;
                                           m_enumNames = names;
                                           m_enumValues = values;
                                           const QModelIndex v = valueIndex();
                                           if (v.isValid()) emit dataChanged(v, v.siblingAtColumn(ColumnCount - 1));
                                       }));
            }));
}

// --- Access -----------------------------------------------------------------------------------

const DataValue* AttributesModel::attribute(AttributeId id) const {
    for (const auto& r : m_rows)
        if (r->attributeId == uint32_t(id)) return &r->dataValue;
    return nullptr;
}

NodeId AttributesModel::dataType() const {
    const DataValue* dv = attribute(AttributeId::DataType);
    if (dv)
        if (const NodeId* t = dv->value.get<NodeId>()) return *t;
    return {};
}

int32_t AttributesModel::valueRank() const {
    if (const DataValue* dv = attribute(AttributeId::ValueRank))
        if (const int32_t* r = dv->value.get<int32_t>()) return *r;
    const DataValue* v = attribute(AttributeId::Value);
    return v && v->value.isArray() ? 1 : -1;
}

QModelIndex AttributesModel::valueIndex() const {
    for (const auto& r : m_rows)
        if (r->attributeId == uint32_t(AttributeId::Value)) return indexOf(r.get());
    return {};
}

std::optional<BuiltInType> AttributesModel::valueBuiltInType() const {
    const DataValue* v = attribute(AttributeId::Value);
    const NodeId t = dataType();
    const bool haveValue = v && !v->value.isNull();
    if (haveValue && (t.isNull() || isAbstractDataType(t))) return v->value.type();
    if (auto b = app::builtInTypeOf(t)) return b;
    if (haveValue && v->value.type() != BuiltInType::ExtensionObject) return v->value.type();
    return std::nullopt;
}

// --- Write ------------------------------------------------------------------------------------

void AttributesModel::setWriteStatus(StatusCode status, const QString& message) {
    for (auto& r : m_rows) {
        if (r->attributeId != uint32_t(AttributeId::Value)) continue;
        r->status = status;
        r->statusText = QStringLiteral("Write: %1").arg(app::statusName(status));
        if (!message.isEmpty()) r->statusText += QStringLiteral(" (%1)").arg(message);
        const QModelIndex i = indexOf(r.get(), StatusColumn);
        emit dataChanged(i, i);
    }
}

bool AttributesModel::writeText(const QString& text) {
    const std::optional<BuiltInType> type = valueBuiltInType();
    if (!type) {
        const QString why = tr("values of this DataType cannot be entered as text");
        setWriteStatus(status::BadNotSupported, why);
        emit writeFinished(status::BadNotSupported, why);
        return false;
    }
    app::ParseResult p = app::parseValue(text, *type, valueRank());
    if (!p.ok()) {
        setWriteStatus(p.status, p.error);
        emit writeFinished(p.status, p.error);
        return false;
    }
    writeValue(p.value);
    return true;
}

void AttributesModel::writeValue(const Variant& value) {
    Client* client = m_connection->client();
    if (!client || m_node.isNull()) {
        const StatusCode s = client ? StatusCode(status::BadNodeIdInvalid) : StatusCode(status::BadServerNotConnected);
        setWriteStatus(s, {});
        emit writeFinished(s, {});
        return;
    }
    WriteRequest req;
    WriteValue w;
    w.nodeId = m_node;
    w.attributeId = uint32_t(AttributeId::Value);
    w.value = DataValue(value);
    req.nodesToWrite.push_back(std::move(w));
    const QString detailText = QStringLiteral("%1 = %2").arg(QString::fromStdString(m_node.toString()), app::formatVariant(value, detail::kShownElements));
    QObject* op = m_connection->beginOperation(tr("Write %1").arg(QString::fromStdString(m_node.toString())));
    const quint64 generation = m_generation;
    for (auto& r : m_rows)
        if (r->attributeId == uint32_t(AttributeId::Value)) {
            r->statusText = tr("Writing...");
            const QModelIndex i = indexOf(r.get(), StatusColumn);
            emit dataChanged(i, i);
        }
    client->write(std::move(req), op,
                  detail::loggedOp<WriteResponse>(m_connection, op, this, QStringLiteral("Write"), detailText,
                                                  [this, generation](const ServiceResult<WriteResponse>& r) {
                                                      if (generation != m_generation) return;
                                                      StatusCode s = r.status;
                                                      if (s.isGood())
                                                          s = r.response.results.empty() ? StatusCode(status::BadUnknownResponse)
                                                                                         : r.response.results[0];
                                                      setWriteStatus(s, {});
                                                      emit writeFinished(s, app::statusName(s));
                                                      if (s.isGood()) readValueAgain();
                                                  }));
}

// --- Model ------------------------------------------------------------------------------------

AttributesModel::Item* AttributesModel::itemOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Item*>(index.internalPointer()) : nullptr;
}

QModelIndex AttributesModel::indexOf(const Item* item, int column) const {
    if (!item) return {};
    return createIndex(item->row, column, const_cast<Item*>(item));
}

QModelIndex AttributesModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (parent.isValid() && parent.column() != 0) return {};
    const Item* p = itemOf(parent);
    const auto& list = p ? p->children : m_rows;
    if (row >= int(list.size())) return {};
    return createIndex(row, column, list[std::size_t(row)].get());
}

QModelIndex AttributesModel::parent(const QModelIndex& child) const {
    const Item* it = itemOf(child);
    return it ? indexOf(it->parent) : QModelIndex();
}

int AttributesModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    const Item* p = itemOf(parent);
    return int(p ? p->children.size() : m_rows.size());
}

int AttributesModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant AttributesModel::data(const QModelIndex& index, int role) const {
    const Item* it = itemOf(index);
    if (!it) return {};
    const bool editable = flags(index) & Qt::ItemIsEditable;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case AttributeColumn: return it->name;
        case ValueColumn: return it->text;
        case DataTypeColumn: return it->typeName;
        case StatusColumn: return it->parent ? QString() : it->statusText;
        default: return {};
        }
    case Qt::EditRole:
        if (index.column() != ValueColumn) return {};
        if (!it->parent) return app::formatVariant(it->dataValue.value);
        if (it->field.isStructureField) return it->field.editText;
        if (it->elementIndex >= 0 && it->parent && !it->parent->parent)
            return app::formatVariant(elementAt(it->parent->dataValue.value, std::size_t(it->elementIndex)));
        return it->text;
    case Qt::ToolTipRole:
        if (index.column() == ValueColumn) return it->text;
        if (index.column() == StatusColumn && !it->parent) return it->statusText;
        return {};
    case AttributeIdRole: return uint(it->attributeId);
    case StatusCodeRole: return uint(it->parent ? 0u : it->status.code);
    case SourceTimestampRole:
        if (!it->parent && it->dataValue.hasSourceTimestamp) return it->dataValue.sourceTimestamp.toQDateTime();
        return {};
    case ServerTimestampRole:
        if (!it->parent && it->dataValue.hasServerTimestamp) return it->dataValue.serverTimestamp.toQDateTime();
        return {};
    case EditableRole: return editable;
    case StructureEditsRole: return structureEditsOf(it);
    case UnionFieldsRole: return valueRootOf(it) ? it->field.unionFields : QStringList();
    case UnionChoiceRole: return it->field.unionChoice;
    case BuiltInTypeRole:
    case ValueRankRole:
    case IsArrayRole:
    case EnumNamesRole:
    case EnumValuesRole: {
        if (it->field.isStructureField) {
            if (role == BuiltInTypeRole) return it->field.fieldType;
            if (role == ValueRankRole) return -1;
            if (role == IsArrayRole) return false;
            if (role == EnumNamesRole) return it->field.enumNames;
            return it->field.enumValues;
        }
        const bool valueRow = !it->parent && it->attributeId == uint32_t(AttributeId::Value);
        const bool element = it->elementIndex >= 0 && it->parent && !it->parent->parent &&
                             it->parent->attributeId == uint32_t(AttributeId::Value);
        if (!valueRow && !element) return role == BuiltInTypeRole ? QVariant(-1) : QVariant();
        if (role == ValueRankRole) return valueRow ? int(valueRank()) : -1;
        if (role == EnumNamesRole) return m_enumNames;
        if (role == EnumValuesRole) return m_enumValues;
        if (role == IsArrayRole) return valueRow && (it->dataValue.value.isArray() || valueRank() >= 1);
        if (valueRow) {
            const std::optional<BuiltInType> t = valueBuiltInType();
            return t ? int(*t) : -1;
        }
        return int(it->parent->dataValue.value.type());
    }
    default: return {};
    }
}

Qt::ItemFlags AttributesModel::flags(const QModelIndex& index) const {
    const Item* it = itemOf(index);
    if (!it) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() != ValueColumn) return f;
    if (!isVariableNode()) return f;
    if (!it->parent && it->attributeId == uint32_t(AttributeId::Value) && valueBuiltInType()) return f | Qt::ItemIsEditable;
    // A scalar field of a custom structure in the Value (written as the whole structure).
    if (it->field.isStructureField && it->field.fieldType >= 0 && valueRootOf(it)) return f | Qt::ItemIsEditable;
    // An element of the Value array whose type has a text form.
    if (it->elementIndex >= 0 && it->parent && !it->parent->parent &&
        it->parent->attributeId == uint32_t(AttributeId::Value)) {
        const BuiltInType t = it->parent->dataValue.value.type();
        if (t != BuiltInType::ExtensionObject && t != BuiltInType::Variant && t != BuiltInType::DataValue &&
            t != BuiltInType::DiagnosticInfo)
            return f | Qt::ItemIsEditable;
    }
    return f;
}

bool AttributesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable)) return false;
    const Item* it = itemOf(index);
    const QString text = value.toString();
    if (!it->parent) return writeText(text);
    if (it->field.isStructureField) return writeField(it, text);
    // An element: parsed as a scalar of the array's type, written as the whole array.
    const Variant& array = it->parent->dataValue.value;
    app::ParseResult p = app::parseValue(text, array.type(), -1);
    if (!p.ok()) {
        setWriteStatus(p.status, p.error);
        emit writeFinished(p.status, p.error);
        return false;
    }
    Variant changed = array;
    if (!replaceElement(changed, std::size_t(it->elementIndex), p.value)) {
        setWriteStatus(status::BadTypeMismatch, {});
        emit writeFinished(status::BadTypeMismatch, {});
        return false;
    }
    writeValue(changed);
    return true;
}

// The Value row above a structure field's row, null when it is not in the Value.
const AttributesModel::Item* AttributesModel::valueRootOf(const Item* it) const {
    while (it && it->parent) it = it->parent;
    return it && it->attributeId == uint32_t(AttributeId::Value) ? it : nullptr;
}

bool AttributesModel::isVariableNode() const {
    const DataValue* nc = attribute(AttributeId::NodeClass);
    const int32_t* cls = nc ? nc->value.get<int32_t>() : nullptr;
    return cls && (*cls == int32_t(NodeClass::Variable) || *cls == int32_t(NodeClass::VariableType));
}

bool AttributesModel::refuseWrite(StatusCode s, const QString& why) {
    setWriteStatus(s, why);
    emit writeFinished(s, why);
    return false;
}

bool AttributesModel::writeField(const Item* it, const QString& text) {
    const std::vector<int> path = it->field.path;
    const BuiltInType type = BuiltInType(it->field.fieldType);
    return rewriteStructure(it, [&](DynamicValue& root, QString* why) -> StatusCode {
        DynamicValue* field = dynamicAt(root, path);
        if (!field || field->kind != DynamicValue::Kind::Scalar) {
            *why = tr("not a field with a value");
            return status::BadTypeMismatch;
        }
        app::ParseResult p = app::parseValue(text, type, -1);
        if (!p.ok()) {
            *why = p.error;
            return p.status;
        }
        field->scalar = p.value;
        return StatusCode();
    });
}

bool AttributesModel::rewriteStructure(const Item* it, const std::function<StatusCode(DynamicValue& root, QString* why)>& change) {
    const Item* root = valueRootOf(it);
    if (!root) return false;
    // The structure the row is in: the Value, or the element of a Value array it is below.
    const Item* element = it;
    while (element->parent && element->parent != root) element = element->parent;
    const Variant& value = root->dataValue.value;
    const ExtensionObject* object = value.isArray() ? nullptr : value.get<ExtensionObject>();
    Variant elementValue;
    if (value.isArray() && element != root && element->elementIndex >= 0) {
        elementValue = elementAt(value, std::size_t(element->elementIndex));
        object = elementValue.get<ExtensionObject>();
    }
    if (!object) return refuseWrite(status::BadTypeMismatch, tr("not a structure"));
    DataTypeCache* types = m_connection->dataTypes();
    QString error;
    std::optional<DynamicValue> decoded = types->decode(*object, &error);
    if (!decoded) return refuseWrite(status::BadDecodingError, error);
    if (const StatusCode s = change(*decoded, &error); s.isBad()) return refuseWrite(s, error);
    std::optional<ExtensionObject> encoded = types->encode(*decoded, &error);
    if (!encoded) return refuseWrite(status::BadEncodingError, error);
    if (!value.isArray()) {
        writeValue(Variant(std::move(*encoded)));
        return true;
    }
    Variant changed = value;
    if (!replaceElement(changed, std::size_t(element->elementIndex), Variant(std::move(*encoded))))
        return refuseWrite(status::BadTypeMismatch, {});
    writeValue(changed);
    return true;
}

NodeId AttributesModel::valueArrayElementType() const {
    const DataValue* v = attribute(AttributeId::Value);
    const auto* xs = v ? v->value.get<Array<ExtensionObject>>() : nullptr;
    if (xs && !xs->empty()) {
        const NodeId t = m_connection->dataTypes()->dataTypeOfEncoding(xs->front().encodingId());
        if (!t.isNull()) return t;
    }
    return dataType();
}

bool AttributesModel::rewriteValueArray(const std::function<bool(Array<ExtensionObject>& elements, QString* why)>& change) {
    const DataValue* v = attribute(AttributeId::Value);
    const auto* xs = v ? v->value.get<Array<ExtensionObject>>() : nullptr;
    if (!xs) return refuseWrite(status::BadTypeMismatch, tr("not an array of structures"));
    Array<ExtensionObject> elements = *xs;
    QString why;
    if (!change(elements, &why)) return refuseWrite(status::BadInvalidArgument, why);
    elements.setNotNull();  // the last element removed: an empty array, not a null one
    writeValue(Variant(std::move(elements)));
    return true;
}

int AttributesModel::structureEdits(const QModelIndex& row) const {
    return structureEditsOf(itemOf(row));
}

int AttributesModel::structureEditsOf(const Item* it) const {
    const Item* root = valueRootOf(it);
    if (!root || !isVariableNode()) return 0;
    const StructureFieldRow& f = it->field;
    int edits = 0;
    if (!f.unionFields.isEmpty()) edits |= ChooseUnionField;
    if (it == root) return edits | (f.isArray ? AddElement : 0);
    if (!f.isStructureField) return 0;
    if (f.optional && !f.present && !f.inUnion) edits |= AddField;
    if (f.optional && f.present) edits |= RemoveField;
    // An element of the Value array: only when the Value row offers elements (not a matrix).
    if (f.isElement && it->parent == root && !root->field.isArray) return edits;
    if (f.isArray || f.isElement) edits |= AddElement;
    if (f.isElement) edits |= RemoveElement;
    return edits;
}

bool AttributesModel::setFieldPresent(const QModelIndex& row, bool present) {
    const Item* it = itemOf(row);
    if (!(structureEditsOf(it) & (present ? AddField : RemoveField)) || it->field.path.empty()) return false;
    const std::vector<int> path = it->field.path;
    DataTypeCache* types = m_connection->dataTypes();
    return rewriteStructure(it, [&](DynamicValue& root, QString* why) {
        DynamicValue* s = dynamicAt(root, std::vector<int>(path.begin(), path.end() - 1));
        if (!s) *why = tr("the field is not there any more");
        return shapeChanged(s && ua::clientapp::setFieldPresent(*s, path.back(), present, *types, why));
    });
}

bool AttributesModel::setUnionChoice(const QModelIndex& row, int field) {
    const Item* it = itemOf(row);
    if (!(structureEditsOf(it) & ChooseUnionField) || field < -1 || field >= int(it->field.unionFields.size())) return false;
    const std::vector<int> path = it->field.path;  // the Value row and a Value array's element: {}
    DataTypeCache* types = m_connection->dataTypes();
    return rewriteStructure(it, [&](DynamicValue& root, QString* why) {
        DynamicValue* u = dynamicAt(root, path);
        if (!u) *why = tr("the union is not there any more");
        return shapeChanged(u && ua::clientapp::setUnionChoice(*u, field, *types, why));
    });
}

bool AttributesModel::insertArrayElement(const QModelIndex& row) {
    const Item* it = itemOf(row);
    if (!(structureEditsOf(it) & AddElement)) return false;
    DataTypeCache* types = m_connection->dataTypes();
    const Item* root = valueRootOf(it);
    if (it == root || (it->parent == root && it->field.path.empty())) {
        // The Value array of structures: a default element appended, or inserted after this one.
        const std::size_t at = it == root ? std::size_t(-1) : std::size_t(it->elementIndex) + 1;
        const NodeId type = valueArrayElementType();
        return rewriteValueArray([&](Array<ExtensionObject>& elements, QString* why) {
            std::optional<DynamicValue> d = defaultValueOf(type, *types, why);
            std::optional<ExtensionObject> e = d ? types->encode(*d, why) : std::nullopt;
            if (!e) return false;
            const std::size_t i = std::min(at, elements.size());
            elements.insert(elements.begin() + std::ptrdiff_t(i), std::move(*e));
            return true;
        });
    }
    const std::vector<int> path = it->field.path;
    const bool isElement = it->field.isElement;
    return rewriteStructure(it, [&](DynamicValue& root, QString* why) {
        // An array field: appended; an element: inserted after it.
        DynamicValue* array = dynamicAt(root, isElement ? std::vector<int>(path.begin(), path.end() - 1) : path);
        if (!array) {
            *why = tr("the array is not there any more");
            return shapeChanged(false);
        }
        const std::size_t at = isElement ? std::size_t(path.back()) + 1 : array->elements.size();
        return shapeChanged(insertElement(*array, at, *types, why));
    });
}

bool AttributesModel::removeArrayElement(const QModelIndex& row) {
    const Item* it = itemOf(row);
    if (!(structureEditsOf(it) & RemoveElement)) return false;
    const Item* root = valueRootOf(it);
    if (it->parent == root && it->field.path.empty()) {
        const std::size_t at = std::size_t(it->elementIndex);
        return rewriteValueArray([at](Array<ExtensionObject>& elements, QString* why) {
            if (at >= elements.size()) {
                *why = tr("no element %1").arg(at);
                return false;
            }
            elements.erase(elements.begin() + std::ptrdiff_t(at));
            return true;
        });
    }
    const std::vector<int> path = it->field.path;
    return rewriteStructure(it, [&](DynamicValue& root, QString* why) {
        DynamicValue* array = dynamicAt(root, std::vector<int>(path.begin(), path.end() - 1));
        if (!array) *why = tr("the array is not there any more");
        return shapeChanged(array && removeElement(*array, std::size_t(path.back()), why));
    });
}

QVariant AttributesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case AttributeColumn: return tr("Attribute");
    case ValueColumn: return tr("Value");
    case DataTypeColumn: return tr("DataType");
    case StatusColumn: return tr("Status");
    default: return {};
    }
}

} // namespace ua::clientapp
