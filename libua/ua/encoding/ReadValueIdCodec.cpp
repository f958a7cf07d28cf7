// ReadValueId (OPC 10000-4 7.29), UA Binary (OPC 10000-6 5.2.6: its fields in order, NodeId,
// UInt32, String, QualifiedName). Written by hand instead of generated (tools/generate.py,
// HAND_CODEC) because every Read request carries one per value (a hundred in a read-100). Its
// common form, a numeric NodeId without IndexRange or DataEncoding (14 bytes after the NodeId), is
// written and read in one step; any other form goes field by field as the generated code would.
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/FixedWire.h"
#include "ua/encoding/generated/Types.h"

namespace ua {

namespace {
constexpr std::size_t kAfterNodeId = 4 + 4 + 2 + 4;  // attributeId, null IndexRange, QualifiedName 0 and null
constexpr int32_t kNullLength = -1;

// The common form in one step; false (nothing done) for any other.
[[gnu::always_inline]] inline bool encodeCommon(BinaryEncoder& e, const ReadValueId& v) {
    if (!(v.nodeId.isNumeric() && v.indexRange.isNull() && v.dataEncoding.namespaceIndex == 0 && v.dataEncoding.name.isNull()))
        return false;
    const uint16_t ns = v.nodeId.namespaceIndex();
    const uint32_t id = v.nodeId.numeric();
    uint8_t* p = e.claim(wire::numericNodeIdSize(ns, id) + kAfterNodeId);
    if (!p) return true;  // the encoder has failed
    p = wire::putNumericNodeId(p, ns, id);
    std::memcpy(p, &v.attributeId, 4);
    std::memcpy(p + 4, &kNullLength, 4);
    std::memset(p + 8, 0, 2);
    std::memcpy(p + 10, &kNullLength, 4);
    return true;
}

[[gnu::noinline]] void encodeFields(BinaryEncoder& e, const ReadValueId& v) {
    encode(e, v.nodeId);
    encode(e, v.attributeId);
    encode(e, v.indexRange);
    encode(e, v.dataEncoding);
}

[[gnu::always_inline]] inline bool decodeCommon(BinaryDecoder& d, ReadValueId& v) {
    const uint8_t* p = d.position();
    const std::size_t left = d.remaining();
    const std::size_t idBytes = left > 0 ? wire::numericNodeIdSizeOf(p[0]) : 0;
    if (!idBytes || left < idBytes + kAfterNodeId) return false;
    int32_t rangeLength;
    int32_t nameLength;
    std::memcpy(&rangeLength, p + idBytes + 4, 4);
    std::memcpy(&nameLength, p + idBytes + 10, 4);
    if (rangeLength != kNullLength || nameLength != kNullLength) return false;
    uint16_t ns;
    uint32_t id;
    wire::takeNumericNodeId(p, ns, id);
    v.nodeId.setNumeric(ns, id);
    std::memcpy(&v.attributeId, p + idBytes, 4);
    v.indexRange.clear();
    std::memcpy(&v.dataEncoding.namespaceIndex, p + idBytes + 8, 2);
    v.dataEncoding.name.clear();
    d.take(idBytes + kAfterNodeId);
    return true;
}

[[gnu::noinline]] void decodeFields(BinaryDecoder& d, ReadValueId& v) {
    decode(d, v.nodeId);
    decode(d, v.attributeId);
    decode(d, v.indexRange);
    decode(d, v.dataEncoding);
}

} // namespace

void encode(BinaryEncoder& e, const ReadValueId& v) {
    if (!encodeCommon(e, v)) encodeFields(e, v);
}

void decode(BinaryDecoder& d, ReadValueId& v) {
    if (!decodeCommon(d, v)) decodeFields(d, v);
}

void encodeElements(BinaryEncoder& e, const ReadValueId* p, std::size_t n) {
    for (const ReadValueId* end = p + n; p != end && e.ok(); ++p)
        if (!encodeCommon(e, *p)) encodeFields(e, *p);
}

void decodeElements(BinaryDecoder& d, ReadValueId* p, std::size_t n) {
    for (ReadValueId* end = p + n; p != end && d.ok(); ++p)
        if (!decodeCommon(d, *p)) decodeFields(d, *p);
}

} // namespace ua
