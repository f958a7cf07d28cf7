// The deadlines of a Client's pending calls (PendingCalls; internal): one FIFO of (RequestHandle,
// deadline) per distinct timeout (ms). Calls with the same timeout get their deadlines (now +
// timeout) in the order their handles are issued, so each FIFO is ordered by deadline: adding a
// call is a push at the back, the earliest deadline is at one of the fronts, and a completed call
// is not searched for: it is dropped when it reaches a front (isPending says false for it). The
// deadline is kept in the FIFO, so that the pending calls' table is only asked whether a handle is
// still pending (a compact array; the calls themselves are not touched: issue 9 target 10). A
// FIFO is a ring that grows to the most calls outstanding between its oldest pending call and its
// newest, then allocates nothing (the std::set it replaces took an insert and an erase per call).
// One thread: the Client's I/O thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace ua {

class DeadlineQueues {
public:
    static constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

    // Adds a call of this timeout and deadline (ms), issued after every call added before (so
    // that its deadline is not before theirs of the same timeout). isPending(handle) tells
    // whether a call is still pending; the completed calls at the front of this FIFO are dropped
    // on the way.
    template <class IsPending>
    void add(uint32_t timeoutMs, uint32_t handle, int64_t deadlineMs, IsPending&& isPending) {
        Ring& r = ringOf(timeoutMs);
        dropCompleted(r, isPending);
        r.push(Cell{handle, deadlineMs});
    }

    // The earliest deadline of a pending call, kNone when there is none.
    template <class IsPending>
    int64_t earliest(IsPending&& isPending) {
        int64_t best = kNone;
        for (Ring& r : m_rings) {
            dropCompleted(r, isPending);
            if (!r.empty()) best = std::min(best, r.front().deadlineMs);
        }
        return best;
    }

    // Removes the pending calls whose deadline is at or before nowMs and appends their handles to
    // due (in each FIFO's order); the caller completes them afterwards (a completion may add calls).
    template <class IsPending>
    void takeDue(int64_t nowMs, IsPending&& isPending, std::vector<uint32_t>& due) {
        for (Ring& r : m_rings) {
            while (!r.empty()) {
                const Cell c = r.front();
                const bool pending = isPending(c.handle);
                if (pending && c.deadlineMs > nowMs) break;
                if (pending) due.push_back(c.handle);
                r.pop();
            }
        }
    }

    // Handles held, pending or completed but not yet dropped (for tests).
    std::size_t size() const {
        std::size_t n = 0;
        for (const Ring& r : m_rings) n += r.count;
        return n;
    }

private:
    struct Cell {
        uint32_t handle;
        int64_t deadlineMs;
    };
    struct Ring {
        uint32_t timeoutMs = 0;
        std::vector<Cell> cells;  // a power of two
        std::size_t head = 0;
        std::size_t count = 0;

        bool empty() const { return count == 0; }
        const Cell& front() const { return cells[head]; }
        void pop() {
            head = (head + 1) & (cells.size() - 1);
            --count;
        }
        void push(Cell c) {
            if (count == cells.size()) grow();
            cells[(head + count) & (cells.size() - 1)] = c;
            ++count;
        }
        void grow() {
            std::vector<Cell> bigger(cells.empty() ? 64 : cells.size() * 2);
            for (std::size_t i = 0; i < count; ++i) bigger[i] = cells[(head + i) & (cells.size() - 1)];
            cells.swap(bigger);
            head = 0;
        }
    };

    Ring& ringOf(uint32_t timeoutMs) {
        for (Ring& r : m_rings)
            if (r.timeoutMs == timeoutMs) return r;
        m_rings.emplace_back();
        m_rings.back().timeoutMs = timeoutMs;
        return m_rings.back();
    }
    template <class IsPending>
    static void dropCompleted(Ring& r, IsPending& isPending) {
        while (!r.empty() && !isPending(r.front().handle)) r.pop();
    }

    std::vector<Ring> m_rings;  // one per timeout in use; a Client uses a few
};

} // namespace ua
