// The history store (libua/ua/server/history/HistoryStore.h) over a real SQLite file: sampled
// values in blocks and open blocks, reads in both directions with limits, bounds, the HistoryUpdate
// operations with their status codes and their record for Read Modified, the limits, and a reopen
// that finds everything written.
#include "ua/server/history/HistoryStore.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include "TestMain.h"

using namespace ua;

namespace {

constexpr int64_t kBase = 133000000000000000LL;  // some day in 2022, ticks
int64_t tsAt(int i) { return kBase + int64_t(i) * 10000000; }  // one value per second

DataValue sampleAt(int i, double value) {
    DataValue v{Variant(value)};
    v.setSourceTimestamp(DateTime{tsAt(i)});
    v.setServerTimestamp(DateTime{tsAt(i) + 1});
    return v;
}

std::vector<int> secondsOf(const std::vector<DataValue>& values) {
    std::vector<int> out;
    for (const DataValue& v : values) out.push_back(int((v.sourceTimestamp.ticks - kBase) / 10000000));
    return out;
}

std::vector<int> range(int from, int to, int step = 1) {
    std::vector<int> out;
    for (int i = from; step > 0 ? i <= to : i >= to; i += step) out.push_back(i);
    return out;
}

HistoryStore::Options smallBlocks() {
    HistoryStore::Options o;
    o.blockValues = 4;
    o.durabilityMs = 0;
    return o;
}

} // namespace

class tst_history_store : public QObject {
    Q_OBJECT
private slots:
    void appendAndReadAcrossBlocks() {
        QTemporaryDir dir;
        HistoryStore store(dir.filePath("h.sqlite"), smallBlocks());
        QVERIFY2(store.ok(), qPrintable(store.error()));
        const int64_t s = store.series(NodeId(2, "Demo.Sine"));
        QVERIFY(s >= 0);
        QCOMPARE(store.series(NodeId(2, "Demo.Sine")), s);
        for (int i = 0; i < 30; ++i) QVERIFY(store.append(s, sampleAt(i, i * 1.5)));
        QVERIFY(!store.append(s, sampleAt(29, 0)));  // not newer than the newest
        QVERIFY(!store.append(s, sampleAt(3, 0)));
        DataValue noTime(Variant(1.0));
        QVERIFY(!store.append(s, noTime));
        // 28 values are in 7 full blocks in the file, 2 in the open block.
        std::vector<DataValue> out;
        store.read(s, tsAt(0), tsAt(29), true, 0, out);
        QCOMPARE(secondsOf(out), range(0, 29));
        QCOMPARE(*out[7].value.get<double>(), 10.5);
        out.clear();
        store.read(s, tsAt(5), tsAt(27), false, 0, out);
        QCOMPARE(secondsOf(out), range(27, 5, -1));
        out.clear();
        store.read(s, tsAt(5), tsAt(29), true, 6, out);
        QCOMPARE(secondsOf(out), range(5, 10));
        out.clear();
        store.read(s, tsAt(0), tsAt(29), false, 3, out);
        QCOMPARE(secondsOf(out), range(29, 27, -1));
        out.clear();
        store.read(s, tsAt(3) + 1, tsAt(4) - 1, true, 0, out);  // between two values
        QVERIFY(out.empty());
        QCOMPARE(secondsOf({*store.before(s, tsAt(10))}), std::vector<int>{9});
        QCOMPARE(secondsOf({*store.before(s, tsAt(10) + 5)}), std::vector<int>{10});
        QCOMPARE(secondsOf({*store.after(s, tsAt(27))}), std::vector<int>{28});
        QVERIFY(!store.before(s, tsAt(0)));
        QVERIFY(!store.after(s, tsAt(29)));
    }

    void reopenFindsWhatWasWritten() {
        QTemporaryDir dir;
        const QString path = dir.filePath("h.sqlite");
        {
            HistoryStore store(path, smallBlocks());
            const int64_t s = store.series(NodeId(2, "A"));
            for (int i = 0; i < 10; ++i) store.append(s, sampleAt(i, i));
            QVERIFY(store.flush(true, 0) >= 1);
        }
        HistoryStore store(path, smallBlocks());
        const int64_t s = store.findSeries(NodeId(2, "A"));
        QVERIFY(s >= 0);
        QCOMPARE(store.findSeries(NodeId(2, "B")), int64_t(-1));
        std::vector<DataValue> out;
        store.read(s, 0, INT64_MAX, true, 0, out);
        QCOMPARE(secondsOf(out), range(0, 9));
        QVERIFY(!store.append(s, sampleAt(9, 0)));  // the newest came back too
        QVERIFY(store.append(s, sampleAt(10, 0)));
        const auto info = store.info();
        QCOMPARE(info.size(), std::size_t(1));
        QCOMPARE(info[0].values, uint64_t(11));
        QCOMPARE(info[0].oldest, tsAt(0));
        QCOMPARE(info[0].newest, tsAt(10));
    }

