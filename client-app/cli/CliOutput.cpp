#include "cli/CliOutput.h"

#include "ValueText.h"
#include "ValueTextStructures.h"
#include "ua/server/addressspace/Ns0Tables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace ua::clientapp {

void printLine(const QString& line) {
    const QByteArray b = line.toUtf8();
    std::fwrite(b.constData(), 1, std::size_t(b.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

void printError(const QString& line) {
    const QByteArray b = line.toUtf8();
    std::fwrite(b.constData(), 1, std::size_t(b.size()), stderr);
    std::fputc('\n', stderr);
    std::fflush(stderr);
}

void printJson(const QJsonObject& object) {
    printLine(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)));
}

namespace {

// A structure as a JSON object {"Field": value, ...}; enumerations by name.
class JsonVisitor final : public app::StructureVisitor {
public:
    QJsonValue result;

    void beginStructure(const char*) override { m_stack.push_back({false, {}, {}, {}}); }
    void field(const char* name) override { m_stack.back().field = QLatin1String(name); }
    void endStructure() override { pop(); }
    void beginArray(std::size_t) override { m_stack.push_back({true, {}, {}, {}}); }
    bool element(std::size_t) override { return true; }
    void endArray() override { pop(); }
    void value(const Variant& v) override { put(variantToJson(v)); }
    void enumeration(int64_t v, const char* name) override { put(name ? QJsonValue(QLatin1String(name)) : QJsonValue(double(v))); }

private:
    struct Level {
        bool isArray;
        QJsonObject object;
        QJsonArray array;
        QString field;
    };
    void put(const QJsonValue& v) {
        if (m_stack.empty()) result = v;
        else if (m_stack.back().isArray) m_stack.back().array.append(v);
        else m_stack.back().object.insert(m_stack.back().field, v);
    }
    void pop() {
        Level l = std::move(m_stack.back());
        m_stack.pop_back();
        put(l.isArray ? QJsonValue(l.array) : QJsonValue(l.object));
    }
    std::vector<Level> m_stack;
};

template <class T>
QJsonValue scalarJson(const T& v) {
    constexpr double kExact = 9007199254740992.0;  // 2^53: larger integers lose digits as JSON numbers
    if constexpr (std::is_same_v<T, bool>) {
        return v;
    } else if constexpr (std::is_integral_v<T>) {
        if (double(v) > kExact || double(v) < -kExact) return app::formatVariant(Variant(v));
        return double(v);
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(v)) return app::formatVariant(Variant(v));
        return double(v);
    } else if constexpr (std::is_same_v<T, Variant>) {
        return variantToJson(v);
    } else if constexpr (std::is_same_v<T, DataValue>) {
        return dataValueToJson(v);
    } else if constexpr (std::is_same_v<T, ExtensionObject>) {
        JsonVisitor json;
        if (v.decoded() && app::visitStructure(*v.decoded(), json)) return json.result;
        return app::formatVariant(Variant(v));
    } else {
        return app::formatVariant(Variant(v));
    }
}

template <class A>
QJsonValue arrayJson(const A& a, std::size_t begin, const Array<int32_t>& dims, std::size_t level) {
    QJsonArray out;
    const bool leaf = level + 1 >= dims.size();
    const std::size_t n = dims.empty() ? a.size() : std::size_t(dims[level]);
    std::size_t stride = 1;
    for (std::size_t i = level + 1; i < dims.size(); ++i) stride *= std::size_t(dims[i]);
    for (std::size_t i = 0; i < n; ++i) {
        if (leaf) out.append(scalarJson(a[begin + i]));
        else out.append(arrayJson(a, begin + i * stride, dims, level + 1));
    }
    return out;
}

template <class T>
struct IsArray : std::false_type {};
template <class T>
struct IsArray<Array<T>> : std::true_type {};

} // namespace

QJsonValue variantToJson(const Variant& value) {
    return value.visit([&](const auto& v) -> QJsonValue {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, NoScalarVariant>) {
                return QJsonValue(QJsonValue::Null);
            } else if constexpr (IsArray<T>::value) {
                const bool matrix = value.arrayDimensions().size() > 1 && value.dimensionsMatch();
                return arrayJson(v, 0, matrix ? value.arrayDimensions() : Array<int32_t>(), 0);
            } else if constexpr (std::is_same_v<T, Box<DataValue>>) {
                return v ? QJsonValue(dataValueToJson(*v)) : QJsonValue(QJsonValue::Null);
            } else if constexpr (std::is_same_v<T, String>) {
                return v.toQString();
            } else {
                return scalarJson(v);
            }
        });
}

QString timestampText(const DateTime& t) {
    if (t.isMin()) return QString();
    return t.toQDateTime().toString(Qt::ISODateWithMs);
}

QJsonObject dataValueToJson(const DataValue& dv) {
    QJsonObject o;
    if (dv.hasValue) {
        o.insert(QStringLiteral("value"), variantToJson(dv.value));
        if (!dv.value.isNull()) o.insert(QStringLiteral("type"), QLatin1String(builtInTypeName(dv.value.type())));
        if (dv.value.arrayDimensions().size() > 1) {
            QJsonArray dims;
            for (int32_t d : dv.value.arrayDimensions()) dims.append(d);
            o.insert(QStringLiteral("arrayDimensions"), dims);
        }
    }
    o.insert(QStringLiteral("status"), app::statusName(dv.hasStatus ? dv.status : StatusCode()));
    if (dv.hasSourceTimestamp) o.insert(QStringLiteral("sourceTimestamp"), timestampText(dv.sourceTimestamp));
    if (dv.hasServerTimestamp) o.insert(QStringLiteral("serverTimestamp"), timestampText(dv.serverTimestamp));
    return o;
}

QString ns0Name(const NodeId& id) {
    static const std::unordered_map<uint32_t, QString> names = [] {
        std::unordered_map<uint32_t, QString> m;
        const ns0::Tables& t = ns0::tables();
        for (const ns0::NodeRecord& n : t.nodes) {
            if (n.nodeClass != 32 && n.nodeClass != 64) continue;  // ReferenceTypes and DataTypes
            const std::string_view s = t.string(n.browseName);
            m.emplace(n.id, QString::fromUtf8(s.data(), qsizetype(s.size())));
        }
        return m;
    }();
    if (id.namespaceIndex() == 0 && id.isNumeric()) {
        const auto it = names.find(id.numeric());
        if (it != names.end()) return it->second;
    }
    return QString::fromStdString(id.toString());
}

} // namespace ua::clientapp
