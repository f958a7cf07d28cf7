// Binary encoding of the built-in types that are more than a fixed-size value
// (OPC 10000-6 5.2.2.5 - 5.2.2.17).
#include "ua/encoding/ScalarBody.h"
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/FixedWire.h"

#include <array>

namespace ua {

namespace {
constexpr uint32_t kBadEncodingError = 0x80060000u;

// NodeId encoding bytes (5.2.2.9) and ExpandedNodeId flags (5.2.2.10).
using wire::TwoByte, wire::FourByte, wire::Numeric, wire::StringId, wire::GuidId, wire::ByteStringId;
constexpr uint8_t kServerIndexFlag = 0x40;
constexpr uint8_t kNamespaceUriFlag = 0x80;

void encodeNodeId(BinaryEncoder& e, const NodeId& v, uint8_t flags) {
    const uint16_t ns = v.namespaceIndex();
    switch (v.idType()) {
    case NodeId::IdType::Numeric:
        if (uint8_t* p = e.claim(wire::numericNodeIdSize(ns, v.numeric()))) wire::putNumericNodeId(p, ns, v.numeric(), flags);
        break;
    case NodeId::IdType::String:
        e.writePod<uint8_t>(StringId | flags);
        e.writePod(ns);
        encode(e, v.string());
        break;
    case NodeId::IdType::Guid:
        e.writePod<uint8_t>(GuidId | flags);
        e.writePod(ns);
        encode(e, v.guid());
        break;
    case NodeId::IdType::Opaque:
        e.writePod<uint8_t>(ByteStringId | flags);
        e.writePod(ns);
        encode(e, v.opaque());
        break;
    }
}

// Decodes the NodeId part; returns the flag bits of the encoding byte.
uint8_t decodeNodeId(BinaryDecoder& d, NodeId& v) {
    const uint8_t enc = d.readPod<uint8_t>();
    switch (enc & 0x3F) {
    case TwoByte: v.setNumeric(0, d.readPod<uint8_t>()); break;
    case FourByte: {
        const uint8_t ns = d.readPod<uint8_t>();
        v.setNumeric(ns, d.readPod<uint16_t>());
        break;
    }
    case Numeric: {
        const uint16_t ns = d.readPod<uint16_t>();
        v.setNumeric(ns, d.readPod<uint32_t>());
        break;
    }
    case StringId: {
        String& s = v.emplaceString(d.readPod<uint16_t>());
        decode(d, s);
        if (s.isNull()) s.assign("", 0);  // a null string identifier reads as empty
        break;
    }
    case GuidId: decode(d, v.emplaceGuid(d.readPod<uint16_t>())); break;
    case ByteStringId: {
        ByteString& b = v.emplaceOpaque(d.readPod<uint16_t>());
        decode(d, b);
        if (b.isNull()) b.assign("", 0);
        break;
    }
    default: d.failDecoding(); break;
    }
    if (!d.ok()) v = NodeId();
    return enc & 0xC0;
}
} // namespace

void encode(BinaryEncoder& e, const Guid& v) {
    uint8_t b[16];
    std::memcpy(b, &v.data1, 4);
    std::memcpy(b + 4, &v.data2, 2);
    std::memcpy(b + 6, &v.data3, 2);
    std::memcpy(b + 8, v.data4.data(), 8);
    e.writeBytes(b, 16);
}

void decode(BinaryDecoder& d, Guid& v) {
    const uint8_t* p = d.take(16);
    if (!p) { v = Guid(); return; }
    std::memcpy(&v.data1, p, 4);
    std::memcpy(&v.data2, p + 4, 2);
    std::memcpy(&v.data3, p + 6, 2);
    std::memcpy(v.data4.data(), p + 8, 8);
}

void decode(BinaryDecoder& d, DateTime& v) { v = wire::dateTimeFromWire(d.readPod<int64_t>()); }

void encode(BinaryEncoder& e, const NodeId& v) { encodeNodeId(e, v, 0); }

void decode(BinaryDecoder& d, NodeId& v) {
    if (decodeNodeId(d, v) != 0) d.failDecoding();  // ExpandedNodeId flags in a NodeId
}

void encode(BinaryEncoder& e, const ExpandedNodeId& v) {
    uint8_t flags = 0;
    if (!v.namespaceUri.isNull()) flags |= kNamespaceUriFlag;
    if (v.serverIndex != 0) flags |= kServerIndexFlag;
    encodeNodeId(e, v.nodeId, flags);
    if (flags & kNamespaceUriFlag) encode(e, v.namespaceUri);
    if (flags & kServerIndexFlag) e.writePod(v.serverIndex);
}

void decode(BinaryDecoder& d, ExpandedNodeId& v) {
    const uint8_t flags = decodeNodeId(d, v.nodeId);
    v.namespaceUri.clear();
    v.serverIndex = 0;
    if (flags & kNamespaceUriFlag) {
        decode(d, v.namespaceUri);
        if (v.namespaceUri.isNull()) v.namespaceUri = String("");
    }
    if (flags & kServerIndexFlag) v.serverIndex = d.readPod<uint32_t>();
}

void encode(BinaryEncoder& e, const QualifiedName& v) {
    e.writePod(v.namespaceIndex);
    encode(e, v.name);
}

void decode(BinaryDecoder& d, QualifiedName& v) {
    v.namespaceIndex = d.readPod<uint16_t>();
    decode(d, v.name);
}

void encode(BinaryEncoder& e, const LocalizedText& v) {
    const uint8_t mask = (v.locale.isNull() ? 0 : 0x01) | (v.text.isNull() ? 0 : 0x02);
    e.writePod(mask);
    if (mask & 0x01) encode(e, v.locale);
    if (mask & 0x02) encode(e, v.text);
}

void decode(BinaryDecoder& d, LocalizedText& v) {
    const uint8_t mask = d.readPod<uint8_t>();
    if (mask & ~0x03) { d.failDecoding(); return; }
    v.locale.clear();
    v.text.clear();
    if (mask & 0x01) { decode(d, v.locale); if (v.locale.isNull()) v.locale = String(""); }
    if (mask & 0x02) { decode(d, v.text); if (v.text.isNull()) v.text = String(""); }
}

// --- ExtensionObject (5.2.2.15) ---

void encode(BinaryEncoder& e, const ExtensionObject& v) {
    if (!e.enter()) return;
    encode(e, v.encodingId());
    e.writePod(uint8_t(v.encoding()));
    if (v.isDecoded()) {
        const std::size_t at = e.reserveLength();
        v.decoded()->encodeBody(e);
        e.patchLength(at);
    } else if (v.encoding() != ExtensionObject::Encoding::None) {
        encode(e, v.body());
    }
    e.leave();
}

void decode(BinaryDecoder& d, ExtensionObject& v) {
    v = ExtensionObject();
    if (!d.enter()) return;
    decode(d, v.m_typeId);
    const uint8_t enc = d.readPod<uint8_t>();
    if (enc > 2) { d.failDecoding(); d.leave(); return; }
    v.m_encoding = ExtensionObject::Encoding(enc);
    if (enc != 0) {
        const int32_t len = d.readLength(d.limits().maxByteStringLength);
        if (len < 0) {
            v.m_body = ByteString();
        } else if (enc == 1 && v.m_typeId.namespaceIndex() == 0 && v.m_typeId.isNumeric()) {
            const DataTypeInfo* t = findDataTypeByBinaryEncodingId(v.m_typeId.numeric());
            if (t) {
                const uint8_t* oldEnd = d.limitTo(std::size_t(len));
                if (oldEnd) {
                    auto body = t->decodeBody(d);
                    if (d.ok() && !d.atEnd()) d.failDecoding();  // body shorter than its length
                    d.restoreEnd(oldEnd);
                    if (d.ok()) v.m_decoded = std::move(body);
                }
            } else if (const uint8_t* p = d.take(std::size_t(len))) {
                v.m_body.assign(reinterpret_cast<const char*>(p), std::size_t(len));
            }
        } else if (const uint8_t* p = d.take(std::size_t(len))) {
            v.m_body.assign(reinterpret_cast<const char*>(p), std::size_t(len));
        }
    }
    if (!d.ok()) v = ExtensionObject();
    d.leave();
}

// --- Variant (5.2.2.16) ---

namespace {
template <std::size_t I>
void encodeAlternative(BinaryEncoder& e, const Variant::Storage& s) {
    using X = Variant::Alternative<I>;
    const X& x = [&]() -> const X& {
        if constexpr (kVariantBoxed<X>) return detail::unboxed(std::get<I>(s));
        else return std::get<I>(s);
    }();
    if constexpr (std::is_same_v<X, std::monostate> || std::is_same_v<X, NoScalarVariant>) {
        e.fail(kBadEncodingError);
    } else if constexpr (std::is_same_v<X, Box<DataValue>>) {
        if (x) encode(e, *x); else encode(e, DataValue());
    } else if constexpr (I > 25) {
        // The length of an array in a Variant is written by the caller (it is the ArrayLength).
        if (x.size() > std::size_t(e.limits().maxArrayLength)) { e.fail(0x80080000u); return; }
        e.writePod<int32_t>(x.isNull() ? -1 : int32_t(x.size()));
        using T = typename X::value_type;
        if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            e.writeBytes(x.data(), x.size() * sizeof(T));
        } else {
            for (const auto& el : x) { encode(e, static_cast<const T&>(el)); if (!e.ok()) return; }
        }
    } else {
        encode(e, x);
    }
}

template <std::size_t... I>
constexpr auto makeEncoders(std::index_sequence<I...>) {
    return std::array<void (*)(BinaryEncoder&, const Variant::Storage&), sizeof...(I)>{&encodeAlternative<I>...};
}
constexpr auto kEncoders = makeEncoders(std::make_index_sequence<std::variant_size_v<Variant::Storage>>());

template <std::size_t I>
void decodeAlternative(BinaryDecoder& d, Variant::Storage& s, int32_t arrayLength) {
    using X = Variant::Alternative<I>;
    if constexpr (std::is_same_v<X, std::monostate> || std::is_same_v<X, NoScalarVariant>) {
        d.failDecoding();
    } else if constexpr (kVariantBoxed<X>) {
        decode(d, s.template emplace<I>().emplace());  // a fresh value in a fresh Box
    } else if constexpr (std::is_same_v<X, Box<DataValue>>) {
        auto& b = s.template emplace<I>();
        decode(d, b.emplace());
    } else if constexpr (I > 25) {
        auto& a = s.template emplace<I>();
        using T = typename X::value_type;
        if (arrayLength < 0) { a.setNull(); return; }
        a.setEmpty();
        if (std::size_t(arrayLength) * minEncodedSize<T>() > d.remaining()) { d.failDecoding(); return; }
        a.resize(std::size_t(arrayLength));
        if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            const uint8_t* p = d.take(a.size() * sizeof(T));
            if (p && !a.empty()) std::memcpy(a.data(), p, a.size() * sizeof(T));
        } else if constexpr (std::is_same_v<T, bool>) {
            for (std::size_t i = 0; i < a.size(); ++i) a[i] = d.readPod<uint8_t>() != 0;
        } else {
            for (auto& el : a) { decode(d, el); if (!d.ok()) return; }
        }
    } else {
        decode(d, s.template emplace<I>());
    }
}

