// Imports NodeSet2 documents (OPC 10000-6 Annex F) into an AddressSpace at run time.
//
// What it does, per document, in dependency order (a document after the ones whose Models it
// requires, whatever order they are given in):
//   - RequiredModels (F.2): each must be loaded already (a NamespaceMetadata object under
//     Server/Namespaces, OPC 10000-5 6.3.13, names it) or come earlier in the same import, with a
//     PublicationDate (and Version, where both are dotted numbers) no older than the one required;
//     otherwise an error names the model. A Model already loaded is an error too.
//   - NamespaceUris: the file's indexes are remapped to the server's NamespaceArray (new URIs are
//     appended and Server.NamespaceArray is updated).
//   - Aliases (F.2) in NodeId attributes and References.
//   - Every NodeClass (F.3 - F.11) with its attributes and defaults, References in both
//     directions (a reference given on both of its nodes counts once), Values of every built-in
//     type, arrays, matrices and ExtensionObjects (XmlValueDecoder.h), DataTypeDefinition (F.12)
//     as a StructureDefinition (structures, optional fields, unions) or an EnumDefinition
//     (enumerations and OptionSets), RolePermissions and AccessRestrictions.
//   - A NamespaceMetadata object for each Model the file does not describe itself.
// All or nothing: a document with any error adds nothing, and every error is listed with the
// node it concerns. The importer changes the space it is given on the way, so run it on a copy
// that is dropped on failure (SharedAddressSpace::update does this; importNodeSets returns a Bad
// status then).
//
// Not supported (an error names them where they occur): Values of DiagnosticInfo, matrix fields
// inside structures; the Model-wide default RolePermissions are not applied.
#pragma once

#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/nodeset/NodeSetDocument.h"

#include <QString>
#include <QStringList>

#include <map>
#include <vector>

namespace ua {

struct NodeSetIssue {
    QString file;
    qint64 line = 0;   // 0 when the error concerns the whole file
    QString nodeId;    // the NodeId as the file writes it; empty for file-level errors
    QString message;
    QString toString() const;  // "file:line: ns=1;i=5: message"
};

struct NodeSetImportResult {
    // Good, or the Bad status of the first error (Bad_NodeIdExists, Bad_NodeIdUnknown,
    // Bad_DecodingError, Bad_ReferenceTypeIdInvalid, Bad_DataTypeIdUnknown, Bad_NotFound for a
    // missing model, ...).
    StatusCode status;
    std::vector<NodeSetIssue> errors;
    struct Model {
        QString uri;
        QString version;
        DateTime publicationDate;
        uint16_t namespaceIndex = 0;
        QString file;
    };
    std::vector<Model> models;   // the Models imported, in the order they were loaded
    std::size_t nodes = 0;       // nodes added (NamespaceMetadata objects made by the importer included)
    std::size_t references = 0;  // references added (each counted once, not per direction)
    bool ok() const { return status.isGood(); }
};

// A loaded Model as its NamespaceMetadata object (OPC 10000-5 6.3.13) describes it.
struct LoadedModel {
    QString uri;
    QString version;
    std::optional<DateTime> publicationDate;
};
std::map<QString, LoadedModel> loadedModels(const AddressSpace& space);

// Imports docs into space (see the rules above). On failure space is partly changed: drop it.
NodeSetImportResult importNodeSets(AddressSpace& space, const std::vector<NodeSetDocument>& docs);
// The same for files: one that cannot be read or is not well-formed is an error of the result
// (Bad_NotFound, Bad_DecodingError) and nothing is imported.
NodeSetImportResult importNodeSetFiles(AddressSpace& space, const QStringList& paths);

} // namespace ua
