// DiagnosticInfo (OPC 10000-4 7.12, binary OPC 10000-6 5.2.2.12). Each field is optional; the
// encoder writes a field exactly when it is set. symbolicId, namespaceUri, locale and localizedText
// are indexes into the ResponseHeader's stringTable.
#pragma once

#include "ua/types/Common.h"
#include "ua/types/StatusCode.h"
#include "ua/types/Strings.h"

#include <optional>

namespace ua {

struct DiagnosticInfo {
    std::optional<int32_t> symbolicId;
    std::optional<int32_t> namespaceUri;
    std::optional<int32_t> localizedText;
    std::optional<int32_t> locale;
    std::optional<String> additionalInfo;
    std::optional<StatusCode> innerStatusCode;
    Box<DiagnosticInfo> innerDiagnosticInfo;

    bool isEmpty() const {
        return !symbolicId && !namespaceUri && !localizedText && !locale && !additionalInfo &&
               !innerStatusCode && !innerDiagnosticInfo;
    }
    friend bool operator==(const DiagnosticInfo&, const DiagnosticInfo&) = default;
};

} // namespace ua
