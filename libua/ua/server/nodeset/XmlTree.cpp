#include "ua/server/nodeset/XmlTree.h"

#include <QXmlStreamWriter>

namespace ua {

XmlTree XmlTree::read(QXmlStreamReader& r) {
    XmlTree e;
    e.name = r.name().toString();
    e.line = r.lineNumber();
    const QXmlStreamAttributes attrs = r.attributes();
    e.attributes.reserve(std::size_t(attrs.size()));
    for (const QXmlStreamAttribute& a : attrs) e.attributes.emplace_back(a.name().toString(), a.value().toString());
    while (!r.atEnd()) {
        switch (r.readNext()) {
        case QXmlStreamReader::StartElement: e.children.push_back(read(r)); break;
        case QXmlStreamReader::Characters: e.text += r.text(); break;
        case QXmlStreamReader::EndElement: return e;
        default: break;
        }
    }
    return e;
}

const XmlTree* XmlTree::child(QStringView childName) const {
    for (const XmlTree& c : children)
        if (c.name == childName) return &c;
    return nullptr;
}

QString XmlTree::attribute(QStringView attrName, const QString& def) const {
    for (const auto& [n, v] : attributes)
        if (n == attrName) return v;
    return def;
}

bool XmlTree::hasAttribute(QStringView attrName) const {
    for (const auto& a : attributes)
        if (a.first == attrName) return true;
    return false;
}

namespace {
void writeTree(QXmlStreamWriter& w, const XmlTree& e) {
    w.writeStartElement(e.name);
    for (const auto& [n, v] : e.attributes) w.writeAttribute(n, v);
    if (e.children.empty()) w.writeCharacters(e.text);
    for (const XmlTree& c : e.children) writeTree(w, c);
    w.writeEndElement();
}
} // namespace

QString XmlTree::toXml() const {
    QString out;
    QXmlStreamWriter w(&out);
    writeTree(w, *this);
    return out;
}

} // namespace ua
