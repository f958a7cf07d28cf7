// The stored Value of a Variable or VariableType (OPC 10000-3 5.6.2 Value attribute), shared by
// every snapshot of the address space (Node.h), so that a Write is seen by all readers without
// copying the node table.
//
// Reads and writes are atomic: a reader gets a whole DataValue, never a torn one, and takes no
// lock and counts no reference (peek()). A replaced value is released through epoch-based
// reclamation (EpochReclamation.h) once no reader can still see it, and freed when no Ref holds it
// either. Writers are serialized per cell only by a compare-and-swap; each write makes one
// allocation (the value and its count together). A cell made with a value (make(v)) holds that
// first value in its own allocation (120 bytes in all instead of 16 and 104 apart): the
// allocation is freed when both the cell and that value are released.
#pragma once

#include "ua/types/Variant.h"
#include "ua/types/StatusCode.h"

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace ua {

class ValueCell {
    struct Held;

public:
    // A counted reference to one stored value (like a shared_ptr, without its control block): the
    // value stays as it was for as long as a Ref holds it, whatever the cell stores meanwhile.
    class Ref {
    public:
        Ref() = default;
        Ref(std::nullptr_t) {}
        Ref(const Ref& other);
        Ref(Ref&& other) noexcept : m_held(std::exchange(other.m_held, nullptr)) {}
        Ref& operator=(Ref other) noexcept {
            std::swap(m_held, other.m_held);
            return *this;
        }
        ~Ref();
        const DataValue* get() const;
        const DataValue& operator*() const { return *get(); }
        const DataValue* operator->() const { return get(); }
        explicit operator bool() const { return m_held != nullptr; }

    private:
        friend class ValueCell;
        explicit Ref(Held* h) : m_held(h) {}
        Held* m_held = nullptr;
    };

    // A counted pointer to a cell, as the nodes of every snapshot hold it (like a
    // shared_ptr<ValueCell>: 8 bytes instead of 16, and no control block beside the cell).
    class Ptr {
    public:
        Ptr() = default;
        Ptr(std::nullptr_t) {}
        Ptr(const Ptr& other) : m_cell(other.m_cell) {
            if (m_cell) m_cell->m_uses.fetch_add(1, std::memory_order_relaxed);
        }
        Ptr(Ptr&& other) noexcept : m_cell(std::exchange(other.m_cell, nullptr)) {}
        Ptr& operator=(Ptr other) noexcept {
            std::swap(m_cell, other.m_cell);
            return *this;
        }
        ~Ptr() {
            if (m_cell && m_cell->m_uses.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(m_cell);
        }
        ValueCell* get() const { return m_cell; }
        ValueCell& operator*() const { return *m_cell; }
        ValueCell* operator->() const { return m_cell; }
        explicit operator bool() const { return m_cell != nullptr; }
        friend bool operator==(const Ptr& a, const Ptr& b) { return a.m_cell == b.m_cell; }

    private:
        friend class ValueCell;
        explicit Ptr(ValueCell* c) : m_cell(c) {}
        ValueCell* m_cell = nullptr;
    };
    // A new cell (holding v when given, in the cell's own allocation), counted by the Ptr returned.
    static Ptr make();
    static Ptr make(DataValue v);

    // A cell of its own (on the stack, say); the cells of the address space come from make().
    ValueCell() = default;
    explicit ValueCell(DataValue v);
    ~ValueCell();
    ValueCell(const ValueCell&) = delete;
    ValueCell& operator=(const ValueCell&) = delete;

    // The current value, counted (null when no value was ever stored). Costs an atomic increment;
    // in a loop over many values prefer peek() under one epoch::ReadGuard.
    Ref load() const;
    // The current value, valid until the caller's epoch::ReadGuard ends: the caller must hold one
    // (the Read service opens one per request). nullptr when no value was ever stored. One load.
    const DataValue* peek() const;
    // Copies the current value into out (a Variant of the same type is assigned in place); false,
    // and out untouched, when no value was ever stored. Opens a guard of its own.
    bool copyTo(DataValue& out) const;

    void store(DataValue v);
    // Replaces the value with change(current) atomically (current is nullptr when unset); when
    // change returns a Bad status nothing is stored and that status is returned. change may run
    // more than once when writers race.
    StatusCode update(const std::function<StatusCode(const DataValue* current, DataValue& next)>& change);

private:
    // One stored value and its count: the cell's own reference plus one per Ref. One allocation,
    // or (inCell) part of the allocation of the cell that was made with it.
    struct Held {
        explicit Held(DataValue v) : value(std::move(v)) {}
        std::atomic<uint32_t> refs{1};
        bool inCell = false;
        DataValue value;
    };
    static void release(Held* h);
    void replace(Held* next);
    static constexpr uint32_t kWithFirst = 0x80000000u;  // m_block: the block holds a first value too
    static constexpr std::size_t blockWithFirst();     // bytes of make(v)'s block (ValueCell.cpp)
    // The last Ptr is gone: retires the value and drops the cell's hold on its allocation.
    static void destroy(ValueCell* c);
    // Frees a cell's allocation once neither the cell nor its first value holds it.
    static void dropBlock(ValueCell* c);

    std::atomic<Held*> m_held{nullptr};
    std::atomic<uint32_t> m_uses{1};   // the Ptrs to this cell (make() returns the first)
    std::atomic<uint32_t> m_block{0};  // make()'s cells: the cell and its first value while they live
};

inline const DataValue* ValueCell::peek() const {
    const Held* h = m_held.load(std::memory_order_seq_cst);
    return h ? &h->value : nullptr;
}
inline ValueCell::Ref::Ref(const Ref& other) : m_held(other.m_held) {
    if (m_held) m_held->refs.fetch_add(1, std::memory_order_relaxed);
}
inline ValueCell::Ref::~Ref() { release(m_held); }
inline const DataValue* ValueCell::Ref::get() const { return m_held ? &m_held->value : nullptr; }

} // namespace ua
