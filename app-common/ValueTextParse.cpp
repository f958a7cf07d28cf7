// Values from text (ValueText.h parseValue): the text forms of OPC 10000-6 5.1.2's built-in types,
// range-checked; arrays and matrices as (nested) JSON-style lists.
#include "ValueText.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <QRegularExpression>
#include <charconv>
#include <cmath>
#include <limits>
#include <type_traits>

namespace ua::app {

namespace {

struct Failure {
    StatusCode status;
    QString error;
};

template <class T>
struct Parsed {
    T value{};
    std::optional<Failure> failure;
};

Failure mismatch(const QString& error) { return {status::BadTypeMismatch, error}; }
Failure outOfRange(const QString& error) { return {status::BadOutOfRange, error}; }

QString typeName(BuiltInType t) { return QLatin1String(builtInTypeName(t)); }

// ---- scalars -----------------------------------------------------------------------------------

template <class T>
std::optional<Failure> parseInteger(const QString& text, BuiltInType type, T& out) {
    const QByteArray a = text.trimmed().toLatin1();
    const char* b = a.constData();
    const char* e = b + a.size();
    if (b != e && *b == '+') ++b;
    const QString wrong = QStringLiteral("\"%1\" is not a %2 (a decimal integer)").arg(text, typeName(type));
    if (b == e) return mismatch(wrong);
    const QString range = QStringLiteral("%1 is out of range for %2 (%3..%4)")
                              .arg(text.trimmed(), typeName(type))
                              .arg(std::is_signed_v<T> ? qlonglong(std::numeric_limits<T>::min()) : 0)
                              .arg(qulonglong(std::numeric_limits<T>::max()));
    if constexpr (std::is_signed_v<T>) {
        int64_t v = 0;
        const auto r = std::from_chars(b, e, v);
        if (r.ptr != e) return mismatch(wrong);
        if (r.ec == std::errc::result_out_of_range) return outOfRange(range);
        if (r.ec != std::errc()) return mismatch(wrong);
        if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return outOfRange(range);
        out = T(v);
    } else {
        if (*b == '-') {  // a negative number: a number, but not of this type
            int64_t v = 0;
            const auto r = std::from_chars(b, e, v);
            if (r.ptr != e || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)) return mismatch(wrong);
            if (r.ec == std::errc() && v == 0) {
                out = 0;
                return std::nullopt;
            }
            return outOfRange(range);
        }
        uint64_t v = 0;
        const auto r = std::from_chars(b, e, v);
        if (r.ptr != e) return mismatch(wrong);
        if (r.ec == std::errc::result_out_of_range) return outOfRange(range);
        if (r.ec != std::errc()) return mismatch(wrong);
        if (v > std::numeric_limits<T>::max()) return outOfRange(range);
        out = T(v);
    }
    return std::nullopt;
}

template <class T>
std::optional<Failure> parseFloat(const QString& text, BuiltInType type, T& out) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("nan")) { out = std::numeric_limits<T>::quiet_NaN(); return std::nullopt; }
    if (t == QLatin1String("inf") || t == QLatin1String("+inf") || t == QLatin1String("infinity")) {
        out = std::numeric_limits<T>::infinity();
        return std::nullopt;
    }
    if (t == QLatin1String("-inf") || t == QLatin1String("-infinity")) {
        out = -std::numeric_limits<T>::infinity();
        return std::nullopt;
    }
    const QByteArray a = t.toLatin1();
    const char* b = a.constData();
    const char* e = b + a.size();
    if (b != e && *b == '+') ++b;
    const QString wrong = QStringLiteral("\"%1\" is not a %2 (a decimal number, nan, inf or -inf)").arg(text, typeName(type));
    if (b == e || *b == 'n' || *b == 'i' || (e - b > 1 && *b == '-' && (b[1] == 'n' || b[1] == 'i'))) return mismatch(wrong);
    double v = 0;
    const auto r = std::from_chars(b, e, v);
    if (r.ptr != e) return mismatch(wrong);
    const QString range = QStringLiteral("%1 is out of range for %2").arg(text.trimmed(), typeName(type));
    if (r.ec == std::errc::result_out_of_range) return outOfRange(range);
    if (r.ec != std::errc()) return mismatch(wrong);
    if constexpr (std::is_same_v<T, float>) {
        const auto rf = std::from_chars(b, e, out);  // the float nearest the text (not a double rounded twice)
        if (rf.ec == std::errc::result_out_of_range) {
            if (std::fabs(v) >= 1) return outOfRange(range);  // beyond FLT_MAX
            out = float(v);                                    // below the smallest denormal: 0
        } else if (rf.ec != std::errc()) {
            return mismatch(wrong);
        }
    } else {
        out = v;
    }
    return std::nullopt;
}

