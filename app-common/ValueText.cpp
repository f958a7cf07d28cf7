// Values as text: formatting, status names and the built-in type of a DataType (ValueText.h).
// Parsing is in ValueTextParse.cpp, structures field by field in ValueTextStructures.cpp.
#include "ValueText.h"

#include "ValueTextDetail.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/Ns0Tables.h"

#include <QStringList>
#include <charconv>
#include <cmath>
#include <type_traits>
#include <unordered_map>

namespace ua::app {

namespace {

template <class T>
struct IsArray : std::false_type {};
template <class T>
struct IsArray<Array<T>> : std::true_type {};

template <class T>
QString floatText(T v) {
    if (std::isnan(v)) return QStringLiteral("nan");
    if (std::isinf(v)) return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
    return QString::fromLatin1(buf, qsizetype(r.ptr - buf));
}

QString dateTimeText(const DateTime& t) {
    if (t.isMin()) return QStringLiteral("1601-01-01T00:00:00.000Z");
    if (t.isMax()) return QStringLiteral("9999-12-31T23:59:59.999Z");
    const int64_t sinceUnix = t.ticks - DateTime::kUnixEpochTicks;  // 100-ns ticks
    int64_t ms = sinceUnix / DateTime::kTicksPerMs;
    int64_t sub = sinceUnix % DateTime::kTicksPerMs;
    if (sub < 0) {
        sub += DateTime::kTicksPerMs;
        --ms;
    }
    QString s = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz"));
    if (sub) s += QStringLiteral("%1").arg(sub, 4, 10, QLatin1Char('0'));  // 100-ns digits beyond ms
    return s + QLatin1Char('Z');
}

QString byteStringText(const ByteString& b) {
    return QStringLiteral("0x") + QString::fromLatin1(b.toQByteArray().toHex());
}

QString localizedTextText(const LocalizedText& t) {
    if (t.locale.isEmpty()) return t.text.toQString();
    return t.locale.toQString() + QLatin1Char(':') + t.text.toQString();
}

QString extensionObjectText(const ExtensionObject& x, int maxElements) {
    if (x.isNull()) return QString();
    if (const ExtensionObjectBody* b = x.decoded()) {
        const QString s = detail::formatStructure(*b, maxElements);
        if (!s.isNull()) return s;
        return QString::fromLatin1(b->typeName());
    }
    return QStringLiteral("ExtensionObject(%1, %2 bytes)")
        .arg(QString::fromStdString(x.encodingId().toString()))
        .arg(x.body().size());
}

QString diagnosticInfoText(const DiagnosticInfo& d) {
    QStringList parts;
    if (d.symbolicId) parts << QStringLiteral("SymbolicId: %1").arg(*d.symbolicId);
    if (d.namespaceUri) parts << QStringLiteral("NamespaceUri: %1").arg(*d.namespaceUri);
    if (d.localizedText) parts << QStringLiteral("LocalizedText: %1").arg(*d.localizedText);
    if (d.locale) parts << QStringLiteral("Locale: %1").arg(*d.locale);
    if (d.additionalInfo) parts << QStringLiteral("AdditionalInfo: ") + detail::quoted(d.additionalInfo->toQString());
    if (d.innerStatusCode) parts << QStringLiteral("InnerStatusCode: ") + statusName(*d.innerStatusCode);
    if (d.innerDiagnosticInfo) parts << QStringLiteral("InnerDiagnosticInfo: ") + diagnosticInfoText(*d.innerDiagnosticInfo);
    return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

// A scalar; quote: as an element of an array or a field (text types as JSON strings).
template <class T>
QString scalarText(const T& v, bool quote, int maxElements) {
    auto q = [quote](const QString& s) { return quote ? detail::quoted(s) : s; };
    if constexpr (std::is_same_v<T, bool>) {
        return v ? QStringLiteral("true") : QStringLiteral("false");
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        return QString::number(qlonglong(v));
    } else if constexpr (std::is_integral_v<T>) {
        return QString::number(qulonglong(v));
    } else if constexpr (std::is_floating_point_v<T>) {
        return floatText(v);
    } else if constexpr (std::is_same_v<T, String> || std::is_same_v<T, XmlElement>) {
        return q(v.toQString());
    } else if constexpr (std::is_same_v<T, ByteString>) {
        return q(byteStringText(v));
    } else if constexpr (std::is_same_v<T, DateTime>) {
        return q(dateTimeText(v));
    } else if constexpr (std::is_same_v<T, Guid>) {
        return q(QString::fromStdString(v.toString()));
    } else if constexpr (std::is_same_v<T, NodeId> || std::is_same_v<T, ExpandedNodeId> ||
                         std::is_same_v<T, QualifiedName>) {
        return q(QString::fromStdString(v.toString()));
    } else if constexpr (std::is_same_v<T, StatusCode>) {
        return statusName(v);
    } else if constexpr (std::is_same_v<T, LocalizedText>) {
        return q(localizedTextText(v));
    } else if constexpr (std::is_same_v<T, ExtensionObject>) {
        const QString s = extensionObjectText(v, maxElements);
        return quote && !s.startsWith(QLatin1Char('{')) ? detail::quoted(s) : s;
    } else if constexpr (std::is_same_v<T, Box<DataValue>>) {
        return v ? q(formatDataValue(*v, maxElements)) : QString();
    } else if constexpr (std::is_same_v<T, DataValue>) {
        return q(formatDataValue(v, maxElements));
    } else if constexpr (std::is_same_v<T, Variant>) {
        return detail::formatElement(v, maxElements);
    } else if constexpr (std::is_same_v<T, DiagnosticInfo>) {
        return diagnosticInfoText(v);
    } else {
        return QString();
    }
}

// Elements [begin, begin + count) of a flat array, nested by dims[level...] (row-major: the last
// index varies fastest, OPC 10000-6 5.2.2.16).
template <class A>
QString arrayText(const A& a, std::size_t begin, const Array<int32_t>& dims, std::size_t level, int maxElements) {
    const bool leaf = level + 1 >= dims.size();
    const std::size_t n = dims.empty() ? a.size() : std::size_t(dims[level]);
    std::size_t stride = 1;
    for (std::size_t i = level + 1; i < dims.size(); ++i) stride *= std::size_t(dims[i]);
    QString s = QStringLiteral("[");
    for (std::size_t i = 0; i < n; ++i) {
        if (maxElements > 0 && i >= std::size_t(maxElements)) {
            s += QStringLiteral(", ...");
            break;
        }
        if (i) s += QStringLiteral(", ");
        if (leaf) s += scalarText(a[begin + i], true, maxElements);
        else s += arrayText(a, begin + i * stride, dims, level + 1, maxElements);
    }
    return s + QLatin1Char(']');
}

QString variantText(const Variant& value, bool quote, int maxElements) {
    return value.visit([&](const auto& v) -> QString {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, NoScalarVariant>) {
                return QString();
            } else if constexpr (IsArray<T>::value) {
                const Array<int32_t>& dims = value.arrayDimensions();
                const bool matrix = dims.size() > 1 && value.dimensionsMatch();
                return arrayText(v, 0, matrix ? dims : Array<int32_t>(), 0, maxElements);
            } else {
                return scalarText(v, quote, maxElements);
            }
        });
}

} // namespace

namespace detail {

QString quoted(const QString& text) {
    QString s;
    s.reserve(text.size() + 2);
    s += QLatin1Char('"');
    for (QChar c : text) {
        switch (c.unicode()) {
        case '"': s += QStringLiteral("\\\""); break;
        case '\\': s += QStringLiteral("\\\\"); break;
        case '\n': s += QStringLiteral("\\n"); break;
        case '\r': s += QStringLiteral("\\r"); break;
        case '\t': s += QStringLiteral("\\t"); break;
        case '\b': s += QStringLiteral("\\b"); break;
        case '\f': s += QStringLiteral("\\f"); break;
        default:
            if (c.unicode() < 0x20) s += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else s += c;
        }
    }
    s += QLatin1Char('"');
    return s;
}

QString formatElement(const Variant& value, int maxElements) {
    return variantText(value, true, maxElements);
}

} // namespace detail

QString formatVariant(const Variant& value, int maxElements) {
    return variantText(value, false, maxElements);
}

QString formatDataValue(const DataValue& value, int maxElements) {
    const QString text = value.hasValue ? formatVariant(value.value, maxElements) : QString();
    if (!value.hasStatus || value.status.isGood()) return text;
    const QString status = statusName(value.status);
    return text.isEmpty() ? status : status + QStringLiteral(": ") + text;
}

QString statusName(StatusCode status) {
    QString name = QString::fromStdString(status.name());  // "BadNodeIdUnknown", "0x80AB0000"
    for (const QLatin1String prefix : {QLatin1String("Good"), QLatin1String("Uncertain"), QLatin1String("Bad")}) {
        if (name.startsWith(prefix) && name.size() > prefix.size() && name.at(prefix.size()).isUpper()) {
            name.insert(prefix.size(), QLatin1Char('_'));
            break;
        }
    }
    return name;
}

namespace {

// Supertype of every DataType of namespace 0 (HasSubtype references of the generated tables).
const std::unordered_map<uint32_t, uint32_t>& ns0DataTypeParents() {
    static const std::unordered_map<uint32_t, uint32_t> parents = [] {
        std::unordered_map<uint32_t, uint32_t> m;
        const ns0::Tables& t = ns0::tables();
        std::size_t hasSubtype = t.nodes.size();
        for (std::size_t i = 0; i < t.nodes.size(); ++i)
            if (t.nodes[i].id == id::HasSubtype) hasSubtype = i;
        for (const ns0::ReferenceRecord& r : t.references) {
            if (r.referenceType != hasSubtype) continue;
            const ns0::NodeRecord& target = t.nodes[r.target];
            if (target.nodeClass == 64) m.emplace(target.id, t.nodes[r.source].id);  // NodeClass DataType
        }
        return m;
    }();
    return parents;
}

} // namespace

std::optional<BuiltInType> builtInTypeOf(const NodeId& dataType) {
    if (dataType.namespaceIndex() != 0 || !dataType.isNumeric()) return std::nullopt;
    uint32_t cur = dataType.numeric();
    if (cur >= 1 && cur <= 25) return BuiltInType(cur);
    const auto& parents = ns0DataTypeParents();
    for (int depth = 0; depth < 16; ++depth) {
        switch (cur) {
        case id::Number: return BuiltInType::Double;
        case id::Integer: return BuiltInType::Int64;
        case id::UInteger: return BuiltInType::UInt64;
        case id::Enumeration: return BuiltInType::Int32;
        case id::Decimal: return std::nullopt;    // a Number encoded as a structure (OPC 10000-5 12.2.10)
        case id::Structure: return std::nullopt;  // a structure: not a built-in type
        case id::BaseDataType: return std::nullopt;
        default:
            if (depth > 0 && cur >= 1 && cur <= 25) return BuiltInType(cur);
        }
        const auto it = parents.find(cur);
        if (it == parents.end()) return std::nullopt;
        cur = it->second;
    }
    return std::nullopt;
}

} // namespace ua::app
