#include "ua/types/NodeId.h"

#include <QByteArray>
#include <charconv>

namespace ua {

bool NodeId::isNull() const {
    if (m_ns != 0) return false;
    switch (m_id.index()) {
    case 0: return std::get<0>(m_id) == 0;
    case 1: return std::get<1>(m_id).isEmpty();
    case 2: return std::get<2>(m_id).isNull();
    default: return std::get<3>(m_id).isEmpty();
    }
}

std::string NodeId::toString() const {
    std::string s;
    if (m_ns != 0) s = "ns=" + std::to_string(m_ns) + ";";
    switch (m_id.index()) {
    case 0: s += "i=" + std::to_string(std::get<0>(m_id)); break;
    case 1: s += "s=" + std::get<1>(m_id).str(); break;
    case 2: s += "g=" + std::get<2>(m_id).toString(); break;
    default: s += "b=" + std::get<3>(m_id).toQByteArray().toBase64().toStdString(); break;
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
    switch (m_id.index()) {
    case 0: return h ^ (std::size_t(std::get<0>(m_id)) * 0xC2B2AE3D27D4EB4Full);
    case 1: return h ^ std::hash<std::string_view>()(std::get<1>(m_id).view()) ^ 1;
    case 2: {
        const Guid& g = std::get<2>(m_id);
        return h ^ (std::size_t(g.data1) << 32 | std::size_t(g.data2) << 16 | g.data3) ^ 2;
    }
    default: return h ^ std::hash<std::string_view>()(std::get<3>(m_id).view()) ^ 3;
    }
}

bool operator<(const NodeId& a, const NodeId& b) {
    if (a.m_ns != b.m_ns) return a.m_ns < b.m_ns;
    if (a.m_id.index() != b.m_id.index()) return a.m_id.index() < b.m_id.index();
    switch (a.m_id.index()) {
    case 0: return std::get<0>(a.m_id) < std::get<0>(b.m_id);
    case 1: return std::get<1>(a.m_id) < std::get<1>(b.m_id);
    case 2: return std::get<2>(a.m_id) < std::get<2>(b.m_id);
    default: return std::get<3>(a.m_id) < std::get<3>(b.m_id);
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
