#include "ua/server/nodeset/XmlValueDecoder.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/ScalarBody.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QDateTime>

#include <cmath>
#include <limits>
#include <utility>

namespace ua {

namespace {

constexpr const char16_t* kXmlTypeNames[] = {
    u"Null", u"Boolean", u"SByte", u"Byte", u"Int16", u"UInt16", u"Int32", u"UInt32", u"Int64", u"UInt64",
    u"Float", u"Double", u"String", u"DateTime", u"Guid", u"ByteString", u"XmlElement", u"NodeId",
    u"ExpandedNodeId", u"StatusCode", u"QualifiedName", u"LocalizedText", u"ExtensionObject", u"DataValue",
    u"Variant", u"DiagnosticInfo"};

constexpr int kMaxXmlNesting = 32;

XmlElementView firstElement(XmlElementView e) {
    return e ? e.firstChild() : XmlElementView();
}

template <std::size_t I>
Variant arrayOfAlternative(std::vector<Variant>& items) {
    using T = Variant::Alternative<I>;
    if constexpr (std::is_same_v<T, NoScalarVariant>) {
        Array<Variant> a = Array<Variant>::emptyArray();
        for (Variant& v : items) a.push_back(std::move(v));
        return Variant(std::move(a));
    } else if constexpr (std::is_same_v<T, Box<DataValue>>) {
        Array<DataValue> a = Array<DataValue>::emptyArray();
        for (Variant& v : items) a.push_back(v.dataValue() ? *v.dataValue() : DataValue{});
        return Variant(std::move(a));
    } else {
        Array<T> a = Array<T>::emptyArray();
        for (Variant& v : items) a.push_back(std::move(*v.get<T>()));
        return Variant(std::move(a));
    }
}

template <std::size_t... I>
Variant arrayOf(BuiltInType t, std::vector<Variant>& items, std::index_sequence<I...>) {
    Variant out;
    ((std::size_t(t) == I + 1 ? void(out = arrayOfAlternative<I + 1>(items)) : void()), ...);
    return out;
}

template <class T>
std::optional<T> parseInteger(QStringView text) {
    bool ok = false;
    if constexpr (std::is_signed_v<T>) {
        const qlonglong n = text.trimmed().toLongLong(&ok);
        if (!ok || n < std::numeric_limits<T>::min() || n > std::numeric_limits<T>::max()) return std::nullopt;
        return T(n);
    } else {
        const qulonglong n = text.trimmed().toULongLong(&ok);
        if (!ok || n > std::numeric_limits<T>::max()) return std::nullopt;
        return T(n);
    }
}

std::optional<double> parseReal(QStringView raw) {
    const QStringView text = raw.trimmed();
    if (text == u"INF") return std::numeric_limits<double>::infinity();
    if (text == u"-INF") return -std::numeric_limits<double>::infinity();
    if (text == u"NaN") return std::numeric_limits<double>::quiet_NaN();
    bool ok = false;
    const double d = text.toDouble(&ok);
    return ok ? std::optional<double>(d) : std::nullopt;
}

// Text content as a value: xs:string keeps its whitespace, but a run of whitespace at either end
// that holds a line break is the file's indentation (pretty-printed NodeSets have them), not text.
QStringView valueText(QStringView raw) {
    if (raw.isNull()) return u"";
    qsizetype begin = 0, end = raw.size();
    while (begin < end && raw[begin].isSpace()) ++begin;
    if (!raw.left(begin).contains(u'\n')) begin = 0;
    qsizetype last = end;
    while (last > begin && raw[last - 1].isSpace()) --last;
    if (raw.mid(last).contains(u'\n')) end = last;
    return raw.mid(begin, end - begin);
}

Variant defaultScalar(BuiltInType t) {
    std::vector<Variant> none;
    Variant a = arrayOf(t, none, std::make_index_sequence<25>{});
    // The default of a type is what a default-constructed alternative holds.
    Variant out;
    a.visit([&](const auto& arr) {
        using A = std::decay_t<decltype(arr)>;
        if constexpr (requires { typename A::value_type; }) {
            using T = typename A::value_type;
            if constexpr (std::is_same_v<T, Variant>) out = Variant();
            else if constexpr (std::is_same_v<T, DataValue>) out = Variant(DataValue{});
            else out = Variant(T{});
        }
    });
    return out;
}

} // namespace

String xmlString(QStringView text) {
    if (text.isNull()) return {};
    std::string out(std::size_t(text.size()), '\0');
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c >= 0x80) return String::fromQString(text.toString());
        out[std::size_t(i)] = char(c);
    }
    return String(std::move(out));
}

