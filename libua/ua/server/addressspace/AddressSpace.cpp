#include "ua/server/addressspace/AddressSpace.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <algorithm>

namespace ua {

AddressSpace::AddressSpace() { m_namespaces.emplace_back(kNs0Uri); }

uint16_t AddressSpace::addNamespace(std::string_view uri) {
    const int i = namespaceIndex(uri);
    if (i >= 0) return uint16_t(i);
    m_namespaces.emplace_back(uri);
    return uint16_t(m_namespaces.size() - 1);
}

int AddressSpace::namespaceIndex(std::string_view uri) const {
    for (std::size_t i = 0; i < m_namespaces.size(); ++i)
        if (m_namespaces[i].view() == uri) return int(i);
    return -1;
}

Node* AddressSpace::findMutable(const NodeId& id) {
    const NodeIndex i = indexOf(id);
    return i == kNoNode ? nullptr : &m_nodes.mutate(i);
}

void AddressSpace::reserve(std::size_t nodes) { m_nodes.reserve(nodes); }

void AddressSpace::indexNode(NodeIndex i) {
    const NodeId& id = m_nodes[i].nodeId;
    m_ids.insert(id, i);
    if (id.namespaceIndex() == 0 && id.isNumeric() && id.numeric() == id::HasSubtype) m_hasSubtype = i;
    if (id.namespaceIndex() == 0 && id.isNumeric() && id.numeric() == id::HasTypeDefinition) m_hasTypeDefinition = i;
}

StatusCode AddressSpace::addNode(Node node, NodeIndex* added, CellPolicy cells) {
    if (node.nodeId.isNull() || node.nodeId.namespaceIndex() >= m_namespaces.size())
        return status::BadNodeIdInvalid;
    switch (node.nodeClass) {
    case NodeClass::Object: case NodeClass::Variable: case NodeClass::Method: case NodeClass::ObjectType:
    case NodeClass::VariableType: case NodeClass::ReferenceType: case NodeClass::DataType: case NodeClass::View:
        break;
    default:
        return status::BadNodeClassInvalid;
    }
    if (indexOf(node.nodeId) != kNoNode) return status::BadNodeIdExists;
    if (cells == ValueCellNow && (node.nodeClass == NodeClass::Variable || node.nodeClass == NodeClass::VariableType) && !node.value)
        node.value = ValueCell::make();
    NodeIndex i;
    if (!m_free.empty()) {
        i = m_free.back();
        m_free.pop_back();
        m_nodes.replace(i, std::move(node));
    } else {
        i = m_nodes.append(std::move(node));
    }
    indexNode(i);
    if (added) *added = i;
    return status::Good;
}

StatusCode AddressSpace::removeNode(const NodeId& id) {
    const NodeIndex i = indexOf(id);
    if (i == kNoNode) return status::BadNodeIdUnknown;
    std::vector<NodeIndex> others;
    others.reserve(m_nodes[i].references.size());
    for (const Reference& r : m_nodes[i].references)
        if (r.target != i) others.push_back(r.target);
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    for (const NodeIndex o : others) {
        Node& other = m_nodes.mutate(o);
        other.references.eraseIf([i](const Reference& x) { return x.target == i; });
        if (other.superType == i) other.superType = kNoNode;
    }
    m_ids.erase(id);
    m_nodes.replace(i, Node{});  // NodeClass Unspecified, null NodeId
    m_free.push_back(i);
    return status::Good;
}

void AddressSpace::addReferenceUnchecked(NodeIndex source, NodeIndex referenceType, NodeIndex target) {
    m_nodes.mutate(source).references.push_back({referenceType, target, true});
    Node& t = m_nodes.mutate(target);
    t.references.push_back({referenceType, source, false});
    if (referenceType == m_hasSubtype && t.superType == kNoNode) t.superType = source;
}

StatusCode AddressSpace::addReference(const NodeId& source, const NodeId& referenceType, const NodeId& target) {
    const NodeIndex s = indexOf(source);
    if (s == kNoNode) return status::BadSourceNodeIdInvalid;
    const NodeIndex t = indexOf(target);
    if (t == kNoNode) return status::BadTargetNodeIdInvalid;
    const NodeIndex r = indexOf(referenceType);
    if (r == kNoNode || m_nodes[r].nodeClass != NodeClass::ReferenceType) return status::BadReferenceTypeIdInvalid;
    const Reference forward{r, t, true};
    if (m_nodes[s].references.contains(forward))
        return status::BadDuplicateReferenceNotAllowed;
    addReferenceUnchecked(s, r, t);
    return status::Good;
}

bool AddressSpace::isSubtypeOf(NodeIndex type, NodeIndex base) const {
    // Bounded walk: a malformed hierarchy with a loop cannot hang a service.
    for (int depth = 0; type != kNoNode && depth < 64; ++depth) {
        if (type == base) return true;
        type = m_nodes[type].superType;
    }
    return false;
}

bool AddressSpace::isSubtypeOf(const NodeId& type, const NodeId& base) const {
    const NodeIndex t = indexOf(type);
    const NodeIndex b = indexOf(base);
    return t != kNoNode && b != kNoNode && isSubtypeOf(t, b);
}

NodeIndex AddressSpace::typeDefinition(NodeIndex node) const {
    for (const Reference& r : m_nodes[node].references.forward())
        if (r.referenceType == m_hasTypeDefinition) return r.target;
    return kNoNode;
}

BuiltInType AddressSpace::builtInTypeOf(NodeIndex dataType) const {
    for (int depth = 0; dataType != kNoNode && depth < 64; ++depth) {
        const NodeId& id = m_nodes[dataType].nodeId;
        if (id.namespaceIndex() == 0 && id.isNumeric()) {
            const uint32_t n = id.numeric();
            if (n == id::Enumeration) return BuiltInType::Int32;
            if (n == id::BaseDataType || n == id::Number || n == id::Integer || n == id::UInteger)
                return BuiltInType::Null;
            if (n >= 1 && n <= 25) return BuiltInType(n);
        }
        dataType = m_nodes[dataType].superType;
    }
    return BuiltInType::Null;
}

} // namespace ua
