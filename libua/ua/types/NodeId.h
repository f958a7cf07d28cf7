// NodeId (OPC 10000-3 8.2, binary OPC 10000-6 5.2.2.9, string form 5.3.1.10) and ExpandedNodeId
// (binary 5.2.2.10, string form 5.3.1.11).
#pragma once

#include "ua/types/Guid.h"
#include "ua/types/Strings.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace ua {

class NodeId {
public:
    // The IdType of OPC 10000-3 8.2.3 (values as in the IdType enumeration).
    enum class IdType : uint8_t { Numeric = 0, String = 1, Guid = 2, Opaque = 3 };

    NodeId() = default;  // the null NodeId: ns=0;i=0
    NodeId(uint16_t ns, uint32_t id) : m_ns(ns), m_id(id) {}
    NodeId(uint16_t ns, String id) : m_ns(ns), m_id(std::move(id)) {}
    NodeId(uint16_t ns, const char* id) : m_ns(ns), m_id(String(id)) {}
    NodeId(uint16_t ns, Guid id) : m_ns(ns), m_id(id) {}
    NodeId(uint16_t ns, ByteString id) : m_ns(ns), m_id(std::move(id)) {}
    // Namespace 0, numeric: NodeId(ua::id::Server) reads naturally with the generated constants.
    constexpr explicit NodeId(uint32_t ns0Numeric) : m_id(ns0Numeric) {}

    uint16_t namespaceIndex() const { return m_ns; }
    void setNamespaceIndex(uint16_t ns) { m_ns = ns; }
    IdType idType() const { return IdType(m_id.index()); }
    bool isNumeric() const { return m_id.index() == 0; }
    // The identifier; call only the one that matches idType().
    uint32_t numeric() const { return std::get<0>(m_id); }
    const String& string() const { return std::get<1>(m_id); }
    const Guid& guid() const { return std::get<2>(m_id); }
    const ByteString& opaque() const { return std::get<3>(m_id); }
    // Makes this a String / opaque NodeId in namespace ns and returns the identifier to fill in.
    // An identifier of that kind already held keeps its storage (decoders reuse it: no allocation).
    String& emplaceString(uint16_t ns) {
        m_ns = ns;
        if (m_id.index() != 1) m_id.emplace<1>();
        return std::get<1>(m_id);
    }
    ByteString& emplaceOpaque(uint16_t ns) {
        m_ns = ns;
        if (m_id.index() != 3) m_id.emplace<3>();
        return std::get<3>(m_id);
    }
    // Null per OPC 10000-3 8.2.4: namespace 0 and a numeric 0, empty string, null Guid or empty opaque.
    bool isNull() const;

    // "i=2258", "ns=2;s=Foo", "ns=1;g=...", "ns=1;b=<base64>" (OPC 10000-6 5.3.1.10).
    std::string toString() const;
    // Parses the form above; nullopt for anything else (no namespace URI here: see ExpandedNodeId).
    static std::optional<NodeId> parse(std::string_view text);

    std::size_t hash() const;
    friend bool operator==(const NodeId&, const NodeId&) = default;
    friend bool operator<(const NodeId& a, const NodeId& b);

private:
    uint16_t m_ns = 0;
    std::variant<uint32_t, String, Guid, ByteString> m_id{uint32_t(0)};
};

// A NodeId that may name its namespace by URI instead of index, and another server.
struct ExpandedNodeId {
    NodeId nodeId;
    String namespaceUri;      // null when the index in nodeId applies
    uint32_t serverIndex = 0; // 0: this server

    ExpandedNodeId() = default;
    ExpandedNodeId(NodeId id) : nodeId(std::move(id)) {}
    ExpandedNodeId(NodeId id, String uri, uint32_t server = 0)
        : nodeId(std::move(id)), namespaceUri(std::move(uri)), serverIndex(server) {}

    bool isLocal() const { return serverIndex == 0; }
    // "svr=1;nsu=http://x/;s=Foo", "nsu=urn:a;i=5", or the NodeId form (OPC 10000-6 5.3.1.11).
    std::string toString() const;
    static std::optional<ExpandedNodeId> parse(std::string_view text);
    friend bool operator==(const ExpandedNodeId&, const ExpandedNodeId&) = default;
};

} // namespace ua

template <>
struct std::hash<ua::NodeId> {
    std::size_t operator()(const ua::NodeId& n) const noexcept { return n.hash(); }
};