std::optional<Failure> parseDateTime(const QString& text, DateTime& out) {
    const QString t = text.trimmed();
    if (t.compare(QLatin1String("now"), Qt::CaseInsensitive) == 0) {
        out = DateTime::now();
        return std::nullopt;
    }
    static const QRegularExpression re(QStringLiteral(
        R"(^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$)"),
        QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(t);
    const QString wrong = QStringLiteral("\"%1\" is not a DateTime (ISO 8601, e.g. 2026-11-30T10:00:00.000Z, or now)").arg(text);
    if (!m.hasMatch()) return mismatch(wrong);
    const QDate date(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
    const QTime time(m.captured(4).toInt(), m.captured(5).toInt(), m.captured(6).toInt());
    if (!date.isValid() || !time.isValid()) return mismatch(wrong);
    int offsetSeconds = 0;
    const QString zone = m.captured(8);
    if (!zone.isEmpty() && zone.compare(QLatin1String("Z"), Qt::CaseInsensitive) != 0) {
        QString digits = zone.mid(1);
        digits.remove(QLatin1Char(':'));
        offsetSeconds = (digits.left(2).toInt() * 3600 + digits.mid(2).toInt() * 60) * (zone[0] == QLatin1Char('-') ? -1 : 1);
    }
    const QDateTime dt(date, time, Qt::UTC);
    QString fraction = m.captured(7);
    if (fraction.size() > 7) fraction.truncate(7);  // 100-ns resolution
    const int64_t fractionTicks = fraction.isEmpty() ? 0 : int64_t(fraction.leftJustified(7, QLatin1Char('0')).toLongLong());
    const int64_t ticks = DateTime::kUnixEpochTicks + (dt.toSecsSinceEpoch() - offsetSeconds) * 10'000'000LL + fractionTicks;
    if (ticks < 0) return outOfRange(QStringLiteral("%1 is before 1601-01-01, the earliest DateTime").arg(t));
    out = ticks >= DateTime::kMaxTicks ? DateTime::maxValue() : DateTime{ticks};
    return std::nullopt;
}

std::optional<Failure> parseByteString(const QString& text, ByteString& out) {
    const QString t = text.trimmed();
    const QString wrong = QStringLiteral("\"%1\" is not a ByteString (hex 0x0a1b... or base64 b64:...)").arg(text);
    if (t.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)) {
        const QString hex = t.mid(2);
        static const QRegularExpression hexRe(QStringLiteral("^[0-9a-fA-F]*$"));
        if (hex.size() % 2 || !hexRe.match(hex).hasMatch()) return mismatch(wrong);
        out = ByteString::fromQByteArray(QByteArray::fromHex(hex.toLatin1()));
        if (out.isNull()) out = ByteString("");
        return std::nullopt;
    }
    if (t.startsWith(QLatin1String("b64:"))) {
        auto r = QByteArray::fromBase64Encoding(t.mid(4).toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!r) return mismatch(wrong);
        out = r.decoded.isNull() ? ByteString("") : ByteString::fromQByteArray(r.decoded);
        return std::nullopt;
    }
    return mismatch(wrong);
}

std::optional<Failure> parseStatusCode(const QString& text, StatusCode& out) {
    QString t = text.trimmed();
    // "Bad_Foo (0x80AB0400)": the code in parentheses (formatVariant's form with info bits).
    static const QRegularExpression withCode(QStringLiteral(R"(^\S+ \((0x[0-9A-Fa-f]{1,8})\)$)"));
    if (const auto m = withCode.match(t); m.hasMatch()) t = m.captured(1);
    if (t.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)) {
        bool ok = false;
        const uint32_t v = t.mid(2).toUInt(&ok, 16);
        if (!ok || t.size() > 10) return mismatch(QStringLiteral("\"%1\" is not a StatusCode").arg(text));
        out = StatusCode(v);
        return std::nullopt;
    }
    const QString name = QString(t).remove(QLatin1Char('_'));  // Bad_NodeIdUnknown = BadNodeIdUnknown
    for (const StatusCodeInfo& info : allStatusCodes()) {
        if (name.compare(QString::fromLatin1(info.name).remove(QLatin1Char('_')), Qt::CaseInsensitive) == 0) {
            out = StatusCode(info.code);
            return std::nullopt;
        }
    }
    return mismatch(QStringLiteral("\"%1\" is not a StatusCode (a name such as Bad_NodeIdUnknown, or 0x80340000)").arg(text));
}

