// ValueCell and the epoch-based reclamation behind it (libua/ua/server/addressspace/ValueCell.h,
// EpochReclamation.h): a value replaced while a reader's guard is open stays alive until that guard
// ends, and is freed after it; readers on other threads never see a torn or freed value while a
// writer replaces it as fast as it can (the ASan and TSan builds run this too).
#include "ua/server/addressspace/EpochReclamation.h"
#include "ua/server/addressspace/ValueCell.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <QTest>
#include "TestMain.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace ua;

namespace {

// Counts its destructions, to see when a retired value is freed.
std::atomic<int> g_destroyed{0};
struct Tracked {
    ~Tracked() { g_destroyed.fetch_add(1); }
};
void destroyTracked(void* p) { delete static_cast<Tracked*>(p); }

// Collects until nothing retired is left (values retired by earlier cases included).
void drain() {
    for (int i = 0; i < 8 && epoch::collect() != 0; ++i) {}
}

// A DataValue whose parts all derive from n, so a reader can tell a torn or freed one.
DataValue valueOf(int32_t n) {
    DataValue dv(Variant(String(std::to_string(n) + std::string(40, 'x'))));
    dv.setSourceTimestamp(DateTime{int64_t(n)});
    return dv;
}
bool consistent(const DataValue& dv) {
    const String* s = dv.value.get<String>();
    if (!s) return false;
    const std::string text(s->view());
    const auto n = std::stoll(text.substr(0, text.find('x')));
    return dv.sourceTimestamp.ticks == n && text.size() == std::to_string(n).size() + 40;
}

// Runs f on a thread of its own that opens a guard and keeps it open until release() is called.
class GuardHolder {
public:
    GuardHolder()
        : m_thread([this] {
              const epoch::ReadGuard guard;
              std::unique_lock lock(m_mutex);
              m_open = true;
              m_cv.notify_all();
              m_cv.wait(lock, [this] { return m_release; });
          }) {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_open; });
    }
    ~GuardHolder() { release(); }
    void release() {
        {
            std::lock_guard lock(m_mutex);
            m_release = true;
        }
        m_cv.notify_all();
        if (m_thread.joinable()) m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_open = false;
    bool m_release = false;
    std::thread m_thread;
};

} // namespace

class TestValueCell : public QObject {
    Q_OBJECT
private slots:
    void init() {
        drain();
        g_destroyed = 0;
    }

    void retiredWithNoReaderIsFreedByACollect() {
        epoch::retire(new Tracked, destroyTracked);
        QCOMPARE(g_destroyed.load(), 0);  // retire() frees only every kCollectEvery calls
        QCOMPARE(epoch::collect(), std::size_t(0));
        QCOMPARE(g_destroyed.load(), 1);
    }

    void anOpenGuardOnAnotherThreadKeepsWhatWasRetired() {
        GuardHolder reader;
        const uint64_t before = epoch::currentEpoch();
        epoch::retire(new Tracked, destroyTracked);
        for (int i = 0; i < 5; ++i) epoch::collect();
        QCOMPARE(g_destroyed.load(), 0);
        QVERIFY(epoch::currentEpoch() <= before + 1);  // the open guard holds the epoch back
        reader.release();
        drain();
        QCOMPARE(g_destroyed.load(), 1);
    }

    void theInnerOfTwoNestedGuardsDoesNotEndTheOuter() {
        std::atomic<int> step{0};
        std::thread t([&] {
            const epoch::ReadGuard outer;
            { const epoch::ReadGuard inner; }
            QVERIFY(epoch::guarded());
            step = 1;
            while (step.load() != 2) std::this_thread::yield();
        });
        while (step.load() != 1) std::this_thread::yield();
        epoch::retire(new Tracked, destroyTracked);
        for (int i = 0; i < 5; ++i) epoch::collect();
        QCOMPARE(g_destroyed.load(), 0);
        step = 2;
        t.join();
        drain();
        QCOMPARE(g_destroyed.load(), 1);
        QVERIFY(!epoch::guarded());
    }

    void anEndedThreadHoldsNothingBack() {
        for (int i = 0; i < 4; ++i) std::thread([] { const epoch::ReadGuard g; }).join();
        epoch::retire(new Tracked, destroyTracked);
        QCOMPARE(epoch::collect(), std::size_t(0));
        QCOMPARE(g_destroyed.load(), 1);
    }

    void aPeekedValueOutlivesItsReplacement() {
        ValueCell cell(valueOf(7));
        GuardHolder other;  // keeps the epoch from moving on while this thread's guard is open too
        const epoch::ReadGuard guard;
        const DataValue* seen = cell.peek();
        QVERIFY(seen);
        for (int i = 0; i < int(epoch::kCollectEvery) * 3; ++i) cell.store(valueOf(100 + i));
        epoch::collect();
        QVERIFY(consistent(*seen));  // ASan reports a use after free here if it was freed
        QCOMPARE(seen->sourceTimestamp.ticks, int64_t(7));
        QCOMPARE(cell.peek()->sourceTimestamp.ticks, int64_t(100 + int(epoch::kCollectEvery) * 3 - 1));
    }

