#include "ua/server/nodeset/XmlValueEncoder.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/ScalarBody.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/nodeset/XmlValueDecoder.h"

#include <QDateTime>
#include <QXmlStreamReader>

#include <cmath>

namespace ua {

namespace {

constexpr int kMaxXmlDepth = 32;

QString realText(double d) {
    if (std::isnan(d)) return QStringLiteral("NaN");
    if (std::isinf(d)) return d > 0 ? QStringLiteral("INF") : QStringLiteral("-INF");
    return QString::number(d, 'g', 17);
}

// Copies an XML fragment (an XmlElement value, a kept Xml body) into the writer.
void writeFragment(QXmlStreamWriter& w, const QString& xml) {
    QXmlStreamReader r(xml);
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartDocument() || r.isEndDocument()) continue;
        w.writeCurrentToken(r);
    }
}

} // namespace

NodeIndex encodingOf(const AddressSpace& space, NodeIndex dataType, std::string_view name) {
    const NodeIndex hasEncoding = space.indexOf(NodeId(id::HasEncoding));
    for (const Reference& r : space.node(dataType).references)
        if (r.isForward && r.referenceType == hasEncoding && space.node(r.target).browseName.name.view() == name) return r.target;
    return kNoNode;
}

QString XmlValueEncoder::nodeIdText(const NodeId& id) const {
    NodeId copy = id;
    copy.setNamespaceIndex(uint16_t(m_fileNs(id.namespaceIndex())));
    return QString::fromStdString(copy.toString());
}

