#include "ua/server/addressspace/ValueCell.h"

#include "ua/server/addressspace/BlockPool.h"
#include "ua/server/addressspace/EpochReclamation.h"

#include <new>

namespace ua {

namespace {
// Where a cell made with a value keeps that value, from the start of the cell's allocation.
template <class Held>
constexpr std::size_t firstOffset(std::size_t cellSize) {
    return (cellSize + alignof(Held) - 1) / alignof(Held) * alignof(Held);
}
} // namespace

constexpr std::size_t ValueCell::blockWithFirst() {
    static_assert(alignof(Held) <= alignof(void*) && alignof(ValueCell) <= alignof(void*), "a BlockPool block is aligned to 8 bytes");
    return firstOffset<Held>(sizeof(ValueCell)) + sizeof(Held);
}

// The pools of the two kinds of cell blocks: a cell alone, a cell with its first value.
using CellPool = BlockPool<sizeof(ValueCell)>;

ValueCell::Ptr ValueCell::make() {
    ValueCell* c = new (CellPool::allocate()) ValueCell();
    c->m_block.store(1, std::memory_order_relaxed);  // the cell
    return Ptr(c);
}

ValueCell::Ptr ValueCell::make(DataValue v) {
    constexpr std::size_t offset = firstOffset<Held>(sizeof(ValueCell));
    void* block = BlockPool<blockWithFirst()>::allocate();
    ValueCell* c = new (block) ValueCell();
    Held* first = new (static_cast<char*>(block) + offset) Held(std::move(v));
    first->inCell = true;
    c->m_block.store(2 | kWithFirst, std::memory_order_relaxed);  // the cell and its first value
    c->m_held.store(first, std::memory_order_relaxed);
    return Ptr(c);
}

// A cell from make() is never destroyed as an object (its members need no destructor): its
// destructor's work is done here, and its allocation freed when its first value is gone too.
void ValueCell::destroy(ValueCell* c) {
    c->replace(nullptr);
    dropBlock(c);
}

void ValueCell::dropBlock(ValueCell* c) {
    const uint32_t was = c->m_block.fetch_sub(1, std::memory_order_acq_rel);
    if ((was & ~kWithFirst) != 1) return;
    if (was & kWithFirst) BlockPool<blockWithFirst()>::deallocate(c);
    else CellPool::deallocate(c);
}

void ValueCell::release(Held* h) {
    if (!h || h->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (!h->inCell) {
        delete h;
        return;
    }
    constexpr std::size_t offset = firstOffset<Held>(sizeof(ValueCell));
    ValueCell* c = reinterpret_cast<ValueCell*>(reinterpret_cast<char*>(h) - offset);
    h->~Held();
    dropBlock(c);
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
