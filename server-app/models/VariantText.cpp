#include "models/VariantText.h"

#include "ua/types/ExtensionObject.h"

#include <QStringList>
#include <type_traits>

namespace ua::serverapp {

namespace {

template <class T>
QString scalarText(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? QStringLiteral("true") : QStringLiteral("false");
    } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> ||
                         std::is_same_v<T, int64_t>) {
        return QString::number(qlonglong(v));
    } else if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t> ||
                         std::is_same_v<T, uint64_t>) {
        return QString::number(qulonglong(v));
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        return QString::number(double(v), 'g', std::is_same_v<T, float> ? 7 : 15);
    } else if constexpr (std::is_same_v<T, String> || std::is_same_v<T, XmlElement>) {
        return v.toQString();
    } else if constexpr (std::is_same_v<T, ByteString>) {
        return QStringLiteral("ByteString (%1 bytes)").arg(v.size());
    } else if constexpr (std::is_same_v<T, DateTime>) {
        if (v.isMin()) return QString();
        return v.toQDateTime().toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz"));
    } else if constexpr (std::is_same_v<T, NodeId> || std::is_same_v<T, ExpandedNodeId> || std::is_same_v<T, Guid> ||
                         std::is_same_v<T, QualifiedName>) {
        return QString::fromStdString(v.toString());
    } else if constexpr (std::is_same_v<T, StatusCode>) {
        return QString::fromStdString(v.name());
    } else if constexpr (std::is_same_v<T, LocalizedText>) {
        return v.text.toQString();
    } else if constexpr (std::is_same_v<T, ExtensionObject>) {
        if (v.isNull()) return QString();
        if (const ExtensionObjectBody* b = v.decoded()) return QString::fromLatin1(b->typeName());
        return QStringLiteral("ExtensionObject %1").arg(QString::fromStdString(v.encodingId().toString()));
    } else if constexpr (std::is_same_v<T, Box<DataValue>>) {
        return v ? dataValueText(*v) : QString();
    } else if constexpr (std::is_same_v<T, Variant>) {
        return variantText(v);
    } else if constexpr (std::is_same_v<T, DataValue>) {
        return dataValueText(v);
    } else {
        return QStringLiteral("DiagnosticInfo");
    }
}

template <class T>
struct IsArray : std::false_type {};
template <class T>
struct IsArray<Array<T>> : std::true_type {};

} // namespace

QString variantText(const Variant& value, int maxElements) {
    return std::visit(
        [maxElements](const auto& v) -> QString {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, NoScalarVariant>) {
                return QString();
            } else if constexpr (IsArray<T>::value) {
                QStringList parts;
                const int n = int(v.size());
                for (int i = 0; i < n && i < maxElements; ++i) parts << scalarText(v[std::size_t(i)]);
                if (n > maxElements) parts << QStringLiteral("...");
                return QStringLiteral("[%1] ").arg(n) + parts.join(QStringLiteral(", "));
            } else {
                return scalarText(v);
            }
        },
        value.storage());
}

QString dataValueText(const DataValue& value) {
    const QString text = value.hasValue ? variantText(value.value) : QString();
    if (!value.hasStatus || value.status.isGood()) return text;
    const QString status = QString::fromStdString(value.status.name());
    return text.isEmpty() ? status : status + QStringLiteral(": ") + text;
}

} // namespace ua::serverapp
