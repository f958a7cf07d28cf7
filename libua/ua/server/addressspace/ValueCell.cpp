#include "ua/server/addressspace/ValueCell.h"

#include "ua/server/addressspace/EpochReclamation.h"

namespace ua {

void ValueCell::release(Held* h) {
    if (h && h->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete h;
}

ValueCell::ValueCell(DataValue v) : m_held(new Held(std::move(v))) {}

// A reader reaches a cell through a snapshot or a Ptr it holds, so none can be inside it
// now; the value is still retired, not released, in case a guard loaded it just before.
ValueCell::~ValueCell() { replace(nullptr); }

ValueCell::Ref ValueCell::load() const {
    const epoch::ReadGuard guard;  // the cell's reference is not dropped while the guard is open
    Held* h = m_held.load(std::memory_order_seq_cst);
    if (!h) return Ref();
    h->refs.fetch_add(1, std::memory_order_relaxed);
    return Ref(h);
}

bool ValueCell::copyTo(DataValue& out) const {
    const epoch::ReadGuard guard;
    const DataValue* v = peek();
    if (!v) return false;
    out = *v;
    return true;
}

// The cell's reference to the value it held is dropped once no reader's guard can still see it.
void ValueCell::replace(Held* next) {
    Held* old = m_held.exchange(next, std::memory_order_seq_cst);
    if (old) epoch::retire(old, [](void* p) { release(static_cast<Held*>(p)); });
}

void ValueCell::store(DataValue v) { replace(new Held(std::move(v))); }

StatusCode ValueCell::update(const std::function<StatusCode(const DataValue*, DataValue&)>& change) {
    const epoch::ReadGuard guard;  // current stays valid while change reads it
    Held* current = m_held.load(std::memory_order_seq_cst);
    for (;;) {
        DataValue next;
        const StatusCode s = change(current ? &current->value : nullptr, next);
        if (s.isBad()) return s;
        Held* replacement = new Held(std::move(next));
        if (m_held.compare_exchange_strong(current, replacement, std::memory_order_seq_cst)) {
            if (current) epoch::retire(current, [](void* p) { release(static_cast<Held*>(p)); });
            return s;
        }
        delete replacement;
    }
}

} // namespace ua