std::optional<Failure> parseQualifiedName(const QString& text, QualifiedName& out) {
    static const QRegularExpression prefix(QStringLiteral(R"(^(\d+):)"));
    if (const auto m = prefix.match(text); m.hasMatch()) {
        bool ok = false;
        const qulonglong ns = m.captured(1).toULongLong(&ok);
        if (!ok || ns > 0xFFFF)
            return outOfRange(QStringLiteral("namespace index %1 is out of range (0..65535)").arg(m.captured(1)));
        out = QualifiedName{uint16_t(ns), String::fromQString(text.mid(m.capturedLength()))};
        return std::nullopt;
    }
    out = QualifiedName{0, String::fromQString(text)};
    return std::nullopt;
}

std::optional<Failure> parseScalarText(const QString& text, BuiltInType type, Variant& out) {
    std::optional<Failure> f;
    auto integer = [&]<class T>(T) {
        T v{};
        f = parseInteger(text, type, v);
        if (!f) out = v;
    };
    auto floating = [&]<class T>(T) {
        T v{};
        f = parseFloat(text, type, v);
        if (!f) out = v;
    };
    switch (type) {
    case BuiltInType::Boolean: {
        const QString t = text.trimmed().toLower();
        if (t == QLatin1String("true") || t == QLatin1String("1")) out = true;
        else if (t == QLatin1String("false") || t == QLatin1String("0")) out = false;
        else return mismatch(QStringLiteral("\"%1\" is not a Boolean (true, false, 1 or 0)").arg(text));
        return std::nullopt;
    }
    case BuiltInType::SByte: integer(int8_t()); return f;
    case BuiltInType::Byte: integer(uint8_t()); return f;
    case BuiltInType::Int16: integer(int16_t()); return f;
    case BuiltInType::UInt16: integer(uint16_t()); return f;
    case BuiltInType::Int32: integer(int32_t()); return f;
    case BuiltInType::UInt32: integer(uint32_t()); return f;
    case BuiltInType::Int64: integer(int64_t()); return f;
    case BuiltInType::UInt64: integer(uint64_t()); return f;
    case BuiltInType::Float: floating(float()); return f;
    case BuiltInType::Double: floating(double()); return f;
    case BuiltInType::String: out = String::fromQString(text.isNull() ? QStringLiteral("") : text); return std::nullopt;
    case BuiltInType::XmlElement: out = XmlElement::fromQString(text.isNull() ? QStringLiteral("") : text); return std::nullopt;
    case BuiltInType::DateTime: {
        DateTime v;
        f = parseDateTime(text, v);
        if (!f) out = v;
        return f;
    }
    case BuiltInType::Guid: {
        const auto g = Guid::parse(text.trimmed().toStdString());
        if (!g) return mismatch(QStringLiteral("\"%1\" is not a Guid ({xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx})").arg(text));
        out = *g;
        return std::nullopt;
    }
    case BuiltInType::ByteString: {
        ByteString v;
        f = parseByteString(text, v);
        if (!f) out = std::move(v);
        return f;
    }
    case BuiltInType::NodeId: {
        const auto n = NodeId::parse(text.trimmed().toStdString());
        if (!n) {
            if (text.trimmed().startsWith(QLatin1String("nsu=")))
                return mismatch(QStringLiteral("\"%1\": a NodeId value needs a namespace index (ns=), not nsu=").arg(text));
            static const QRegularExpression nsPrefix(QStringLiteral(R"(^ns=(\d+);)"));
            if (const auto m = nsPrefix.match(text.trimmed()); m.hasMatch() && m.captured(1).toULongLong() > 0xFFFF)
                return outOfRange(QStringLiteral("namespace index %1 is out of range (0..65535)").arg(m.captured(1)));
            return mismatch(QStringLiteral("\"%1\" is not a NodeId (i=85, ns=2;s=Name, ns=1;g=..., ns=1;b=...)").arg(text));
        }
        out = *n;
        return std::nullopt;
    }
    case BuiltInType::ExpandedNodeId: {
        const auto n = ExpandedNodeId::parse(text.trimmed().toStdString());
        if (!n) return mismatch(QStringLiteral("\"%1\" is not an ExpandedNodeId (i=85, nsu=<uri>;s=Name, svr=1;...)").arg(text));
        out = *n;
        return std::nullopt;
    }
    case BuiltInType::StatusCode: {
        StatusCode v;
        f = parseStatusCode(text, v);
        if (!f) out = v;
        return f;
    }
    case BuiltInType::QualifiedName: {
        QualifiedName v;
        f = parseQualifiedName(text, v);
        if (!f) out = std::move(v);
        return f;
    }
    case BuiltInType::LocalizedText: {
        LocalizedText v;
        const qsizetype bar = text.indexOf(QLatin1Char('|'));
        if (bar >= 0) {
            v.locale = String::fromQString(text.left(bar));
            v.text = String::fromQString(text.mid(bar + 1));
        } else {
            v.text = String::fromQString(text.isNull() ? QStringLiteral("") : text);
        }
        out = std::move(v);
        return std::nullopt;
    }
    default:
        return Failure{status::BadNotSupported,
                       QStringLiteral("values of type %1 cannot be entered as text").arg(typeName(type))};
    }
}

