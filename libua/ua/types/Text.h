// QualifiedName (OPC 10000-6 5.2.2.13) and LocalizedText (5.2.2.14).
#pragma once

#include "ua/types/Strings.h"

#include <cstdint>

namespace ua {

struct QualifiedName {
    uint16_t namespaceIndex = 0;
    String name;

    // "2:Temperature" (index 0 prints without prefix); parse takes the same form.
    std::string toString() const;
    static QualifiedName parse(std::string_view text);
    bool isNull() const { return namespaceIndex == 0 && name.isNull(); }
    friend bool operator==(const QualifiedName&, const QualifiedName&) = default;
};

// A field left null is omitted on the wire (the encoding mask bit clear).
struct LocalizedText {
    String locale;  // e.g. "en-US"; null when absent
    String text;    // null when absent

    friend bool operator==(const LocalizedText&, const LocalizedText&) = default;
};

} // namespace ua
