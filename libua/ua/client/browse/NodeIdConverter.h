// Conversion between the NodeIds of one server session (namespace *indexes*, which a server may
// renumber at any restart) and the form a client stores for later in files and settings: the
// ExpandedNodeId string form with the namespace URI, "nsu=<uri>;<id>" (OPC 10000-6 5.3.1.11).
// Namespace 0 is always http://opcfoundation.org/UA/ (OPC 10000-3 8.2.2), so its NodeIds keep the
// short form "i=85".
//
// Built from the server's NamespaceArray (Server.NamespaceArray, i=2255), which the Client reads
// after every session activation (Client::nodeIdConverter()). A value type: copy it freely.
#pragma once

#include "ua/types/NodeId.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ua {

inline constexpr const char* kOpcUaNamespaceUri = "http://opcfoundation.org/UA/";

class NodeIdConverter {
public:
    NodeIdConverter();  // knows namespace 0 only
    explicit NodeIdConverter(std::vector<String> namespaceArray);

    const std::vector<String>& namespaceArray() const { return m_namespaces; }
    // The index of a namespace URI, or -1.
    int indexOf(std::string_view uri) const;

    // A NodeId of this session -> an ExpandedNodeId with the namespace URI (index 0 stays as is);
    // nullopt when the index is not in the NamespaceArray.
    std::optional<ExpandedNodeId> toExpandedNodeId(const NodeId& id) const;
    // An ExpandedNodeId -> a NodeId of this session: the URI is looked up in the NamespaceArray.
    // nullopt for an unknown URI or another server (serverIndex != 0).
    std::optional<NodeId> toNodeId(const ExpandedNodeId& id) const;

    // "nsu=urn:x;i=1000" / "i=85"; nullopt when the index is unknown.
    std::optional<std::string> toPersistentString(const NodeId& id) const;
    // Parses the form above (and any "nsu=" ExpandedNodeId string). A bare "ns=<n>;" with n > 0 is
    // refused (nullopt): an index alone does not say which namespace was meant.
    std::optional<NodeId> fromPersistentString(std::string_view text) const;

private:
    std::vector<String> m_namespaces;
};

// Free-function forms of the two conversions for callers that hold a NamespaceArray.
std::optional<std::string> toPersistentString(const NodeId& id, const std::vector<String>& namespaceArray);
std::optional<NodeId> fromPersistentString(std::string_view text, const std::vector<String>& namespaceArray);

} // namespace ua
