// Counts every heap allocation of this process (malloc, calloc, realloc, aligned_alloc,
// posix_memalign, memalign; operator new goes through malloc in libstdc++), with relaxed atomics.
// The definitions in AllocationCounter.cpp interpose glibc's functions for the whole process when
// linked into an executable (the dynamic linker resolves malloc to the executable's definition
// first), and forward to __libc_malloc & co. Only for benchmark executables: never link it into
// libua.
#pragma once

#include <cstdint>

namespace ua::bench {

struct AllocationCount {
    uint64_t calls = 0;  // allocation calls (realloc counts as one)
    uint64_t bytes = 0;  // bytes requested by them
};

// Totals since the process started.
AllocationCount allocationsSoFar();

} // namespace ua::bench
