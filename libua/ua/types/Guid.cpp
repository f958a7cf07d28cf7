#include "ua/types/Guid.h"

#include <QRandomGenerator>
#include <cstdio>

namespace ua {

std::string Guid::toString() const {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X", data1, data2, data3,
                  data4[0], data4[1], data4[2], data4[3], data4[4], data4[5], data4[6], data4[7]);
    return buf;
}

static int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::optional<Guid> Guid::parse(std::string_view t) {
    if (t.size() == 38 && t.front() == '{' && t.back() == '}') t = t.substr(1, 36);
    if (t.size() != 36 || t[8] != '-' || t[13] != '-' || t[18] != '-' || t[23] != '-') return std::nullopt;
    uint8_t bytes[16];
    int n = 0;
    for (std::size_t i = 0; i < t.size();) {
        if (t[i] == '-') { ++i; continue; }
        const int hi = hexValue(t[i]), lo = hexValue(t[i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        bytes[n++] = uint8_t(hi * 16 + lo);
        i += 2;
    }
    if (n != 16) return std::nullopt;
    Guid g;
    g.data1 = uint32_t(bytes[0]) << 24 | uint32_t(bytes[1]) << 16 | uint32_t(bytes[2]) << 8 | bytes[3];
    g.data2 = uint16_t(bytes[4] << 8 | bytes[5]);
    g.data3 = uint16_t(bytes[6] << 8 | bytes[7]);
    for (int i = 0; i < 8; ++i) g.data4[i] = bytes[8 + i];
    return g;
}

Guid Guid::random() {
    Guid g;
    auto* r = QRandomGenerator::system();
    g.data1 = r->generate();
    g.data2 = uint16_t(r->generate());
    g.data3 = uint16_t((r->generate() & 0x0FFF) | 0x4000);  // version 4
    for (auto& b : g.data4) b = uint8_t(r->generate());
    g.data4[0] = uint8_t((g.data4[0] & 0x3F) | 0x80);       // RFC 4122 variant
    return g;
}

} // namespace ua
