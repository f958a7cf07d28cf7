// DateTime (OPC 10000-6 5.2.2.5): a count of 100-ns ticks since 1601-01-01 00:00 UTC, as Int64.
// Ticks <= 0 mean "the earliest time" (MinValue); ticks >= the encoding of 9999-12-31 23:59:59 UTC
// mean "the latest time" (MaxValue, encoded as INT64_MAX). The encoder writes those two as 0 and
// INT64_MAX, the decoder maps them back, as 5.2.2.5 asks.
#pragma once

#include <QDateTime>
#include <compare>
#include <cstdint>
#include <limits>

namespace ua {

struct DateTime {
    int64_t ticks = 0;  // 100-ns ticks since 1601-01-01T00:00:00Z

    static constexpr int64_t kUnixEpochTicks = 116444736000000000LL;  // 1970-01-01 in ticks
    static constexpr int64_t kMaxTicks = 2650467743990000000LL;       // 9999-12-31T23:59:59Z
    static constexpr int64_t kTicksPerMs = 10000;

    static DateTime minValue() { return {0}; }
    static DateTime maxValue() { return {std::numeric_limits<int64_t>::max()}; }
    static DateTime now();
    static DateTime fromUnixMs(int64_t ms) { return {kUnixEpochTicks + ms * kTicksPerMs}; }
    // An invalid QDateTime is MinValue; times at or before 1601 clamp to MinValue, at or after
    // 9999-12-31 23:59:59 to MaxValue.
    static DateTime fromQDateTime(const QDateTime& dt);
    // MinValue gives an invalid (null) QDateTime; MaxValue gives 9999-12-31T23:59:59.999Z.
    QDateTime toQDateTime() const;
    bool isMin() const { return ticks <= 0; }
    bool isMax() const { return ticks >= kMaxTicks; }
    // The value as the encoder writes it (0, INT64_MAX, or the ticks).
    int64_t wireTicks() const { return isMin() ? 0 : isMax() ? std::numeric_limits<int64_t>::max() : ticks; }

    friend auto operator<=>(const DateTime&, const DateTime&) = default;
    friend bool operator==(const DateTime&, const DateTime&) = default;
};

} // namespace ua
