// One memory budget for the chunks of incomplete multi-chunk requests, shared by every
// SecureChannel of a server (OPC 10000-6 6.7.2: a request may come in many MessageChunks, and the
// receiver holds them until the final one). Lock-free; touched per intermediate chunk only.
#pragma once

#include <atomic>
#include <cstdint>

namespace ua {

class ChunkBudget {
public:
    explicit ChunkBudget(uint64_t maxBytes) : m_max(maxBytes) {}

    // Reserves n bytes: false (and nothing reserved) when that would go over the budget.
    bool reserve(uint64_t n) {
        uint64_t used = m_used.load(std::memory_order_relaxed);
        do {
            if (m_max && used + n > m_max) {
                m_refusals.fetch_add(1, std::memory_order_relaxed);
                return false;
            }
        } while (!m_used.compare_exchange_weak(used, used + n, std::memory_order_relaxed));
        return true;
    }
    void release(uint64_t n) { m_used.fetch_sub(n, std::memory_order_relaxed); }
    uint64_t used() const { return m_used.load(std::memory_order_relaxed); }
    uint64_t max() const { return m_max; }  // bytes; 0: no budget
    // Reservations refused since start (each closed its channel with Bad_TcpNotEnoughResources).
    uint64_t refusals() const { return m_refusals.load(std::memory_order_relaxed); }

private:
    const uint64_t m_max;
    std::atomic<uint64_t> m_used{0};
    std::atomic<uint64_t> m_refusals{0};
};

} // namespace ua
