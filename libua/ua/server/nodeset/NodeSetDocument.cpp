#include "ua/server/nodeset/NodeSetDocument.h"

#include <QFile>

namespace ua {

namespace {

std::optional<DateTime> parseXmlDateTime(const QString& text) {
    if (text.isEmpty()) return std::nullopt;
    QDateTime t = QDateTime::fromString(text.trimmed(), Qt::ISODateWithMs);
    if (!t.isValid()) return std::nullopt;
    return DateTime::fromQDateTime(t);
}

NodeSetModel readModelEntry(const XmlTree& e) {
    NodeSetModel m;
    m.modelUri = e.attribute(u"ModelUri");
    m.version = e.attribute(u"Version");
    m.publicationDate = parseXmlDateTime(e.attribute(u"PublicationDate"));
    for (const XmlTree& c : e.children)
        if (c.name == u"RequiredModel") m.requiredModels.push_back(readModelEntry(c));
    return m;
}

} // namespace

std::optional<NodeSetDocument> NodeSetDocument::read(QIODevice& device, const QString& fileName, QString* error) {
    NodeSetDocument doc;
    doc.fileName = fileName;
    QXmlStreamReader r(&device);
    bool sawRoot = false;
    while (!r.atEnd()) {
        if (r.readNext() != QXmlStreamReader::StartElement) continue;
        if (!sawRoot) {
            if (r.name() != u"UANodeSet") {
                if (error) *error = QStringLiteral("%1:%2: the root element is <%3>, not <UANodeSet> (OPC 10000-6 F.2)")
                                        .arg(fileName).arg(r.lineNumber()).arg(r.name());
                return std::nullopt;
            }
            sawRoot = true;
            continue;
        }
        XmlTree e = XmlTree::read(r);
        // A namespace or model without a URI cannot be mapped to the server's NamespaceArray.
        const auto noUri = [&](qint64 line, const char* what) {
            if (error) *error = QStringLiteral("%1:%2: %3 without a URI (OPC 10000-6 F.2, F.3)").arg(fileName).arg(line).arg(QLatin1String(what));
            return std::nullopt;
        };
        if (e.name == u"NamespaceUris") {
            for (const XmlTree& u : e.children) {
                if (u.text.trimmed().isEmpty()) return noUri(u.line, "a NamespaceUris <Uri>");
                doc.namespaceUris.push_back(u.text.trimmed());
            }
        } else if (e.name == u"Models") {
            for (const XmlTree& m : e.children) {
                if (m.name != u"Model") continue;
                doc.models.push_back(readModelEntry(m));
                if (doc.models.back().modelUri.isEmpty()) return noUri(m.line, "a <Model>");
                for (const NodeSetModel& required : doc.models.back().requiredModels)
                    if (required.modelUri.isEmpty()) return noUri(m.line, "a <RequiredModel>");
            }
        } else if (e.name == u"Aliases") {
            for (const XmlTree& a : e.children) doc.aliases.insert(a.attribute(u"Alias"), a.text.trimmed());
        } else if (e.name.startsWith(u"UA")) {
            doc.nodes.push_back(std::move(e));
        }  // ServerUris, Extensions, LastModified: nothing to import
    }
    if (r.hasError()) {
        if (error) *error = QStringLiteral("%1:%2: %3").arg(fileName).arg(r.lineNumber()).arg(r.errorString());
        return std::nullopt;
    }
    if (!sawRoot) {
        if (error) *error = QStringLiteral("%1: no <UANodeSet> element").arg(fileName);
        return std::nullopt;
    }
    return doc;
}

std::optional<NodeSetDocument> NodeSetDocument::load(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    return read(f, path, error);
}

} // namespace ua