// ---- arrays: "[a, "b", [c, d]]" ------------------------------------------------------------------

struct Node {
    bool list = false;
    QString text;        // an element: the unquoted text
    QList<Node> items;   // a list
};

class ListReader {
public:
    explicit ListReader(const QString& text) : m_t(text) {}

    // Reads the whole text as one list; an error message or empty.
    QString read(Node& out) {
        skipSpace();
        if (!at('[')) return QStringLiteral("an array starts with '['");
        QString e = readList(out, 0);
        if (!e.isEmpty()) return e;
        skipSpace();
        if (m_i != m_t.size()) return QStringLiteral("unexpected text after the array at position %1").arg(m_i + 1);
        return {};
    }

private:
    bool at(char c) const { return m_i < m_t.size() && m_t[m_i] == QLatin1Char(c); }
    void skipSpace() {
        while (m_i < m_t.size() && m_t[m_i].isSpace()) ++m_i;
    }

    QString readList(Node& out, int depth) {
        if (depth > 32) return QStringLiteral("arrays nested too deeply");
        out.list = true;
        ++m_i;  // '['
        skipSpace();
        if (at(']')) {
            ++m_i;
            return {};
        }
        for (;;) {
            skipSpace();
            Node item;
            QString e;
            if (at('[')) e = readList(item, depth + 1);
            else if (at('"')) e = readQuoted(item.text);
            else e = readBare(item.text);
            if (!e.isEmpty()) return e;
            out.items.push_back(std::move(item));
            skipSpace();
            if (at(',')) {
                ++m_i;
                continue;
            }
            if (at(']')) {
                ++m_i;
                return {};
            }
            return m_i >= m_t.size() ? QStringLiteral("missing ']' at the end")
                                      : QStringLiteral("expected ',' or ']' at position %1").arg(m_i + 1);
        }
    }

