// The server's address space (OPC 10000-3): every node of every namespace in one NodeTable, looked
// up by NodeId in O(1) (NodeIdIndex: numeric ids through dense chunks, others through a sharded
// hash), with each reference stored on both of its nodes (ReferenceList), and the type hierarchy
// queries the services need (isSubtypeOf for ReferenceTypes, DataTypes, ObjectTypes, ...).
//
// Threading rule. An AddressSpace is read without locks by every I/O thread, so it is never
// changed while it is shared:
//   - build it (NodeManager::install) before the server starts, or
//   - change a copy and publish the copy (SharedAddressSpace::update), so readers keep the
//     snapshot they started with.
// The one exception is a Variable's stored Value: it lives in a ValueCell (Node.h), shared by all
// copies and written atomically, so the Write service changes Values in place.
// A copy shares every node with its source (copy on write, NodeTable.h): it costs one pointer per
// 256 nodes and per 4,096 numeric ids, about 20 µs for a million nodes; a change then clones only
// the nodes it touches. So a change costs time in proportion to what it changes.
#pragma once

#include "ua/server/addressspace/Node.h"
#include "ua/server/addressspace/NodeIdIndex.h"
#include "ua/server/addressspace/NodeTable.h"

#include <string_view>
#include <vector>

namespace ua {

class AddressSpace {
public:
    static constexpr std::string_view kNs0Uri = "http://opcfoundation.org/UA/";

    AddressSpace();  // empty, with kNs0Uri as namespace 0

    // --- Namespaces (the NamespaceArray, OPC 10000-5 6.3.1 / 8.3.2) ---
    // The index of uri, added at the end when new.
    uint16_t addNamespace(std::string_view uri);
    // The index of uri, or -1.
    int namespaceIndex(std::string_view uri) const;
    const std::vector<String>& namespaces() const { return m_namespaces; }

    // --- Lookup ---
    // Slots in the node table, removed nodes included (they read as Node{}, a null NodeId).
    std::size_t size() const { return m_nodes.size(); }
    NodeIndex indexOf(const NodeId& id) const { return m_ids.find(id); }
    const Node* find(const NodeId& id) const {
        const NodeIndex i = indexOf(id);
        return i == kNoNode ? nullptr : &m_nodes[i];
    }
    const Node& node(NodeIndex i) const { return m_nodes[i]; }
    // Every slot, in NodeIndex order (removed ones as Node{}).
    const NodeTable& nodes() const { return m_nodes; }

    // --- Type hierarchy (HasSubtype, OPC 10000-3 7.10) ---
    // True when type is base or a (transitive) subtype of it.
    bool isSubtypeOf(NodeIndex type, NodeIndex base) const;
    bool isSubtypeOf(const NodeId& type, const NodeId& base) const;
    // The TypeDefinition of an Object or Variable (target of its HasTypeDefinition), or kNoNode.
    NodeIndex typeDefinition(NodeIndex node) const;
    // The built-in type (1..25) a DataType's values are encoded as: the DataType itself or its
    // nearest built-in supertype; Enumeration subtypes give Int32, Structure subtypes
    // ExtensionObject. BaseDataType and the abstract Number/Integer/UInteger give Null (any).
    BuiltInType builtInTypeOf(NodeIndex dataType) const;

    // --- Changes (see the threading rule above) ---
    // Adds a node. Bad_NodeIdExists when the NodeId is taken, Bad_NodeIdInvalid for a null
    // NodeId or a namespace index without a namespace, Bad_NodeClassInvalid for Unspecified.
    // Variables and VariableTypes get a ValueCell when they have none, unless the caller gives
    // them one later, before the space is read (ValueCellLater: the NodeSet importer, which makes
    // each cell with its Value once every node is in).
    enum CellPolicy { ValueCellNow, ValueCellLater };
    StatusCode addNode(Node node, NodeIndex* added = nullptr, CellPolicy cells = ValueCellNow);
    // Adds source --referenceType--> target (and the inverse on target). Bad_SourceNodeIdInvalid,
    // Bad_TargetNodeIdInvalid, Bad_ReferenceTypeIdInvalid (not a ReferenceType node),
    // Bad_DuplicateReferenceNotAllowed when the same reference exists.
    StatusCode addReference(const NodeId& source, const NodeId& referenceType, const NodeId& target);
    // Removes a node and every reference to or from it. Its index is unused until a later addNode
    // takes it again, so a holder of a NodeIndex checks the node's NodeId when it may have gone
    // (the MonitoredItem sampling fast path does). Bad_NodeIdUnknown.
    StatusCode removeNode(const NodeId& id);
    // The same by index, without checks: for loaders that know their input is valid.
    void addReferenceUnchecked(NodeIndex source, NodeIndex referenceType, NodeIndex target);
    // Mutable access while building or on a private copy; never on a shared AddressSpace. Clones
    // the node first when this AddressSpace shares it with a copy (NodeTable::mutate).
    Node* findMutable(const NodeId& id);
    Node& nodeMutable(NodeIndex i) { return m_nodes.mutate(i); }
    void reserve(std::size_t nodes);

private:
    void indexNode(NodeIndex i);

    NodeTable m_nodes;
    std::vector<String> m_namespaces;
    NodeIdIndex m_ids;
    std::vector<NodeIndex> m_free;  // indexes of removed nodes, taken again by addNode
    NodeIndex m_hasSubtype = kNoNode;
    NodeIndex m_hasTypeDefinition = kNoNode;
};

} // namespace ua
