// The pending calls of a ClientCore by RequestHandle (PendingCalls; internal): a table of slots in
// which the handle names its slot, so that finding the call a response answers is an index and a
// compare instead of a hash lookup (issue 9 target 10: the client's bookkeeping per request). A
// freed slot is reused by the next call (no allocation per call in steady state); the slot storage
// stays where it is while others are added, so a reference to a pending call stays valid until that
// call is erased. One thread: the Client's I/O thread.
//
// Handle: the slot's index in the low kIndexBits, a serial in the rest that changes on every
// reuse of a slot, so a late response for a call whose slot was reused names a handle that is not
// pending (PendingCalls also checks the RequestId). Never 0 (OPC 10000-4 7.32: 0 is what a server
// answers when it could not read the RequestHandle).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace ua {

template <class T>
class PendingTable {
public:
    static constexpr unsigned kIndexBits = 22;  // up to 4,194,304 calls pending at once
    static constexpr uint32_t kIndexMask = (1u << kIndexBits) - 1;
    static constexpr std::size_t kMaxPending = std::size_t(kIndexMask) + 1;

    // Stores value; returns its handle, or 0 when kMaxPending calls are pending already.
    uint32_t add(T&& value) {
        uint32_t handle = 0;
        if (T* v = emplace(handle)) *v = std::move(value);
        return handle;
    }
    // A default-constructed value in a free slot, to be filled in place (no temporary moved in);
    // handle is set to its handle. nullptr (handle 0) when kMaxPending calls are pending already.
    T* emplace(uint32_t& handle) {
        uint32_t index;
        if (!m_free.empty()) {
            index = m_free.back();
            m_free.pop_back();
        } else {
            if (m_slots.size() == kMaxPending) {
                handle = 0;
                return nullptr;
            }
            index = uint32_t(m_slots.size());
            m_slots.emplace_back();
        }
        Slot& s = m_slots[index];
        s.serial = (s.serial + 1) & (~0u >> kIndexBits);
        if (s.serial == 0 && index == 0) s.serial = 1;  // handle 0 is never given out
        handle = (s.serial << kIndexBits) | index;
        if (index == m_handles.size()) m_handles.push_back(0);
        m_handles[index] = handle;
        s.value.emplace();
        ++m_count;
        return &*s.value;
    }

    // Whether the call of handle is pending: a look at 4 bytes of a compact array, the slot
    // itself not touched (the deadlines' check of their oldest calls).
    bool contains(uint32_t handle) const {
        const uint32_t index = handle & kIndexMask;
        return handle != 0 && index < m_handles.size() && m_handles[index] == handle;
    }
    // The pending call of handle; nullptr when none is.
    T* find(uint32_t handle) { return contains(handle) ? &*m_slots[handle & kIndexMask].value : nullptr; }
    const T* find(uint32_t handle) const { return const_cast<PendingTable*>(this)->find(handle); }

    // Takes the call of handle out (and frees its slot); nullopt when none is pending.
    std::optional<T> take(uint32_t handle) {
        T* v = find(handle);
        if (!v) return std::nullopt;
        std::optional<T> out(std::move(*v));
        erase(handle);
        return out;
    }

    // Frees the slot of handle (its value destroyed); false when no call of handle is pending.
    bool erase(uint32_t handle) {
        if (!find(handle)) return false;
        m_slots[handle & kIndexMask].value.reset();
        m_handles[handle & kIndexMask] = 0;
        m_free.push_back(handle & kIndexMask);
        --m_count;
        return true;
    }

    std::size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }

    // f(handle, const T&) for every pending call, in slot order.
    template <class F>
    void forEach(F&& f) const {
        for (std::size_t i = 0; i < m_handles.size(); ++i)
            if (m_handles[i]) f(m_handles[i], *m_slots[i].value);
    }

private:
    struct Slot {
        std::optional<T> value;
        uint32_t serial = 0;
    };
    std::deque<Slot> m_slots;         // a deque: adding a slot moves none of the others
    std::vector<uint32_t> m_handles;  // by slot: the handle of its pending call, 0 when free
    std::vector<uint32_t> m_free;  // indices of empty slots
    std::size_t m_count = 0;
};

} // namespace ua
