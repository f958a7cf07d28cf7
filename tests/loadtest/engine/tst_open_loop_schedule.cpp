// The open loop's schedule (loadtest-app/engine/LoadEngine.h) without a server: which requests of a
// Session are due inside the measured period. Request k of Session i is due at
// loadStart + (k * sessions + i) / rate; what unsentDue() counts as due and never sent must use
// the same arithmetic as the sends, or a request at the period's end that the pacer rightly never
// sent is counted as sent and timed out (issue 28: "timeouts 1" against a healthy server).
#include "engine/LoadEngine.h"

#include <QTest>
#include "TestMain.h"

using namespace ua::loadtest;
using namespace ua::loadtest::detail;

namespace {

// An engine whose schedule starts at `start` ns: `rate` requests/s over `sessions` Sessions, the
// measured period [start + warmup, start + warmup + duration).
struct Schedule {
    Engine engine;
    Session session;
    Schedule(double rate, int sessions, int index, int64_t start, double warmupS, double durationS) {
        engine.p.sessions = sessions;
        engine.p.targetRate = rate;
        engine.openLoop = true;
        engine.nsPerRequest = 1e9 / rate;
        engine.loadStartNs = start;
        engine.measureStartNs = start + int64_t(warmupS * 1e9);
        engine.measureEndNs = engine.measureStartNs.load() + int64_t(durationS * 1e9);
        session.index = index;
    }
    // The number of the Session's entries k with intended time in [from, to), counted one by one.
    uint64_t countDue(uint64_t fromK, int64_t from, int64_t to) const {
        uint64_t n = 0;
        for (uint64_t k = fromK; k < 1'000'000; ++k) {
            const int64_t t = engine.loadStartNs + int64_t((double(k) * double(engine.p.sessions) + double(session.index)) * engine.nsPerRequest);
            if (t >= to) break;
            if (t >= from) ++n;
        }
        return n;
    }
};

} // namespace

class TestOpenLoopSchedule : public QObject {
    Q_OBJECT
private slots:
    void unsentDueMatchesTheSends_data() {
        QTest::addColumn<double>("rate");
        QTest::addColumn<int>("sessions");
        QTest::addColumn<int>("index");
        QTest::addColumn<double>("warmup");
        QTest::addColumn<double>("duration");
        // 3/s over 1 Session, 5 s: request 15 is due at 15 x 333,333,333.33 ns, which the
        // multiplication rounds to 5 s exactly (the period's end: never sent), while the division
        // 5 s / 333,333,333.33 ns gives 15.000000000000002 (so it was counted as due).
        QTest::newRow("3/s 1 Session 0+5 s") << 3.0 << 1 << 0 << 0.0 << 5.0;
        QTest::newRow("3/s 2 Sessions 0+5 s, Session 1") << 3.0 << 2 << 1 << 0.0 << 5.0;
        QTest::newRow("3/s 1 Session 2+8 s") << 3.0 << 1 << 0 << 2.0 << 8.0;
        QTest::newRow("3000/s 100 Sessions 2+10 s") << 3000.0 << 100 << 37 << 2.0 << 10.0;
        QTest::newRow("7/s 3 Sessions 1+1.5 s") << 7.0 << 3 << 2 << 1.0 << 1.5;
    }
    void unsentDueMatchesTheSends() {
        QFETCH(double, rate);
        QFETCH(int, sessions);
        QFETCH(int, index);
        QFETCH(double, warmup);
        QFETCH(double, duration);
        for (const int64_t start : {int64_t(0), int64_t(123'456'789'012'345)}) {
            Schedule s(rate, sessions, index, start, warmup, duration);
            const int64_t from = s.engine.measureStartNs.load(), to = s.engine.measureEndNs.load();
            // Nothing sent yet: every entry of the period is due and unsent.
            QCOMPARE(s.engine.unsentDue(s.session), s.countDue(0, from, to));
            // Everything the sends would make (all entries before the end) made: nothing is left.
            s.session.nextK = s.countDue(0, 0, to);
            QCOMPARE(s.engine.unsentDue(s.session), uint64_t(0));
            // One short of that: exactly one left.
            --s.session.nextK;
            QCOMPARE(s.engine.unsentDue(s.session), uint64_t(1));
        }
    }
};

UA_TEST_GUILESS_MAIN(TestOpenLoopSchedule)
#include "tst_open_loop_schedule.moc"
