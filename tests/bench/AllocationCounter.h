// Counts every heap allocation of this process (malloc, calloc, realloc, aligned_alloc,
// posix_memalign, memalign; operator new goes through malloc in libstdc++), with relaxed atomics.
// The definitions in AllocationCounter.cpp interpose glibc's functions for the whole process when
// linked into an executable (the dynamic linker resolves malloc to the executable's definition
// first), and forward to __libc_malloc & co. Only for benchmark executables: never link it into
// libua.
//
// The mark is a thread_local flag of the executable (local-exec TLS: reading it allocates nothing).
#pragma once

#include <cstdint>

namespace ua::bench {

struct AllocationCount {
    uint64_t calls = 0;  // allocation calls (realloc counts as one)
    uint64_t bytes = 0;  // bytes requested by them
};

// Totals since the process started.
AllocationCount allocationsSoFar();

// Marks the calling thread (on = true) or unmarks it: allocations made on marked threads are also
// added to the totals of markedThreadAllocationsSoFar(). A benchmark with a server and a client in
// one process marks the client's I/O thread to count the client's allocations alone.
void countThisThread(bool on);
// Totals of the allocations made on marked threads while they were marked.
AllocationCount markedThreadAllocationsSoFar();

} // namespace ua::bench