BuiltInType builtInTypeFromXmlName(QStringView name) {
    for (std::size_t i = 1; i < std::size(kXmlTypeNames); ++i)
        if (name == QStringView(kXmlTypeNames[i])) return BuiltInType(i);
    return BuiltInType::Null;
}

std::optional<uint16_t> XmlValueDecoder::mapNamespace(uint32_t fileIndex) const {
    if (fileIndex >= m_nsMap.size()) return std::nullopt;
    return m_nsMap[fileIndex];
}

std::optional<NodeId> XmlValueDecoder::mapNodeId(QStringView text) const {
    const std::string s = xmlString(text.trimmed()).str();
    if (s.starts_with("nsu=")) {
        auto x = ExpandedNodeId::parse(s);
        if (!x) return std::nullopt;
        const int ns = m_space.namespaceIndex(x->namespaceUri.view());
        if (ns < 0) return std::nullopt;
        x->nodeId.setNamespaceIndex(uint16_t(ns));
        return x->nodeId;
    }
    auto id = NodeId::parse(s);
    if (!id) return std::nullopt;
    const auto ns = mapNamespace(id->namespaceIndex());
    if (!ns) return std::nullopt;
    id->setNamespaceIndex(*ns);
    return id;
}

std::optional<Variant> XmlValueDecoder::decode(XmlElementView e) {
    if (e.name().startsWith(u"ListOf")) {
        const BuiltInType t = builtInTypeFromXmlName(e.name().mid(6));
        if (t == BuiltInType::Null) { fail(QStringLiteral("unknown value element <%1>").arg(e.name())); return std::nullopt; }
        return decodeArray(t, e);
    }
    if (e.name() == u"Matrix") return decodeMatrix(e);
    const BuiltInType t = builtInTypeFromXmlName(e.name());
    if (t == BuiltInType::Null) { fail(QStringLiteral("unknown value element <%1>").arg(e.name())); return std::nullopt; }
    return decodeScalar(t, e);
}

std::optional<Variant> XmlValueDecoder::decodeArray(BuiltInType t, XmlElementView e) {
    std::vector<Variant> items;
    items.reserve(e.childCount());
    for (XmlElementView c : e.children()) {
        auto v = decodeScalar(t, c);
        if (!v) return std::nullopt;
        items.push_back(std::move(*v));
    }
    return arrayOf(t, items, std::make_index_sequence<25>{});
}

std::optional<Variant> XmlValueDecoder::decodeMatrix(XmlElementView e) {
    const XmlElementView dims = e.child(u"Dimensions");
    const XmlElementView elements = e.child(u"Elements");
    if (!dims || !elements || elements.childCount() == 0) {
        fail(QStringLiteral("a <Matrix> needs <Dimensions> and <Elements> (OPC 10000-6 5.3.1.17)"));
        return std::nullopt;
    }
    Array<int32_t> d = Array<int32_t>::emptyArray();
    int64_t product = 1;
    for (XmlElementView c : dims.children()) {
        const auto n = parseInteger<int32_t>(c.text());
        if (!n || *n < 0) { fail(QStringLiteral("bad Matrix dimension '%1'").arg(c.text())); return std::nullopt; }
        d.push_back(*n);
        product *= *n;
    }
    const BuiltInType t = builtInTypeFromXmlName(elements.firstChild().name());
    if (t == BuiltInType::Null) { fail(QStringLiteral("unknown Matrix element <%1>").arg(elements.firstChild().name())); return std::nullopt; }
    auto v = decodeArray(t, elements);
    if (!v) return std::nullopt;
    if (int64_t(v->arrayLength()) != product) {
        fail(QStringLiteral("a Matrix of %1 elements does not fill its dimensions").arg(v->arrayLength()));
        return std::nullopt;
    }
    v->setArrayDimensions(std::move(d));
    return v;
}

