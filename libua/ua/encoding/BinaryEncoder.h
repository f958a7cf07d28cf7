// UA Binary encoder (OPC 10000-6 5.2). Writes little-endian into a caller-owned Buffer (appending),
// so a reused Buffer makes encoding allocation-free. Errors are sticky: after the first failure
// (Bad_EncodingLimitsExceeded for a value over a limit, Bad_EncodingError for a value that cannot
// be encoded) writes are ignored and status() tells why.
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/encoding/EncodingLimits.h"
#include "ua/types/Variant.h"

#include <bit>
#include <cstring>
#include <type_traits>

static_assert(std::endian::native == std::endian::little, "UA Binary encoding assumes a little-endian host");

namespace ua {

class BinaryEncoder {
public:
    explicit BinaryEncoder(Buffer& out, const EncodingLimits& limits = EncodingLimits::defaults())
        : m_out(out), m_limits(limits), m_start(out.size()) {}

    bool ok() const { return m_status.isGood(); }
    StatusCode status() const { return m_status; }
    void fail(StatusCode s) { if (m_status.isGood()) m_status = s; }
    const EncodingLimits& limits() const { return m_limits; }
    Buffer& buffer() { return m_out; }
    // Bytes written by this encoder so far.
    std::size_t written() const { return m_out.size() - m_start; }

    template <class T>
    [[gnu::always_inline]] void writePod(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (!room(sizeof(T))) return;
        std::memcpy(m_out.grow(sizeof(T)), &v, sizeof(T));
    }
    void writeBytes(const void* p, std::size_t n) {
        if (!room(n)) return;
        m_out.append(p, n);
    }
    // Makes room for n bytes that the caller fills at once and returns where they go; nullptr (and
    // the encoder failed) over maxEncodedSize or after an earlier failure. For fixed-size runs on
    // the hot path (a DataValue of a number, a ReadValueId): one check instead of one per field.
    [[gnu::always_inline]] uint8_t* claim(std::size_t n) {
        if (!room(n)) return nullptr;
        return m_out.grow(n);
    }
    // Writes a length (Int32) placeholder and returns its offset, for patchLength().
    std::size_t reserveLength() { const std::size_t at = m_out.size(); writePod<int32_t>(0); return at; }
    // Fills the placeholder with the bytes written after it.
    void patchLength(std::size_t at) {
        if (!ok()) return;
        const int32_t n = int32_t(m_out.size() - at - 4);
        std::memcpy(m_out.data() + at, &n, 4);
    }
    // Nesting guard for Variant, DataValue and ExtensionObject.
    bool enter() { if (++m_depth > m_limits.maxNestingDepth) { fail(0x80080000u); return false; } return true; }
    // Whether levels more enter() calls would stay within maxNestingDepth (a fast path that
    // skips them takes the general one when not).
    bool canEnter(int levels) const { return m_depth + levels <= m_limits.maxNestingDepth; }
    void leave() { --m_depth; }
    int diagnosticDepth = 0;

private:
    // Inlined into every write (GCC left it a call on the request path, 1-2 % of the samples).
    [[gnu::always_inline]] bool room(std::size_t n) {
        if (!ok()) return false;
        if (m_limits.maxEncodedSize && written() + n > m_limits.maxEncodedSize) { fail(0x80080000u); return false; }
        return true;
    }
    Buffer& m_out;
    const EncodingLimits& m_limits;
    std::size_t m_start;
    StatusCode m_status;
    int m_depth = 0;
};

// Built-in types (OPC 10000-6 5.2.2). Generated structures add overloads in generated/Types.h.
inline void encode(BinaryEncoder& e, bool v) { e.writePod<uint8_t>(v ? 1 : 0); }
inline void encode(BinaryEncoder& e, int8_t v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, uint8_t v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, int16_t v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, uint16_t v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, int32_t v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, uint32_t v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, int64_t v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, uint64_t v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, float v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, double v) { e.writePod(v); }
inline void encode(BinaryEncoder& e, DateTime v) { e.writePod(v.wireTicks()); }
inline void encode(BinaryEncoder& e, StatusCode v) { e.writePod(v.code); }
void encode(BinaryEncoder& e, const Guid& v);
template <class Tag>
void encode(BinaryEncoder& e, const BasicString<Tag>& v) {
    if (v.isNull()) { e.writePod<int32_t>(-1); return; }
    const int32_t limit = std::is_same_v<Tag, ByteStringTag> ? e.limits().maxByteStringLength : e.limits().maxStringLength;
    if (v.size() > std::size_t(limit)) { e.fail(0x80080000u); return; }
    e.writePod<int32_t>(int32_t(v.size()));
    e.writeBytes(v.data(), v.size());
}
void encode(BinaryEncoder& e, const NodeId& v);
void encode(BinaryEncoder& e, const ExpandedNodeId& v);
void encode(BinaryEncoder& e, const QualifiedName& v);
void encode(BinaryEncoder& e, const LocalizedText& v);
void encode(BinaryEncoder& e, const ExtensionObject& v);
void encode(BinaryEncoder& e, const Variant& v);
void encode(BinaryEncoder& e, const DataValue& v);
void encode(BinaryEncoder& e, const DiagnosticInfo& v);

struct ReadValueId;
// The elements of the arrays that every Read carries, a hundred of them in a read-100: their common
// forms written in one loop (BuiltinCodec.cpp, ReadValueIdCodec.cpp), without a call per element.
// Stop at the first failure (the encoder's status).
void encodeElements(BinaryEncoder& e, const DataValue* p, std::size_t n);
void encodeElements(BinaryEncoder& e, const ReadValueId* p, std::size_t n);

// Arrays (5.2.5): Int32 length (-1 for null) then the elements.
template <class T>
void encode(BinaryEncoder& e, const Array<T>& a) {
    if (a.isNull()) { e.writePod<int32_t>(-1); return; }
    if (a.size() > std::size_t(e.limits().maxArrayLength)) { e.fail(0x80080000u); return; }
    e.writePod<int32_t>(int32_t(a.size()));
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        e.writeBytes(a.data(), a.size() * sizeof(T));
    } else if constexpr (std::is_same_v<T, DataValue> || std::is_same_v<T, ReadValueId>) {
        encodeElements(e, a.data(), a.size());
    } else {
        for (const auto& x : a) {
            encode(e, static_cast<const T&>(x));
            if (!e.ok()) return;
        }
    }
}

} // namespace ua
