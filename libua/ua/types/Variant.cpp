#include "ua/types/Variant.h"

namespace ua {

const char* builtInTypeName(BuiltInType t) {
    static const char* const names[] = {
        "Null", "Boolean", "SByte", "Byte", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64",
        "Float", "Double", "String", "DateTime", "Guid", "ByteString", "XmlElement", "NodeId",
        "ExpandedNodeId", "StatusCode", "QualifiedName", "LocalizedText", "ExtensionObject",
        "DataValue", "Variant", "DiagnosticInfo"};
    const auto i = std::size_t(t);
    return i < std::size(names) ? names[i] : "Unknown";
}

std::size_t Variant::arrayLength() const {
    if (!isArray()) return 0;
    return std::visit(
        [](const auto& x) -> std::size_t {
            if constexpr (requires { x.isNull(); x.size(); typename std::decay_t<decltype(x)>::value_type; })
                return x.size();
            else
                return 0;
        },
        m_v);
}

bool Variant::dimensionsMatch() const {
    if (!m_dims) return true;
    if (!isArray() || m_dims->empty()) return false;
    int64_t product = 1;
    for (int32_t n : *m_dims) {
        if (n < 0) return false;
        product *= n;
        if (product > int64_t(INT32_MAX)) return false;
    }
    return uint64_t(product) == arrayLength();
}

bool operator==(const Variant& a, const Variant& b) {
    return a.m_v == b.m_v && a.arrayDimensions() == b.arrayDimensions();
}

} // namespace ua
