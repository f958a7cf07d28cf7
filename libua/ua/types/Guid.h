// Guid (OPC 10000-6 5.1.3, binary 5.2.2.6): Data1 UInt32, Data2 UInt16, Data3 UInt16, Data4 8 bytes.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ua {

struct Guid {
    uint32_t data1 = 0;
    uint16_t data2 = 0;
    uint16_t data3 = 0;
    std::array<uint8_t, 8> data4{};

    bool isNull() const { return *this == Guid{}; }
    // "C496578A-0DFE-4B8F-870A-745238C6AEAE" (upper case, as OPC 10000-6 5.1.3 prints it).
    std::string toString() const;
    // Accepts the 36-character form with or without braces, any case; nullopt when malformed.
    static std::optional<Guid> parse(std::string_view text);
    static Guid random();

    friend auto operator<=>(const Guid&, const Guid&) = default;
    friend bool operator==(const Guid&, const Guid&) = default;
};

} // namespace ua
