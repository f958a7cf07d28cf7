// Limits of the binary encoder and decoder (OPC 10000-6 5.2.2, 6.7.2: "MaxStringLength",
// "MaxByteStringLength", "MaxArrayLength"). A value over a limit is Bad_EncodingLimitsExceeded.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ua {

struct EncodingLimits {
    int32_t maxStringLength = 16 * 1024 * 1024;      // bytes of one String or XmlElement
    int32_t maxByteStringLength = 16 * 1024 * 1024;  // bytes of one ByteString
    int32_t maxArrayLength = 1024 * 1024;            // elements of one array
    // Nesting of Variant, DataValue and ExtensionObject inside each other (default 100).
    int32_t maxNestingDepth = 100;
    // DiagnosticInfo recursion: 5.2.2.12 of 1.05 asks for at least 4 and expects at most 10.
    int32_t maxDiagnosticInfoDepth = 10;
    // Total bytes an encoder may write (0: no limit).
    std::size_t maxEncodedSize = 0;

    static const EncodingLimits& defaults() {
        static const EncodingLimits d;
        return d;
    }
};

} // namespace ua
