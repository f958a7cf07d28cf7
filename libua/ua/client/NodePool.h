// Free lists for the nodes of ClientCore's per-call containers (the pending calls by
// RequestHandle and by RequestId, the deadlines): a node freed when a call completes is reused by
// the next call, so a Client in steady state allocates no container node per request (issue 9
// target 10). One thread (the Client's I/O thread); blocks are kept until the pool is destroyed,
// so its memory is that of the most calls outstanding at once.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace ua {

class NodePool {
public:
    NodePool() = default;
    NodePool(const NodePool&) = delete;
    NodePool& operator=(const NodePool&) = delete;
    ~NodePool() {
        for (Block*& head : m_free) {
            while (Block* b = head) {
                head = b->next;
                ::operator delete(b);
            }
        }
    }

    // Blocks up to kMaxPooled bytes come from (and go back to) the free list of their size class.
    void* allocate(std::size_t bytes) {
        const std::size_t c = sizeClass(bytes);
        if (c >= kClasses) return ::operator new(bytes);
        if (Block* b = m_free[c]) {
            m_free[c] = b->next;
            return b;
        }
        return ::operator new(c * kGranule);
    }
    void deallocate(void* p, std::size_t bytes) {
        const std::size_t c = sizeClass(bytes);
        if (c >= kClasses) {
            ::operator delete(p);
            return;
        }
        m_free[c] = ::new (p) Block{m_free[c]};
    }

private:
    static constexpr std::size_t kGranule = 16;  // also operator new's alignment on x86-64
    static constexpr std::size_t kMaxPooled = 256;
    static constexpr std::size_t kClasses = kMaxPooled / kGranule + 1;
    struct Block {
        Block* next;
    };
    static std::size_t sizeClass(std::size_t bytes) { return bytes == 0 ? 1 : (bytes + kGranule - 1) / kGranule; }

    Block* m_free[kClasses] = {};
};

// A standard allocator over a NodePool: single objects (the containers' nodes) from the pool,
// arrays (a hash table's buckets, which grow rarely) from operator new.
template <class T>
class PoolAllocator {
public:
    using value_type = T;
    explicit PoolAllocator(NodePool* pool) : m_pool(pool) {}
    template <class U>
    PoolAllocator(const PoolAllocator<U>& o) : m_pool(o.pool()) {}

    T* allocate(std::size_t n) {
        static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned nodes are not pooled");
        if (n == 1) return static_cast<T*>(m_pool->allocate(sizeof(T)));
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T* p, std::size_t n) {
        if (n == 1) m_pool->deallocate(p, sizeof(T));
        else std::allocator<T>().deallocate(p, n);
    }
    NodePool* pool() const { return m_pool; }
    template <class U>
    bool operator==(const PoolAllocator<U>& o) const { return m_pool == o.pool(); }

private:
    NodePool* m_pool;
};

} // namespace ua
