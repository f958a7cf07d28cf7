#include "ua/client/history/HistorianBits.h"

namespace ua::historianInfo {

std::string bitsText(StatusCode s) {
    const uint32_t b = bitsOf(s);
    std::string out;
    auto add = [&out](const char* name) {
        if (!out.empty()) out += ", ";
        out += name;
    };
    if ((b & kDataLocationMask) == kCalculated) add("Calculated");
    else if ((b & kDataLocationMask) == kInterpolated) add("Interpolated");
    else if ((b & kDataLocationMask) == kDataLocationMask) add("DataLocation3");  // reserved value
    if (b & kPartial) add("Partial");
    if (b & kExtraData) add("ExtraData");
    if (b & kMultiValue) add("MultiValue");
    return out;
}

} // namespace ua::historianInfo