template <std::size_t... I>
constexpr auto makeDecoders(std::index_sequence<I...>) {
    return std::array<void (*)(BinaryDecoder&, Variant::Storage&, int32_t), sizeof...(I)>{&decodeAlternative<I>...};
}
constexpr auto kDecoders = makeDecoders(std::make_index_sequence<std::variant_size_v<Variant::Storage>>());
} // namespace

void encodeScalarBody(BinaryEncoder& e, const Variant& scalar) {
    if (!scalar.isScalar()) { e.fail(kBadEncodingError); return; }
    kEncoders[scalar.storage().index()](e, scalar.storage());
}

Variant decodeScalarBody(BinaryDecoder& d, BuiltInType type) {
    Variant v;
    const std::size_t i = std::size_t(type);
    if (i == 0 || i > 25) { d.failDecoding(); return v; }
    kDecoders[i](d, v.storage(), -1);
    if (!d.ok()) v = Variant();
    return v;
}

void encode(BinaryEncoder& e, const Variant& v) {
    if (v.isNull()) { e.writePod<uint8_t>(0); return; }
    if (!e.enter()) return;
    const std::size_t idx = v.storage().index();
    const bool dims = v.isArray() && !v.arrayDimensions().isNull();
    if (dims && !v.dimensionsMatch()) { e.fail(kBadEncodingError); e.leave(); return; }
    uint8_t mask = uint8_t(v.type());
    if (v.isArray()) mask |= 0x80;
    if (dims) mask |= 0x40;
    e.writePod(mask);
    kEncoders[idx](e, v.storage());
    if (dims) encode(e, v.arrayDimensions());
    e.leave();
}

