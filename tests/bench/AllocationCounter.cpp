#include "AllocationCounter.h"

#include <atomic>
#include <cerrno>
#include <cstddef>

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}

namespace {
std::atomic<uint64_t> g_calls{0};
std::atomic<uint64_t> g_bytes{0};
std::atomic<uint64_t> g_markedCalls{0};
std::atomic<uint64_t> g_markedBytes{0};
thread_local bool t_marked = false;

inline void count(std::size_t n) {
    g_calls.fetch_add(1, std::memory_order_relaxed);
    g_bytes.fetch_add(n, std::memory_order_relaxed);
    if (t_marked) {
        g_markedCalls.fetch_add(1, std::memory_order_relaxed);
        g_markedBytes.fetch_add(n, std::memory_order_relaxed);
    }
}
} // namespace

extern "C" {
void* malloc(std::size_t n) {
    count(n);
    return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n) {
    count(k * n);
    return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n) {
    count(n);
    return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
void* memalign(std::size_t a, std::size_t n) {
    count(n);
    return __libc_memalign(a, n);
}
void* aligned_alloc(std::size_t a, std::size_t n) {
    count(n);
    return __libc_memalign(a, n);
}
int posix_memalign(void** out, std::size_t a, std::size_t n) {
    count(n);
    void* p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
}

namespace ua::bench {
AllocationCount allocationsSoFar() {
    return {g_calls.load(std::memory_order_relaxed), g_bytes.load(std::memory_order_relaxed)};
}
void countThisThread(bool on) { t_marked = on; }
AllocationCount markedThreadAllocationsSoFar() {
    return {g_markedCalls.load(std::memory_order_relaxed), g_markedBytes.load(std::memory_order_relaxed)};
}
} // namespace ua::bench
