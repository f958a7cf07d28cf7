// Helpers shared by the codec tests: encode to bytes, decode from bytes, hex.
#pragma once

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"

#include <QByteArray>

namespace ua::test {

template <class T>
QByteArray encodeToBytes(const T& v, StatusCode* status = nullptr, const EncodingLimits& l = EncodingLimits::defaults()) {
    Buffer b;
    BinaryEncoder e(b, l);
    encode(e, v);
    if (status) *status = e.status();
    return QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size()));
}

// Decodes a T from all of bytes; the status is Bad_DecodingError when bytes are left over.
template <class T>
StatusCode decodeFromBytes(const QByteArray& bytes, T& out, const EncodingLimits& l = EncodingLimits::defaults()) {
    BinaryDecoder d(reinterpret_cast<const uint8_t*>(bytes.constData()), std::size_t(bytes.size()), l);
    decode(d, out);
    if (d.ok() && !d.atEnd()) return StatusCode(0x80070000u);
    return d.status();
}

inline QByteArray hex(const char* h) { return QByteArray::fromHex(h); }

} // namespace ua::test