    // A Ref keeps its value after the cell moved on and after the cell itself is gone; copies
    // share it, and the last one frees it (ASan reports a leak or a use after free otherwise).
    void aRefOutlivesItsCell() {
        ValueCell::Ref first;
        ValueCell::Ref copy;
        {
            auto cell = std::make_unique<ValueCell>(valueOf(5));
            first = cell->load();
            for (int i = 0; i < int(epoch::kCollectEvery) * 2; ++i) cell->store(valueOf(10 + i));
            copy = first;
            const ValueCell::Ref latest = cell->load();
            QCOMPARE(latest->sourceTimestamp.ticks, int64_t(10 + int(epoch::kCollectEvery) * 2 - 1));
        }
        drain();
        QVERIFY(first && copy);
        QCOMPARE(first.get(), copy.get());
        QCOMPARE(first->sourceTimestamp.ticks, int64_t(5));
        QVERIFY(consistent(*first));
        first = nullptr;
        QVERIFY(!first);
        QCOMPARE(copy->sourceTimestamp.ticks, int64_t(5));
        ValueCell::Ref moved = std::move(copy);
        QVERIFY(!copy);  // NOLINT(bugprone-use-after-move): a moved-from Ref is null
        QCOMPARE(moved->sourceTimestamp.ticks, int64_t(5));
    }

    // A cell from make(v) keeps its first value in its own allocation: the value outlives the cell
    // when a Ref holds it, the cell outlives the value when a write replaced it, and each is freed
    // once (the sanitizer builds check the frees).
    void aCellMadeWithAValueSharesItsAllocation() {
        ValueCell::Ref first;
        {
            ValueCell::Ptr cell = ValueCell::make(valueOf(5));
            const ValueCell::Ptr second = cell;
            first = cell->load();
            QVERIFY(consistent(*first));
            QCOMPARE(first->sourceTimestamp.ticks, int64_t(5));
        }  // the cell is gone, its first value is not
        drain();
        QCOMPARE(first->sourceTimestamp.ticks, int64_t(5));
        first = nullptr;

        {
            ValueCell::Ptr cell = ValueCell::make(valueOf(6));
            for (int i = 0; i < int(epoch::kCollectEvery) * 2; ++i) cell->store(valueOf(20 + i));
            drain();  // the first value is released; the cell lives on
            QCOMPARE(cell->load()->sourceTimestamp.ticks, int64_t(20 + int(epoch::kCollectEvery) * 2 - 1));
            QVERIFY(cell->update([](const DataValue* current, DataValue& next) {
                next = valueOf(int32_t(current->sourceTimestamp.ticks + 1));
                return status::Good;
            }).isGood());
            QCOMPARE(cell->load()->sourceTimestamp.ticks, int64_t(20 + int(epoch::kCollectEvery) * 2));
        }
        drain();

        ValueCell::Ptr empty = ValueCell::make();  // no first value: the cell alone
        QVERIFY(!empty->load());
        empty->store(valueOf(8));
        QCOMPARE(empty->load()->sourceTimestamp.ticks, int64_t(8));
        empty = nullptr;
        drain();
    }

    void loadCopyToAndUpdate() {
        ValueCell empty;
        QVERIFY(!empty.load());
        DataValue untouched = valueOf(3);
        QVERIFY(!empty.copyTo(untouched));
        QCOMPARE(untouched.sourceTimestamp.ticks, int64_t(3));

        ValueCell cell(valueOf(1));
        const ValueCell::Ref kept = cell.load();
        QCOMPARE(cell.update([](const DataValue* cur, DataValue& next) {
            next = valueOf(int32_t(cur->sourceTimestamp.ticks) + 1);
            return StatusCode(status::Good);
        }), StatusCode(status::Good));
        QCOMPARE(cell.update([](const DataValue*, DataValue&) { return StatusCode(status::BadTypeMismatch); }),
                 StatusCode(status::BadTypeMismatch));
        DataValue now;
        QVERIFY(cell.copyTo(now));
        QCOMPARE(now.sourceTimestamp.ticks, int64_t(2));
        drain();
        QCOMPARE(kept->sourceTimestamp.ticks, int64_t(1));  // a load() is shared, not reclaimed
        QVERIFY(consistent(*kept));
    }

    // Two readers (peek under a guard, and copyTo) against two writers (store and update) for a
    // while: every value read is whole. Under ASan a freed value read would be reported.
    void readersNeverSeeATornOrFreedValue() {
        ValueCell cell(valueOf(0));
        std::atomic<bool> stop{false};
        std::atomic<long> bad{0}, reads{0};
        std::vector<std::thread> threads;
        threads.emplace_back([&] {
            for (int32_t i = 1; !stop.load(std::memory_order_relaxed); ++i) cell.store(valueOf(i));
        });
        threads.emplace_back([&] {
            while (!stop.load(std::memory_order_relaxed)) {
                cell.update([](const DataValue* cur, DataValue& next) {
                    next = valueOf(int32_t(cur->sourceTimestamp.ticks) + 1);
                    return StatusCode(status::Good);
                });
            }
        });
        threads.emplace_back([&] {
            while (!stop.load(std::memory_order_relaxed)) {
                const epoch::ReadGuard guard;
                for (int k = 0; k < 16; ++k) {
                    const DataValue* v = cell.peek();
                    if (!v || !consistent(*v)) bad.fetch_add(1);
                    reads.fetch_add(1, std::memory_order_relaxed);
                }
            }
        });
        threads.emplace_back([&] {
            DataValue v;
            while (!stop.load(std::memory_order_relaxed)) {
                if (!cell.copyTo(v) || !consistent(v)) bad.fetch_add(1);
                reads.fetch_add(1, std::memory_order_relaxed);
            }
        });
        QTest::qWait(1500);
        stop = true;
        for (auto& t : threads) t.join();
        QCOMPARE(bad.load(), 0L);
        QVERIFY(reads.load() > 1000);
        QCOMPARE(epoch::collect(), std::size_t(0));  // no guard left open: everything freed
    }
};

UA_TEST_GUILESS_MAIN(TestValueCell)
#include "tst_value_cell.moc"
