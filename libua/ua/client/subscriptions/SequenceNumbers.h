// A Subscription's sequence numbers (OPC 10000-4 7.8 Counter, 5.14.1.1): the server counts
// 1 .. 0xFFFFFFFF and wraps to 1 (0 is never used). The client orders messages by an extended,
// 64-bit number that keeps counting past the wrap: extendSequence() maps each number as it
// arrives to the extended number nearest to the one expected next, wireSequence() maps back for
// acknowledgements and Republish.
#pragma once

#include <cstdint>

namespace ua {

inline constexpr uint64_t kSequencePeriod = 0xFFFFFFFFull;  // numbers in one turn of the counter

// The number on the wire of extended number e (e >= 1).
constexpr uint32_t wireSequence(uint64_t e) { return uint32_t((e - 1) % kSequencePeriod + 1); }

// The extended number (>= 1) of wire number c nearest to `expected` (>= 1): within half a turn
// before or after it. c = 0, which a server never sends, is taken as 0xFFFFFFFF.
constexpr uint64_t extendSequence(uint32_t c, uint64_t expected) {
    const uint64_t wire = c == 0 ? kSequencePeriod : c;
    const int64_t half = int64_t(kSequencePeriod / 2);
    int64_t d = int64_t(wire) - int64_t(wireSequence(expected));
    if (d > half) d -= int64_t(kSequencePeriod);
    else if (d < -half) d += int64_t(kSequencePeriod);
    int64_t e = int64_t(expected) + d;
    if (e < 1) e += int64_t(kSequencePeriod);  // before the first turn: it can only be ahead
    return uint64_t(e);
}

} // namespace ua
