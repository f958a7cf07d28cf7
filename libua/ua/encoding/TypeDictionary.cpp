#include "ua/encoding/TypeDictionary.h"

#include "ua/encoding/DataTypeInfo.h"

#include <QXmlStreamReader>

#include <algorithm>
#include <tuple>
#include <vector>

namespace ua {

namespace {

const QString kBinarySchemaUri = QStringLiteral("http://opcfoundation.org/BinarySchema/");
const QString kUaUri = QStringLiteral("http://opcfoundation.org/UA/");
const QString kDictionaryIdPrefix = QStringLiteral("dictionary:");

struct DictionaryField {
    QString name, typeUri, typeName, lengthField, switchField, switchValue;
    int length = 1;
};

// The built-in type id of an opc: type, 0 when it is none of them.
uint32_t opcTypeId(const QString& name) {
    static const std::pair<const char*, uint32_t> kTypes[] = {
        {"Boolean", 1}, {"SByte", 2}, {"Byte", 3}, {"Int16", 4}, {"UInt16", 5}, {"Int32", 6}, {"UInt32", 7},
        {"Int64", 8}, {"UInt64", 9}, {"Float", 10}, {"Double", 11}, {"String", 12}, {"CharArray", 12},
        {"DateTime", 13}, {"Guid", 14}, {"ByteString", 15}};
    for (const auto& [n, id] : kTypes)
        if (name == QLatin1String(n)) return id;
    return 0;
}

// The namespace 0 DataType of a ua: type name: a built-in type, or a structure of the schema.
uint32_t uaTypeId(const QString& name) {
    for (uint32_t t = 1; t <= 25; ++t)
        if (name == QLatin1String(builtInTypeName(BuiltInType(t)))) return t;
    const QByteArray latin = name.toLatin1();
    if (const DataTypeInfo* info = findDataTypeByName(std::string_view(latin.constData(), std::size_t(latin.size())))) return info->typeId;
    return 0;
}

class DictionaryReader {
public:
    DictionaryReader(const QByteArray& xml, TypeDictionary& out) : m_xml(xml), m_out(out) {}

    bool read(QString* error) {
        if (!m_xml.readNextStartElement() || m_xml.name() != u"TypeDictionary" || m_xml.namespaceUri() != kBinarySchemaUri) {
            if (error) *error = m_xml.hasError() ? m_xml.errorString() : QStringLiteral("not an OPC Binary TypeDictionary");
            return false;
        }
        takeNamespaces();
        m_out.targetNamespace = m_xml.attributes().value(QLatin1String("TargetNamespace")).toString();
        while (m_xml.readNextStartElement()) {
            takeNamespaces();
            if (m_xml.namespaceUri() != kBinarySchemaUri) {
                m_xml.skipCurrentElement();
            } else if (m_xml.name() == u"StructuredType") {
                readStructure();
            } else if (m_xml.name() == u"EnumeratedType") {
                readEnumeration();
            } else {
                m_xml.skipCurrentElement();  // Import, OpaqueType, Documentation
            }
        }
        if (m_xml.hasError()) {
            if (error) *error = QStringLiteral("line %1: %2").arg(m_xml.lineNumber()).arg(m_xml.errorString());
            return false;
        }
        return true;
    }

private:
    void takeNamespaces() {
        for (const QXmlStreamNamespaceDeclaration& d : m_xml.namespaceDeclarations())
            m_prefixes[d.prefix().toString()] = d.namespaceUri().toString();
    }

    // A "prefix:Name" attribute as (namespace URI, Name).
    std::pair<QString, QString> qualified(const QString& text) const {
        const qsizetype colon = text.indexOf(u':');
        if (colon < 0) return {m_prefixes.count(QString()) ? m_prefixes.at(QString()) : QString(), text};
        const auto it = m_prefixes.find(text.left(colon));
        return {it == m_prefixes.end() ? QString() : it->second, text.mid(colon + 1)};
    }

    std::optional<NodeId> typeIdOf(const DictionaryField& f, QString* why) const {
        if (f.typeUri == kBinarySchemaUri) {
            if (const uint32_t id = opcTypeId(f.typeName)) return NodeId(id);
        } else if (f.typeUri == kUaUri) {
            if (const uint32_t id = uaTypeId(f.typeName)) return NodeId(id);
        } else if (f.typeUri == m_out.targetNamespace) {
            return dictionaryTypeId(m_out.targetNamespace, f.typeName);
        }
        *why = QStringLiteral("field %1: type %2 (%3) is not supported").arg(f.name, f.typeName, f.typeUri);
        return std::nullopt;
    }

    void readStructure() {
        const QString name = m_xml.attributes().value(QLatin1String("Name")).toString();
        std::vector<DictionaryField> fields;
        while (m_xml.readNextStartElement()) {
            if (m_xml.name() != u"Field") {
                m_xml.skipCurrentElement();
                continue;
            }
            const QXmlStreamAttributes a = m_xml.attributes();
            DictionaryField f;
            f.name = a.value(QLatin1String("Name")).toString();
            std::tie(f.typeUri, f.typeName) = qualified(a.value(QLatin1String("TypeName")).toString());
            f.lengthField = a.value(QLatin1String("LengthField")).toString();
            f.switchField = a.value(QLatin1String("SwitchField")).toString();
            f.switchValue = a.value(QLatin1String("SwitchValue")).toString();
            if (a.hasAttribute(QLatin1String("Length"))) f.length = a.value(QLatin1String("Length")).toInt();
            fields.push_back(std::move(f));
            m_xml.skipCurrentElement();
        }
        QString why;
        if (auto def = convert(fields, &why)) {
            m_out.structures[name] = std::move(*def);
        } else {
            m_out.unsupported[name] = why;
        }
    }

