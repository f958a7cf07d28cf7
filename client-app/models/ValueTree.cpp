#include "models/ValueTree.h"

#include "ValueText.h"
#include "ua/encoding/generated/Types.h"

#include <type_traits>
#include <variant>

namespace ua::clientapp {

namespace {

constexpr std::size_t kNotInStorage = std::size_t(-1);

// The index of T among Variant::Storage's alternatives (kNotInStorage if it is not one).
template <class T, std::size_t I = 0>
constexpr std::size_t storageIndex() {
    if constexpr (I >= std::variant_size_v<Variant::Storage>) return kNotInStorage;
    else if constexpr (std::is_same_v<std::variant_alternative_t<I, Variant::Storage>, T>) return I;
    else return storageIndex<T, I + 1>();
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
ValueNode node(QString name, const T& v, std::size_t maxElements);

template <class S>
std::vector<ValueNode> fieldsOf(const S& s, std::size_t maxElements) {
    std::vector<ValueNode> out;
    forEachField(s, [&](const char* name, const auto& field) {
        out.push_back(node(QString::fromLatin1(name), field, maxElements));
    });
    return out;
}

template <class E>
std::vector<ValueNode> elementsOf(const Array<E>& a, std::size_t maxElements, bool flatIndex) {
    std::vector<ValueNode> out;
    const std::size_t n = a.size();
    const std::size_t shown = maxElements ? std::min(n, maxElements) : n;
    out.reserve(shown + 1);
    for (std::size_t i = 0; i < shown; ++i) {
        const E e = a[i];  // a copy: std::vector<bool> has no references to elements
        ValueNode c = node(QStringLiteral("[%1]").arg(i), e, maxElements);
        if (flatIndex) c.elementIndex = int(i);
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
ValueNode node(QString name, const T& v, std::size_t maxElements) {
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
        n.children = structureFields(v, maxElements);
    } else if constexpr (std::is_same_v<T, Variant>) {
        n.typeName = valueTypeName(v);
        n.text = app::formatVariant(v, 20);
        n.children = valueChildren(v, maxElements);
    } else if constexpr (std::is_same_v<T, DataValue>) {
        n.typeName = QStringLiteral("DataValue");
        n.text = app::formatDataValue(v, 20);
        n.children = valueChildren(v.value, maxElements);
    } else if constexpr (IsArray<T>::value) {
        using E = typename IsArray<T>::Element;
        n.typeName = elementTypeName<E>() + QStringLiteral("[]");
        if constexpr (isPlainScalar<E>()) n.text = app::formatVariant(Variant(v), 20);
        else n.text = QStringLiteral("[%1 elements]").arg(v.size());
        n.children = elementsOf(v, maxElements, false);
    } else if constexpr (GeneratedStructure<T>) {
        n.typeName = QString::fromLatin1(T::kName);
        n.children = fieldsOf(v, maxElements);
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

} // namespace

std::vector<ValueNode> structureFields(const ExtensionObject& object, std::size_t maxElements) {
    const ExtensionObjectBody* body = object.decoded();
    if (!body) return {};
    switch (body->typeId()) {
#define UA_STRUCTURE(T) \
    case T::kTypeId: return fieldsOf(static_cast<const ExtensionObjectHolder<T>&>(*body).value, maxElements);
#include "StructureTypes.inc"
#undef UA_STRUCTURE
    default: return {};
    }
}

std::vector<ValueNode> valueChildren(const Variant& value, std::size_t maxElements) {
    return std::visit(
        [&](const auto& s) -> std::vector<ValueNode> {
            using S = std::decay_t<decltype(s)>;
            if constexpr (IsArray<S>::value) {
                const Array<int32_t>& dims = value.arrayDimensions();
                if (dims.size() > 1 && value.dimensionsMatch())
                    return groupByDimensions(elementsOf(s, 0, true), dims, 0);
                return elementsOf(s, maxElements, true);
            } else if constexpr (std::is_same_v<S, ExtensionObject>) {
                return structureFields(s, maxElements);
            } else if constexpr (std::is_same_v<S, Box<DataValue>>) {
                return s ? valueChildren(s->value, maxElements) : std::vector<ValueNode>{};
            } else {
                return {};
            }
        },
        value.storage());
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
    return std::visit(
        [&](auto& s) -> bool {
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
        },
        array.storage());
}

Variant elementAt(const Variant& array, std::size_t index) {
    return std::visit(
        [&](const auto& s) -> Variant {
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
        },
        array.storage());
}

} // namespace ua::clientapp
