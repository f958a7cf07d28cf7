// UA Binary decoder (OPC 10000-6 5.2) over a byte range it does not own. Every length is checked
// before anything is allocated: a length below -1, longer than the bytes left, or over a limit is an
// error, so no input makes it allocate more than the input can justify. Errors are sticky: the first
// one (Bad_DecodingError for malformed input, Bad_EncodingLimitsExceeded for a limit) stops decoding,
// later reads return zero values, and status() tells which.
#pragma once

#include "ua/encoding/EncodingLimits.h"
#include "ua/types/Variant.h"

#include <cstring>
#include <type_traits>

namespace ua {

class BinaryDecoder {
public:
    BinaryDecoder(const uint8_t* data, std::size_t size, const EncodingLimits& limits = EncodingLimits::defaults())
        : m_p(data), m_end(data + size), m_limits(limits) {}

    bool ok() const { return m_status.isGood(); }
    StatusCode status() const { return m_status; }
    void fail(StatusCode s) { if (m_status.isGood()) m_status = s; m_p = m_end; }
    void failDecoding() { fail(0x80070000u); }       // Bad_DecodingError
    void failLimits() { fail(0x80080000u); }         // Bad_EncodingLimitsExceeded
    const EncodingLimits& limits() const { return m_limits; }
    std::size_t remaining() const { return std::size_t(m_end - m_p); }
    bool atEnd() const { return m_p == m_end; }
    const uint8_t* position() const { return m_p; }

    template <class T>
    T readPod() {
        static_assert(std::is_trivially_copyable_v<T>);
        T v{};
        if (remaining() < sizeof(T)) { failDecoding(); return v; }
        std::memcpy(&v, m_p, sizeof(T));
        m_p += sizeof(T);
        return v;
    }
    // Returns n bytes and advances, or nullptr (and fails) when fewer are left.
    const uint8_t* take(std::size_t n) {
        if (remaining() < n) { failDecoding(); return nullptr; }
        const uint8_t* p = m_p;
        m_p += n;
        return p;
    }
    // Reads an Int32 array/string length: -1 (null) .. max; fails for < -1, > limit, > bytes left.
    // elementMin is the fewest bytes one element can take.
    int32_t readLength(int32_t limit, std::size_t elementMin = 1) {
        const int32_t n = readPod<int32_t>();
        if (!ok()) return -1;
        if (n < -1) { failDecoding(); return -1; }
        if (n > limit) { failLimits(); return -1; }
        if (n > 0 && std::size_t(n) * elementMin > remaining()) { failDecoding(); return -1; }
        return n;
    }
    // Restricts decoding to the next n bytes (an ExtensionObject body); returns the old end for
    // restoreEnd(). Fails and returns nullptr when fewer than n bytes are left.
    const uint8_t* limitTo(std::size_t n) {
        if (remaining() < n) { failDecoding(); return nullptr; }
        const uint8_t* old = m_end;
        m_end = m_p + n;
        return old;
    }
    void restoreEnd(const uint8_t* oldEnd) { if (ok()) m_end = oldEnd; else m_p = m_end = oldEnd; }
    bool enter() { if (++m_depth > m_limits.maxNestingDepth) { failLimits(); return false; } return true; }
    bool canEnter(int levels) const { return m_depth + levels <= m_limits.maxNestingDepth; }
    void leave() { --m_depth; }
    int diagnosticDepth = 0;

private:
    const uint8_t* m_p;
    const uint8_t* m_end;
    const EncodingLimits& m_limits;
    StatusCode m_status;
    int m_depth = 0;
};

inline void decode(BinaryDecoder& d, bool& v) { v = d.readPod<uint8_t>() != 0; }
inline void decode(BinaryDecoder& d, int8_t& v) { v = d.readPod<int8_t>(); }
inline void decode(BinaryDecoder& d, uint8_t& v) { v = d.readPod<uint8_t>(); }
inline void decode(BinaryDecoder& d, int16_t& v) { v = d.readPod<int16_t>(); }
inline void decode(BinaryDecoder& d, uint16_t& v) { v = d.readPod<uint16_t>(); }
inline void decode(BinaryDecoder& d, int32_t& v) { v = d.readPod<int32_t>(); }
inline void decode(BinaryDecoder& d, uint32_t& v) { v = d.readPod<uint32_t>(); }
inline void decode(BinaryDecoder& d, int64_t& v) { v = d.readPod<int64_t>(); }
inline void decode(BinaryDecoder& d, uint64_t& v) { v = d.readPod<uint64_t>(); }
inline void decode(BinaryDecoder& d, float& v) { v = d.readPod<float>(); }
inline void decode(BinaryDecoder& d, double& v) { v = d.readPod<double>(); }
inline void decode(BinaryDecoder& d, StatusCode& v) { v.code = d.readPod<uint32_t>(); }
void decode(BinaryDecoder& d, DateTime& v);
void decode(BinaryDecoder& d, Guid& v);
template <class Tag>
void decode(BinaryDecoder& d, BasicString<Tag>& v) {
    const int32_t limit = std::is_same_v<Tag, ByteStringTag> ? d.limits().maxByteStringLength : d.limits().maxStringLength;
    const int32_t n = d.readLength(limit);
    if (n < 0) { v.clear(); return; }
    const uint8_t* p = d.take(std::size_t(n));
    if (p) v.assign(reinterpret_cast<const char*>(p), std::size_t(n));
}
void decode(BinaryDecoder& d, NodeId& v);
void decode(BinaryDecoder& d, ExpandedNodeId& v);
void decode(BinaryDecoder& d, QualifiedName& v);
void decode(BinaryDecoder& d, LocalizedText& v);
void decode(BinaryDecoder& d, ExtensionObject& v);
void decode(BinaryDecoder& d, Variant& v);
void decode(BinaryDecoder& d, DataValue& v);
void decode(BinaryDecoder& d, DiagnosticInfo& v);

// The fewest bytes one encoded T can take: bounds what an array length may claim before the
// elements are allocated. Generated structures declare kMinEncodedSize.
template <class T>
constexpr std::size_t minEncodedSize() {
    if constexpr (requires { T::kMinEncodedSize; }) return T::kMinEncodedSize > 0 ? T::kMinEncodedSize : 1;
    else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) return sizeof(T) == 1 ? 1 : sizeof(T);
    else if constexpr (std::is_same_v<T, String> || std::is_same_v<T, ByteString> || std::is_same_v<T, XmlElement>) return 4;
    else if constexpr (std::is_same_v<T, DateTime>) return 8;
    else if constexpr (std::is_same_v<T, StatusCode>) return 4;
    else if constexpr (std::is_same_v<T, Guid>) return 16;
    else if constexpr (std::is_same_v<T, NodeId> || std::is_same_v<T, ExpandedNodeId>) return 2;
    else if constexpr (std::is_same_v<T, QualifiedName>) return 6;
    else if constexpr (std::is_same_v<T, ExtensionObject>) return 3;
    else return 1;
}

