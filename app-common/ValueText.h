// Values as text, both ways, for the attributes view, the write editors, the data access view and
// the command line (issue 7 items 3, 4, 10). OPC 10000-6 5.1.2 (built-in types), 5.3.1.10
// (NodeId string form).
//
// Text forms (what formatScalar prints, parseScalar reads):
//   Boolean       true / false (also 1 / 0)
//   integers      decimal; range-checked for the type (out of range: error)
//   Float/Double  decimal or exponent form; nan, inf, -inf
//   String        the text as is (in arrays: JSON string syntax, "a\"b")
//   DateTime      ISO 8601 (2026-11-30T10:00:00.000Z, UTC; 100-ns ticks beyond the ms add digits,
//                 ...00.1234567Z); "now"; read also with an offset (+02:00) or no zone (UTC)
//   Guid          {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx} or without braces
//   ByteString    hex (0x0a1b...) or base64 (b64:...)
//   XmlElement    the text
//   NodeId / ExpandedNodeId   i=85, ns=2;s=Name, nsu=<uri>;i=1 (OPC 10000-6 5.3.1.10/11)
//   StatusCode    a name (Good, BadNodeIdUnknown or Bad_NodeIdUnknown) or 0x80340000
//   QualifiedName 2:Name
//   LocalizedText text, or en-US:text when a locale is given as "locale|text" (so a formatted
//                 text with a locale reads back as text only: write "en-US|text" to set one)
// Arrays: "[a, b, c]" (JSON array syntax; strings quoted), one-dimensional. Matrices are shown
// and parsed as nested arrays "[[1, 2], [3, 4]]" with their ArrayDimensions. Inside arrays and
// structures every text type (String, DateTime, Guid, NodeId, ...) is a JSON string; numbers,
// Booleans and StatusCodes are bare; parseValue also reads bare elements ([i=85, ns=2;s=x]).
// ExtensionObject, DataValue, Variant, DiagnosticInfo: formatted (structures field by field when
// the type is known to the codec: "{name: value, ...}"), not parsed (error Bad_NotSupported).
#pragma once

#include "ua/types/StatusCode.h"
#include "ua/types/Variant.h"

#include <QString>
#include <optional>

namespace ua::app {

// One line for a Variant: a scalar as its text, an array as "[a, b, c]" (at most maxElements
// elements, then ", ..."; 0 = all), a null Variant as "" .
QString formatVariant(const Variant& value, int maxElements = 0);
// The value's text; for a Bad or Uncertain status the status name first.
QString formatDataValue(const DataValue& value, int maxElements = 0);
// The name of a status code: "Good", "Bad_NodeIdUnknown" (OPC 10000-6 StatusCode.csv names with
// the Bad_ / Uncertain_ / Good_ prefix as the specification writes them).
QString statusName(StatusCode status);
// The built-in type of a DataType NodeId (i=1..25 and the abstract Number/Integer/UInteger types
// map to Double/Int64/UInt64; Enumerations to Int32; subtypes of built-in types, e.g.
// UtcTime -> DateTime, when known to the codec); nullopt for a structure or unknown type.
std::optional<BuiltInType> builtInTypeOf(const NodeId& dataType);

struct ParseResult {
    Variant value;
    StatusCode status;   // Good, or Bad_TypeMismatch / Bad_OutOfRange / Bad_NotSupported
    QString error;       // for the user: what was wrong, e.g. "300 is out of range for Byte"
    bool ok() const { return status.isGood(); }
};
// Parses text as a value of type `type`: valueRank -1 (scalar) or >= 1 (array; text "[...]");
// valueRank 0/-2/-3 (any/scalar-or-array): an array when text starts with '['.
ParseResult parseValue(const QString& text, BuiltInType type, int32_t valueRank = -1);

} // namespace ua::app
