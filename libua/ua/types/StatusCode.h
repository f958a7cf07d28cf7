// StatusCode (OPC 10000-4 7.39, binary OPC 10000-6 5.2.2.11): a UInt32 whose top two bits give the
// severity (00 Good, 01 Uncertain, 10 Bad). The named constants are generated from StatusCode.csv
// (ua/encoding/generated/StatusCodes.h); name() prints a code as "BadNodeIdUnknown".
#pragma once

#include <cstdint>
#include <string>

namespace ua {

struct StatusCode {
    uint32_t code = 0;

    constexpr StatusCode() = default;
    constexpr StatusCode(uint32_t c) : code(c) {}
    constexpr bool isGood() const { return (code & 0xC0000000u) == 0; }
    constexpr bool isUncertain() const { return (code & 0xC0000000u) == 0x40000000u; }
    constexpr bool isBad() const { return (code & 0x80000000u) != 0; }
    // The code without its info bits (OPC 10000-4 7.39.1: the low 16 bits).
    constexpr uint32_t base() const { return code & 0xFFFF0000u; }
    // Symbolic name from StatusCode.csv ("BadNodeIdUnknown"); an unknown code prints as
    // "0x80AB0000"; known base with info bits set prints "BadFoo (0x80AB0400)".
    std::string name() const;
    // Description from StatusCode.csv, or empty.
    const char* description() const;
    constexpr operator uint32_t() const { return code; }
    friend constexpr bool operator==(StatusCode a, StatusCode b) { return a.code == b.code; }
};

} // namespace ua