struct ReadValueId;
// Types whose decode() sets every field, whatever the target held before: an array of them is
// decoded into the elements it already has (their strings keep their storage) instead of
// destroying them and default-constructing new ones. Only for the hot path's arrays (a reused
// ReadRequest, ServiceDispatcher.cpp; a reused ReadResponse, client/calls/ResponseScratch.h);
// tst_generated checks the property.
struct DataValue;
struct DiagnosticInfo;
template <class T>
inline constexpr bool kDecodeOverwritesAll = false;
template <>
inline constexpr bool kDecodeOverwritesAll<ReadValueId> = true;
template <>
inline constexpr bool kDecodeOverwritesAll<DataValue> = true;       // its decode() starts from DataValue()
template <>
inline constexpr bool kDecodeOverwritesAll<DiagnosticInfo> = true;  // its decode() starts from DiagnosticInfo()

// The elements of the arrays that every Read carries: their common forms read in one loop
// (BuiltinCodec.cpp, ReadValueIdCodec.cpp), into the elements given. Stop at the first failure (the
// decoder's status).
void decodeElements(BinaryDecoder& d, DataValue* p, std::size_t n);
void decodeElements(BinaryDecoder& d, ReadValueId* p, std::size_t n);

template <class T>
void decode(BinaryDecoder& d, Array<T>& a) {
    const int32_t n = d.readLength(d.limits().maxArrayLength, minEncodedSize<T>());
    if (n < 0) { a.setNull(); return; }
    if constexpr (kDecodeOverwritesAll<T>) a.setNotNull();  // decoded into the elements it holds
    else a.setEmpty();
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        const uint8_t* p = d.take(std::size_t(n) * sizeof(T));
        if (!p || n == 0) return;  // an empty vector's data() may be null: no memcpy then
        a.resize(std::size_t(n));
        std::memcpy(a.data(), p, std::size_t(n) * sizeof(T));
    } else if constexpr (std::is_same_v<T, bool>) {
        a.resize(std::size_t(n));
        for (std::size_t i = 0; i < std::size_t(n); ++i) a[i] = d.readPod<uint8_t>() != 0;
        if (!d.ok()) a.setEmpty();
    } else if constexpr (std::is_same_v<T, DataValue> || std::is_same_v<T, ReadValueId>) {
        a.resize(std::size_t(n));
        decodeElements(d, a.data(), std::size_t(n));
        if (!d.ok()) a.setEmpty();
    } else {
        a.resize(std::size_t(n));
        for (auto& x : a) {
            decode(d, x);
            if (!d.ok()) { a.setEmpty(); return; }
        }
    }
}

} // namespace ua