void decode(BinaryDecoder& d, Variant& v) {
    v = Variant();
    const uint8_t mask = d.readPod<uint8_t>();
    if (!d.ok() || mask == 0) return;
    if (!d.enter()) return;
    const uint8_t type = mask & 0x3F;
    const bool isArray = mask & 0x80;
    const bool hasDims = mask & 0x40;
    // Unknown type ids (26-63), a scalar Variant, a Null type with flags, or dimensions without an
    // array are not valid encodings.
    if (type == 0 || type > 25 || (!isArray && (hasDims || type == 24))) { d.failDecoding(); d.leave(); return; }
    int32_t length = 0;
    if (isArray) {
        length = d.readLength(d.limits().maxArrayLength);
        if (!d.ok()) { d.leave(); return; }
    }
    kDecoders[isArray ? type + 25 : type](d, v.storage(), length);
    if (d.ok() && hasDims) {
        Array<int32_t> dims;
        decode(d, dims);
        v.setArrayDimensions(std::move(dims));
        if (d.ok()) {
            // ArrayDimensions: at least one, none negative, product = ArrayLength (5.2.2.16).
            if (v.arrayDimensions().isNull() || v.arrayDimensions().empty()) d.failDecoding();
            for (int32_t n : v.arrayDimensions()) if (n < 0) d.failDecoding();
            if (d.ok() && !v.dimensionsMatch()) d.failDecoding();
        }
    }
    if (!d.ok()) v = Variant();
    d.leave();
}

