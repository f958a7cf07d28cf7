// The historian information bits of a StatusCode (OPC 10000-4 7.39.1 Table 181, OPC 10000-11 6.2.1):
// valid when the InfoType (bits 10-11) is DataValue. A HistoryRead value tells with them where it
// came from: Raw (stored), Calculated (an aggregate), Interpolated; Partial (the interval had data
// for part of it only), ExtraData (more values at the timestamp: Read Modified), MultiValue.
// (Namespace historianInfo, not the server's ua::historian: a unity batch may hold both.)
#pragma once

#include "ua/types/StatusCode.h"

#include <string>

namespace ua::historianInfo {

inline constexpr uint32_t kInfoTypeDataValue = 0x00000400u;  // bits 10-11 = 01
inline constexpr uint32_t kInfoTypeMask = 0x00000C00u;
inline constexpr uint32_t kDataLocationMask = 0x00000003u;   // bits 0-1: 0 Raw, 1 Calculated, 2 Interpolated
inline constexpr uint32_t kCalculated = 0x00000001u;
inline constexpr uint32_t kInterpolated = 0x00000002u;
inline constexpr uint32_t kPartial = 0x00000004u;
inline constexpr uint32_t kExtraData = 0x00000008u;
inline constexpr uint32_t kMultiValue = 0x00000010u;
inline constexpr uint32_t kAllBits = 0x0000001Fu;

// The historian bits of s (0 when its InfoType is not DataValue).
constexpr uint32_t bitsOf(StatusCode s) { return (s.code & kInfoTypeMask) == kInfoTypeDataValue ? s.code & kAllBits : 0u; }
// "Calculated, Partial": the names of the set bits in that order (Raw is no bit and not named); "" for none.
std::string bitsText(StatusCode s);

} // namespace ua::historianInfo