std::optional<Variant> XmlValueDecoder::decodeScalar(BuiltInType t, XmlElementView e) {
    const QStringView text = e.text();
    auto bad = [&](const char* what) -> std::optional<Variant> {
        fail(QStringLiteral("<%1> (line %2): '%3' is not a valid %4").arg(e.name()).arg(e.line()).arg(text.trimmed().left(60), QLatin1String(what)));
        return std::nullopt;
    };
    switch (t) {
    case BuiltInType::Boolean: {
        const QStringView s = text.trimmed();
        if (s == u"true" || s == u"1") return Variant(true);
        if (s == u"false" || s == u"0") return Variant(false);
        return bad("Boolean");
    }
    case BuiltInType::SByte: { auto n = parseInteger<int8_t>(text); return n ? std::optional(Variant(*n)) : bad("SByte"); }
    case BuiltInType::Byte: { auto n = parseInteger<uint8_t>(text); return n ? std::optional(Variant(*n)) : bad("Byte"); }
    case BuiltInType::Int16: { auto n = parseInteger<int16_t>(text); return n ? std::optional(Variant(*n)) : bad("Int16"); }
    case BuiltInType::UInt16: { auto n = parseInteger<uint16_t>(text); return n ? std::optional(Variant(*n)) : bad("UInt16"); }
    case BuiltInType::Int32: { auto n = parseInteger<int32_t>(text); return n ? std::optional(Variant(*n)) : bad("Int32"); }
    case BuiltInType::UInt32: { auto n = parseInteger<uint32_t>(text); return n ? std::optional(Variant(*n)) : bad("UInt32"); }
    case BuiltInType::Int64: { auto n = parseInteger<int64_t>(text); return n ? std::optional(Variant(*n)) : bad("Int64"); }
    case BuiltInType::UInt64: { auto n = parseInteger<uint64_t>(text); return n ? std::optional(Variant(*n)) : bad("UInt64"); }
    case BuiltInType::Float: { auto d = parseReal(text); return d ? std::optional(Variant(float(*d))) : bad("Float"); }
    case BuiltInType::Double: { auto d = parseReal(text); return d ? std::optional(Variant(*d)) : bad("Double"); }
    case BuiltInType::String: return Variant(xmlString(valueText(text)));
    case BuiltInType::DateTime: {
        if (text.trimmed().isEmpty()) return Variant(DateTime{});
        const QDateTime dt = QDateTime::fromString(text.trimmed().toString(), Qt::ISODateWithMs);
        return dt.isValid() ? std::optional(Variant(DateTime::fromQDateTime(dt))) : bad("DateTime");
    }
    case BuiltInType::Guid: {
        const XmlElementView s = e.child(u"String");
        auto g = Guid::parse(xmlString((s ? s.text() : text).trimmed()).str());
        return g ? std::optional(Variant(*g)) : bad("Guid");
    }
    case BuiltInType::ByteString: {
        QByteArray raw = text.toLatin1();  // base64 of xs:base64Binary may be wrapped over lines
        raw.replace(' ', "").replace('\n', "").replace('\r', "").replace('\t', "");
        if (raw.isEmpty()) return Variant(ByteString(""));
        auto r = QByteArray::fromBase64Encoding(raw, QByteArray::AbortOnBase64DecodingErrors);
        if (!r) return bad("ByteString (base64)");
        return Variant(ByteString::fromQByteArray(*r));
    }
    case BuiltInType::XmlElement: {
        const XmlElementView inner = firstElement(e);
        return Variant(XmlElement::fromQString(inner ? inner.toXml() : QStringLiteral("")));
    }
    case BuiltInType::NodeId: {
        const XmlElementView idText = e.child(u"Identifier");
        if (!idText || idText.text().trimmed().isEmpty()) return Variant(NodeId{});
        auto id = mapNodeId(idText.text());
        return id ? std::optional(Variant(*id)) : bad("NodeId");
    }
    case BuiltInType::ExpandedNodeId: {
        const XmlElementView idText = e.child(u"Identifier");
        if (!idText || idText.text().trimmed().isEmpty()) return Variant(ExpandedNodeId{});
        auto x = ExpandedNodeId::parse(xmlString(idText.text().trimmed()).str());
        if (!x) return bad("ExpandedNodeId");
        if (x->namespaceUri.isNull()) {
            const auto ns = mapNamespace(x->nodeId.namespaceIndex());
            if (!ns) return bad("ExpandedNodeId (namespace not in the file's NamespaceUris)");
            x->nodeId.setNamespaceIndex(*ns);
        }
        return Variant(std::move(*x));
    }
    case BuiltInType::StatusCode: {
        const XmlElementView code = e.child(u"Code");
        if (!code) return Variant(StatusCode{});
        auto n = parseInteger<uint32_t>(code.text());
        return n ? std::optional(Variant(StatusCode(*n))) : bad("StatusCode");
    }
    case BuiltInType::QualifiedName: {
        QualifiedName q;
        if (const XmlElementView ns = e.child(u"NamespaceIndex")) {
            auto n = parseInteger<uint16_t>(ns.text());
            const auto mapped = n ? mapNamespace(*n) : std::nullopt;
            if (!mapped) return bad("QualifiedName NamespaceIndex");
            q.namespaceIndex = *mapped;
        }
        if (const XmlElementView name = e.child(u"Name")) q.name = xmlString(valueText(name.text()));
        return Variant(std::move(q));
    }
    case BuiltInType::LocalizedText: {
        LocalizedText l;
        if (const XmlElementView locale = e.child(u"Locale"); locale && !locale.text().isEmpty()) l.locale = xmlString(locale.text());
        if (const XmlElementView t2 = e.child(u"Text")) l.text = xmlString(valueText(t2.text()));
        return Variant(std::move(l));
    }
    case BuiltInType::ExtensionObject: {
        auto x = decodeExtensionObject(e);
        return x ? std::optional(Variant(std::move(*x))) : std::nullopt;
    }
    case BuiltInType::DataValue: {
        DataValue dv;
        if (const XmlElementView v = firstElement(e.child(u"Value"))) {
            auto inner = decode(v);
            if (!inner) return std::nullopt;
            dv.setValue(std::move(*inner));
        }
        if (const XmlElementView s = e.child(u"StatusCode")) {
            auto code = decodeScalar(BuiltInType::StatusCode, s);
            if (!code) return std::nullopt;
            dv.setStatus(*code->get<StatusCode>());
        }
        if (const XmlElementView ts = e.child(u"SourceTimestamp")) {
            auto when = decodeScalar(BuiltInType::DateTime, ts);
            if (!when) return std::nullopt;
            dv.setSourceTimestamp(*when->get<DateTime>());
        }
        if (const XmlElementView ts = e.child(u"ServerTimestamp")) {
            auto when = decodeScalar(BuiltInType::DateTime, ts);
            if (!when) return std::nullopt;
            dv.setServerTimestamp(*when->get<DateTime>());
        }
        return Variant(std::move(dv));
    }
    case BuiltInType::Variant: {
        const XmlElementView v = firstElement(e.child(u"Value"));
        if (!v) return Variant();
        return decode(v);
    }
    case BuiltInType::DiagnosticInfo:
    case BuiltInType::Null:
        break;
    }
    fail(QStringLiteral("<%1> (line %2): values of this type are not supported in a NodeSet").arg(e.name()).arg(e.line()));
    return std::nullopt;
}

