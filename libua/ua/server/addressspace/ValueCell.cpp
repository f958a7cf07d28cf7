#include "ua/server/addressspace/ValueCell.h"

#include "ua/server/addressspace/EpochReclamation.h"

namespace ua {

namespace {

using Held = std::shared_ptr<const DataValue>;

void destroyHeld(void* p) { delete static_cast<Held*>(p); }

Held* hold(DataValue v) { return new Held(std::make_shared<const DataValue>(std::move(v))); }

} // namespace

ValueCell::ValueCell(DataValue v) : m_held(hold(std::move(v))) {}

// A reader reaches a cell through a snapshot or a shared_ptr it holds, so none can be inside it
// now; the value is still retired, not deleted, in case a guard loaded it just before.
ValueCell::~ValueCell() { epoch::retire(m_held.load(), destroyHeld); }

std::shared_ptr<const DataValue> ValueCell::load() const {
    const epoch::ReadGuard guard;
    const Held* h = m_held.load(std::memory_order_seq_cst);
    return h ? *h : nullptr;
}

bool ValueCell::copyTo(DataValue& out) const {
    const epoch::ReadGuard guard;
    const DataValue* v = peek();
    if (!v) return false;
    out = *v;
    return true;
}

void ValueCell::replace(Held* next) {
    Held* old = m_held.exchange(next, std::memory_order_seq_cst);
    epoch::retire(old, destroyHeld);
}

void ValueCell::store(DataValue v) { replace(hold(std::move(v))); }

StatusCode ValueCell::update(const std::function<StatusCode(const DataValue*, DataValue&)>& change) {
    const epoch::ReadGuard guard;  // current stays valid while change reads it
    Held* current = m_held.load(std::memory_order_seq_cst);
    for (;;) {
        DataValue next;
        const StatusCode s = change(current ? current->get() : nullptr, next);
        if (s.isBad()) return s;
        Held* replacement = hold(std::move(next));
        if (m_held.compare_exchange_strong(current, replacement, std::memory_order_seq_cst)) {
            epoch::retire(current, destroyHeld);
            return s;
        }
        delete replacement;
    }
}

} // namespace ua
