// Who may change a shared block in place: the copy-on-write rule of NodeTable and NodeIdIndex.
//
// A table made of blocks held by shared pointers is copied by copying the pointers. A block may
// then be changed in place only by the one table that owns it: the table whose generation is the
// block's owner. Copying a table (or being copied) gives both tables new generations, so after
// a copy neither owns any block and each clones a block before its first change, and the copy's
// readers never see a change. Published snapshots are never changed; writers change private
// copies (SharedAddressSpace::update), so no block is ever written while another thread reads it.
#pragma once

#include <atomic>
#include <cstdint>

namespace ua {

class CopyGeneration {
public:
    CopyGeneration() : m_value(next()) {}
    // The copy and the source both get new generations: neither owns a block they now share.
    // The source is const (a published snapshot may be copied by a writer while readers use
    // it); its generation is the only thing that changes, atomically.
    CopyGeneration(const CopyGeneration& other) : m_value(next()) { other.m_value.store(next(), std::memory_order_relaxed); }
    CopyGeneration& operator=(const CopyGeneration& other) {
        if (this != &other) {
            m_value.store(next(), std::memory_order_relaxed);
            other.m_value.store(next(), std::memory_order_relaxed);
        }
        return *this;
    }
    // A move hands the blocks over with their ownership; the source owns nothing any more.
    CopyGeneration(CopyGeneration&& other) noexcept : m_value(other.m_value.load(std::memory_order_relaxed)) {
        other.m_value.store(next(), std::memory_order_relaxed);
    }
    CopyGeneration& operator=(CopyGeneration&& other) noexcept {
        if (this != &other) {
            m_value.store(other.m_value.load(std::memory_order_relaxed), std::memory_order_relaxed);
            other.m_value.store(next(), std::memory_order_relaxed);
        }
        return *this;
    }

    uint64_t value() const { return m_value.load(std::memory_order_relaxed); }

private:
    static uint64_t next() {
        static std::atomic<uint64_t> counter{1};
        return counter.fetch_add(1, std::memory_order_relaxed);
    }
    mutable std::atomic<uint64_t> m_value;
};

} // namespace ua