// Writes an XML structure body in UA Binary by the DataType's StructureDefinition.
struct XmlStructureWriter {
    XmlValueDecoder& d;
    const AddressSpace& space;
    BinaryEncoder& enc;

    const StructureDefinition* definitionOf(NodeIndex dt) const {
        const Variant& v = space.node(dt).rare->dataTypeDefinition;
        const ExtensionObject* x = v.get<ExtensionObject>();
        return x ? x->get<StructureDefinition>() : nullptr;
    }

    bool structure(NodeIndex dt, XmlElementView e, int depth) {
        if (depth > kMaxXmlNesting) return d.fail(QStringLiteral("structures nested too deeply"));
        const StructureDefinition* def = definitionOf(dt);
        if (!def)
            return d.fail(QStringLiteral("DataType %1 has no StructureDefinition")
                              .arg(QString::fromStdString(space.node(dt).nodeId.toString())));
        const auto present = [&](const StructureField& f) { return e && e.child(QString::fromStdString(f.name.str())); };
        switch (def->structureType) {
        case StructureType::Structure:
        case StructureType::StructureWithSubtypedValues:
            for (const StructureField& f : def->fields)
                if (!field(f, e ? e.child(QString::fromStdString(f.name.str())) : XmlElementView(), depth)) return false;
            return true;
        case StructureType::StructureWithOptionalFields: {
            uint32_t mask = 0;
            int bit = 0;
            for (const StructureField& f : def->fields) {
                if (!f.isOptional) continue;
                if (present(f)) mask |= 1u << bit;
                ++bit;
            }
            encode(enc, mask);
            for (const StructureField& f : def->fields) {
                if (f.isOptional && !present(f)) continue;
                if (!field(f, e ? e.child(QString::fromStdString(f.name.str())) : XmlElementView(), depth)) return false;
            }
            return true;
        }
        case StructureType::Union:
        case StructureType::UnionWithSubtypedValues: {
            uint32_t chosen = 0;
            if (const XmlElementView sw = e ? e.child(u"SwitchField") : XmlElementView()) {
                bool ok = false;
                chosen = sw.text().trimmed().toUInt(&ok);
                if (!ok || chosen > def->fields.size()) return d.fail(QStringLiteral("bad SwitchField '%1'").arg(sw.text()));
            } else {
                for (std::size_t i = 0; i < def->fields.size() && chosen == 0; ++i)
                    if (present(def->fields[i])) chosen = uint32_t(i + 1);
            }
            encode(enc, chosen);
            if (chosen == 0) return true;
            const StructureField& f = def->fields[chosen - 1];
            return field(f, e.child(QString::fromStdString(f.name.str())), depth);
        }
        }
        return d.fail(QStringLiteral("unknown StructureType"));
    }

