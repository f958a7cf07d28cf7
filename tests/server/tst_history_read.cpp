// Read Raw, Read Modified and Read Processed over a real history store
// (libua/ua/server/history/RawHistoryRead.h, ProcessedHistoryRead.h): the time domains and
// Bounding Values of OPC 10000-11 4.6 on its example history (values at 5:00, 5:02, 5:03, 5:05 and
// 5:06), ContinuationPoints through every phase, the server's cap per read, and Read Processed
// paged every 10,000 intervals.
#include "ua/server/history/ProcessedHistoryRead.h"
#include "ua/server/history/RawHistoryRead.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QTemporaryDir>
#include <QTest>
#include "TestMain.h"

using namespace ua;

namespace {

constexpr int64_t kFiveOClock = 133000000000000000LL;
constexpr int64_t kMinute = 60LL * 10000000;
constexpr int kNotGiven = -99;
DateTime at(int minute) { return DateTime{kFiveOClock + minute * kMinute}; }  // 5:mm (-1: 4:59)

// "5:02" for a value at 5:02, "FIRST@5:01" / "LAST@5:07" for a Bad_BoundNotFound.
QString describe(const DataValue& v) {
    const int64_t m = (v.sourceTimestamp.ticks - kFiveOClock) / kMinute;
    const QString time = m < 0 ? QStringLiteral("4:%1").arg(60 + m) : QStringLiteral("5:%1").arg(m, 2, 10, QLatin1Char('0'));
    if (v.status == status::BadBoundNotFound) return QStringLiteral("NOTFOUND@") + time;
    return time;
}

QString describe(const std::vector<DataValue>& values) {
    QStringList out;
    for (const DataValue& v : values) out << describe(v);
    return out.join(u' ');
}

} // namespace

class tst_history_read : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<HistoryStore> m_store;
    int64_t m_series = -1;

    ReadRawModifiedDetails details(int start, int end, uint32_t n, bool bounds) {
        ReadRawModifiedDetails d;
        if (start != kNotGiven) d.startTime = at(start);
        if (end != kNotGiven) d.endTime = at(end);
        d.numValuesPerNode = n;
        d.returnBounds = bounds;
        return d;
    }

