// The stored Value of a Variable or VariableType (OPC 10000-3 5.6.2 Value attribute), shared by
// every snapshot of the address space (Node.h), so that a Write is seen by all readers without
// copying the node table.
//
// Reads and writes are atomic: a reader gets a whole DataValue, never a torn one, and takes no
// lock and counts no reference. A replaced value is freed through epoch-based reclamation
// (EpochReclamation.h) once no reader can still see it. Writers are serialized per cell only by a
// compare-and-swap; each write allocates the new value.
#pragma once

#include "ua/types/Variant.h"
#include "ua/types/StatusCode.h"

#include <atomic>
#include <functional>
#include <memory>

namespace ua {

class ValueCell {
public:
    ValueCell() = default;
    explicit ValueCell(DataValue v);
    ~ValueCell();
    ValueCell(const ValueCell&) = delete;
    ValueCell& operator=(const ValueCell&) = delete;

    // The current value, shared (nullptr when no value was ever stored). Costs a reference count;
    // in a loop over many values prefer peek() under one epoch::ReadGuard.
    std::shared_ptr<const DataValue> load() const;
    // The current value, valid until the caller's epoch::ReadGuard ends: the caller must hold one
    // (the Read service opens one per request). nullptr when no value was ever stored. One load.
    const DataValue* peek() const {
        const Held* h = m_held.load(std::memory_order_seq_cst);
        return h ? h->get() : nullptr;
    }
    // Copies the current value into out (a Variant of the same type is assigned in place); false,
    // and out untouched, when no value was ever stored. Opens a guard of its own.
    bool copyTo(DataValue& out) const;

    void store(DataValue v);
    // Replaces the value with change(current) atomically (current is nullptr when unset); when
    // change returns a Bad status nothing is stored and that status is returned. change may run
    // more than once when writers race.
    StatusCode update(const std::function<StatusCode(const DataValue* current, DataValue& next)>& change);

private:
    using Held = std::shared_ptr<const DataValue>;
    void replace(Held* next);

    std::atomic<Held*> m_held{nullptr};
};

} // namespace ua
