// NumericRange (OPC 10000-4 7.27, syntax A.3): "6", "5:7", "1:2,0:1". One dimension per array
// dimension, in ArrayDimensions order; for a String or ByteString (scalar, or the elements of an
// array of them) one more dimension selects a substring. Indexes start at 0; in a range the first
// index is lower than the second.
//
// Rules implemented (7.27): a syntax error is Bad_IndexRangeInvalid, and only that; reading with a
// lower bound out of range (or a range that does not fit the value's shape) is
// Bad_IndexRangeNoData; an upper bound past the end returns what exists. Writing needs the whole
// range inside the current value (Bad_IndexRangeNoData) and data of exactly the range's size
// (Bad_IndexRangeDataMismatch).
#pragma once

#include "ua/types/Variant.h"

#include <string_view>
#include <vector>

namespace ua {

struct NumericRange {
    struct Dimension {
        uint32_t first = 0;
        uint32_t last = 0;  // inclusive; == first for a single index
        friend bool operator==(const Dimension&, const Dimension&) = default;
    };
    std::vector<Dimension> dimensions;  // empty: no range (the whole value)

    bool isEmpty() const { return dimensions.empty(); }
    // A null or empty text gives an empty range. Bad_IndexRangeInvalid for anything not of A.3,
    // "5:5", "7:5" or an index over UInt32.
    static StatusCode parse(std::string_view text, NumericRange& out);
};

// Reading (OPC 10000-4 5.10.2): out = the part of value the range selects; a matrix keeps its
// shape (ArrayDimensions of the block), an array of strings with a substring dimension gives the
// substrings. Bad_IndexRangeNoData as described above.
StatusCode readRange(const Variant& value, const NumericRange& range, Variant& out);

// Writing (OPC 10000-4 5.10.4): replaces the selected part of target with data, an array of the
// same type (a String/ByteString for a substring). Bad_TypeMismatch for another type,
// Bad_IndexRangeNoData, Bad_IndexRangeDataMismatch; Bad_WriteNotSupported for substrings of the
// elements of an array.
StatusCode writeRange(Variant& target, const NumericRange& range, const Variant& data);

} // namespace ua