    bool field(const StructureField& f, XmlElementView fe, int depth) {
        const NodeIndex type = space.indexOf(f.dataType);
        if (type == kNoNode)
            return d.fail(QStringLiteral("field %1: DataType %2 is unknown").arg(f.name.toQString(), QString::fromStdString(f.dataType.toString())));
        if (f.valueRank > 1) return d.fail(QStringLiteral("field %1: matrix fields are not supported").arg(f.name.toQString()));
        if (f.valueRank == 1 || f.valueRank == 0) {
            if (!fe) { encode(enc, int32_t(-1)); return true; }
            encode(enc, int32_t(fe.childCount()));
            for (XmlElementView c : fe.children())
                if (!value(type, c, depth)) return false;
            return true;
        }
        return value(type, fe, depth);
    }

    bool value(NodeIndex type, XmlElementView fe, int depth) {
        const NodeIndex enumeration = space.indexOf(NodeId(id::Enumeration));
        if (space.isSubtypeOf(type, enumeration)) {
            int32_t n = 0;
            if (fe) {
                const QStringView s = fe.text().trimmed();
                bool ok = false;
                n = s.mid(s.lastIndexOf(u'_') + 1).toInt(&ok);
                if (!ok) return d.fail(QStringLiteral("'%1' is not an enumeration value (Name_Value)").arg(s));
            }
            encode(enc, n);
            return true;
        }
        const BuiltInType bt = space.builtInTypeOf(type);
        if (bt == BuiltInType::ExtensionObject) {
            const Node& n = space.node(type);
            if (!n.isAbstract && definitionOf(type)) return structure(type, fe, depth + 1);
            if (!fe) { encode(enc, ExtensionObject{}); return true; }
            auto x = d.decodeExtensionObject(fe);
            if (!x) return false;
            encode(enc, *x);
            return true;
        }
        if (bt == BuiltInType::Null) {  // BaseDataType, Number, ...: a Variant
            const XmlElementView inner = fe ? firstElement(fe.child(u"Value")) : XmlElementView();
            if (!inner) { encode(enc, Variant{}); return true; }
            auto v = d.decode(inner);
            if (!v) return false;
            encode(enc, *v);
            return true;
        }
        if (bt == BuiltInType::Variant) {
            auto v = fe ? d.decodeScalar(BuiltInType::Variant, fe) : std::optional<Variant>(Variant{});
            if (!v) return false;
            encode(enc, *v);
            return true;
        }
        auto v = fe ? d.decodeScalar(bt, fe) : std::optional<Variant>(defaultScalar(bt));
        if (!v) return false;
        encodeScalarBody(enc, *v);
        return enc.ok() || d.fail(QStringLiteral("a field of type %1 cannot be encoded").arg(QLatin1String(builtInTypeName(bt))));
    }
};

