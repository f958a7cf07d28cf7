// NodeId (OPC 10000-3 8.2, binary OPC 10000-6 5.2.2.9, string form 5.3.1.10) and ExpandedNodeId
// (binary 5.2.2.10, string form 5.3.1.11).
#pragma once

#include "ua/types/Guid.h"
#include "ua/types/Strings.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ua {

class NodeId {
public:
    // The IdType of OPC 10000-3 8.2.3 (values as in the IdType enumeration).
    enum class IdType : uint8_t { Numeric = 0, String = 1, Guid = 2, Opaque = 3 };

    NodeId() = default;  // the null NodeId: ns=0;i=0
    NodeId(uint16_t ns, uint32_t id) : m_ns(ns) { m_id.raw = id; }
    NodeId(uint16_t ns, String id) : m_ns(ns) { setBox(IdType::String, new IdBox<String>(std::move(id))); }
    NodeId(uint16_t ns, const char* id) : NodeId(ns, String(id)) {}
    NodeId(uint16_t ns, Guid id) : m_ns(ns), m_type(IdType::Guid) { m_id.guid = id; }
    NodeId(uint16_t ns, ByteString id) : m_ns(ns) { setBox(IdType::Opaque, new IdBox<ByteString>(std::move(id))); }
    // A numeric NodeId of namespace 0 (the generated NodeIds.h constants).
    explicit NodeId(uint32_t ns0Numeric) { m_id.raw = ns0Numeric; }

    NodeId(const NodeId& o) : m_id(o.m_id), m_ns(o.m_ns), m_type(o.m_type) {
        if (boxed()) box()->refs.fetch_add(1, std::memory_order_relaxed);
    }
    // Leaves o the null NodeId.
    NodeId(NodeId&& o) noexcept : m_id(o.m_id), m_ns(o.m_ns), m_type(o.m_type) {
        o.m_id = Identifier{};
        o.m_ns = 0;
        o.m_type = IdType::Numeric;
    }
    NodeId& operator=(const NodeId& o) {
        NodeId copy(o);
        swap(copy);
        return *this;
    }
    NodeId& operator=(NodeId&& o) noexcept {
        NodeId moved(std::move(o));
        swap(moved);
        return *this;
    }
    ~NodeId() { if (boxed()) release(); }
    void swap(NodeId& o) noexcept {
        std::swap(m_ns, o.m_ns);
        std::swap(m_type, o.m_type);
        std::swap(m_id, o.m_id);
    }

    uint16_t namespaceIndex() const { return m_ns; }
    void setNamespaceIndex(uint16_t ns) { m_ns = ns; }
    IdType idType() const { return m_type; }
    bool isNumeric() const { return m_type == IdType::Numeric; }
    // The identifier; call only the one that matches idType() (another gives 0 or a null value).
    uint32_t numeric() const { return isNumeric() ? uint32_t(m_id.raw) : 0; }
    const String& string() const;
    const Guid& guid() const;
    const ByteString& opaque() const;
    // Makes this a String / opaque NodeId in namespace ns and returns the identifier to fill in.
    // An identifier of that kind already held (and not shared with a copy) keeps its storage
    // (decoders reuse it: no allocation).
    String& emplaceString(uint16_t ns);
    ByteString& emplaceOpaque(uint16_t ns);

    // Null per OPC 10000-3 8.2.4: namespace 0 and a numeric 0, empty string, null Guid or empty opaque.
    bool isNull() const;

    // "i=2258", "ns=2;s=Foo", "ns=1;g=...", "ns=1;b=<base64>" (OPC 10000-6 5.3.1.10).
    std::string toString() const;
    // Parses the form above; nullopt for anything else (no namespace URI here: see ExpandedNodeId).
    static std::optional<NodeId> parse(std::string_view text);

    std::size_t hash() const;
    friend bool operator==(const NodeId& a, const NodeId& b) {
        if (a.m_ns != b.m_ns || a.m_type != b.m_type) return false;
        if (a.m_type == IdType::Guid) return a.m_id.guid == b.m_id.guid;
        return a.m_id.raw == b.m_id.raw || (a.boxed() && equalIdentifiers(a, b));
    }
    friend bool operator<(const NodeId& a, const NodeId& b);

private:
    // 24 bytes: a numeric or Guid identifier in place (a Session's authenticationToken is a Guid:
    // decoding a request header allocates nothing); a String or opaque one in a counted box that
    // copies share (its value is not changed while shared: emplaceString() makes its own first).
    struct BoxBase {
        std::atomic<uint32_t> refs{1};
    };
    template <class T>
    struct IdBox : BoxBase {
        explicit IdBox(T v) : value(std::move(v)) {}
        T value;
    };
    bool boxed() const { return m_type == IdType::String || m_type == IdType::Opaque; }
    BoxBase* box() const { return reinterpret_cast<BoxBase*>(uintptr_t(m_id.raw)); }
    template <class T>
    T& held() const { return static_cast<IdBox<T>*>(box())->value; }
    void setBox(IdType t, BoxBase* b) {
        m_type = t;
        m_id.raw = uint64_t(reinterpret_cast<uintptr_t>(b));
    }
    void release();
    static bool equalIdentifiers(const NodeId& a, const NodeId& b);

    union Identifier {
        Identifier() : guid{} {}  // all 16 bytes set: a copy reads them all
        uint64_t raw;  // the numeric identifier, or the box's address
        Guid guid;
    };
    Identifier m_id;
    uint16_t m_ns = 0;
    IdType m_type = IdType::Numeric;
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
