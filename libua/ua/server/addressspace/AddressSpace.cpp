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

NodeIndex AddressSpace::indexOf(const NodeId& id) const {
    if (id.isNumeric() && id.numeric() < kMaxDenseId) {
        const uint16_t ns = id.namespaceIndex();
        if (ns >= m_dense.size() || id.numeric() >= m_dense[ns].size()) return kNoNode;
        return m_dense[ns][id.numeric()];
    }
    const auto it = m_byId.find(id);
    return it == m_byId.end() ? kNoNode : it->second;
}

Node* AddressSpace::findMutable(const NodeId& id) {
    const NodeIndex i = indexOf(id);
    return i == kNoNode ? nullptr : &m_nodes[i];
}

void AddressSpace::reserve(std::size_t nodes) { m_nodes.reserve(nodes); }

void AddressSpace::indexNode(NodeIndex i) {
    const NodeId& id = m_nodes[i].nodeId;
    if (id.isNumeric() && id.numeric() < kMaxDenseId) {
        const uint16_t ns = id.namespaceIndex();
        const uint32_t n = id.numeric();
        if (ns >= m_dense.size()) m_dense.resize(ns + 1);
        auto& table = m_dense[ns];
        if (n >= table.size()) table.resize(std::max<std::size_t>(n + 1, table.size() * 3 / 2), kNoNode);
        table[n] = i;
        if (ns == 0 && n == id::HasSubtype) m_hasSubtype = i;
        if (ns == 0 && n == id::HasTypeDefinition) m_hasTypeDefinition = i;
    } else {
        m_byId.emplace(id, i);
    }
}

StatusCode AddressSpace::addNode(Node node, NodeIndex* added) {
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
    if ((node.nodeClass == NodeClass::Variable || node.nodeClass == NodeClass::VariableType) && !node.value)
        node.value = std::make_shared<ValueCell>();
    NodeIndex i;
    if (!m_free.empty()) {
        i = m_free.back();
        m_free.pop_back();
        m_nodes[i] = std::move(node);
    } else {
        i = NodeIndex(m_nodes.size());
        m_nodes.push_back(std::move(node));
    }
    indexNode(i);
    if (added) *added = i;
    return status::Good;
}

StatusCode AddressSpace::removeNode(const NodeId& id) {
    const NodeIndex i = indexOf(id);
    if (i == kNoNode) return status::BadNodeIdUnknown;
    for (const Reference& r : m_nodes[i].references) {
        if (r.target == i) continue;
        Node& other = m_nodes[r.target];
        std::erase_if(other.references, [i](const Reference& x) { return x.target == i; });
        if (other.superType == i) other.superType = kNoNode;
    }
    if (id.isNumeric() && id.numeric() < kMaxDenseId) m_dense[id.namespaceIndex()][id.numeric()] = kNoNode;
    else m_byId.erase(id);
    m_nodes[i] = Node{};  // NodeClass Unspecified, null NodeId
    m_free.push_back(i);
    return status::Good;
}

void AddressSpace::addReferenceUnchecked(NodeIndex source, NodeIndex referenceType, NodeIndex target) {
    m_nodes[source].references.push_back({referenceType, target, true});
    m_nodes[target].references.push_back({referenceType, source, false});
    if (referenceType == m_hasSubtype && m_nodes[target].superType == kNoNode) m_nodes[target].superType = source;
}

StatusCode AddressSpace::addReference(const NodeId& source, const NodeId& referenceType, const NodeId& target) {
    const NodeIndex s = indexOf(source);
    if (s == kNoNode) return status::BadSourceNodeIdInvalid;
    const NodeIndex t = indexOf(target);
    if (t == kNoNode) return status::BadTargetNodeIdInvalid;
    const NodeIndex r = indexOf(referenceType);
    if (r == kNoNode || m_nodes[r].nodeClass != NodeClass::ReferenceType) return status::BadReferenceTypeIdInvalid;
    const Reference forward{r, t, true};
    if (std::find(m_nodes[s].references.begin(), m_nodes[s].references.end(), forward) != m_nodes[s].references.end())
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
    for (const Reference& r : m_nodes[node].references)
        if (r.isForward && r.referenceType == m_hasTypeDefinition) return r.target;
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
