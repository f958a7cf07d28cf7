#include "ua/types/Text.h"

#include <charconv>

namespace ua {

std::string QualifiedName::toString() const {
    if (namespaceIndex == 0) return name.str();
    return std::to_string(namespaceIndex) + ":" + name.str();
}

QualifiedName QualifiedName::parse(std::string_view t) {
    const auto colon = t.find(':');
    if (colon != std::string_view::npos && colon > 0) {
        unsigned ns = 0;
        auto [p, ec] = std::from_chars(t.data(), t.data() + colon, ns);
        if (ec == std::errc() && p == t.data() + colon && ns <= 0xFFFF)
            return {uint16_t(ns), String(t.substr(colon + 1))};
    }
    return {0, String(t)};
}

} // namespace ua
