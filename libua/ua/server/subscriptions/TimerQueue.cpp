#include "ua/server/subscriptions/TimerQueue.h"

namespace ua {

uint32_t TimerQueue::add(Client* client, uint32_t timerId) {
    uint32_t slot;
    if (!m_free.empty()) {
        slot = m_free.back();
        m_free.pop_back();
    } else {
        slot = uint32_t(m_slots.size());
        m_slots.emplace_back();
    }
    Slot& s = m_slots[slot];
    s.client = client;
    s.timerId = timerId;
    s.armed = false;
    ++s.generation;
    return slot;
}

void TimerQueue::remove(uint32_t slot) {
    Slot& s = m_slots[slot];
    s.client = nullptr;
    s.armed = false;
    ++s.generation;
    m_free.push_back(slot);
}

void TimerQueue::arm(uint32_t slot, int64_t dueUs) {
    Slot& s = m_slots[slot];
    ++s.generation;
    s.armed = true;
    m_heap.push(Entry{dueUs, slot, s.generation});
}

void TimerQueue::disarm(uint32_t slot) {
    Slot& s = m_slots[slot];
    ++s.generation;
    s.armed = false;
}

void TimerQueue::dropStale() {
    while (!m_heap.empty()) {
        const Entry& e = m_heap.top();
        const Slot& s = m_slots[e.slot];
        if (s.armed && s.generation == e.generation && s.client) return;
        m_heap.pop();
    }
}

int64_t TimerQueue::nextDue() {
    dropStale();
    return m_heap.empty() ? kNever : m_heap.top().dueUs;
}

int TimerQueue::runDue(int64_t nowUs) {
    int fired = 0;
    while (true) {
        dropStale();
        if (m_heap.empty() || m_heap.top().dueUs > nowUs) return fired;
        const Entry e = m_heap.top();
        m_heap.pop();
        Slot& s = m_slots[e.slot];
        s.armed = false;
        ++fired;
        s.client->onTimer(s.timerId, e.dueUs, nowUs);
    }
}

int64_t nextOnGrid(int64_t afterUs, int64_t intervalUs, int64_t phaseUs) {
    if (intervalUs <= 0) return afterUs + 1;
    // The first t = phase + k*interval with t > after.
    int64_t k = (afterUs - phaseUs) / intervalUs;
    if (afterUs - phaseUs < 0 && (afterUs - phaseUs) % intervalUs != 0) --k;  // floor division
    int64_t t = phaseUs + k * intervalUs;
    while (t <= afterUs) t += intervalUs;
    return t;
}

} // namespace ua
