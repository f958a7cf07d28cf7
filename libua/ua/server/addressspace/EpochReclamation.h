// Epoch-based reclamation (Fraser, "Practical lock-freedom", 2004) of the values a ValueCell
// replaces: a reader inside a ReadGuard may use a pointer it loaded from a ValueCell, without a
// reference count or a lock, until the guard ends; a replaced value is freed only when no guard
// that could have seen it is still open.
//
// Why: every Read of a Value loaded a std::atomic<std::shared_ptr> (libstdc++ locks a bit of the
// pointer and counts a reference on each load, and counts it down again), on the same cache lines
// from every I/O thread that reads the same nodes: at read-100 that was a fifth of the server's
// time. A guard costs one exchange per service call (the outermost guard of a thread); a value read
// inside it costs one load.
//
// The rule (all epoch operations are sequentially consistent):
//   - a reader announces the global epoch e (and loads it again until it is stable) before it
//     loads a pointer, and clears the announcement when its outermost guard ends;
//   - a writer unlinks the old value, then reads the global epoch r and retires the value at r;
//   - the epoch advances from g to g + 1 only when no open guard announced an epoch other than g;
//   - a value retired at r is freed once the epoch is at least r + 2.
// While a guard with announcement e is open the epoch stays at most e + 1, and anything it loaded
// was retired at r >= e, so nothing it can see is freed.
//
// Guards nest (only the outermost one announces) and may be opened on any thread; each thread that
// opens one registers a record once (reused after the thread ends). retire() is thread-safe; it
// takes a mutex and, every kCollectEvery retirements, tries to advance the epoch and frees what is
// due. Nothing here is specific to DataValue.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ua::epoch {

// Keeps what the calling thread loads from a ValueCell alive until the guard ends. Do not hold one
// across a wait for events (an open guard stops every value retired meanwhile from being freed).
class ReadGuard {
public:
    ReadGuard();
    ~ReadGuard();
    ReadGuard(const ReadGuard&) = delete;
    ReadGuard& operator=(const ReadGuard&) = delete;
};

// True while the calling thread has a ReadGuard open.
bool guarded();

// Frees p with destroy(p) once no guard open now can still see it. Thread-safe.
void retire(void* p, void (*destroy)(void*));

// Tries to advance the epoch (twice) and frees what is due; returns how many retired values are
// still waiting. retire() does this by itself every kCollectEvery calls.
std::size_t collect();

// How often retire() collects. A value may wait that many retirements (and two epochs) longer.
inline constexpr std::size_t kCollectEvery = 64;

// The global epoch (tests).
uint64_t currentEpoch();

} // namespace ua::epoch
