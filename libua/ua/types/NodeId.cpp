#include "ua/types/NodeId.h"

#include <QByteArray>
#include <charconv>

namespace ua {

static_assert(sizeof(NodeId) == 16, "a NodeId: the block pointer, the numeric identifier, the namespace and the IdType");

void NodeId::dropRef() noexcept {
    if (m_ext->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy();
    m_ext = nullptr;
}

void NodeId::destroy() noexcept {
    switch (m_type) {
    case IdType::String: delete static_cast<Held<String>*>(m_ext); break;
    case IdType::Guid: delete static_cast<Held<Guid>*>(m_ext); break;
    case IdType::Opaque: delete static_cast<Held<ByteString>*>(m_ext); break;
    case IdType::Numeric: break;  // holds no block
    }
}

bool NodeId::isNull() const {
    if (m_ns != 0) return false;
    switch (m_type) {
    case IdType::Numeric: return m_numeric == 0;
    case IdType::String: return string().isEmpty();
    case IdType::Guid: return guid().isNull();
    case IdType::Opaque: return opaque().isEmpty();
    }
    return false;
}

std::string NodeId::toString() const {
    std::string s;
    if (m_ns != 0) s = "ns=" + std::to_string(m_ns) + ";";
    switch (m_type) {
    case IdType::Numeric: s += "i=" + std::to_string(m_numeric); break;
    case IdType::String: s += "s=" + string().str(); break;
    case IdType::Guid: s += "g=" + guid().toString(); break;
    case IdType::Opaque: s += "b=" + opaque().toQByteArray().toBase64().toStdString(); break;
    }
    return s;
}

template <class T>
static bool parseNumber(std::string_view t, T& out) {
    if (t.empty()) return false;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && p == t.data() + t.size();
}

// Parses "<type>=<value>" after any "ns=" prefix.
static std::optional<NodeId> parseIdentifier(uint16_t ns, std::string_view t) {
    if (t.size() < 2 || t[1] != '=') return std::nullopt;
    const std::string_view v = t.substr(2);
    switch (t[0]) {
    case 'i': {
        uint32_t n;
        if (!parseNumber(v, n)) return std::nullopt;
        return NodeId(ns, n);
    }
    case 's': return NodeId(ns, String(v));
    case 'g': {
        auto g = Guid::parse(v);
        if (!g) return std::nullopt;
        return NodeId(ns, *g);
    }
    case 'b': {
        auto r = QByteArray::fromBase64Encoding(QByteArray(v.data(), qsizetype(v.size())),
                                                QByteArray::AbortOnBase64DecodingErrors);
        if (!r) return std::nullopt;
        return NodeId(ns, ByteString::fromQByteArray(r.decoded.isNull() ? QByteArray("") : r.decoded));
    }
    default: return std::nullopt;
    }
}

std::optional<NodeId> NodeId::parse(std::string_view t) {
    uint16_t ns = 0;
    if (t.substr(0, 3) == "ns=") {
        const auto semi = t.find(';');
        if (semi == std::string_view::npos || !parseNumber(t.substr(3, semi - 3), ns)) return std::nullopt;
        t = t.substr(semi + 1);
    }
    return parseIdentifier(ns, t);
}

std::size_t NodeId::hash() const {
    std::size_t h = std::size_t(m_ns) * 0x9E3779B97F4A7C15ull;
    switch (m_type) {
    case IdType::Numeric: return h ^ (std::size_t(m_numeric) * 0xC2B2AE3D27D4EB4Full);
    case IdType::String: return h ^ std::hash<std::string_view>()(string().view()) ^ 1;
    case IdType::Guid: {
        const Guid& g = guid();
        return h ^ (std::size_t(g.data1) << 32 | std::size_t(g.data2) << 16 | g.data3) ^ 2;
    }
    case IdType::Opaque: return h ^ std::hash<std::string_view>()(opaque().view()) ^ 3;
    }
    return h;
}

bool operator==(const NodeId& a, const NodeId& b) {
    if (a.m_ns != b.m_ns || a.m_type != b.m_type) return false;
    if (a.m_ext == b.m_ext) return a.m_numeric == b.m_numeric;  // numeric (no block), or one shared block
    switch (a.m_type) {
    case NodeId::IdType::Numeric: return false;  // unreachable: neither holds a block
    case NodeId::IdType::String: return a.string() == b.string();
    case NodeId::IdType::Guid: return a.guid() == b.guid();
    case NodeId::IdType::Opaque: return a.opaque() == b.opaque();
    }
    return false;
}

bool operator<(const NodeId& a, const NodeId& b) {
    if (a.m_ns != b.m_ns) return a.m_ns < b.m_ns;
    if (a.m_type != b.m_type) return a.m_type < b.m_type;
    switch (a.m_type) {
    case NodeId::IdType::Numeric: return a.m_numeric < b.m_numeric;
    case NodeId::IdType::String: return a.string() < b.string();
    case NodeId::IdType::Guid: return a.guid() < b.guid();
    case NodeId::IdType::Opaque: return a.opaque() < b.opaque();
    }
    return false;
}

// OPC 10000-6 5.3.1.11: ';' and '%' in the namespace URI are percent-encoded.
static std::string escapeUri(std::string_view u) {
    std::string r;
    for (char c : u) {
        if (c == ';') r += "%3B";
        else if (c == '%') r += "%25";
        else r += c;
    }
    return r;
}

static std::string unescapeUri(std::string_view u) {
    return QByteArray::fromPercentEncoding(QByteArray(u.data(), qsizetype(u.size()))).toStdString();
}

std::string ExpandedNodeId::toString() const {
    std::string s;
    if (serverIndex != 0) s = "svr=" + std::to_string(serverIndex) + ";";
    if (!namespaceUri.isNull()) {
        NodeId local = nodeId;
        local.setNamespaceIndex(0);
        s += "nsu=" + escapeUri(namespaceUri.view()) + ";" + local.toString();
    } else {
        s += nodeId.toString();
    }
    return s;
}

std::optional<ExpandedNodeId> ExpandedNodeId::parse(std::string_view t) {
    ExpandedNodeId x;
    if (t.substr(0, 4) == "svr=") {
        const auto semi = t.find(';');
        if (semi == std::string_view::npos || !parseNumber(t.substr(4, semi - 4), x.serverIndex)) return std::nullopt;
        t = t.substr(semi + 1);
    }
    if (t.substr(0, 4) == "nsu=") {
        const auto semi = t.find(';');
        if (semi == std::string_view::npos) return std::nullopt;
        x.namespaceUri = String(unescapeUri(t.substr(4, semi - 4)));
        auto id = parseIdentifier(0, t.substr(semi + 1));
        if (!id) return std::nullopt;
        x.nodeId = *id;
        return x;
    }
    auto id = NodeId::parse(t);
    if (!id) return std::nullopt;
    x.nodeId = *id;
    return x;
}

} // namespace ua