// --- DataValue (5.2.2.17) ---

namespace {

// The DataValues of Read responses and data change notifications: the Value absent, Null or a
// number, a DateTime or a StatusCode. Their size is known before a byte is written, so they are
// written and read in one step instead of field by field. Inlined into encode() and into the
// array loops (encodeElements, decodeElements); the field-by-field forms are calls of their own,
// so that the fast path saves no registers.

// The encoding mask of v (5.2.2.17): its has... flags.
[[gnu::always_inline]] inline uint8_t maskOf(const DataValue& v) {
    return uint8_t((v.hasValue ? 0x01 : 0) | (v.hasStatus ? 0x02 : 0) | (v.hasSourceTimestamp ? 0x04 : 0) |
                   (v.hasServerTimestamp ? 0x08 : 0) | (v.hasSourcePicoseconds ? 0x10 : 0) |
                   (v.hasServerPicoseconds ? 0x20 : 0));
}

// Bytes of the fields after the Value for each mask: StatusCode 4, two DateTimes 8, two UInt16
// picoseconds 2.
constexpr auto kFieldBytes = [] {
    std::array<uint8_t, 64> t{};
    for (unsigned m = 0; m < 64; ++m)
        t[m] = uint8_t(((m & 0x02) ? 4 : 0) + ((m & 0x04) ? 8 : 0) + ((m & 0x08) ? 8 : 0) + ((m & 0x10) ? 2 : 0) +
                       ((m & 0x20) ? 2 : 0));
    return t;
}();

// False (nothing done) for a DataValue that is not of the fixed-size kind.
[[gnu::always_inline]] inline bool encodeFixed(BinaryEncoder& e, const DataValue& v, uint8_t mask) {
    const std::size_t type = v.value.storage().index();
    const std::size_t body = wire::fixedScalarSize(type);
    if ((v.hasValue && type != 0 && body == 0) || !e.canEnter(2)) return false;
    const std::size_t n = 1 + (v.hasValue ? 1 + body : 0) + kFieldBytes[mask];
    uint8_t* p = e.claim(n);
    if (!p) return true;  // the encoder has failed
    *p++ = mask;
    if (v.hasValue) {
        *p++ = uint8_t(type);  // a scalar: no array bits
        if (type != 0) p = wire::putFixedScalar(p, v.value.storage());
    }
    const auto put = [&p](const auto& x, std::size_t size) { std::memcpy(p, &x, size); p += size; };
    if (mask & 0x02) put(v.status.code, 4);
    if (mask & 0x04) put(v.sourceTimestamp.wireTicks(), 8);
    if (mask & 0x10) put(v.sourcePicoseconds, 2);
    if (mask & 0x08) put(v.serverTimestamp.wireTicks(), 8);
    if (mask & 0x20) put(v.serverPicoseconds, 2);
    return true;
}

[[gnu::noinline]] void encodeFields(BinaryEncoder& e, const DataValue& v, uint8_t mask) {
    if (!e.enter()) return;
    e.writePod(mask);
    if (v.hasValue) encode(e, v.value);
    if (v.hasStatus) encode(e, v.status);
    if (v.hasSourceTimestamp) encode(e, v.sourceTimestamp);
    if (v.hasSourcePicoseconds) e.writePod(v.sourcePicoseconds);
    if (v.hasServerTimestamp) encode(e, v.serverTimestamp);
    if (v.hasServerPicoseconds) e.writePod(v.serverPicoseconds);
    e.leave();
}

// The same read: every field of v set, as decode() starting from DataValue() would.
[[gnu::always_inline]] inline bool decodeFixed(BinaryDecoder& d, DataValue& v) {
    const std::size_t left = d.remaining();
    const uint8_t* p = d.position();
    if (left < 2 || !d.canEnter(2)) return false;
    const uint8_t mask = p[0];
    if (mask & 0xC0) return false;
    const std::size_t type = (mask & 0x01) ? p[1] : 0;  // array bits make it more than 25: not fixed
    const std::size_t body = wire::fixedScalarSize(type);
    if (type != 0 && body == 0) return false;
    const std::size_t n = 1 + ((mask & 0x01) ? 1 + body : 0) + kFieldBytes[mask];
    if (left < n) return false;
    ++p;
    if (v.value.hasArrayDimensions()) v.value = Variant();
    v.hasValue = mask & 0x01;
    if (v.hasValue) ++p;
    if (type != 0) p = wire::takeFixedScalar(p, type, v.value.storage());
    else if (!v.value.isNull()) v.value = Variant();
    // Each field from its mask bit: set and read, or cleared (the source pair, then the server pair).
    const auto field = [&p, mask](uint8_t bit, bool& has, auto& x, std::size_t size) {
        has = mask & bit;
        x = {};
        if (has) {
            std::memcpy(&x, p, size);
            p += size;
        }
    };
    const auto timestamp = [&field](uint8_t bit, bool& has, DateTime& t) {
        int64_t ticks;
        field(bit, has, ticks, 8);
        t = has ? wire::dateTimeFromWire(ticks) : DateTime{};
    };
    field(0x02, v.hasStatus, v.status.code, 4);
    timestamp(0x04, v.hasSourceTimestamp, v.sourceTimestamp);
    field(0x10, v.hasSourcePicoseconds, v.sourcePicoseconds, 2);
    timestamp(0x08, v.hasServerTimestamp, v.serverTimestamp);
    field(0x20, v.hasServerPicoseconds, v.serverPicoseconds, 2);
    d.take(n);
    return true;
}

[[gnu::noinline]] void decodeFields(BinaryDecoder& d, DataValue& v) {
    v = DataValue();
    if (!d.enter()) return;
    const uint8_t mask = d.readPod<uint8_t>();
    if (mask & 0xC0) d.failDecoding();
    if (mask & 0x01) { v.hasValue = true; decode(d, v.value); }
    if (mask & 0x02) { v.hasStatus = true; decode(d, v.status); }
    if (mask & 0x04) { v.hasSourceTimestamp = true; decode(d, v.sourceTimestamp); }
    if (mask & 0x10) { v.hasSourcePicoseconds = true; v.sourcePicoseconds = d.readPod<uint16_t>(); }
    if (mask & 0x08) { v.hasServerTimestamp = true; decode(d, v.serverTimestamp); }
    if (mask & 0x20) { v.hasServerPicoseconds = true; v.serverPicoseconds = d.readPod<uint16_t>(); }
    if (!d.ok()) v = DataValue();
    d.leave();
}

} // namespace