    void updateStatusCodesAndModifiedRecord() {
        QTemporaryDir dir;
        HistoryStore store(dir.filePath("h.sqlite"), smallBlocks());
        const int64_t s = store.series(NodeId(2, "A"));
        for (int i = 0; i < 20; i += 2) store.append(s, sampleAt(i, i));  // 0, 2, ..., 18
        const HistoryChange who{tsAt(100), "operator"};
        QCOMPARE(store.write(s, sampleAt(4, 99), HistoryStore::Mode::Insert, who), status::BadEntryExists);
        QCOMPARE(store.write(s, sampleAt(5, 5), HistoryStore::Mode::Insert, who), status::GoodEntryInserted);
        QCOMPARE(store.write(s, sampleAt(7, 7), HistoryStore::Mode::Replace, who), status::BadNoEntryExists);
        QCOMPARE(store.write(s, sampleAt(6, 60), HistoryStore::Mode::Replace, who), status::GoodEntryReplaced);
        QCOMPARE(store.write(s, sampleAt(8, 80), HistoryStore::Mode::Update, who), status::GoodEntryReplaced);
        QCOMPARE(store.write(s, sampleAt(9, 9), HistoryStore::Mode::Update, who), status::GoodEntryInserted);
        QCOMPARE(store.write(s, sampleAt(-3, -3), HistoryStore::Mode::Insert, who), status::GoodEntryInserted);  // before all
        QCOMPARE(store.write(s, sampleAt(25, 25), HistoryStore::Mode::Insert, who), status::GoodEntryInserted);  // after all
        // Many inserts into one place split its block.
        for (int i = 0; i < 12; ++i) {
            DataValue v = sampleAt(10, i);
            v.sourceTimestamp.ticks += i + 1;
            QCOMPARE(store.write(s, v, HistoryStore::Mode::Insert, who), status::GoodEntryInserted);
        }
        std::vector<DataValue> out;
        store.read(s, tsAt(-5), tsAt(30), true, 0, out);
        QCOMPARE(out.size(), std::size_t(10 + 4 + 12));  // 5, 9, -3 and 25 are new; 6 and 8 were replaced
        for (std::size_t i = 1; i < out.size(); ++i) QVERIFY(out[i - 1].sourceTimestamp < out[i].sourceTimestamp);
        out.clear();
        store.read(s, tsAt(6), tsAt(6), true, 0, out);
        QCOMPARE(*out.at(0).value.get<double>(), 60.0);
        QCOMPARE(store.removeAt(s, tsAt(7), who), status::BadNoEntryExists);
        QCOMPARE(store.removeAt(s, tsAt(12), who), status::Good);
        QCOMPARE(store.removeRange(s, tsAt(14), tsAt(18), who), uint64_t(3));
        QCOMPARE(store.removeRange(s, tsAt(14), tsAt(18), who), uint64_t(0));
        out.clear();
        store.read(s, tsAt(11), tsAt(30), true, 0, out);
        QCOMPARE(secondsOf(out), (std::vector<int>{25}));
        // What changed, in timestamp order: the inserts, the old values of the replacements, the deletions.
        const auto mods = store.modified(s, tsAt(4), tsAt(9));
        std::vector<std::pair<int, uint32_t>> kinds;
        for (const auto& m : mods) kinds.emplace_back(int((m.value.sourceTimestamp.ticks - kBase) / 10000000), m.updateType);
        QCOMPARE(kinds, (std::vector<std::pair<int, uint32_t>>{{5, 1}, {6, 2}, {8, 3}, {9, 3}}));
        QCOMPARE(*mods[1].value.value.get<double>(), 6.0);  // the value it replaced
        QCOMPARE(mods[1].userName, std::string("operator"));
        QCOMPARE(mods[1].modificationTime, tsAt(100));
        QCOMPARE(store.modified(s, tsAt(12), tsAt(18)).size(), std::size_t(4));
        QCOMPARE(store.removeModified(s, tsAt(12), tsAt(18)), uint64_t(4));
        QVERIFY(store.modified(s, tsAt(12), tsAt(18)).empty());
    }

    void limitsRemoveTheOldestBlocks() {
        QTemporaryDir dir;
        HistoryStore store(dir.filePath("h.sqlite"), smallBlocks());
        const int64_t s = store.series(NodeId(2, "A"));
        store.setLimits(s, HistoryLimits{10, 0});
        for (int i = 0; i < 40; ++i) store.append(s, sampleAt(i, i));
        store.trim(tsAt(40));
        std::vector<DataValue> out;
        store.read(s, 0, INT64_MAX, true, 0, out);
        QVERIFY2(out.size() >= 10 && out.size() < 14, qPrintable(QString::number(out.size())));
        QCOMPARE(secondsOf(out).back(), 39);
        const int64_t t = store.series(NodeId(2, "B"));
        store.setLimits(t, HistoryLimits{0, 15000});  // 15 s
        for (int i = 0; i < 40; ++i) store.append(t, sampleAt(i, i));
        store.trim(tsAt(40));
        out.clear();
        store.read(t, 0, INT64_MAX, true, 0, out);
        QVERIFY2(secondsOf(out).front() >= 21 && secondsOf(out).front() <= 25, qPrintable(QString::number(secondsOf(out).front())));
    }

    void aMissingFolderIsMade() {
        QTemporaryDir dir;
        HistoryStore store(dir.filePath("a/b/h.sqlite"));
        QVERIFY2(store.ok(), qPrintable(store.error()));
        QVERIFY(QFileInfo::exists(dir.filePath("a/b/h.sqlite")));
    }

    void aBadPathIsAnError() {
        QTemporaryDir dir;
        QFile blocker(dir.filePath("file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));  // a file where the folder should be
        HistoryStore store(dir.filePath("file/h.sqlite"));
        QVERIFY(!store.ok());
        QVERIFY(!store.error().isEmpty());
    }
};

UA_TEST_GUILESS_MAIN(tst_history_store)
#include "tst_history_store.moc"
