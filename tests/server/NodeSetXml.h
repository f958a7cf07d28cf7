// Test helper: reads Opc.Ua.NodeSet2.xml with QXmlStreamReader, independently of the Python
// generator, into a small DOM and turns what it holds into the values the address space should
// have (OPC 10000-6 5.3 XML encoding; the normalisations are those listed in
// tools/generate_nodeset.py).
#pragma once

#include "ua/encoding/generated/Types.h"

#include <QFile>
#include <QXmlStreamReader>

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

namespace ua::test {

struct XmlNode {
    QString name;                       // local name
    std::map<QString, QString> attrs;   // local names
    QString text;                       // character data directly inside
    std::vector<XmlNode> children;

    const XmlNode* child(const QString& n) const {
        for (const auto& c : children)
            if (c.name == n) return &c;
        return nullptr;
    }
    QString attr(const QString& n, const QString& def = {}) const {
        const auto it = attrs.find(n);
        return it == attrs.end() ? def : it->second;
    }
    bool has(const QString& n) const { return attrs.count(n) != 0; }
};

inline XmlNode readElement(QXmlStreamReader& r) {
    XmlNode e;
    e.name = r.name().toString();
    for (const auto& a : r.attributes()) e.attrs[a.name().toString()] = a.value().toString();
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement()) e.children.push_back(readElement(r));
        else if (r.isCharacters()) e.text += r.text();
        else if (r.isEndElement()) break;
    }
    return e;
}

// The NodeSet: aliases, node elements, and what the references say about types.
class NodeSetXml {
public:
    bool load(const QString& path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return false;
        QXmlStreamReader r(&f);
        while (!r.atEnd()) {
            r.readNext();
            if (!r.isStartElement()) continue;
            if (r.name() == QLatin1String("UANodeSet")) continue;
            XmlNode e = readElement(r);
            if (e.name == "Aliases") {
                for (const auto& a : e.children) aliases[a.attr("Alias")] = a.text.trimmed();
            } else if (e.name.startsWith("UA")) {
                nodes.push_back(std::move(e));
            }
        }
        if (r.hasError()) return false;
        for (std::size_t i = 0; i < nodes.size(); ++i) byId[ns0(nodes[i].attr("NodeId"))] = i;
        for (const auto& n : nodes) {
            const uint32_t me = ns0(n.attr("NodeId"));
            for (const auto& ref : n.child("References")->children) {
                const uint32_t type = ns0(ref.attr("ReferenceType"));
                const uint32_t other = ns0(ref.text);
                const bool forward = ref.attr("IsForward", "true").trimmed().toLower() == "true";
                references.insert(forward ? std::tuple(me, type, other) : std::tuple(other, type, me));
            }
        }
        for (const auto& [s, t, d] : references) {
            if (t == 45) superType.emplace(d, s);
            if (t == 38 && node(d)->attr("BrowseName") == "Default Binary") binaryEncoding[s] = d;
            if (t == 38) encodingOwner[d] = s;
        }
        return true;
    }

    NodeId resolve(const QString& text) const {
        const QString t = text.trimmed();
        const auto it = aliases.find(t);
        return NodeId::parse((it == aliases.end() ? t : it->second).toStdString()).value_or(NodeId());
    }
    uint32_t ns0(const QString& text) const { return resolve(text).numeric(); }
    const XmlNode* node(uint32_t id) const {
        const auto it = byId.find(id);
        return it == byId.end() ? nullptr : &nodes[it->second];
    }
    bool isSubtype(uint32_t t, uint32_t base) const {
        for (int i = 0; i < 64; ++i) {
            if (t == base) return true;
            const auto it = superType.find(t);
            if (it == superType.end()) return false;
            t = it->second;
        }
        return false;
    }

    // <Value> content -> Variant.
    Variant value(const XmlNode& e) const;
    // <Definition> of DataType dt -> ExtensionObject(StructureDefinition or EnumDefinition).
    Variant definition(uint32_t dt) const;
    // <RolePermissions> -> Array of ExtensionObject(RolePermissionType).
    Variant rolePermissions(const XmlNode& e) const;
    static LocalizedText localizedAttribute(const XmlNode& e) {
        LocalizedText t;
        if (!e.attr("Locale").isEmpty()) t.locale = String::fromQString(e.attr("Locale"));
        t.text = String::fromQString(e.text.isNull() ? QString("") : e.text);
        if (t.text.isNull()) t.text = String("");
        return t;
    }

    std::map<QString, QString> aliases;
    std::vector<XmlNode> nodes;
    std::map<uint32_t, std::size_t> byId;
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> references;  // (source, type, target)
    std::map<uint32_t, uint32_t> superType;
    std::map<uint32_t, uint32_t> binaryEncoding;  // DataType -> its Default Binary encoding
    std::map<uint32_t, uint32_t> encodingOwner;   // encoding node -> DataType

private:
    Variant scalar(const QString& type, const XmlNode* e) const;
    ExtensionObject extensionObject(const XmlNode& e) const;
};

} // namespace ua::test
