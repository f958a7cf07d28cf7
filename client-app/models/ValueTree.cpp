#include "models/ValueTree.h"

#include "StructureText.h"
#include "models/StructureEdit.h"
#include "ValueText.h"
#include "ua/encoding/generated/Types.h"

#include <type_traits>
#include <variant>

namespace ua::clientapp {

namespace {

constexpr std::size_t kNotInStorage = std::size_t(-1);

struct TreeContext {
    std::size_t maxElements;
    const DataTypeCache* types;  // custom structures decoded by it; null: shown as opaque bodies
};

// The index of T among Variant::Storage's alternatives, a boxed scalar as itself (kNotInStorage
// if it is not one).
template <class T>
constexpr std::size_t storageIndex() {
    constexpr std::size_t i = Variant::indexOf<T>();
    return i == std::variant_npos ? kNotInStorage : i;
}

// A scalar a Variant holds as it is (Boolean .. LocalizedText, DiagnosticInfo); ExtensionObject,
// DataValue and Variant are handled on their own.
template <class T>
constexpr bool isPlainScalar() {
    constexpr std::size_t i = storageIndex<T>();
    return i != kNotInStorage && i >= 1 && (i <= 21 || i == 25);
}

template <class T>
struct IsArray : std::false_type {};
template <class E>
struct IsArray<Array<E>> : std::true_type {
    using Element = E;
};

template <class T>
concept GeneratedStructure = requires { T::kTypeId; T::kName; };

template <class E>
QString elementTypeName() {
    if constexpr (isPlainScalar<E>()) return QString::fromLatin1(builtInTypeName(BuiltInType(storageIndex<E>())));
    else if constexpr (std::is_same_v<E, ExtensionObject>) return QStringLiteral("ExtensionObject");
    else if constexpr (std::is_same_v<E, Variant>) return QStringLiteral("Variant");
    else if constexpr (std::is_same_v<E, DataValue>) return QStringLiteral("DataValue");
    else if constexpr (std::is_enum_v<E>) return QStringLiteral("Enumeration");
    else if constexpr (GeneratedStructure<E>) return QString::fromLatin1(E::kName);
    else return QString();
}

QString structTypeName(const ExtensionObject& eo) {
    if (const ExtensionObjectBody* b = eo.decoded()) return QString::fromLatin1(b->typeName());
    return QStringLiteral("ExtensionObject");
}

template <class T>
ValueNode node(QString name, const T& v, const TreeContext& ctx);
std::vector<ValueNode> childrenOf(const Variant& value, const TreeContext& ctx);
std::vector<ValueNode> objectFields(const ExtensionObject& object, const TreeContext& ctx);
ValueNode dynamicNode(QString name, const DynamicValue& v, std::vector<int> path, const TreeContext& ctx);

template <class S>
std::vector<ValueNode> fieldsOf(const S& s, const TreeContext& ctx) {
    std::vector<ValueNode> out;
    forEachField(s, [&](const char* name, const auto& field) {
        out.push_back(node(QString::fromLatin1(name), field, ctx));
    });
    return out;
}

template <class E>
std::vector<ValueNode> elementsOf(const Array<E>& a, const TreeContext& ctx, bool flatIndex) {
    std::vector<ValueNode> out;
    const std::size_t n = a.size();
    const std::size_t shown = ctx.maxElements ? std::min(n, ctx.maxElements) : n;
    out.reserve(shown + 1);
    for (std::size_t i = 0; i < shown; ++i) {
        const E e = a[i];  // a copy: std::vector<bool> has no references to elements
        ValueNode c = node(QStringLiteral("[%1]").arg(i), e, ctx);
        if (flatIndex) {
            c.elementIndex = int(i);
            c.field.isElement = c.field.isStructureField;  // an element of a Value array of custom structures
        }
        out.push_back(std::move(c));
    }
    if (shown < n) {
        ValueNode more;
        more.name = QStringLiteral("...");
        more.text = QStringLiteral("%1 more").arg(n - shown);
        out.push_back(std::move(more));
    }
    return out;
}

template <class T>
ValueNode node(QString name, const T& v, const TreeContext& ctx) {
    ValueNode n;
    n.name = std::move(name);
    if constexpr (std::is_enum_v<T>) {
        n.typeName = QStringLiteral("Enumeration");
        n.text = QStringLiteral("%1 (%2)").arg(QString::fromLatin1(enumName(v))).arg(qint64(v));
    } else if constexpr (isPlainScalar<T>()) {
        const Variant var(v);
        n.typeName = QString::fromLatin1(builtInTypeName(var.type()));
        n.text = app::formatVariant(var);
    } else if constexpr (std::is_same_v<T, ExtensionObject>) {
        n.typeName = structTypeName(v);
        n.text = app::formatVariant(Variant(v));
        if (ctx.types && v.encoding() == ExtensionObject::Encoding::Binary && !v.isDecoded()) {
            if (auto d = ctx.types->decode(v)) {
                ValueNode dn = dynamicNode(std::move(n.name), *d, {}, ctx);
                return dn;
            }
        }
        n.children = objectFields(v, ctx);
    } else if constexpr (std::is_same_v<T, Variant>) {
        n.typeName = valueTypeName(v);
        n.text = app::formatVariant(v, 20);
        n.children = childrenOf(v, ctx);
    } else if constexpr (std::is_same_v<T, DataValue>) {
        n.typeName = QStringLiteral("DataValue");
        n.text = app::formatDataValue(v, 20);
        n.children = childrenOf(v.value, ctx);
    } else if constexpr (IsArray<T>::value) {
        using E = typename IsArray<T>::Element;
        n.typeName = elementTypeName<E>() + QStringLiteral("[]");
        if constexpr (isPlainScalar<E>()) n.text = app::formatVariant(Variant(v), 20);
        else n.text = QStringLiteral("[%1 elements]").arg(v.size());
        n.children = elementsOf(v, ctx, false);
    } else if constexpr (GeneratedStructure<T>) {
        n.typeName = QString::fromLatin1(T::kName);
        n.children = fieldsOf(v, ctx);
    }
    return n;
}

// Groups a flat list of element rows by the dimensions dims[level..] (row-major: the last index
// varies fastest, OPC 10000-6 5.2.2.16).
std::vector<ValueNode> groupByDimensions(std::vector<ValueNode> flat, const Array<int32_t>& dims, std::size_t level) {
    if (level + 1 >= dims.size()) {
        for (std::size_t i = 0; i < flat.size(); ++i) flat[i].name = QStringLiteral("[%1]").arg(i);
        return flat;
    }
    std::size_t stride = 1;
    for (std::size_t k = level + 1; k < dims.size(); ++k) stride *= std::size_t(std::max(dims[k], 0));
    std::vector<ValueNode> out;
    if (stride == 0) return out;
    for (std::size_t i = 0; i * stride < flat.size(); ++i) {
        ValueNode g;
        g.name = QStringLiteral("[%1]").arg(i);
        std::vector<ValueNode> part(std::make_move_iterator(flat.begin() + std::ptrdiff_t(i * stride)),
                                    std::make_move_iterator(flat.begin() + std::ptrdiff_t(std::min(flat.size(), (i + 1) * stride))));
        g.children = groupByDimensions(std::move(part), dims, level + 1);
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<ValueNode> objectFields(const ExtensionObject& object, const TreeContext& ctx) {
    const ExtensionObjectBody* body = object.decoded();
    if (!body) {
        if (!ctx.types) return {};
        auto d = ctx.types->decode(object);
        return d ? dynamicNode(QString(), *d, {}, ctx).children : std::vector<ValueNode>{};
    }
    switch (body->typeId()) {
#define UA_STRUCTURE(T) \
    case T::kTypeId: return fieldsOf(static_cast<const ExtensionObjectHolder<T>&>(*body).value, ctx);
#include "StructureTypes.inc"
#undef UA_STRUCTURE
    default: return {};
    }
}

std::vector<ValueNode> childrenOf(const Variant& value, const TreeContext& ctx) {
    return value.visit([&](const auto& s) -> std::vector<ValueNode> {
            using S = std::decay_t<decltype(s)>;
            if constexpr (IsArray<S>::value) {
                const Array<int32_t>& dims = value.arrayDimensions();
                if (dims.size() > 1 && value.dimensionsMatch())
                    return groupByDimensions(elementsOf(s, TreeContext{0, ctx.types}, true), dims, 0);
                return elementsOf(s, ctx, true);
            } else if constexpr (std::is_same_v<S, ExtensionObject>) {
                return objectFields(s, ctx);
            } else if constexpr (std::is_same_v<S, Box<DataValue>>) {
                return s ? childrenOf(s->value, ctx) : std::vector<ValueNode>{};
            } else {
                return {};
            }
        });
}

// A field (or element) of a custom structure: its rows, and what editing it needs.
ValueNode dynamicNode(QString name, const DynamicValue& v, std::vector<int> path, const TreeContext& ctx) {
    ValueNode n;
    n.name = std::move(name);
    n.typeName = v.typeName;
    n.text = app::formatDynamicValue(v);
    n.field.path = path;
    n.field.isStructureField = true;
    switch (v.kind) {
    case DynamicValue::Kind::Array: {
        n.typeName += QStringLiteral("[]");
        n.field.isArray = true;
        const std::size_t shown = ctx.maxElements ? std::min(v.elements.size(), ctx.maxElements) : v.elements.size();
        for (std::size_t i = 0; i < shown; ++i) {
            std::vector<int> p = path;
            p.push_back(int(i));
            ValueNode c = dynamicNode(QStringLiteral("[%1]").arg(i), v.elements[i], std::move(p), ctx);
            c.field.isElement = true;
            n.children.push_back(std::move(c));
        }
        break;
    }
    case DynamicValue::Kind::Structure: {
        const bool isUnion = isUnionValue(v);
        if (isUnion) {
            for (const DynamicField& f : v.fields) n.field.unionFields << f.name;
            n.field.unionChoice = unionChoice(v);
        }
        for (std::size_t i = 0; i < v.fields.size(); ++i) {
            const DynamicField& f = v.fields[i];
            if (!f.present && isUnion) continue;  // a union shows the field it holds
            std::vector<int> p = path;
            p.push_back(int(i));
            ValueNode c = dynamicNode(f.name, f.value, std::move(p), ctx);
            c.field.optional = f.optional;
            c.field.present = f.present;
            c.field.inUnion = isUnion;
            if (!f.present) {
                // Nothing of the value an absent field keeps applies (it is made present first).
                c.text = QStringLiteral("(absent)");
                c.children.clear();
                c.field.fieldType = -1;
                c.field.isArray = false;
                c.field.unionFields.clear();
                c.field.unionChoice = -1;
            }
            n.children.push_back(std::move(c));
        }
        break;
    }
    case DynamicValue::Kind::Scalar: {
        if (const auto* x = v.scalar.get<ExtensionObject>()) {
            // A field of Structure or of a schema type: its rows are not places in this value (a
            // custom structure inside has paths of its own), so they are shown, not edited.
            n.children = objectFields(*x, ctx);
            std::vector<ValueNode*> below;
            for (ValueNode& c : n.children) below.push_back(&c);
            while (!below.empty()) {
                ValueNode* c = below.back();
                below.pop_back();
                c->field = StructureFieldRow();
                for (ValueNode& cc : c->children) below.push_back(&cc);
            }
            break;
        }
        const BuiltInType t = v.scalar.type();
        if (!v.scalar.isNull() && t != BuiltInType::Variant && t != BuiltInType::DataValue && t != BuiltInType::DiagnosticInfo)
            n.field.fieldType = int(t);
        const auto type = ctx.types ? ctx.types->resolve(v.dataType) : std::nullopt;
        if (type && type->kind == ResolvedDataType::Kind::Enumeration && type->enumeration) {
            for (const EnumField& e : type->enumeration->fields) {
                n.field.enumNames << (e.name.isEmpty() ? e.displayName.text.toQString() : e.name.toQString());
                n.field.enumValues << qlonglong(e.value);
            }
        }
        n.field.editText = app::formatVariant(v.scalar);
        break;
    }
    }
    return n;
}

} // namespace

std::vector<ValueNode> valueChildren(const Variant& value, std::size_t maxElements, const DataTypeCache* types) {
    return childrenOf(value, TreeContext{maxElements, types});
}

std::vector<ValueNode> structureFields(const ExtensionObject& object, std::size_t maxElements, const DataTypeCache* types) {
    return objectFields(object, TreeContext{maxElements, types});
}

StructureFieldRow valueRowField(const Variant& value, const DataTypeCache* types) {
    StructureFieldRow f;
    if (!types) return f;
    if (const auto* x = value.get<ExtensionObject>()) {
        if (x->encoding() != ExtensionObject::Encoding::Binary || x->isDecoded()) return f;
        if (auto d = types->decode(*x); d && isUnionValue(*d)) {
            for (const DynamicField& field : d->fields) f.unionFields << field.name;
            f.unionChoice = unionChoice(*d);
        }
    } else if (const auto* xs = value.get<Array<ExtensionObject>>(); xs && !xs->empty()) {
        const ExtensionObject& first = xs->front();
        f.isArray = first.encoding() == ExtensionObject::Encoding::Binary && !first.isDecoded() && types->decode(first).has_value();
    }
    return f;
}

DynamicValue* dynamicAt(DynamicValue& root, const std::vector<int>& path) {
    DynamicValue* at = &root;
    for (int i : path) {
        if (i < 0) return nullptr;
        if (at->kind == DynamicValue::Kind::Structure && std::size_t(i) < at->fields.size()) {
            at = &at->fields[std::size_t(i)].value;
        } else if (at->kind == DynamicValue::Kind::Array && std::size_t(i) < at->elements.size()) {
            at = &at->elements[std::size_t(i)];
        } else {
            return nullptr;
        }
    }
    return at;
}

QString valueText(const Variant& value, const DataTypeCache* types, int maxElements) {
    if (types) {
        if (const auto* x = value.get<ExtensionObject>()) {
            if (auto d = types->decode(*x)) return app::formatDynamicValue(*d, maxElements);
        } else if (const auto* xs = value.get<Array<ExtensionObject>>(); xs && !xs->empty() && types->dataTypeOfEncoding(xs->front().encodingId()).isNull() == false) {
            QStringList parts;
            const std::size_t shown = maxElements > 0 ? std::min(xs->size(), std::size_t(maxElements)) : xs->size();
            for (std::size_t i = 0; i < shown; ++i) {
                auto d = types->decode((*xs)[i]);
                parts << (d ? app::formatDynamicValue(*d, maxElements) : app::formatVariant(Variant((*xs)[i])));
            }
            if (shown < xs->size()) parts << QStringLiteral("...");
            return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
        }
    }
    return app::formatVariant(value, maxElements);
}

QString valueTypeName(const Variant& value, const DataTypeCache* types) {
    if (types) {
        const ExtensionObject* x = value.get<ExtensionObject>();
        if (const auto* xs = value.get<Array<ExtensionObject>>(); xs && !xs->empty()) x = &xs->front();
        if (x && !x->isDecoded()) {
            const NodeId t = types->dataTypeOfEncoding(x->encodingId());
            if (auto r = t.isNull() ? std::nullopt : types->resolve(t); r && !r->name.isEmpty())
                return r->name + (value.isArray() ? QStringLiteral("[]") : QString());
        }
    }
    return valueTypeName(value);
}

QString valueTypeName(const Variant& value) {
    if (value.isNull()) return {};
    QString name;
    if (const auto* eo = value.get<ExtensionObject>()) name = structTypeName(*eo);
    else if (const auto* eos = value.get<Array<ExtensionObject>>(); eos && !eos->empty()) name = structTypeName(eos->front());
    else name = QString::fromLatin1(builtInTypeName(value.type()));
    if (value.isArray()) {
        const std::size_t dims = std::max<std::size_t>(1, value.arrayDimensions().size());
        for (std::size_t i = 0; i < dims; ++i) name += QStringLiteral("[]");
    }
    return name;
}

bool replaceElement(Variant& array, std::size_t index, const Variant& element) {
    return array.visit([&](auto& s) -> bool {
            using S = std::decay_t<decltype(s)>;
            if constexpr (IsArray<S>::value) {
                using E = typename IsArray<S>::Element;
                if constexpr (storageIndex<E>() != kNotInStorage) {
                    const E* e = element.get<E>();
                    if (!e || index >= s.size()) return false;
                    s[index] = *e;
                    return true;
                } else {
                    return false;
                }
            } else {
                return false;
            }
        });
}

Variant elementAt(const Variant& array, std::size_t index) {
    return array.visit([&](const auto& s) -> Variant {
            using S = std::decay_t<decltype(s)>;
            if constexpr (IsArray<S>::value) {
                using E = typename IsArray<S>::Element;
                if constexpr (storageIndex<E>() != kNotInStorage) {
                    if (index >= s.size()) return Variant();
                    return Variant(E(s[index]));
                } else {
                    return Variant();
                }
            } else {
                return Variant();
            }
        });
}

} // namespace ua::clientapp