bool XmlValueEncoder::write(QXmlStreamWriter& w, const Variant& v) {
    if (v.isNull()) return true;
    const QString type = QString::fromLatin1(builtInTypeName(v.type()));
    if (v.isScalar()) {
        w.writeStartElement(type);
        const bool ok = writeScalarContent(w, v);
        w.writeEndElement();
        return ok;
    }
    // An array: each element as a scalar Variant.
    std::vector<Variant> items;
    bool ok = true;
    v.visit([&](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        if constexpr (requires { typename A::value_type; a.size(); }) {
            for (const auto& x : a) items.emplace_back(x);
        } else {
            ok = false;
        }
    });
    if (!ok) return fail(QStringLiteral("not an array"));
    const bool matrix = v.arrayDimensions().size() > 1;
    if (matrix) {
        w.writeStartElement(QStringLiteral("Matrix"));
        w.writeStartElement(QStringLiteral("Dimensions"));
        for (int32_t d : v.arrayDimensions()) w.writeTextElement(QStringLiteral("Int32"), QString::number(d));
        w.writeEndElement();
        w.writeStartElement(QStringLiteral("Elements"));
    } else {
        w.writeStartElement(QStringLiteral("ListOf") + type);
    }
    for (const Variant& x : items) {
        w.writeStartElement(type);
        if (v.type() == BuiltInType::Variant) {  // <Variant><Value><Int32>..</Int32></Value></Variant>
            w.writeStartElement(QStringLiteral("Value"));
            ok = write(w, x) && ok;
            w.writeEndElement();
        } else {
            ok = writeScalarContent(w, x) && ok;
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    if (matrix) w.writeEndElement();
    return ok;
}

bool XmlValueEncoder::writeScalarContent(QXmlStreamWriter& w, const Variant& v) {
    bool ok = true;
    v.visit([&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) w.writeCharacters(x ? QStringLiteral("true") : QStringLiteral("false"));
        else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) w.writeCharacters(realText(double(x)));
        else if constexpr (std::is_integral_v<T>) w.writeCharacters(QString::number(x));
        else if constexpr (std::is_same_v<T, String>) w.writeCharacters(x.toQString());
        else if constexpr (std::is_same_v<T, DateTime>)
            w.writeCharacters(x.toQDateTime().toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ")));
        else if constexpr (std::is_same_v<T, Guid>) w.writeTextElement(QStringLiteral("String"), QString::fromStdString(x.toString()));
        else if constexpr (std::is_same_v<T, ByteString>) w.writeCharacters(QString::fromLatin1(x.toQByteArray().toBase64()));
        else if constexpr (std::is_same_v<T, XmlElement>) writeFragment(w, x.toQString());
        else if constexpr (std::is_same_v<T, NodeId>) {
            if (!x.isNull()) w.writeTextElement(QStringLiteral("Identifier"), nodeIdText(x));
        } else if constexpr (std::is_same_v<T, ExpandedNodeId>) {
            ExpandedNodeId copy = x;
            if (copy.namespaceUri.isNull()) copy.nodeId.setNamespaceIndex(uint16_t(m_fileNs(x.nodeId.namespaceIndex())));
            w.writeTextElement(QStringLiteral("Identifier"), QString::fromStdString(copy.toString()));
        } else if constexpr (std::is_same_v<T, StatusCode>) w.writeTextElement(QStringLiteral("Code"), QString::number(x.code));
        else if constexpr (std::is_same_v<T, QualifiedName>) {
            w.writeTextElement(QStringLiteral("NamespaceIndex"), QString::number(m_fileNs(x.namespaceIndex)));
            w.writeTextElement(QStringLiteral("Name"), x.name.toQString());
        } else if constexpr (std::is_same_v<T, LocalizedText>) {
            if (!x.locale.isNull()) w.writeTextElement(QStringLiteral("Locale"), x.locale.toQString());
            if (!x.text.isNull()) w.writeTextElement(QStringLiteral("Text"), x.text.toQString());
        } else if constexpr (std::is_same_v<T, ExtensionObject>) ok = writeExtensionObjectContent(w, x);
        else if constexpr (std::is_same_v<T, Box<DataValue>>) {
            const DataValue& dv = *x;
            if (dv.hasValue) {
                w.writeStartElement(QStringLiteral("Value"));
                ok = write(w, dv.value);
                w.writeEndElement();
            }
            if (dv.hasStatus) {
                w.writeStartElement(QStringLiteral("StatusCode"));
                w.writeTextElement(QStringLiteral("Code"), QString::number(dv.status.code));
                w.writeEndElement();
            }
            if (dv.hasSourceTimestamp)
                w.writeTextElement(QStringLiteral("SourceTimestamp"),
                                   dv.sourceTimestamp.toQDateTime().toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ")));
        } else ok = fail(QStringLiteral("values of type %1 are not written to a NodeSet").arg(QLatin1String(builtInTypeName(v.type()))));
    });
    return ok;
}

// Reads a structure's UA Binary body by its StructureDefinition and writes it as XML fields.
struct XmlStructureReader {
    XmlValueEncoder& e;
    const AddressSpace& space;
    BinaryDecoder& d;
    QXmlStreamWriter& w;

    const StructureDefinition* definitionOf(NodeIndex dt) const {
        const ExtensionObject* x = space.node(dt).rare->dataTypeDefinition->get<ExtensionObject>();
        return x ? x->get<StructureDefinition>() : nullptr;
    }

    bool structure(NodeIndex dt, int depth) {
        if (depth > kMaxXmlDepth) return e.fail(QStringLiteral("structures nested too deeply"));
        const StructureDefinition* def = definitionOf(dt);
        if (!def) return e.fail(QStringLiteral("DataType %1 has no StructureDefinition").arg(QString::fromStdString(space.node(dt).nodeId.toString())));
        switch (def->structureType) {
        case StructureType::Structure:
        case StructureType::StructureWithSubtypedValues:
            for (const StructureField& f : def->fields)
                if (!field(f, depth)) return false;
            return d.ok();
        case StructureType::StructureWithOptionalFields: {
            uint32_t mask = 0;
            decode(d, mask);
            int bit = 0;
            for (const StructureField& f : def->fields) {
                if (f.isOptional && !(mask & (1u << bit++))) continue;
                if (!field(f, depth)) return false;
            }
            return d.ok();
        }
        case StructureType::Union:
        case StructureType::UnionWithSubtypedValues: {
            uint32_t chosen = 0;
            decode(d, chosen);
            if (chosen > def->fields.size()) return e.fail(QStringLiteral("SwitchField %1 out of range").arg(chosen));
            w.writeTextElement(QStringLiteral("SwitchField"), QString::number(chosen));
            return chosen == 0 || field(def->fields[chosen - 1], depth);
        }
        }
        return e.fail(QStringLiteral("unknown StructureType"));
    }

    bool field(const StructureField& f, int depth) {
        const NodeIndex type = space.indexOf(f.dataType);
        if (type == kNoNode) return e.fail(QStringLiteral("field %1: unknown DataType").arg(f.name.toQString()));
        if (f.valueRank > 1) return e.fail(QStringLiteral("field %1: matrix fields are not supported").arg(f.name.toQString()));
        const QString name = f.name.toQString();
        if (f.valueRank == 1 || f.valueRank == 0) {
            int32_t n = 0;
            decode(d, n);
            if (!d.ok()) return false;
            if (n < 0) return true;  // a null array: the element is left out
            w.writeStartElement(name);
            const QString item = elementName(type);
            for (int32_t i = 0; i < n && d.ok(); ++i) {
                w.writeStartElement(item);
                if (!value(type, depth)) return false;
                w.writeEndElement();
            }
            w.writeEndElement();
            return d.ok();
        }
        w.writeStartElement(name);
        const bool ok = value(type, depth);
        w.writeEndElement();
        return ok;
    }

    // The element name of one item of an array field of this type.
    QString elementName(NodeIndex type) const {
        const BuiltInType bt = space.builtInTypeOf(type);
        if (space.isSubtypeOf(type, space.indexOf(NodeId(id::Enumeration)))) return space.node(type).browseName.name.toQString();
        if (bt == BuiltInType::ExtensionObject) {
            const Node& n = space.node(type);
            return !n.isAbstract && definitionOf(type) ? n.browseName.name.toQString() : QStringLiteral("ExtensionObject");
        }
        if (bt == BuiltInType::Null) return QStringLiteral("Variant");
        return QString::fromLatin1(builtInTypeName(bt));
    }

    bool value(NodeIndex type, int depth) {
        if (space.isSubtypeOf(type, space.indexOf(NodeId(id::Enumeration)))) {
            int32_t n = 0;
            decode(d, n);
            QString name;
            if (const ExtensionObject* x = space.node(type).rare->dataTypeDefinition->get<ExtensionObject>())
                if (const EnumDefinition* def = x->get<EnumDefinition>())
                    for (const EnumField& f : def->fields)
                        if (f.value == n) name = f.name.toQString();
            w.writeCharacters(QStringLiteral("%1_%2").arg(name).arg(n));
            return d.ok();
        }
        const BuiltInType bt = space.builtInTypeOf(type);
        if (bt == BuiltInType::ExtensionObject) {
            const Node& n = space.node(type);
            if (!n.isAbstract && definitionOf(type)) return structure(type, depth + 1);
            ExtensionObject x;
            decode(d, x);
            return d.ok() && e.writeExtensionObjectContent(w, x);
        }
        if (bt == BuiltInType::Null || bt == BuiltInType::Variant) {
            Variant v;
            decode(d, v);
            if (!d.ok()) return false;
            w.writeStartElement(QStringLiteral("Value"));
            const bool ok = e.write(w, v);
            w.writeEndElement();
            return ok;
        }
        const Variant v = decodeScalarBody(d, bt);
        return d.ok() && e.writeScalarContent(w, v);
    }
};

bool XmlValueEncoder::writeExtensionObjectContent(QXmlStreamWriter& w, const ExtensionObject& x) {
    if (x.isNull()) return true;
    if (x.encoding() == ExtensionObject::Encoding::Xml) {
        w.writeStartElement(QStringLiteral("TypeId"));
        w.writeTextElement(QStringLiteral("Identifier"), nodeIdText(x.encodingId()));
        w.writeEndElement();
        w.writeStartElement(QStringLiteral("Body"));
        writeFragment(w, x.body().toQString());
        w.writeEndElement();
        return true;
    }
    // The DataType: the decoded structure's, or the owner of the binary encoding node.
    NodeIndex dataType = kNoNode;
    Buffer bytes;
    if (x.isDecoded()) {
        dataType = m_space.indexOf(NodeId(x.decoded()->typeId()));
        BinaryEncoder enc(bytes);
        x.decoded()->encodeBody(enc);
    } else {
        const NodeIndex encoding = m_space.indexOf(x.encodingId());
        const NodeIndex hasEncoding = m_space.indexOf(NodeId(id::HasEncoding));
        if (encoding != kNoNode)
            for (const Reference& r : m_space.node(encoding).references)
                if (!r.isForward && r.referenceType == hasEncoding) dataType = r.target;
        bytes.append(x.body().data(), x.body().size());
    }
    if (dataType == kNoNode) return fail(QStringLiteral("an ExtensionObject of unknown encoding %1").arg(QString::fromStdString(x.encodingId().toString())));
    const NodeIndex xmlEncoding = encodingOf(m_space, dataType, "Default XML");
    w.writeStartElement(QStringLiteral("TypeId"));
    w.writeTextElement(QStringLiteral("Identifier"), nodeIdText(m_space.node(xmlEncoding == kNoNode ? dataType : xmlEncoding).nodeId));
    w.writeEndElement();
    w.writeStartElement(QStringLiteral("Body"));
    w.writeStartElement(m_space.node(dataType).browseName.name.toQString());
    BinaryDecoder d(bytes.data(), bytes.size());
    XmlStructureReader reader{*this, m_space, d, w};
    const bool ok = reader.structure(dataType, 0);
    w.writeEndElement();
    w.writeEndElement();
    if (!ok || !d.ok()) return fail(QStringLiteral("a %1 body does not decode by its definition").arg(m_space.node(dataType).browseName.name.toQString()));
    return true;
}

} // namespace ua