private slots:
    void initTestCase() {
        HistoryStore::Options o;
        o.blockValues = 2;  // blocks of 2..4 values: every read crosses blocks
        m_store = std::make_unique<HistoryStore>(m_dir.filePath("h.sqlite"), o);
        QVERIFY(m_store->ok());
        m_series = m_store->series(NodeId(2, "A"));
        for (int m : {0, 2, 3, 5, 6}) {
            DataValue v{Variant(double(m))};
            v.setSourceTimestamp(at(m));
            QVERIFY(m_store->append(m_series, v));
        }
    }

    // OPC 10000-11 4.6, the time domains of Read Raw with and without bounds (minutes after 5:00;
    // kNotGiven: DateTime.MinValue).
    void timeDomains_data() {
        QTest::addColumn<int>("start");
        QTest::addColumn<int>("end");
        QTest::addColumn<uint32_t>("n");
        QTest::addColumn<bool>("bounds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("5:00-5:05 bounds") << 0 << 5 << 0u << true << "5:00 5:02 5:03 5:05";
        QTest::newRow("5:00-5:05") << 0 << 5 << 0u << false << "5:00 5:02 5:03";
        QTest::newRow("5:01-5:04 bounds") << 1 << 4 << 0u << true << "5:00 5:02 5:03 5:05";
        QTest::newRow("5:01-5:04") << 1 << 4 << 0u << false << "5:02 5:03";
        QTest::newRow("5:05-5:00 bounds") << 5 << 0 << 0u << true << "5:05 5:03 5:02 5:00";
        QTest::newRow("5:05-5:00") << 5 << 0 << 0u << false << "5:05 5:03 5:02";
        QTest::newRow("5:04-5:01 bounds") << 4 << 1 << 0u << true << "5:05 5:03 5:02 5:00";
        QTest::newRow("5:04-5:01") << 4 << 1 << 0u << false << "5:03 5:02";
        QTest::newRow("4:59-5:05 bounds") << -1 << 5 << 0u << true << "NOTFOUND@4:59 5:00 5:02 5:03 5:05";
        QTest::newRow("5:01-5:07 bounds") << 1 << 7 << 0u << true << "5:00 5:02 5:03 5:05 5:06 NOTFOUND@5:07";
        QTest::newRow("5:00-5:05 n=3 bounds") << 0 << 5 << 3u << true << "5:00 5:02 5:03";
        QTest::newRow("5:00- n=6 bounds") << 0 << kNotGiven << 6u << true << "5:00 5:02 5:03 5:05 5:06";
        QTest::newRow("-5:06 n=3") << kNotGiven << 6 << 3u << false << "5:06 5:05 5:03";
        QTest::newRow("5:03-5:03") << 3 << 3 << 0u << false << "5:03";
        QTest::newRow("5:04-5:04 bounds") << 4 << 4 << 0u << true << "5:03 5:05";
    }
    void timeDomains() {
        QFETCH(int, start);
        QFETCH(int, end);
        QFETCH(uint32_t, n);
        QFETCH(bool, bounds);
        QFETCH(QString, expected);
        const ReadRawModifiedDetails d = details(start, end, n, bounds);
        QCOMPARE(checkRawModifiedDetails(d), StatusCode(status::Good));
        const HistoryReadOutcome r = readRaw(*m_store, m_series, d, {});
        QCOMPARE(describe(r.values), expected);
    }

    void tooFewParameters() {
        QCOMPARE(checkRawModifiedDetails(details(0, kNotGiven, 0, false)), StatusCode(status::BadInvalidTimestampArgument));
        QCOMPARE(checkRawModifiedDetails(details(kNotGiven, kNotGiven, 5, false)), StatusCode(status::BadInvalidTimestampArgument));
        ReadRawModifiedDetails modified = details(0, 5, 0, true);
        modified.isReadModified = true;
        QCOMPARE(checkRawModifiedDetails(modified), StatusCode(status::BadInvalidArgument));
    }

    // Paused by numValuesPerNode in every phase, the pieces add up to the whole answer.
    void continuationThroughEveryPhase() {
        for (uint32_t n = 1; n <= 6; ++n) {
            const ReadRawModifiedDetails d = details(1, 7, n, true);
            std::vector<DataValue> all;
            HistoryReadPosition at;
            int reads = 0;
            for (;; ++reads) {
                QVERIFY(reads < 20);
                HistoryReadOutcome r = readRaw(*m_store, m_series, d, at);
                QVERIFY(r.values.size() <= n);
                all.insert(all.end(), r.values.begin(), r.values.end());
                if (!r.more) break;
                QCOMPARE(r.status, StatusCode(status::GoodMoreData));
                at = r.next;
            }
            QCOMPARE(describe(all), QStringLiteral("5:00 5:02 5:03 5:05 5:06 NOTFOUND@5:07"));
        }
    }

    void noDataIsGoodNoData() {
        const HistoryReadOutcome r = readRaw(*m_store, m_series, details(7, 9, 0, false), {});
        QVERIFY(r.values.empty());
        QCOMPARE(r.status, StatusCode(status::GoodNoData));
    }

    // numValuesPerNode 0 still returns at most kMaxReturnDataValues per read.
    void theServersCapPerRead() {
        QTemporaryDir dir;
        HistoryStore store(dir.filePath("big.sqlite"));
        const int64_t s = store.series(NodeId(2, "Big"));
        const int total = int(kMaxReturnDataValues) + 500;
        for (int i = 0; i < total; ++i) {
            DataValue v{Variant(double(i))};
            v.setSourceTimestamp(DateTime{kFiveOClock + i});
            store.append(s, v);
        }
        ReadRawModifiedDetails d;
        d.startTime = DateTime{kFiveOClock};
        d.endTime = DateTime{kFiveOClock + total};
        HistoryReadOutcome first = readRaw(store, s, d, {});
        QCOMPARE(first.values.size(), kMaxReturnDataValues);
        QVERIFY(first.more);
        HistoryReadOutcome rest = readRaw(store, s, d, first.next);
        QCOMPARE(rest.values.size(), std::size_t(500));
        QVERIFY(!rest.more);
        QCOMPARE(rest.values.front().sourceTimestamp.ticks, kFiveOClock + int64_t(kMaxReturnDataValues));
    }

    // Read Processed pages every kMaxProcessedPerRead intervals; the pieces cover every interval once.
    void processedPages() {
        ReadProcessedDetails d;
        d.startTime = at(0);
        d.endTime = DateTime{at(0).ticks + 25000LL * 10000};  // 25,000 intervals of 1 ms
        d.processingInterval = 1;
        d.aggregateType = Array<NodeId>(std::vector<NodeId>{NodeId(id::AggregateFunction_Count)});
        history::AggregateSettings settings;
        std::size_t intervals = 0;
        uint64_t next = 0;
        int reads = 0;
        do {
            HistoryReadOutcome r = readProcessed(*m_store, m_series, d, 0, settings, next);
            QVERIFY2(r.status.isGood(), r.status.name().c_str());
            intervals += r.values.size();
            next = r.more ? uint64_t(r.next.position) : 0;
            ++reads;
        } while (next != 0 && reads < 10);
        QCOMPARE(reads, 3);
        QCOMPARE(intervals, std::size_t(25000));
        d.aggregateType = Array<NodeId>(std::vector<NodeId>{NodeId(id::AggregateFunction_StandardDeviationSample)});
        QCOMPARE(readProcessed(*m_store, m_series, d, 0, settings, 0).status, StatusCode(status::BadAggregateNotSupported));
        d.aggregateType = Array<NodeId>(std::vector<NodeId>{NodeId(id::AggregateFunction_Count)});
        d.processingInterval = -1;
        QCOMPARE(readProcessed(*m_store, m_series, d, 0, settings, 0).status, StatusCode(status::BadInvalidArgument));
    }
};

UA_TEST_GUILESS_MAIN(tst_history_read)
#include "tst_history_read.moc"