    QString readQuoted(QString& out) {
        ++m_i;  // '"'
        while (m_i < m_t.size()) {
            const QChar c = m_t[m_i++];
            if (c == QLatin1Char('"')) return {};
            if (c != QLatin1Char('\\')) {
                out += c;
                continue;
            }
            if (m_i >= m_t.size()) break;
            const QChar x = m_t[m_i++];
            switch (x.unicode()) {
            case '"': out += QLatin1Char('"'); break;
            case '\\': out += QLatin1Char('\\'); break;
            case '/': out += QLatin1Char('/'); break;
            case 'n': out += QLatin1Char('\n'); break;
            case 'r': out += QLatin1Char('\r'); break;
            case 't': out += QLatin1Char('\t'); break;
            case 'b': out += QLatin1Char('\b'); break;
            case 'f': out += QLatin1Char('\f'); break;
            case 'u': {
                bool ok = false;
                const uint u = m_t.mid(m_i, 4).toUInt(&ok, 16);
                if (!ok || m_i + 4 > m_t.size()) return QStringLiteral("bad \\u escape at position %1").arg(m_i);
                out += QChar(char16_t(u));
                m_i += 4;
                break;
            }
            default: return QStringLiteral("bad escape \\%1 at position %2").arg(x).arg(m_i);
            }
        }
        return QStringLiteral("missing '\"' at the end of a string");
    }

    QString readBare(QString& out) {
        const qsizetype start = m_i;
        while (m_i < m_t.size() && m_t[m_i] != QLatin1Char(',') && m_t[m_i] != QLatin1Char(']') && m_t[m_i] != QLatin1Char('['))
            ++m_i;
        out = m_t.mid(start, m_i - start).trimmed();
        if (out.isEmpty()) return QStringLiteral("missing element at position %1").arg(start + 1);
        return {};
    }

    const QString& m_t;
    qsizetype m_i = 0;
};

// The dimensions of a regular nesting (every list at one depth the same length), or an error.
QString shapeOf(const Node& n, QList<int32_t>& dims, int depth) {
    const bool hasLists = !n.items.empty() && n.items.front().list;
    if (depth == dims.size()) dims.push_back(int32_t(n.items.size()));
    else if (dims[depth] != n.items.size()) return QStringLiteral("the rows of a matrix must have the same length");
    for (const Node& i : n.items) {
        if (i.list != hasLists) return QStringLiteral("a matrix mixes arrays and elements at one level");
        if (i.list) {
            QString e = shapeOf(i, dims, depth + 1);
            if (!e.isEmpty()) return e;
        }
    }
    return {};
}

void flatten(const Node& n, QList<const Node*>& out) {
    for (const Node& i : n.items) {
        if (i.list) flatten(i, out);
        else out.push_back(&i);
    }
}

template <class T>
ParseResult collect(const QList<const Node*>& elements, BuiltInType type) {
    Array<T> a = Array<T>::emptyArray();
    a.reserve(std::size_t(elements.size()));
    for (qsizetype i = 0; i < elements.size(); ++i) {
        Variant v;
        if (auto f = parseScalarText(elements[i]->text, type, v))
            return {Variant(), f->status, QStringLiteral("element %1: %2").arg(i + 1).arg(f->error)};
        a.push_back(std::move(*v.get<T>()));
    }
    return {Variant(std::move(a)), status::Good, {}};
}

