#include "ua/client/browse/NodeIdConverter.h"

namespace ua {

NodeIdConverter::NodeIdConverter() : m_namespaces{String(kOpcUaNamespaceUri)} {}

NodeIdConverter::NodeIdConverter(std::vector<String> namespaceArray) : m_namespaces(std::move(namespaceArray)) {
    if (m_namespaces.empty()) m_namespaces.push_back(String(kOpcUaNamespaceUri));
}

int NodeIdConverter::indexOf(std::string_view uri) const {
    for (std::size_t i = 0; i < m_namespaces.size(); ++i)
        if (m_namespaces[i].view() == uri) return int(i);
    return -1;
}

std::optional<ExpandedNodeId> NodeIdConverter::toExpandedNodeId(const NodeId& id) const {
    const uint16_t ns = id.namespaceIndex();
    if (ns == 0) return ExpandedNodeId(id);
    if (ns >= m_namespaces.size() || m_namespaces[ns].isEmpty()) return std::nullopt;
    NodeId local = id;
    local.setNamespaceIndex(0);
    return ExpandedNodeId(std::move(local), m_namespaces[ns]);
}

std::optional<NodeId> NodeIdConverter::toNodeId(const ExpandedNodeId& x) const {
    if (x.serverIndex != 0) return std::nullopt;
    if (x.namespaceUri.isNull()) return x.nodeId;
    const int ns = indexOf(x.namespaceUri.view());
    if (ns < 0 || ns > 0xFFFF) return std::nullopt;
    NodeId id = x.nodeId;
    id.setNamespaceIndex(uint16_t(ns));
    return id;
}

std::optional<std::string> NodeIdConverter::toPersistentString(const NodeId& id) const {
    const auto x = toExpandedNodeId(id);
    if (!x) return std::nullopt;
    return x->toString();
}

std::optional<NodeId> NodeIdConverter::fromPersistentString(std::string_view text) const {
    const auto x = ExpandedNodeId::parse(text);
    if (!x) return std::nullopt;
    if (x->namespaceUri.isNull() && x->nodeId.namespaceIndex() != 0) return std::nullopt;
    return toNodeId(*x);
}

std::optional<std::string> toPersistentString(const NodeId& id, const std::vector<String>& namespaceArray) {
    return NodeIdConverter(namespaceArray).toPersistentString(id);
}

std::optional<NodeId> fromPersistentString(std::string_view text, const std::vector<String>& namespaceArray) {
    return NodeIdConverter(namespaceArray).fromPersistentString(text);
}

} // namespace ua
