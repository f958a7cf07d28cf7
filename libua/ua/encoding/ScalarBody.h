// The UA Binary body of one scalar of a built-in type without the Variant encoding mask: how a
// Structure carries a field of that type (OPC 10000-6 5.2.7). The Variant codec's own per-type
// encoders and decoders do the work.
#pragma once

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"

namespace ua {

// Writes the scalar's body; a null or an array Variant is Bad_EncodingError.
void encodeScalarBody(BinaryEncoder& e, const Variant& scalar);
// Reads a scalar of type (Boolean .. DiagnosticInfo, not Variant or Null: Bad_DecodingError).
Variant decodeScalarBody(BinaryDecoder& d, BuiltInType type);

} // namespace ua
