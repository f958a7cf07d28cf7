// NodeManager: the owner of one namespace of the address space. An application derives from it,
// adds its nodes in populate() with the helpers below, and attaches ValueSource callbacks to
// its live Variables. All NodeManagers write into one shared AddressSpace table, which the
// View and Attribute services read directly (no per-namespace dispatch on the request path).
//
// install() runs before the server starts, or on a copy inside SharedAddressSpace::update()
// (the threading rule of AddressSpace.h). Namespace 0 (Ns0NodeManager) is installed first: the
// helpers reference its types (Organizes, HasComponent, BaseObjectType, ...).
#pragma once

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/addressspace/MethodHandler.h"

#include <string>
#include <string_view>

namespace ua {

class NodeManager {
public:
    explicit NodeManager(std::string namespaceUri) : m_uri(std::move(namespaceUri)) {}
    virtual ~NodeManager() = default;
    NodeManager(const NodeManager&) = delete;
    NodeManager& operator=(const NodeManager&) = delete;

    const std::string& namespaceUri() const { return m_uri; }
    // The index of namespaceUri() in the AddressSpace it was last installed into.
    uint16_t namespaceIndex() const { return m_ns; }

    // Registers namespaceUri() in space (OPC 10000-5 NamespaceArray) and adds the nodes.
    // Returns the first Bad status of populate(); nodes added before it stay.
    StatusCode install(AddressSpace& space);

    // Options of addVariable (OPC 10000-3 5.6.2 attributes and the references to create).
    struct VariableOptions {
        int32_t valueRank = -1;                        // -1 scalar, 1 array, n matrix, ...
        Array<uint32_t> arrayDimensions;               // null when not fixed
        uint8_t accessLevel = access::CurrentRead | access::CurrentWrite;
        double minimumSamplingInterval = 0;            // ms
        NodeId referenceType = NodeId(id::HasComponent);  // from the parent
        NodeId typeDefinition = NodeId(id::BaseDataVariableType);
        LocalizedText description;
    };

protected:
    // Adds the namespace's nodes; namespaceIndex() is set.
    virtual StatusCode populate(AddressSpace& space) = 0;

    // Helpers for populate(). The BrowseName is (namespaceIndex(), name), the DisplayName the
    // name with a null locale. Each returns the first Bad status of adding the node or its
    // references (parent --referenceType--> node, node --HasTypeDefinition--> type).
    NodeId makeId(uint32_t numeric) const { return NodeId(m_ns, numeric); }
    NodeId makeId(std::string_view s) const { return NodeId(m_ns, String(s)); }
    StatusCode addObject(AddressSpace& space, const NodeId& id, std::string_view name, const NodeId& parent,
                         const NodeId& referenceType = NodeId(id::Organizes),
                         const NodeId& typeDefinition = NodeId(id::BaseObjectType));
    StatusCode addFolder(AddressSpace& space, const NodeId& id, std::string_view name, const NodeId& parent) {
        return addObject(space, id, name, parent, NodeId(id::Organizes), NodeId(id::FolderType));
    }
    // A Variable with a stored initial value (its status Good, timestamps the time of the call).
    StatusCode addVariable(AddressSpace& space, const NodeId& id, std::string_view name, const NodeId& parent,
                           const NodeId& dataType, Variant initial, VariableOptions options);
    StatusCode addVariable(AddressSpace& space, const NodeId& id, std::string_view name, const NodeId& parent,
                           const NodeId& dataType, Variant initial) {
        return addVariable(space, id, name, parent, dataType, std::move(initial), VariableOptions{});
    }
    // Makes a Variable live: its Value comes from source.read (and goes to source.write).
    // Bad_NodeIdUnknown, or Bad_NodeClassInvalid for a node that is not a Variable.
    static StatusCode setValueSource(AddressSpace& space, const NodeId& id, ValueSource source);
    // A Method (OPC 10000-3 5.7) that the Call service can invoke on parent: the Method node,
    // parent --HasComponent--> it, and its InputArguments / OutputArguments Properties (BrowseNames
    // in namespace 0, DataType Argument, ValueRank 1, NodeIds "<id>.InputArguments" and
    // "<id>.OutputArguments", so id must be a string NodeId when there are arguments, else
    // Bad_NodeIdInvalid). See MethodHandler.h for the handler.
    StatusCode addMethod(AddressSpace& space, const NodeId& id, std::string_view name, const NodeId& parent,
                         MethodDeclaration declaration);
    // Attaches a handler to an existing Method (one of another namespace, e.g. of namespace 0).
    // Bad_NodeIdUnknown, or Bad_NodeClassInvalid for a node that is not a Method.
    static StatusCode setMethodHandler(AddressSpace& space, const NodeId& id, MethodHandler handler);

private:
    std::string m_uri;
    uint16_t m_ns = 0;
    SharedAttributesPool m_attributes;  // addVariable's variables share equal attributes
};

} // namespace ua
