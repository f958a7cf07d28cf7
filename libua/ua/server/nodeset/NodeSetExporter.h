// Writes nodes of the address space as a NodeSet2 document (OPC 10000-6 Annex F), the way the
// importer (NodeSetImporter.h) reads it back: export, import into a fresh server, and the same
// nodes, attributes, values and references are there.
//
// What is written: the NamespaceUris (the exported namespaces first, then every other one the
// nodes use), a Model per exported namespace with its Version and PublicationDate from its
// NamespaceMetadata (OPC 10000-5 6.3.13) and RequiredModels for the other namespaces used
// (namespace 0 included), Aliases for the namespace 0 ReferenceTypes and DataTypes used, and each
// node with its attributes, references, Value (XmlValueEncoder.h) and DataTypeDefinition (a
// structure's own fields, after its supertype's). A reference between two exported nodes is
// written once, on its source; one to a node outside is written on the exported node. Nodes of a
// Session (SessionDiagnosticsObjects) are left out.
#pragma once

#include "ua/server/addressspace/AddressSpace.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace ua {

struct NodeSetExport {
    QByteArray xml;            // the document, UTF-8
    std::size_t nodes = 0;
    std::size_t references = 0;
    QStringList errors;        // values that could not be written (their nodes are written without)
};

// The nodes of the namespaces (server indexes, none of them 0) as one UANodeSet.
NodeSetExport exportNodeSet(const AddressSpace& space, const std::vector<uint16_t>& namespaces);

} // namespace ua
