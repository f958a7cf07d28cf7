#include "NodeSetXml.h"

#include <cmath>

namespace ua::test {

namespace {

String stringOf(const XmlNode* e) { return e ? String::fromQString(e->text.isNull() ? QString("") : e->text) : String(); }
QString trimmed(const XmlNode* e) { return e ? e->text.trimmed() : QString(); }

LocalizedText localizedText(const XmlNode* e) {
    LocalizedText t;
    if (!e) return t;
    if (const XmlNode* l = e->child("Locale"); l && !l->text.trimmed().isEmpty()) t.locale = stringOf(l);
    if (const XmlNode* x = e->child("Text")) t.text = stringOf(x);
    return t;
}

Array<uint32_t> uint32List(const XmlNode* e) {
    if (!e) return {};
    Array<uint32_t> a = Array<uint32_t>::emptyArray();
    for (const auto& c : e->children) a.push_back(c.text.trimmed().toUInt());
    return a;
}

Array<uint32_t> dimensionsAttribute(const QString& text) {
    if (text.isEmpty()) return {};
    Array<uint32_t> a = Array<uint32_t>::emptyArray();
    for (const auto& part : text.split(',')) a.push_back(part.trimmed().toUInt());
    return a;
}

} // namespace

Variant NodeSetXml::value(const XmlNode& e) const {
    if (e.name.startsWith("ListOf")) {
        const QString type = e.name.mid(6);
        if (type == "ExtensionObject") {
            Array<ExtensionObject> a = Array<ExtensionObject>::emptyArray();
            for (const auto& c : e.children) a.push_back(extensionObject(c));
            return a;
        }
        if (type == "LocalizedText") {
            Array<LocalizedText> a = Array<LocalizedText>::emptyArray();
            for (const auto& c : e.children) a.push_back(localizedText(&c));
            return a;
        }
        if (type == "String") {
            Array<String> a = Array<String>::emptyArray();
            for (const auto& c : e.children) a.push_back(stringOf(&c));
            return a;
        }
        if (type == "Int32") {
            Array<int32_t> a = Array<int32_t>::emptyArray();
            for (const auto& c : e.children) a.push_back(c.text.trimmed().toInt());
            return a;
        }
        if (type == "UInt32") return uint32List(&e);
        return Variant(String("unsupported ListOf" + type.toStdString()));
    }
    return scalar(e.name, &e);
}

Variant NodeSetXml::scalar(const QString& type, const XmlNode* e) const {
    const QString t = trimmed(e);
    if (type == "Boolean") return t.toLower() == "true";
    if (type == "SByte") return int8_t(t.toInt());
    if (type == "Byte") return uint8_t(t.toUInt());
    if (type == "Int16") return int16_t(t.toInt());
    if (type == "UInt16") return uint16_t(t.toUInt());
    if (type == "Int32") return int32_t(t.toInt());
    if (type == "UInt32") return uint32_t(t.toUInt());
    if (type == "Int64") return int64_t(t.toLongLong());
    if (type == "UInt64") return uint64_t(t.toULongLong());
    if (type == "Double") return t.toDouble();
    if (type == "Float") return t.toFloat();
    if (type == "String") return stringOf(e);
    if (type == "ByteString") return ByteString::fromQByteArray(QByteArray::fromBase64(t.toLatin1()));
    if (type == "DateTime") return DateTime::fromQDateTime(QDateTime::fromString(t, Qt::ISODateWithMs));
    if (type == "LocalizedText") return localizedText(e);
    if (type == "QualifiedName")
        return QualifiedName{uint16_t(trimmed(e->child("NamespaceIndex")).toUInt()), stringOf(e->child("Name"))};
    if (type == "NodeId") return resolve(trimmed(e->child("Identifier")));
    if (type == "ExtensionObject") return extensionObject(*e);
    return Variant(String("unsupported " + type.toStdString()));
}

ExtensionObject NodeSetXml::extensionObject(const XmlNode& e) const {
    const XmlNode* body = e.child("Body");
    if (!body || body->children.empty()) return {};
    const XmlNode& b = body->children.front();
    const auto i32 = [&](const char* n) { return trimmed(b.child(n)).toInt(); };
    if (b.name == "Argument") {
        Argument a;
        a.name = stringOf(b.child("Name"));
        a.dataType = b.child("DataType") ? resolve(trimmed(b.child("DataType")->child("Identifier"))) : NodeId();
        a.valueRank = i32("ValueRank");
        a.arrayDimensions = uint32List(b.child("ArrayDimensions"));
        a.description = localizedText(b.child("Description"));
        return ExtensionObject::make(a);
    }
    if (b.name == "EnumValueType") {
        EnumValueType v;
        v.value = trimmed(b.child("Value")).toLongLong();
        v.displayName = localizedText(b.child("DisplayName"));
        v.description = localizedText(b.child("Description"));
        return ExtensionObject::make(v);
    }
    if (b.name == "EUInformation") {
        EUInformation u;
        u.namespaceUri = stringOf(b.child("NamespaceUri"));
        u.unitId = i32("UnitId");
        u.displayName = localizedText(b.child("DisplayName"));
        u.description = localizedText(b.child("Description"));
        return ExtensionObject::make(u);
    }
    return ExtensionObject::opaque(NodeId(0, String(b.name.toStdString())), ByteString("unsupported"));
}

Variant NodeSetXml::rolePermissions(const XmlNode& e) const {
    Array<ExtensionObject> a = Array<ExtensionObject>::emptyArray();
    for (const auto& c : e.children) {
        RolePermissionType p;
        p.roleId = resolve(c.text);
        p.permissions = PermissionType(c.attr("Permissions", "0").toUInt());
        a.push_back(ExtensionObject::make(p));
    }
    return a;
}

Variant NodeSetXml::definition(uint32_t dt) const {
    const XmlNode* n = node(dt);
    const XmlNode* d = n->child("Definition");
    const auto fieldDescription = [](const XmlNode& f) {
        const XmlNode* x = f.child("Description");
        return x ? NodeSetXml::localizedAttribute(*x) : LocalizedText{};
    };
    if (isSubtype(dt, 22)) {
        StructureDefinition s;
        const bool abstract = n->attr("IsAbstract").trimmed().toLower() == "true";
        if (!abstract && binaryEncoding.count(dt)) s.defaultEncodingId = NodeId(binaryEncoding.at(dt));
        s.baseDataType = superType.count(dt) ? NodeId(superType.at(dt)) : NodeId();
        // Fields of the supertypes first (OPC 10000-3 8.48).
        std::vector<uint32_t> chain{dt};
        while (superType.count(chain.back()) && superType.at(chain.back()) != 22) chain.push_back(superType.at(chain.back()));
        s.fields = Array<StructureField>::emptyArray();
        bool optional = false, subtyped = false;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const XmlNode* def = node(*it)->child("Definition");
            if (!def) continue;
            for (const auto& f : def->children) {
                if (f.name != "Field") continue;
                StructureField sf;
                sf.name = String::fromQString(f.attr("Name"));
                sf.description = fieldDescription(f);
                sf.dataType = resolve(f.attr("DataType", "i=24"));
                sf.valueRank = f.attr("ValueRank", "-1").toInt();
                sf.arrayDimensions = dimensionsAttribute(f.attr("ArrayDimensions"));
                sf.maxStringLength = f.attr("MaxStringLength", "0").toUInt();
                sf.isOptional = f.attr("IsOptional").toLower() == "true";
                optional |= sf.isOptional;
                subtyped |= f.attr("AllowSubTypes").toLower() == "true";
                s.fields.push_back(sf);
            }
        }
        const bool isUnion = d->attr("IsUnion").toLower() == "true";
        s.structureType = isUnion ? (subtyped ? StructureType::UnionWithSubtypedValues : StructureType::Union)
                          : subtyped ? StructureType::StructureWithSubtypedValues
                          : optional ? StructureType::StructureWithOptionalFields
                                     : StructureType::Structure;
        return ExtensionObject::make(s);
    }
    EnumDefinition en;
    en.fields = Array<EnumField>::emptyArray();
    for (const auto& f : d->children) {
        if (f.name != "Field") continue;
        EnumField ef;
        ef.value = f.attr("Value", "0").toLongLong();
        const XmlNode* dn = f.child("DisplayName");
        ef.displayName = dn ? localizedAttribute(*dn) : LocalizedText{String(), String::fromQString(f.attr("Name"))};
        ef.description = fieldDescription(f);
        ef.name = String::fromQString(f.attr("Name"));
        en.fields.push_back(ef);
    }
    return ExtensionObject::make(en);
}

} // namespace ua::test
