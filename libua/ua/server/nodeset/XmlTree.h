// A small element tree read with Qt's XML parser (QXmlStreamReader): what the NodeSet2 importer
// keeps of one element (a UANode, a Value, a Definition) to interpret it after the whole file is
// read. Names are local names (the namespace prefix dropped); text is the character data directly
// inside the element.
#pragma once

#include <QString>
#include <QStringView>
#include <QXmlStreamReader>

#include <utility>
#include <vector>

namespace ua {

struct XmlTree {
    QString name;
    std::vector<std::pair<QString, QString>> attributes;  // local name, value
    QString text;
    std::vector<XmlTree> children;
    qint64 line = 0;  // where the element starts in its file

    // Reads the element the reader stands on (a StartElement) and everything inside it; on return
    // the reader stands on its EndElement. Check r.hasError() afterwards.
    static XmlTree read(QXmlStreamReader& r);

    // The first child of that name, or nullptr.
    const XmlTree* child(QStringView childName) const;
    // The attribute, or def when absent.
    QString attribute(QStringView attrName, const QString& def = {}) const;
    bool hasAttribute(QStringView attrName) const;
    // The element and its content as XML text (an XmlElement value, OPC 10000-6 5.3.1.9).
    QString toXml() const;

    // The same name, attributes, text, line and children, recursively.
    bool operator==(const XmlTree&) const = default;
};

} // namespace ua
