// StatusCode::name() and description() (types/StatusCode.h) from the table of every StatusCode,
// which is generated with the encoding (encoding/generated/StatusCodes.h): the types layer does
// not include the layer above it.
#include "ua/types/StatusCode.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <cstdio>

namespace ua {

std::string StatusCode::name() const {
    const StatusCodeInfo* exact = findStatusCode(code);
    if (exact) return exact->name;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08X", code);
    if (const StatusCodeInfo* b = findStatusCode(base())) return std::string(b->name) + " (" + hex + ")";
    return hex;
}

const char* StatusCode::description() const {
    const StatusCodeInfo* i = findStatusCode(base());
    return i ? i->description : "";
}

} // namespace ua