ParseResult parseArray(const QString& text, BuiltInType type, int32_t valueRank) {
    Node root;
    if (QString e = ListReader(text).read(root); !e.isEmpty())
        return {Variant(), status::BadTypeMismatch, QStringLiteral("\"%1\" is not an array: %2").arg(text, e)};
    QList<int32_t> dims;
    if (QString e = shapeOf(root, dims, 0); !e.isEmpty()) return {Variant(), status::BadTypeMismatch, e};
    // "[]" and "[[], []]": the dimensions stop at the empty level
    const int32_t rank = int32_t(dims.size());
    if (valueRank >= 1 && rank != valueRank)
        return {Variant(), status::BadTypeMismatch,
                QStringLiteral("expected %1 dimension(s), the text has %2").arg(valueRank).arg(rank)};
    if (valueRank == -3 && rank > 1)
        return {Variant(), status::BadTypeMismatch, QStringLiteral("expected a scalar or a one-dimensional array")};
    QList<const Node*> elements;
    flatten(root, elements);
    ParseResult r;
    switch (type) {
    case BuiltInType::Boolean: r = collect<bool>(elements, type); break;
    case BuiltInType::SByte: r = collect<int8_t>(elements, type); break;
    case BuiltInType::Byte: r = collect<uint8_t>(elements, type); break;
    case BuiltInType::Int16: r = collect<int16_t>(elements, type); break;
    case BuiltInType::UInt16: r = collect<uint16_t>(elements, type); break;
    case BuiltInType::Int32: r = collect<int32_t>(elements, type); break;
    case BuiltInType::UInt32: r = collect<uint32_t>(elements, type); break;
    case BuiltInType::Int64: r = collect<int64_t>(elements, type); break;
    case BuiltInType::UInt64: r = collect<uint64_t>(elements, type); break;
    case BuiltInType::Float: r = collect<float>(elements, type); break;
    case BuiltInType::Double: r = collect<double>(elements, type); break;
    case BuiltInType::String: r = collect<String>(elements, type); break;
    case BuiltInType::DateTime: r = collect<DateTime>(elements, type); break;
    case BuiltInType::Guid: r = collect<Guid>(elements, type); break;
    case BuiltInType::ByteString: r = collect<ByteString>(elements, type); break;
    case BuiltInType::XmlElement: r = collect<XmlElement>(elements, type); break;
    case BuiltInType::NodeId: r = collect<NodeId>(elements, type); break;
    case BuiltInType::ExpandedNodeId: r = collect<ExpandedNodeId>(elements, type); break;
    case BuiltInType::StatusCode: r = collect<StatusCode>(elements, type); break;
    case BuiltInType::QualifiedName: r = collect<QualifiedName>(elements, type); break;
    case BuiltInType::LocalizedText: r = collect<LocalizedText>(elements, type); break;
    default:
        return {Variant(), status::BadNotSupported,
                QStringLiteral("values of type %1 cannot be entered as text").arg(typeName(type))};
    }
    if (r.ok() && rank > 1) r.value.setArrayDimensions(Array<int32_t>(std::vector<int32_t>(dims.begin(), dims.end())));
    return r;
}

} // namespace

ParseResult parseValue(const QString& text, BuiltInType type, int32_t valueRank) {
    const bool array = valueRank >= 1 || ((valueRank == 0 || valueRank == -2 || valueRank == -3) &&
                                          text.trimmed().startsWith(QLatin1Char('[')));
    if (array) return parseArray(text, type, valueRank);
    if (valueRank < -3) return {Variant(), status::BadTypeMismatch, QStringLiteral("invalid ValueRank %1").arg(valueRank)};
    Variant v;
    if (auto f = parseScalarText(text, type, v)) return {Variant(), f->status, f->error};
    return {std::move(v), status::Good, {}};
}

} // namespace ua::app
