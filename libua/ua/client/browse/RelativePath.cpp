#include "ua/client/browse/RelativePath.h"

#include "ua/encoding/generated/NodeIds.h"

#include <array>
#include <utility>

namespace ua {

namespace {

constexpr std::array<std::pair<std::string_view, uint32_t>, 22> kReferenceTypes{{
    {"References", id::References},
    {"HierarchicalReferences", id::HierarchicalReferences},
    {"NonHierarchicalReferences", id::NonHierarchicalReferences},
    {"HasChild", id::HasChild},
    {"Organizes", id::Organizes},
    {"Aggregates", id::Aggregates},
    {"HasComponent", id::HasComponent},
    {"HasOrderedComponent", id::HasOrderedComponent},
    {"HasProperty", id::HasProperty},
    {"HasSubtype", id::HasSubtype},
    {"HasEventSource", id::HasEventSource},
    {"HasNotifier", id::HasNotifier},
    {"HasTypeDefinition", id::HasTypeDefinition},
    {"HasModellingRule", id::HasModellingRule},
    {"HasEncoding", id::HasEncoding},
    {"HasDescription", id::HasDescription},
    {"GeneratesEvent", id::GeneratesEvent},
    {"AlwaysGeneratesEvent", id::AlwaysGeneratesEvent},
    {"HasCondition", id::HasCondition},
    {"HasInterface", id::HasInterface},
    {"HasAddIn", id::HasAddIn},
    {"HasHistoricalConfiguration", id::HasHistoricalConfiguration},
}};

bool isReserved(char c) {
    return c == '/' || c == '.' || c == '<' || c == '>' || c == ':' || c == '#' || c == '!' || c == '&';
}

// Reads "[ns:]name" up to the next unescaped reserved character. False on a dangling '&' or a
// namespace index over 65535.
bool readQualifiedName(std::string_view& t, QualifiedName& out) {
    std::string name;
    std::string_view rest = t;
    // An optional "<digits>:" namespace prefix.
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    uint16_t ns = 0;
    if (digits > 0 && digits < rest.size() && rest[digits] == ':') {
        uint32_t v = 0;
        for (std::size_t i = 0; i < digits; ++i) v = v * 10 + uint32_t(rest[i] - '0');
        if (v > 0xFFFF || digits > 5) return false;
        ns = uint16_t(v);
        rest.remove_prefix(digits + 1);
    }
    while (!rest.empty()) {
        const char c = rest.front();
        if (c == '&') {
            if (rest.size() < 2) return false;
            name.push_back(rest[1]);
            rest.remove_prefix(2);
            continue;
        }
        if (isReserved(c)) break;
        name.push_back(c);
        rest.remove_prefix(1);
    }
    out.namespaceIndex = ns;
    out.name = String(std::move(name));
    t = rest;
    return true;
}

} // namespace

std::optional<RelativePath> parseRelativePath(std::string_view t) {
    RelativePath path;
    path.elements = Array<RelativePathElement>::emptyArray();
    while (!t.empty()) {
        RelativePathElement e;
        e.includeSubtypes = true;
        const char c = t.front();
        if (c == '/') {
            e.referenceTypeId = NodeId(id::HierarchicalReferences);
            t.remove_prefix(1);
        } else if (c == '.') {
            e.referenceTypeId = NodeId(id::Aggregates);
            t.remove_prefix(1);
        } else if (c == '<') {
            t.remove_prefix(1);
            while (!t.empty() && (t.front() == '#' || t.front() == '!')) {
                if (t.front() == '#') e.includeSubtypes = false;
                else e.isInverse = true;
                t.remove_prefix(1);
            }
            QualifiedName ref;
            if (!readQualifiedName(t, ref) || t.empty() || t.front() != '>' || ref.namespaceIndex != 0) return std::nullopt;
            t.remove_prefix(1);
            bool found = false;
            for (const auto& [name, refId] : kReferenceTypes) {
                if (name == ref.name.view()) {
                    e.referenceTypeId = NodeId(refId);
                    found = true;
                }
            }
            if (!found) return std::nullopt;
        } else {
            return std::nullopt;
        }
        if (!readQualifiedName(t, e.targetName)) return std::nullopt;
        if (e.targetName.name.isEmpty()) {
            // Only the last element may omit its target name (A.2: "all targets").
            if (!t.empty()) return std::nullopt;
            e.targetName = QualifiedName();
        }
        path.elements.push_back(std::move(e));
    }
    if (path.elements.empty()) return std::nullopt;
    return path;
}

std::optional<BrowsePath> makeBrowsePath(const NodeId& startingNode, std::string_view relativePath) {
    auto rp = parseRelativePath(relativePath);
    if (!rp) return std::nullopt;
    BrowsePath p;
    p.startingNode = startingNode;
    p.relativePath = std::move(*rp);
    return p;
}

} // namespace ua
