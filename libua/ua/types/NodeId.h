// NodeId (OPC 10000-3 8.2, binary OPC 10000-6 5.2.2.9, string form 5.3.1.10) and ExpandedNodeId
// (binary 5.2.2.10, string form 5.3.1.11).
#pragma once

#include "ua/types/Guid.h"
#include "ua/types/Strings.h"

#include <atomic>
#include <cassert>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ua {

class NodeId {
public:
    // The IdType of OPC 10000-3 8.2.3 (values as in the IdType enumeration).
    enum class IdType : uint8_t { Numeric = 0, String = 1, Guid = 2, Opaque = 3 };

    NodeId() = default;  // the null NodeId: ns=0;i=0
    NodeId(uint16_t ns, uint32_t id) : m_numeric(id), m_ns(ns) {}
    NodeId(uint16_t ns, String id) : m_ext(new Held<String>(std::move(id))), m_ns(ns), m_type(IdType::String) {}
    NodeId(uint16_t ns, const char* id) : NodeId(ns, String(id)) {}
    NodeId(uint16_t ns, Guid id) : m_ext(new Held<Guid>(id)), m_ns(ns), m_type(IdType::Guid) {}
    NodeId(uint16_t ns, ByteString id) : m_ext(new Held<ByteString>(std::move(id))), m_ns(ns), m_type(IdType::Opaque) {}
    // Namespace 0, numeric: NodeId(ua::id::Server) reads naturally with the generated constants.
    constexpr explicit NodeId(uint32_t ns0Numeric) : m_numeric(ns0Numeric) {}

    NodeId(const NodeId& other) noexcept : m_ext(other.m_ext), m_numeric(other.m_numeric), m_ns(other.m_ns), m_type(other.m_type) {
        if (m_ext) m_ext->refs.fetch_add(1, std::memory_order_relaxed);
    }
    NodeId(NodeId&& other) noexcept
        : m_ext(std::exchange(other.m_ext, nullptr)), m_numeric(std::exchange(other.m_numeric, 0)),
          m_ns(std::exchange(other.m_ns, 0)), m_type(std::exchange(other.m_type, IdType::Numeric)) {}
    NodeId& operator=(const NodeId& other) noexcept {
        Ext* ext = other.m_ext;  // before release(), which clears other.m_ext when it is *this
        if (ext) ext->refs.fetch_add(1, std::memory_order_relaxed);
        release();
        m_ext = ext;
        m_numeric = other.m_numeric;
        m_ns = other.m_ns;
        m_type = other.m_type;
        return *this;
    }
    NodeId& operator=(NodeId&& other) noexcept {
        if (this != &other) {
            release();
            m_ext = std::exchange(other.m_ext, nullptr);
            m_numeric = std::exchange(other.m_numeric, 0);
            m_ns = std::exchange(other.m_ns, 0);
            m_type = std::exchange(other.m_type, IdType::Numeric);
        }
        return *this;
    }
    ~NodeId() { release(); }

    uint16_t namespaceIndex() const { return m_ns; }
    void setNamespaceIndex(uint16_t ns) { m_ns = ns; }
    IdType idType() const { return m_type; }
    bool isNumeric() const { return m_type == IdType::Numeric; }
    // The identifier; call only the one that matches idType().
    uint32_t numeric() const { return m_numeric; }
    const String& string() const { return held<String>(IdType::String); }
    const Guid& guid() const { return held<Guid>(IdType::Guid); }
    const ByteString& opaque() const { return held<ByteString>(IdType::Opaque); }
    // Makes this a numeric NodeId (a decoder's in-place assignment).
    void setNumeric(uint16_t ns, uint32_t id) noexcept {
        release();
        m_numeric = id;
        m_ns = ns;
        m_type = IdType::Numeric;
    }
    // Makes this a String / Guid / opaque NodeId in namespace ns and returns the identifier to fill in.
    // An identifier of that kind already held by this NodeId alone keeps its storage (decoders
    // reuse it: no allocation).
    String& emplaceString(uint16_t ns) { return emplace<String>(ns, IdType::String); }
    Guid& emplaceGuid(uint16_t ns) { return emplace<Guid>(ns, IdType::Guid); }
    ByteString& emplaceOpaque(uint16_t ns) { return emplace<ByteString>(ns, IdType::Opaque); }
    // Null per OPC 10000-3 8.2.4: namespace 0 and a numeric 0, empty string, null Guid or empty opaque.
    bool isNull() const;

    // "i=2258", "ns=2;s=Foo", "ns=1;g=...", "ns=1;b=<base64>" (OPC 10000-6 5.3.1.10).
    std::string toString() const;
    // Parses the form above; nullopt for anything else (no namespace URI here: see ExpandedNodeId).
    static std::optional<NodeId> parse(std::string_view text);

    std::size_t hash() const;
    friend bool operator==(const NodeId& a, const NodeId& b);
    friend bool operator<(const NodeId& a, const NodeId& b);

private:
    // A String, Guid or opaque identifier and its count: copies of a NodeId share it (16 bytes per
    // NodeId instead of 56, and a numeric NodeId, the most common, holds nothing else). Never
    // changed once shared (emplace() takes a block of its own first).
    struct Ext {
        std::atomic<uint32_t> refs{1};
    };
    template <class T>
    struct Held : Ext {
        explicit Held(T v) : value(std::move(v)) {}
        T value;
    };
    template <class T>
    const T& held(IdType type) const {
        assert(m_type == type);
        (void)type;
        return static_cast<const Held<T>*>(m_ext)->value;
    }
    template <class T>
    T& emplace(uint16_t ns, IdType type) {
        m_ns = ns;
        if (m_type != type || m_ext->refs.load(std::memory_order_acquire) != 1) {
            Ext* fresh = new Held<T>(T());
            release();
            m_ext = fresh;
            m_type = type;
        }
        m_numeric = 0;
        return static_cast<Held<T>*>(m_ext)->value;
    }
    // Inline for the numeric NodeIds (no block: one test); dropRef() for the others.
    void release() noexcept {
        if (m_ext) dropRef();
    }
    void dropRef() noexcept;  // drops m_ext's count (deleting it at 0) and clears it

    void destroy() noexcept;  // deletes m_ext as what m_type says it holds

    Ext* m_ext = nullptr;        // String, Guid, Opaque
    uint32_t m_numeric = 0;      // Numeric
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
