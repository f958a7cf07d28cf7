#include "ua/server/nodeset/NodeSetDocument.h"

#include "ua/server/nodeset/XmlTreeReader.h"

#include <QFile>
#include <QThread>

#include <algorithm>

namespace ua {

namespace {

std::optional<DateTime> parseXmlDateTime(QStringView text) {
    if (text.isEmpty()) return std::nullopt;
    QDateTime t = QDateTime::fromString(text.trimmed().toString(), Qt::ISODateWithMs);
    if (!t.isValid()) return std::nullopt;
    return DateTime::fromQDateTime(t);
}

NodeSetModel readModelEntry(XmlElementView e) {
    NodeSetModel m;
    m.modelUri = e.attribute(u"ModelUri").toString();
    m.version = e.attribute(u"Version").toString();
    m.publicationDate = parseXmlDateTime(e.attribute(u"PublicationDate"));
    for (XmlElementView c : e.children())
        if (c.name() == u"RequiredModel") m.requiredModels.push_back(readModelEntry(c));
    return m;
}

// Reads a document with `readAll` (one of XmlTreeReader's reads) into a NodeSetDocument.
template <typename ReadAll>
std::optional<NodeSetDocument> readDocument(const QString& fileName, QString* error, ReadAll&& readAll) {
    NodeSetDocument doc;
    doc.fileName = fileName;
    XmlTreeReader reader;
    reader.onRoot = [&](const XmlTree& root) {
        if (root.name() == u"UANodeSet") return true;
        reader.stop(QStringLiteral("the root element is <%1>, not <UANodeSet> (OPC 10000-6 F.2)").arg(root.name()), root.line());
        return false;
    };
    // A namespace or model without a URI cannot be mapped to the server's NamespaceArray.
    const auto noUri = [&](qint64 line, const char* what) {
        reader.stop(QStringLiteral("%1 without a URI (OPC 10000-6 F.2, F.3)").arg(QLatin1String(what)), line);
        return false;
    };
    reader.onChild = [&](XmlTree&& e) {
        if (e.name() == u"NamespaceUris") {
            for (XmlElementView u : e.children()) {
                if (u.text().trimmed().isEmpty()) return noUri(u.line(), "a NamespaceUris <Uri>");
                doc.namespaceUris.push_back(u.text().trimmed().toString());
            }
        } else if (e.name() == u"Models") {
            for (XmlElementView m : e.children()) {
                if (m.name() != u"Model") continue;
                doc.models.push_back(readModelEntry(m));
                if (doc.models.back().modelUri.isEmpty()) return noUri(m.line(), "a <Model>");
                for (const NodeSetModel& required : doc.models.back().requiredModels)
                    if (required.modelUri.isEmpty()) return noUri(m.line(), "a <RequiredModel>");
            }
        } else if (e.name() == u"Aliases") {
            for (XmlElementView a : e.children()) doc.aliases.insert(a.attribute(u"Alias").toString(), a.text().trimmed().toString());
        } else if (e.name().startsWith(u"UA")) {
            doc.nodes.push_back(std::move(e));
        }  // ServerUris, Extensions, LastModified: nothing to import
        return true;
    };
    if (!readAll(reader)) {
        if (error) *error = QStringLiteral("%1:%2: %3").arg(fileName).arg(reader.errorLine()).arg(reader.error());
        return std::nullopt;
    }
    return doc;
}

} // namespace

std::optional<NodeSetDocument> NodeSetDocument::read(QIODevice& device, const QString& fileName, QString* error) {
    return readDocument(fileName, error, [&](XmlTreeReader& r) { return r.read(device); });
}

std::optional<NodeSetDocument> NodeSetDocument::read(QByteArrayView bytes, const QString& fileName, QString* error, int threads) {
    return readDocument(fileName, error, [&](XmlTreeReader& r) { return r.read(bytes, threads); });
}

std::optional<NodeSetDocument> NodeSetDocument::load(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    // Mapped, so that a large file is parsed in parts on every core (XmlTreeReader::read).
    if (f.size() > 0) {
        if (uchar* mapped = f.map(0, f.size())) {
            bool set = false;
            const int wanted = qEnvironmentVariableIntValue("UA_NODESET_THREADS", &set);
            const int threads = std::clamp(set ? wanted : QThread::idealThreadCount(), 1, 8);
            auto doc = read(QByteArrayView(reinterpret_cast<const char*>(mapped), f.size()), path, error, threads);
            f.unmap(mapped);
            return doc;
        }
    }
    return read(f, path, error);
}

} // namespace ua