std::optional<ExtensionObject> XmlValueDecoder::decodeExtensionObject(XmlElementView e) {
    const XmlElementView typeId = e.child(u"TypeId");
    const XmlElementView idText = typeId ? typeId.child(u"Identifier") : XmlElementView();
    if (!idText || idText.text().trimmed().isEmpty()) return ExtensionObject{};
    const auto encodingId = mapNodeId(idText.text());
    if (!encodingId) {
        fail(QStringLiteral("ExtensionObject TypeId '%1' is not a NodeId of the file's namespaces").arg(idText.text().trimmed()));
        return std::nullopt;
    }
    const XmlElementView body = firstElement(e.child(u"Body"));
    if (!body) return ExtensionObject::opaque(*encodingId, ByteString());

    // The DataType: the TypeId itself, or the DataType whose encoding it is (inverse HasEncoding).
    NodeIndex dataType = kNoNode;
    const NodeIndex at = m_space.indexOf(*encodingId);
    if (at != kNoNode && m_space.node(at).nodeClass == NodeClass::DataType) {
        dataType = at;
    } else if (at != kNoNode) {
        const NodeIndex hasEncoding = m_space.indexOf(NodeId(id::HasEncoding));
        for (const Reference& r : m_space.node(at).references)
            if (!r.isForward && r.referenceType == hasEncoding) dataType = r.target;
    }
    const ExtensionObject* defx = dataType == kNoNode ? nullptr : m_space.node(dataType).rare->dataTypeDefinition->get<ExtensionObject>();
    const StructureDefinition* def = defx ? defx->get<StructureDefinition>() : nullptr;
    if (!def) return ExtensionObject::xml(*encodingId, XmlElement::fromQString(body.toXml()));

    Buffer bytes;
    BinaryEncoder enc(bytes);
    XmlStructureWriter w{*this, m_space, enc};
    if (!w.structure(dataType, body, 0)) return std::nullopt;
    if (!enc.ok()) { fail(QStringLiteral("the %1 body cannot be encoded").arg(body.name())); return std::nullopt; }

    const NodeId& typeNode = m_space.node(dataType).nodeId;
    if (typeNode.namespaceIndex() == 0 && typeNode.isNumeric())
        if (const DataTypeInfo* info = findDataTypeByTypeId(typeNode.numeric())) {
            BinaryDecoder dec(bytes.data(), bytes.size());
            auto decoded = info->decodeBody(dec);
            if (!dec.ok() || !decoded) {
                fail(QStringLiteral("the %1 body does not decode as %2").arg(body.name(), QLatin1String(info->name)));
                return std::nullopt;
            }
            return ExtensionObject::fromDecoded(std::move(decoded));
        }
    return ExtensionObject::opaque(def->defaultEncodingId,
                                   ByteString(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

} // namespace ua
