// Absolute-deadline timers for one thread: the publishing timers of Subscriptions and the sampling
// timers of MonitoredItem groups (OPC 10000-4 5.13.1.2, 5.14.1). A timer fires at the deadline it
// was armed for; its owner re-arms it for the next multiple of its interval, so timers never drift
// however late a callback runs (guide/architecture.md: "sampling on absolute deadlines").
//
// Time is passed in by the caller (microseconds of any monotonic clock), so tests drive it with a
// fake clock; SubscriptionScheduler drives it with the real one. Not thread-safe: one thread owns it.
#pragma once

#include <cstdint>
#include <limits>
#include <queue>
#include <vector>

namespace ua {

class TimerQueue {
public:
    // Something a timer calls back. dueUs: the deadline it was armed for; nowUs: the current time.
    class Client {
    public:
        virtual void onTimer(uint32_t timerId, int64_t dueUs, int64_t nowUs) = 0;

    protected:
        ~Client() = default;
    };

    static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

    // A new, unarmed timer for client; timerId is passed back to onTimer.
    uint32_t add(Client* client, uint32_t timerId = 0);
    // Disarms and frees a timer; pending deadlines of it are dropped.
    void remove(uint32_t slot);
    // Arms (or re-arms) a timer for deadline dueUs; a previous deadline of it is dropped.
    void arm(uint32_t slot, int64_t dueUs);
    void disarm(uint32_t slot);
    // The earliest armed deadline, or kNever.
    int64_t nextDue();
    // Calls every timer whose deadline is <= nowUs, earliest first (a timer re-armed at or before
    // nowUs fires again in the same call). Returns how many fired.
    int runDue(int64_t nowUs);
    std::size_t size() const { return m_slots.size() - m_free.size(); }

private:
    struct Slot {
        Client* client = nullptr;
        uint32_t timerId = 0;
        uint32_t generation = 0;  // bumped on every arm/disarm/remove: stale heap entries are skipped
        bool armed = false;
    };
    struct Entry {
        int64_t dueUs;
        uint32_t slot;
        uint32_t generation;
        bool operator>(const Entry& o) const { return dueUs > o.dueUs; }
    };
    void dropStale();

    std::vector<Slot> m_slots;
    std::vector<uint32_t> m_free;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> m_heap;
};

// A TimerQueue slot owned by one object (removed on destruction).
class Timer {
public:
    Timer() = default;
    Timer(TimerQueue& q, TimerQueue::Client* c, uint32_t id = 0) : m_queue(&q), m_slot(q.add(c, id)) {}
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;
    Timer(Timer&& o) noexcept : m_queue(o.m_queue), m_slot(o.m_slot) { o.m_queue = nullptr; }
    Timer& operator=(Timer&& o) noexcept {
        if (this != &o) { reset(); m_queue = o.m_queue; m_slot = o.m_slot; o.m_queue = nullptr; }
        return *this;
    }
    ~Timer() { reset(); }
    void reset() { if (m_queue) m_queue->remove(m_slot); m_queue = nullptr; }
    void arm(int64_t dueUs) { if (m_queue) m_queue->arm(m_slot, dueUs); }
    void disarm() { if (m_queue) m_queue->disarm(m_slot); }
    bool valid() const { return m_queue != nullptr; }

private:
    TimerQueue* m_queue = nullptr;
    uint32_t m_slot = 0;
};

// The next deadline of a periodic timer: the first phaseUs + k * intervalUs after afterUs (k an
// integer). Missed periods are skipped, never crammed in, and the grid never shifts.
int64_t nextOnGrid(int64_t afterUs, int64_t intervalUs, int64_t phaseUs);

} // namespace ua
