#include "ua/server/addressspace/EpochReclamation.h"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace ua::epoch {

namespace {

// One per thread that ever opened a guard; never freed, reused by a later thread once its thread
// ended. announced: 0 outside a guard, else epoch * 2 + 1.
struct alignas(64) Record {
    std::atomic<uint64_t> announced{0};
    std::atomic<bool> inUse{true};
    Record* next = nullptr;  // set before the record is published, then constant
};

struct Retired {
    void* p;
    void (*destroy)(void*);
    uint64_t epoch;
};

struct Domain {
    std::atomic<uint64_t> epoch{1};
    std::atomic<Record*> records{nullptr};
    std::mutex retiredMutex;
    std::vector<Retired> retired;
    std::size_t sinceCollect = 0;

    Record* acquireRecord() {
        for (Record* r = records.load(); r; r = r->next) {
            bool free = false;
            if (!r->inUse.load(std::memory_order_relaxed) && r->inUse.compare_exchange_strong(free, true)) return r;
        }
        auto* r = new Record;
        Record* head = records.load();
        do r->next = head;
        while (!records.compare_exchange_weak(head, r));
        return r;
    }

    // Advances the epoch from g to g + 1 if no open guard announced another epoch.
    void tryAdvance() {
        const uint64_t g = epoch.load();
        const uint64_t mine = g * 2 + 1;
        for (Record* r = records.load(); r; r = r->next) {
            const uint64_t a = r->announced.load();
            if (a != 0 && a != mine) return;
        }
        uint64_t expected = g;
        epoch.compare_exchange_strong(expected, g + 1);
    }

    // Moves what is due out of `retired` (the caller holds retiredMutex) into due.
    void takeDue(std::vector<Retired>& due) {
        tryAdvance();
        tryAdvance();
        const uint64_t g = epoch.load();
        std::size_t kept = 0;
        for (Retired& x : retired) {
            if (x.epoch + 2 <= g) due.push_back(x);
            else retired[kept++] = x;
        }
        retired.resize(kept);
        sinceCollect = 0;
    }
};

// Never destroyed: ValueCells in objects destroyed at exit may still retire into it. What it holds
// stays reachable (LeakSanitizer does not report it).
Domain& domain() {
    static Domain* d = new Domain;
    return *d;
}

struct ThreadState {
    Record* record = nullptr;
    unsigned depth = 0;
    ~ThreadState() {
        if (!record) return;
        record->announced.store(0, std::memory_order_release);
        record->inUse.store(false, std::memory_order_release);
    }
};

thread_local ThreadState t_state;

void destroyAll(std::vector<Retired>& due) {
    for (const Retired& x : due) x.destroy(x.p);
}

} // namespace

ReadGuard::ReadGuard() {
    ThreadState& t = t_state;
    if (t.depth++ != 0) return;
    if (!t.record) t.record = domain().acquireRecord();
    Domain& d = domain();
    uint64_t e = d.epoch.load();
    for (;;) {
        t.record->announced.store(e * 2 + 1);
        const uint64_t again = d.epoch.load();
        if (again == e) break;
        e = again;
    }
}

ReadGuard::~ReadGuard() {
    ThreadState& t = t_state;
    if (--t.depth == 0) t.record->announced.store(0, std::memory_order_release);
}

bool guarded() { return t_state.depth != 0; }

void retire(void* p, void (*destroy)(void*)) {
    if (!p) return;
    Domain& d = domain();
    std::vector<Retired> due;
    {
        const uint64_t e = d.epoch.load();
        std::lock_guard lock(d.retiredMutex);
        d.retired.push_back({p, destroy, e});
        if (++d.sinceCollect >= kCollectEvery) d.takeDue(due);
    }
    destroyAll(due);
}

std::size_t collect() {
    Domain& d = domain();
    std::vector<Retired> due;
    std::size_t left = 0;
    {
        std::lock_guard lock(d.retiredMutex);
        d.takeDue(due);
        left = d.retired.size();
    }
    destroyAll(due);
    return left;
}

uint64_t currentEpoch() { return domain().epoch.load(); }

} // namespace ua::epoch