    std::optional<StructureDefinition> convert(const std::vector<DictionaryField>& fields, QString* why) const {
        StructureDefinition def;
        def.baseDataType = NodeId(22u);
        def.fields = Array<StructureField>::emptyArray();
        std::vector<QString> bits;  // one name a bit, in order ("" for reserved bits)
        std::vector<QString> lengthFields;
        QString unionSwitch;
        for (const DictionaryField& f : fields) {
            if (f.typeUri == kBinarySchemaUri && f.typeName == u"Bit") {
                for (int i = 0; i < std::max(1, f.length); ++i) bits.push_back(i == 0 ? f.name : QString());
            }
            if (!f.lengthField.isEmpty()) lengthFields.push_back(f.lengthField);
            if (!f.switchValue.isEmpty()) unionSwitch = f.switchField;
        }
        const auto isLengthField = [&](const QString& n) { return std::find(lengthFields.begin(), lengthFields.end(), n) != lengthFields.end(); };
        if (!unionSwitch.isEmpty()) {
            def.structureType = StructureType::Union;
            def.baseDataType = NodeId(12756u);
        } else if (!bits.empty()) {
            if (bits.size() != 32) {
                *why = QStringLiteral("optional-field bits total %1, not the 32 of an EncodingMask").arg(bits.size());
                return std::nullopt;
            }
            def.structureType = StructureType::StructureWithOptionalFields;
        }
        int optionalIndex = 0;
        for (const DictionaryField& f : fields) {
            if ((f.typeUri == kBinarySchemaUri && f.typeName == u"Bit") || isLengthField(f.name) || (!unionSwitch.isEmpty() && f.name == unionSwitch))
                continue;
            StructureField sf;
            sf.name = String::fromQString(f.name);
            sf.valueRank = f.lengthField.isEmpty() ? -1 : 1;
            const auto type = typeIdOf(f, why);
            if (!type) return std::nullopt;
            sf.dataType = *type;
            if (def.structureType == StructureType::Union) {
                if (f.switchValue.toInt() != int(def.fields.size()) + 1) {
                    *why = QStringLiteral("union field %1 has SwitchValue %2, not its position").arg(f.name, f.switchValue);
                    return std::nullopt;
                }
            } else if (!f.switchField.isEmpty()) {
                const auto bit = std::find(bits.begin(), bits.end(), f.switchField);
                if (bit == bits.end() || bit - bits.begin() != optionalIndex) {
                    *why = QStringLiteral("optional field %1: its bit %2 is not bit %3").arg(f.name, f.switchField).arg(optionalIndex);
                    return std::nullopt;
                }
                sf.isOptional = true;
                ++optionalIndex;
            }
            def.fields.push_back(std::move(sf));
        }
        return def;
    }

    void readEnumeration() {
        const QString name = m_xml.attributes().value(QLatin1String("Name")).toString();
        EnumDefinition def;
        def.fields = Array<EnumField>::emptyArray();
        while (m_xml.readNextStartElement()) {
            if (m_xml.name() == u"EnumeratedValue") {
                EnumField f;
                f.name = String::fromQString(m_xml.attributes().value(QLatin1String("Name")).toString());
                f.displayName.text = f.name;
                f.value = m_xml.attributes().value(QLatin1String("Value")).toLongLong();
                def.fields.push_back(std::move(f));
            }
            m_xml.skipCurrentElement();
        }
        m_out.enumerations[name] = std::move(def);
    }

    QXmlStreamReader m_xml;
    TypeDictionary& m_out;
    std::map<QString, QString> m_prefixes;
};

} // namespace

std::optional<TypeDictionary> parseTypeDictionary(const QByteArray& xml, QString* error) {
    TypeDictionary out;
    DictionaryReader reader(xml, out);
    if (!reader.read(error)) return std::nullopt;
    return out;
}

NodeId dictionaryTypeId(const QString& targetNamespace, const QString& name) {
    return NodeId(0, String::fromQString(kDictionaryIdPrefix + targetNamespace + u'#' + name));
}

bool splitDictionaryTypeId(const NodeId& id, QString* targetNamespace, QString* name) {
    if (id.namespaceIndex() != 0 || id.idType() != NodeId::IdType::String) return false;
    const QString text = id.string().toQString();
    if (!text.startsWith(kDictionaryIdPrefix)) return false;
    const qsizetype hash = text.lastIndexOf(u'#');
    if (hash < 0) return false;
    *targetNamespace = text.mid(kDictionaryIdPrefix.size(), hash - kDictionaryIdPrefix.size());
    *name = text.mid(hash + 1);
    return true;
}

} // namespace ua