void encode(BinaryEncoder& e, const DataValue& v) {
    const uint8_t mask = maskOf(v);
    if (!encodeFixed(e, v, mask)) encodeFields(e, v, mask);
}

void decode(BinaryDecoder& d, DataValue& v) {
    if (!decodeFixed(d, v)) decodeFields(d, v);
}

void encodeElements(BinaryEncoder& e, const DataValue* p, std::size_t n) {
    for (const DataValue* end = p + n; p != end && e.ok(); ++p) {
        const uint8_t mask = maskOf(*p);
        if (!encodeFixed(e, *p, mask)) encodeFields(e, *p, mask);
    }
}

void decodeElements(BinaryDecoder& d, DataValue* p, std::size_t n) {
    for (DataValue* end = p + n; p != end && d.ok(); ++p)
        if (!decodeFixed(d, *p)) decodeFields(d, *p);
}

// --- DiagnosticInfo (5.2.2.12): fields in the order of Opc.Ua.Types.bsd ---

void encode(BinaryEncoder& e, const DiagnosticInfo& v) {
    if (++e.diagnosticDepth > e.limits().maxDiagnosticInfoDepth) { e.fail(0x80080000u); --e.diagnosticDepth; return; }
    const uint8_t mask = (v.symbolicId ? 0x01 : 0) | (v.namespaceUri ? 0x02 : 0) | (v.localizedText ? 0x04 : 0) |
                         (v.locale ? 0x08 : 0) | (v.additionalInfo ? 0x10 : 0) | (v.innerStatusCode ? 0x20 : 0) |
                         (v.innerDiagnosticInfo ? 0x40 : 0);
    e.writePod(mask);
    if (v.symbolicId) e.writePod(*v.symbolicId);
    if (v.namespaceUri) e.writePod(*v.namespaceUri);
    if (v.locale) e.writePod(*v.locale);
    if (v.localizedText) e.writePod(*v.localizedText);
    if (v.additionalInfo) encode(e, *v.additionalInfo);
    if (v.innerStatusCode) encode(e, *v.innerStatusCode);
    if (v.innerDiagnosticInfo) encode(e, *v.innerDiagnosticInfo);
    --e.diagnosticDepth;
}

void decode(BinaryDecoder& d, DiagnosticInfo& v) {
    v = DiagnosticInfo();
    if (++d.diagnosticDepth > d.limits().maxDiagnosticInfoDepth) { d.failLimits(); --d.diagnosticDepth; return; }
    const uint8_t mask = d.readPod<uint8_t>();
    if (mask & 0x80) d.failDecoding();
    if (mask & 0x01) v.symbolicId = d.readPod<int32_t>();
    if (mask & 0x02) v.namespaceUri = d.readPod<int32_t>();
    if (mask & 0x08) v.locale = d.readPod<int32_t>();
    if (mask & 0x04) v.localizedText = d.readPod<int32_t>();
    if (mask & 0x10) { decode(d, v.additionalInfo.emplace()); if (v.additionalInfo->isNull()) *v.additionalInfo = String(""); }
    if (mask & 0x20) { v.innerStatusCode.emplace(); decode(d, *v.innerStatusCode); }
    if (mask & 0x40) decode(d, v.innerDiagnosticInfo.emplace());
    if (!d.ok()) v = DiagnosticInfo();
    --d.diagnosticDepth;
}

} // namespace ua
