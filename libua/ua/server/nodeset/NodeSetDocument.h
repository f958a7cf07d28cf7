// One NodeSet2 file as read (OPC 10000-6 Annex F, the UANodeSet schema), before it is imported:
// its NamespaceUris, Models with their RequiredModels, Aliases, and the node elements kept as
// element trees for the importer (NodeSetImporter.h) to interpret against the server's address
// space. Reading checks only that the file is well-formed XML with a UANodeSet root.
#pragma once

#include "ua/server/nodeset/XmlTree.h"
#include "ua/types/DateTime.h"

#include <QByteArrayView>
#include <QHash>
#include <QIODevice>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ua {

// ModelTableEntry (F.2): a Model a file defines, or one it requires.
struct NodeSetModel {
    QString modelUri;
    QString version;                       // empty when absent
    std::optional<DateTime> publicationDate;
    std::vector<NodeSetModel> requiredModels;  // only on the Models the file defines
};

struct NodeSetDocument {
    QString fileName;                   // for messages
    QStringList namespaceUris;          // the file's index i (>= 1) is namespaceUris[i - 1]; 0 is namespace 0
    std::vector<NodeSetModel> models;
    QHash<QString, QString> aliases;    // alias -> NodeId text
    std::vector<XmlTree> nodes;         // the UAObject, UAVariable, ... elements in file order

    // Reads a UANodeSet document. On malformed XML or another root element: nullopt and *error
    // says where ("file:line: ...").
    static std::optional<NodeSetDocument> read(QIODevice& device, const QString& fileName, QString* error);
    // The same for a document in memory, parsed in up to `threads` parts at once when it is large
    // (XmlTreeReader::read); the result is that of a sequential read.
    static std::optional<NodeSetDocument> read(QByteArrayView bytes, const QString& fileName, QString* error, int threads = 1);
    // Reads a file: mapped into memory and parsed on every core (at most 8 threads; the environment
    // variable UA_NODESET_THREADS sets another count, 1 for a sequential read, for benchmarks).
    static std::optional<NodeSetDocument> load(const QString& path, QString* error);
};

} // namespace ua
