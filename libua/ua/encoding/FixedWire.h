// Fixed-size pieces of UA Binary (OPC 10000-6 5.2.2) written and read straight from memory, for the
// codecs' fast paths: a numeric NodeId in its three forms (5.2.2.9) and the scalars whose encoding
// has the same size for every value (5.2.2.1-5.2.2.5, 5.2.2.7). The caller has checked that the
// bytes are there (BinaryEncoder::claim(), BinaryDecoder::remaining()). Internal to ua/encoding.
#pragma once

#include "ua/types/Variant.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ua::wire {

// NodeId encoding bytes (5.2.2.9).
enum : uint8_t { TwoByte = 0, FourByte = 1, Numeric = 2, StringId = 3, GuidId = 4, ByteStringId = 5 };

// Bytes of a numeric NodeId in its shortest form: 2, 4 or 7.
inline std::size_t numericNodeIdSize(uint16_t ns, uint32_t id) {
    return ns == 0 && id <= 0xFF ? 2 : ns <= 0xFF && id <= 0xFFFF ? 4 : 7;
}

// Writes the numeric NodeId in its shortest form (flags: ExpandedNodeId bits of the encoding byte);
// returns the byte after it.
inline uint8_t* putNumericNodeId(uint8_t* p, uint16_t ns, uint32_t id, uint8_t flags = 0) {
    if (ns == 0 && id <= 0xFF) {
        p[0] = uint8_t(TwoByte | flags);
        p[1] = uint8_t(id);
        return p + 2;
    }
    if (ns <= 0xFF && id <= 0xFFFF) {
        p[0] = uint8_t(FourByte | flags);
        p[1] = uint8_t(ns);
        p[2] = uint8_t(id);
        p[3] = uint8_t(id >> 8);
        return p + 4;
    }
    p[0] = uint8_t(Numeric | flags);
    std::memcpy(p + 1, &ns, 2);
    std::memcpy(p + 3, &id, 4);
    return p + 7;
}

// Bytes of the numeric NodeId whose encoding byte is b (no flags), 0 when b is another form.
inline std::size_t numericNodeIdSizeOf(uint8_t b) { return b == TwoByte ? 2 : b == FourByte ? 4 : b == Numeric ? 7 : 0; }

// Reads a numeric NodeId of numericNodeIdSizeOf(p[0]) bytes.
inline void takeNumericNodeId(const uint8_t* p, uint16_t& ns, uint32_t& id) {
    switch (p[0]) {
    case TwoByte: ns = 0; id = p[1]; break;
    case FourByte: ns = p[1]; id = uint32_t(p[2]) | uint32_t(p[3]) << 8; break;
    default: std::memcpy(&ns, p + 1, 2); std::memcpy(&id, p + 3, 4); break;
    }
}

// A DateTime from its wire ticks: 0 and below is the minimum, kMaxTicks and above the maximum
// (5.2.2.5).
inline DateTime dateTimeFromWire(int64_t t) {
    return DateTime{t <= 0 ? 0 : t >= DateTime::kMaxTicks ? std::numeric_limits<int64_t>::max() : t};
}

// The encoded size of a scalar of Variant alternative i (its BuiltInType) when every value has the
// same: Boolean to Double, DateTime, StatusCode. 0 for the others (and for 0, Null).
constexpr std::size_t fixedScalarSize(std::size_t i) {
    switch (i) {
    case 1: case 2: case 3: return 1;
    case 4: case 5: return 2;
    case 6: case 7: case 10: case 19: return 4;
    case 8: case 9: case 11: case 13: return 8;
    default: return 0;
    }
}

namespace detail {
template <std::size_t I>
uint8_t* putScalar(uint8_t* p, const Variant::Storage& s) {
    using X = std::variant_alternative_t<I, Variant::Storage>;
    const X& x = *std::get_if<I>(&s);
    if constexpr (std::is_same_v<X, bool>) *p = x ? 1 : 0;
    else if constexpr (std::is_same_v<X, DateTime>) { const int64_t t = x.wireTicks(); std::memcpy(p, &t, 8); }
    else if constexpr (std::is_same_v<X, StatusCode>) std::memcpy(p, &x.code, 4);
    else std::memcpy(p, &x, sizeof(X));
    return p + fixedScalarSize(I);
}

template <std::size_t I>
const uint8_t* takeScalar(const uint8_t* p, Variant::Storage& s) {
    using X = std::variant_alternative_t<I, Variant::Storage>;
    X x{};
    if constexpr (std::is_same_v<X, bool>) x = *p != 0;
    else if constexpr (std::is_same_v<X, DateTime>) { int64_t t; std::memcpy(&t, p, 8); x = dateTimeFromWire(t); }
    else if constexpr (std::is_same_v<X, StatusCode>) std::memcpy(&x.code, p, 4);
    else std::memcpy(&x, p, sizeof(X));
    if (X* held = std::get_if<I>(&s)) *held = x;
    else s.template emplace<I>(x);
    return p + fixedScalarSize(I);
}
} // namespace detail

// Writes the body of a scalar whose fixedScalarSize() is not 0; returns the byte after it.
[[gnu::always_inline]] inline uint8_t* putFixedScalar(uint8_t* p, const Variant::Storage& s) {
    switch (s.index()) {
    case 1: return detail::putScalar<1>(p, s);
    case 2: return detail::putScalar<2>(p, s);
    case 3: return detail::putScalar<3>(p, s);
    case 4: return detail::putScalar<4>(p, s);
    case 5: return detail::putScalar<5>(p, s);
    case 6: return detail::putScalar<6>(p, s);
    case 7: return detail::putScalar<7>(p, s);
    case 8: return detail::putScalar<8>(p, s);
    case 9: return detail::putScalar<9>(p, s);
    case 10: return detail::putScalar<10>(p, s);
    case 11: return detail::putScalar<11>(p, s);
    case 13: return detail::putScalar<13>(p, s);
    case 19: return detail::putScalar<19>(p, s);
    default: return p;
    }
}

// Reads the body of a scalar of type i (fixedScalarSize(i) not 0) into s: assigned when s holds
// that type already, else put in place of what it holds. Returns the byte after it.
[[gnu::always_inline]] inline const uint8_t* takeFixedScalar(const uint8_t* p, std::size_t i, Variant::Storage& s) {
    switch (i) {
    case 1: return detail::takeScalar<1>(p, s);
    case 2: return detail::takeScalar<2>(p, s);
    case 3: return detail::takeScalar<3>(p, s);
    case 4: return detail::takeScalar<4>(p, s);
    case 5: return detail::takeScalar<5>(p, s);
    case 6: return detail::takeScalar<6>(p, s);
    case 7: return detail::takeScalar<7>(p, s);
    case 8: return detail::takeScalar<8>(p, s);
    case 9: return detail::takeScalar<9>(p, s);
    case 10: return detail::takeScalar<10>(p, s);
    case 11: return detail::takeScalar<11>(p, s);
    case 13: return detail::takeScalar<13>(p, s);
    case 19: return detail::takeScalar<19>(p, s);
    default: return p;
    }
}

} // namespace ua::wire
