#include "ua/types/NodeId.h"

#include <QByteArray>
#include <charconv>

namespace ua {

namespace {
const String kNoString;
const Guid kNoGuid{};
const ByteString kNoOpaque;
} // namespace

const String& NodeId::string() const { return m_type == IdType::String ? held<String>() : kNoString; }
const Guid& NodeId::guid() const { return m_type == IdType::Guid ? m_id.guid : kNoGuid; }
const ByteString& NodeId::opaque() const { return m_type == IdType::Opaque ? held<ByteString>() : kNoOpaque; }

String& NodeId::emplaceString(uint16_t ns) {
    m_ns = ns;
    if (m_type == IdType::String && box()->refs.load(std::memory_order_acquire) == 1) return held<String>();
    *this = NodeId(ns, String());
    return held<String>();
}

ByteString& NodeId::emplaceOpaque(uint16_t ns) {
    m_ns = ns;
    if (m_type == IdType::Opaque && box()->refs.load(std::memory_order_acquire) == 1) return held<ByteString>();
    *this = NodeId(ns, ByteString());
    return held<ByteString>();
}

void NodeId::release() {
    BoxBase* b = box();
    if (b->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    switch (m_type) {
    case IdType::String: delete static_cast<IdBox<String>*>(b); break;
    case IdType::Opaque: delete static_cast<IdBox<ByteString>*>(b); break;
    case IdType::Numeric:
    case IdType::Guid: break;
    }
}

bool NodeId::equalIdentifiers(const NodeId& a, const NodeId& b) {
    switch (a.m_type) {
    case IdType::String: return a.held<String>() == b.held<String>();
    case IdType::Guid: return a.m_id.guid == b.m_id.guid;
    case IdType::Opaque: return a.held<ByteString>() == b.held<ByteString>();
    case IdType::Numeric: return false;
    }
    return false;
}

bool NodeId::isNull() const {
    if (m_ns != 0) return false;
    switch (m_type) {
    case IdType::Numeric: return m_id.raw == 0;
    case IdType::String: return held<String>().isEmpty();
    case IdType::Guid: return m_id.guid.isNull();
    default: return held<ByteString>().isEmpty();
    }
}

std::string NodeId::toString() const {
    std::string s;
    if (m_ns != 0) s = "ns=" + std::to_string(m_ns) + ";";
    switch (m_type) {
    case IdType::Numeric: s += "i=" + std::to_string(numeric()); break;
    case IdType::String: s += "s=" + held<String>().str(); break;
    case IdType::Guid: s += "g=" + m_id.guid.toString(); break;
    default: s += "b=" + held<ByteString>().toQByteArray().toBase64().toStdString(); break;
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
    case IdType::Numeric: return h ^ (std::size_t(numeric()) * 0xC2B2AE3D27D4EB4Full);
    case IdType::String: return h ^ std::hash<std::string_view>()(held<String>().view()) ^ 1;
    case IdType::Guid: {
        const Guid& g = m_id.guid;
        return h ^ (std::size_t(g.data1) << 32 | std::size_t(g.data2) << 16 | g.data3) ^ 2;
    }
    default: return h ^ std::hash<std::string_view>()(held<ByteString>().view()) ^ 3;
    }
}

bool operator<(const NodeId& a, const NodeId& b) {
    if (a.m_ns != b.m_ns) return a.m_ns < b.m_ns;
    if (a.m_type != b.m_type) return a.m_type < b.m_type;
    switch (a.m_type) {
    case NodeId::IdType::Numeric: return a.numeric() < b.numeric();
    case NodeId::IdType::String: return a.held<String>() < b.held<String>();
    case NodeId::IdType::Guid: return a.m_id.guid < b.m_id.guid;
    default: return a.held<ByteString>() < b.held<ByteString>();
    }
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
