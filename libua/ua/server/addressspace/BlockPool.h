// Fixed-size blocks for the address space's most numerous objects: Nodes (Node.h), ValueCells
// with their first value (ValueCell.h) and small reference arrays (ReferenceList.h). malloc puts
// an 8-byte header before every block and rounds it up to 16 bytes: 24 bytes of a million
// imported variables' 319 each (docs/Benchmarks.md "Under 300 bytes a variable", step 5).
//
// BlockPool<Size>::allocate() returns Size bytes aligned to 8, carved from 64 KiB slabs; a freed
// block is kept on a free list and handed out again by the next allocate() of that Size. Slabs are
// never returned to the system (the address space rarely shrinks; what it frees, it reuses).
// Thread-safe: one mutex per Size, held for a few instructions. Not for the per-request path.
// Under AddressSanitizer every block is its own operator new, so a use after free is still found.
#pragma once

#include <cstddef>
#include <mutex>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define UA_BLOCK_POOL_BYPASS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UA_BLOCK_POOL_BYPASS 1
#endif
#endif

namespace ua {

template <std::size_t Size>
class BlockPool {
    static_assert(Size >= sizeof(void*) && Size % alignof(void*) == 0, "a block holds the free list's link");

public:
    static constexpr std::size_t kSlab = 64 * 1024;  // bytes per slab

    static void* allocate() {
#if defined(UA_BLOCK_POOL_BYPASS)
        return ::operator new(Size);
#else
        State& s = state();
        const std::lock_guard lock(s.mutex);
        if (s.free) {
            Free* f = s.free;
            s.free = f->next;
            return f;
        }
        if (s.left < Size) {
            s.slabs.push_back(static_cast<char*>(::operator new(kSlab)));
            s.next = s.slabs.back();
            s.left = kSlab;
        }
        void* p = s.next;
        s.next += Size;
        s.left -= Size;
        return p;
#endif
    }

    static void deallocate(void* p) noexcept {
        if (!p) return;
#if defined(UA_BLOCK_POOL_BYPASS)
        ::operator delete(p);
#else
        State& s = state();
        const std::lock_guard lock(s.mutex);
        s.free = new (p) Free{s.free};
#endif
    }

private:
    struct Free {
        Free* next;
    };
    struct State {
        std::mutex mutex;
        Free* free = nullptr;        // freed blocks, the last freed first
        char* next = nullptr;        // the current slab's first unused byte
        std::size_t left = 0;        // bytes unused in the current slab
        std::vector<char*> slabs;    // every slab (they stay reachable: no leak reported)
    };
    // Never destroyed: nodes in objects destroyed at exit may still free their blocks.
    static State& state() {
        static State* s = new State();
        return *s;
    }
};

} // namespace ua
