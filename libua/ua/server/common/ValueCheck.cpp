#include "ua/server/common/ValueCheck.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/common/StructureBodyCheck.h"

namespace ua {

namespace {

// The DataType of an ExtensionObject's body: the decoded type, or the owner of its encoding node
// (source of the inverse HasEncoding reference).
NodeIndex structureType(const AddressSpace& s, const ExtensionObject& x) {
    if (x.isDecoded()) return s.indexOf(NodeId(x.decoded()->typeId()));
    const NodeIndex encoding = s.indexOf(x.encodingId());
    if (encoding == kNoNode) return kNoNode;
    const NodeIndex hasEncoding = s.indexOf(NodeId(id::HasEncoding));
    for (const Reference& r : s.node(encoding).references)
        if (!r.isForward && r.referenceType == hasEncoding) return r.target;
    return kNoNode;
}

bool rankFits(int32_t valueRank, int dims) {
    switch (valueRank) {
    case -3: return dims <= 1;  // ScalarOrOneDimension
    case -2: return true;       // Any
    case -1: return dims == 0;  // Scalar
    case 0: return dims >= 1;   // OneOrMoreDimensions
    default: return dims == valueRank;
    }
}

} // namespace

StatusCode checkValueType(const AddressSpace& s, const Node& n, Variant& v) {
    return checkValueType(s, n.attrs->dataType, n.attrs->valueRank, v);
}

StatusCode checkValueType(const AddressSpace& s, const NodeId& dataType, int32_t valueRank, Variant& v) {
    const NodeIndex dt = s.indexOf(dataType);
    if (dt == kNoNode) return status::BadTypeMismatch;
    const bool any = dataType == NodeId(id::BaseDataType);
    const BuiltInType expected = s.builtInTypeOf(dt);

    if (expected == BuiltInType::Byte && valueRank != -1 && v.isScalar() && v.type() == BuiltInType::ByteString) {
        const ByteString& b = *v.get<ByteString>();
        Array<uint8_t> bytes = Array<uint8_t>::emptyArray();
        bytes.assign(b.data(), b.data() + b.size());
        v = Variant(std::move(bytes));
    }
    if (v.isNull()) return any ? status::Good : status::BadTypeMismatch;

    const BuiltInType actual = v.type();
    if (!any) {
        if (expected == BuiltInType::Null) {
            // Abstract numeric DataTypes: the value's built-in DataType must be a subtype.
            if (!s.isSubtypeOf(s.indexOf(NodeId(uint32_t(actual))), dt)) return status::BadTypeMismatch;
        } else if (actual != expected) {
            return status::BadTypeMismatch;
        } else if (actual == BuiltInType::ExtensionObject && dataType != NodeId(id::Structure)) {
            // Of the DataType or a subtype; a body kept as bytes (an imported DataType's) must also
            // decode by its definition (StructureBodyCheck.h).
            const auto fits = [&](const ExtensionObject& x) {
                const NodeIndex type = structureType(s, x);
                if (!s.isSubtypeOf(type, dt)) return false;
                return x.isDecoded() || x.encoding() != ExtensionObject::Encoding::Binary || structureBodyDecodes(s, type, x.body());
            };
            if (const auto* x = v.get<ExtensionObject>(); x && !fits(*x)) return status::BadTypeMismatch;
            if (const auto* xs = v.get<Array<ExtensionObject>>())
                for (const ExtensionObject& x : *xs)
                    if (!fits(x)) return status::BadTypeMismatch;
        }
    }
    const int dims = v.isArray() ? (v.arrayDimensions().empty() ? 1 : int(v.arrayDimensions().size())) : 0;
    if (!rankFits(valueRank, dims) || !v.dimensionsMatch()) return status::BadTypeMismatch;
    return status::Good;
}

} // namespace ua
