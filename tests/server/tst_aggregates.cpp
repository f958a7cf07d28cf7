// The aggregates of OPC 10000-13 and ReadAtTime's interpolation (libua/ua/server/history): every row
// of the tables in tests/server/data/aggregates (Annex A transcribed, and cases computed by hand from
// the clause text where Annex A was not available) is one data row; plus the request checks of
// OPC 10000-11 6.5.4 (intervals, start == end, processing intervals no client should send).
#include "ua/server/history/Aggregates.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QFile>
#include <QTest>
#include "TestMain.h"

#include <cmath>
#include <limits>
#include <map>

using namespace ua;
using namespace ua::history;

namespace {

// 2012-01-02 (the Annex A annotations' day) at hh:mm:ss[.zzz] UTC.
DateTime aggTestTime(const QString& hms) {
    QTime t = QTime::fromString(hms, QStringLiteral("hh:mm:ss.zzz"));
    if (!t.isValid()) t = QTime::fromString(hms, QStringLiteral("hh:mm:ss"));
    return DateTime::fromQDateTime(QDateTime(QDate(2012, 1, 2), t, QTimeZone::utc()));
}

// "Good", "UncertainDataSubNormal Calculated Partial", ... as Annex A writes them.
StatusCode aggTestStatus(const QString& text) {
    static const std::map<QString, StatusCode> bases = {
        {QStringLiteral("Good"), status::Good},
        {QStringLiteral("Uncertain"), StatusCode(0x40000000u)},
        {QStringLiteral("UncertainDataSubNormal"), status::UncertainDataSubNormal},
        {QStringLiteral("Bad"), StatusCode(0x80000000u)},
        {QStringLiteral("BadNoData"), status::BadNoData},
    };
    static const std::map<QString, uint32_t> bits = {
        {QStringLiteral("Calculated"), historian::kCalculated},
        {QStringLiteral("Interpolated"), historian::kInterpolated},
        {QStringLiteral("Partial"), historian::kPartial},
        {QStringLiteral("MultipleValues"), historian::kMultiValue},
    };
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const auto base = words.isEmpty() ? bases.end() : bases.find(words.first());
    if (base == bases.end()) qFatal("unknown status %s", qPrintable(text));
    uint32_t b = 0;
    for (qsizetype i = 1; i < words.size(); ++i) {
        const auto bit = bits.find(words[i]);
        if (bit == bits.end()) qFatal("unknown status bit %s", qPrintable(words[i]));
        b |= bit->second;
    }
    return historian::withBits(base->second, b);
}

struct AggTestRow {
    QString historian, time, value, status, note;
};

// The `#!` settings and the rows of one CSV file, in order; `group` counts the `#!` lines so that
// rows after each one belong to it.
struct AggTestFile {
    std::vector<std::map<QString, QString>> groups;
    std::vector<std::pair<int, AggTestRow>> rows;  // group index, row
};

AggTestFile aggTestRead(const QString& name) {
    QFile f(QStringLiteral(UA_AGGREGATES_DATA_DIR "/") + name);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
    AggTestFile out;
    for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("#!"))) {
            std::map<QString, QString> kv;
            const QStringList words = line.mid(2).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            for (const QString& w : words) {
                const qsizetype eq = w.indexOf(QLatin1Char('='));
                kv[eq < 0 ? w : w.left(eq)] = eq < 0 ? QString() : w.mid(eq + 1);
            }
            if (!words.isEmpty()) kv[QStringLiteral("#first")] = words.first();
            out.groups.push_back(std::move(kv));
            continue;
        }
        if (line.trimmed().isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        const QStringList p = line.split(QLatin1Char(','));
        if (p.size() < 4) qFatal("bad row in %s: %s", qPrintable(name), qPrintable(line));
        out.rows.push_back({int(out.groups.size()) - 1, {p[0], p[1], p[2], p[3], p.mid(4).join(QLatin1Char(','))}});
    }
    return out;
}

// The data sets of historians.csv: raw values and AggregateConfiguration per historian.
struct AggTestHistorian {
    std::vector<DataValue> raw;
    AggregateSettings settings;
};

const std::map<QString, AggTestHistorian>& aggTestHistorians() {
    static const std::map<QString, AggTestHistorian> all = [] {
        std::map<QString, AggTestHistorian> h;
        const AggTestFile file = aggTestRead(QStringLiteral("historians.csv"));
        for (const auto& g : file.groups) {
            AggTestHistorian& x = h[g.at(QStringLiteral("#first"))];
            x.settings.treatUncertainAsBad = g.at(QStringLiteral("treatUncertainAsBad")) == QLatin1String("1");
            x.settings.stepped = g.at(QStringLiteral("stepped")) == QLatin1String("1");
            x.settings.useSlopedExtrapolation = g.at(QStringLiteral("useSlopedExtrapolation")) == QLatin1String("1");
            x.settings.percentDataGood = uint8_t(g.at(QStringLiteral("percentDataGood")).toUInt());
            x.settings.percentDataBad = uint8_t(g.at(QStringLiteral("percentDataBad")).toUInt());
        }
        for (const auto& [group, row] : file.rows) {
            DataValue dv;
            if (!row.value.isEmpty()) dv.setValue(Variant(row.value.toDouble()));
            dv.setStatus(aggTestStatus(row.status));
            dv.setSourceTimestamp(aggTestTime(row.time));
            h.at(row.historian).raw.push_back(dv);
        }
        return h;
    }();
    return all;
}

std::optional<Aggregate> aggTestAggregate(const QString& name) {
    static const std::map<QString, Aggregate> names = {
        {QStringLiteral("Interpolative"), Aggregate::Interpolative}, {QStringLiteral("Average"), Aggregate::Average},
        {QStringLiteral("TimeAverage"), Aggregate::TimeAverage}, {QStringLiteral("Total"), Aggregate::Total},
        {QStringLiteral("Minimum"), Aggregate::Minimum}, {QStringLiteral("Maximum"), Aggregate::Maximum},
        {QStringLiteral("MinimumActualTime"), Aggregate::MinimumActualTime},
        {QStringLiteral("MaximumActualTime"), Aggregate::MaximumActualTime},
        {QStringLiteral("Range"), Aggregate::Range}, {QStringLiteral("Count"), Aggregate::Count},
        {QStringLiteral("Start"), Aggregate::Start}, {QStringLiteral("End"), Aggregate::End},
        {QStringLiteral("Delta"), Aggregate::Delta}, {QStringLiteral("StartBound"), Aggregate::StartBound},
        {QStringLiteral("DurationGood"), Aggregate::DurationGood}, {QStringLiteral("DurationBad"), Aggregate::DurationBad},
        {QStringLiteral("PercentGood"), Aggregate::PercentGood}, {QStringLiteral("PercentBad"), Aggregate::PercentBad},
    };
    const auto it = names.find(name);
    if (it == names.end()) return std::nullopt;
    return it->second;
}

double aggTestNumber(const Variant& v) {
    if (const auto* d = v.get<double>()) return *d;
    if (const auto* i = v.get<int32_t>()) return *i;
    return std::numeric_limits<double>::quiet_NaN();
}

// Whether `got` is the expected row (values to the tables' 3 decimals); `why` says what differs.
bool aggTestMatches(const DataValue& got, const AggTestRow& want, QString& why) {
    const DateTime time = aggTestTime(want.time);
    const StatusCode status = aggTestStatus(want.status);
    why = QStringLiteral("%1 %2: want %3 [%4], got %5 %6 [%7]")
              .arg(want.historian, want.time, want.value.isEmpty() ? QStringLiteral("-") : want.value,
                   QString::fromStdString(status.name()),
                   got.sourceTimestamp.toQDateTime().toString(QStringLiteral("hh:mm:ss.zzz")),
                   got.hasValue ? QString::number(aggTestNumber(got.value), 'g', 10) : QStringLiteral("-"),
                   QString::fromStdString(got.status.name()));
    if (got.sourceTimestamp != time || got.status != status) return false;
    if (want.value.isEmpty()) return !got.hasValue || got.value.isNull();
    return got.hasValue && std::abs(aggTestNumber(got.value) - want.value.toDouble()) <= 0.0006;
}

} // namespace

class TestAggregates : public QObject {
    Q_OBJECT

private slots:
    void annexTables_data();
    void annexTables();
    void readAtTime_data();
    void readAtTime();
    void nodeIds();
    void invalidRequests();
    void intervals();
    void windowPaging();
    void backwardIntervals();
    void nonNumericIsBad();
};

void TestAggregates::annexTables_data() {
    QTest::addColumn<QString>("aggregate");
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("end");
    QTest::addColumn<double>("intervalMs");
    QTest::addColumn<int>("index");  // the row's interval among its historian's rows of its group
    QTest::addColumn<QString>("historian");
    QTest::addColumn<QString>("time");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("note");
    const QStringList files = {
        QStringLiteral("A02_Interpolative.csv"), QStringLiteral("A04_TimeAverage.csv"),
        QStringLiteral("A10_MinimumActualTime.csv"), QStringLiteral("A11_MaximumActualTime.csv"),
        QStringLiteral("A25_StartBound.csv"), QStringLiteral("A29_DurationGood.csv"),
        QStringLiteral("handcomputed.csv")};
    for (const QString& name : files) {
        const AggTestFile file = aggTestRead(name);
        std::map<std::pair<int, QString>, int> index;
        for (const auto& [group, row] : file.rows) {
            const auto& g = file.groups.at(std::size_t(group));
            const int k = index[{group, row.historian}]++;
            QTest::addRow("%s %s %s %s", qPrintable(name), qPrintable(g.at(QStringLiteral("aggregate"))),
                          qPrintable(row.historian), qPrintable(row.time))
                << g.at(QStringLiteral("aggregate")) << g.at(QStringLiteral("start")) << g.at(QStringLiteral("end"))
                << g.at(QStringLiteral("interval")).toDouble() << k << row.historian << row.time << row.value
                << row.status << row.note;
        }
    }
}

void TestAggregates::annexTables() {
    QFETCH(QString, aggregate);
    QFETCH(QString, start);
    QFETCH(QString, end);
    QFETCH(double, intervalMs);
    QFETCH(int, index);
    QFETCH(QString, historian);
    QFETCH(QString, time);
    QFETCH(QString, value);
    QFETCH(QString, status);
    QFETCH(QString, note);
    const auto agg = aggTestAggregate(aggregate);
    QVERIFY2(agg.has_value(), qPrintable(aggregate));
    const AggTestHistorian& h = aggTestHistorians().at(historian);
    const ProcessedValues result =
        processAggregate(*agg, h.raw, aggTestTime(start), aggTestTime(end), intervalMs, h.settings);
    QCOMPARE(result.status, StatusCode(status::Good));
    QCOMPARE(result.nextInterval, uint64_t(0));
    QVERIFY(std::size_t(index) < result.values.size());
    QString why;
    const bool match = aggTestMatches(result.values[std::size_t(index)], {historian, time, value, status, note}, why);
    if (note.startsWith(QLatin1String("xfail:"))) QEXPECT_FAIL("", qPrintable(note.mid(6).trimmed()), Continue);
    QVERIFY2(match, qPrintable(why));
}

void TestAggregates::readAtTime_data() {
    QTest::addColumn<bool>("simple");
    QTest::addColumn<QString>("historian");
    QTest::addColumn<QString>("time");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("status");
    const AggTestFile file = aggTestRead(QStringLiteral("readattime.csv"));
    for (const auto& [group, row] : file.rows) {
        const bool simple = file.groups.at(std::size_t(group)).at(QStringLiteral("simpleBounds")) == QLatin1String("1");
        QTest::addRow("%s %s %s", simple ? "simple" : "interpolated", qPrintable(row.historian), qPrintable(row.time))
            << simple << row.historian << row.time << row.value << row.status;
    }
}

void TestAggregates::readAtTime() {
    QFETCH(bool, simple);
    QFETCH(QString, historian);
    QFETCH(QString, time);
    QFETCH(QString, value);
    QFETCH(QString, status);
    const AggTestHistorian& h = aggTestHistorians().at(historian);
    const DateTime times[] = {aggTestTime(QStringLiteral("12:00:00")), aggTestTime(time)};
    const std::vector<DataValue> out = interpolateAt(h.raw, times, simple, h.settings);
    QCOMPARE(out.size(), std::size_t(2));  // one per requested time, in the requested order
    QString why;
    QVERIFY2(aggTestMatches(out[1], {historian, time, value, status, {}}, why), qPrintable(why));
}

void TestAggregates::nodeIds() {
    QCOMPARE(aggregateNodeId(Aggregate::Interpolative), NodeId(id::AggregateFunction_Interpolative));
    QCOMPARE(aggregateNodeId(Aggregate::PercentBad), NodeId(2363u));
    for (int a = int(Aggregate::Interpolative); a <= int(Aggregate::PercentBad); ++a) {
        const NodeId n = aggregateNodeId(Aggregate(a));
        QCOMPARE(n.namespaceIndex(), uint16_t(0));
        QCOMPARE(aggregateFromNodeId(n), std::optional<Aggregate>(Aggregate(a)));
    }
    QVERIFY(!aggregateFromNodeId(NodeId(id::AggregateFunction_WorstQuality)));  // not supported
    QVERIFY(!aggregateFromNodeId(NodeId(1, id::AggregateFunction_Average)));     // not ns=0
    QVERIFY(!aggregateFromNodeId(NodeId(0, "Average")));
}

void TestAggregates::invalidRequests() {
    const auto& h = aggTestHistorians().at(QStringLiteral("H1"));
    const DateTime t0 = aggTestTime(QStringLiteral("12:00:00")), t1 = aggTestTime(QStringLiteral("12:01:40"));
    const double bad[] = {-1.0, std::nan(""), std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(), 0.00001};
    for (double pi : bad) {
        const ProcessedValues r = processAggregate(Aggregate::Average, h.raw, t0, t1, pi, h.settings);
        QCOMPARE(r.status, StatusCode(status::BadInvalidArgument));
        QVERIFY(r.values.empty());
        QCOMPARE(intervalCount(t0, t1, pi), uint64_t(0));
    }
    // Part 11 6.5.4: start == end has no meaningful interval.
    QCOMPARE(processAggregate(Aggregate::Count, h.raw, t0, t0, 1000, h.settings).status,
             StatusCode(status::BadInvalidArgument));
    QCOMPARE(processAggregate(Aggregate::Count, h.raw, t0, t1, 1000, h.settings, {0, 0}).status,
             StatusCode(status::BadInvalidArgument));
    QCOMPARE(processAggregate(Aggregate::Count, h.raw, t0, t1, 1000, h.settings, {100, 10}).status,
             StatusCode(status::BadInvalidArgument));
}

void TestAggregates::intervals() {
    const DateTime t0 = aggTestTime(QStringLiteral("12:00:00")), t1 = aggTestTime(QStringLiteral("12:01:40"));
    QCOMPARE(intervalCount(t0, t1, 16000), uint64_t(7));  // six of 16 s and the last of 4 s
    QCOMPARE(intervalCount(t0, t1, 20000), uint64_t(5));
    QCOMPARE(intervalCount(t0, t1, 0), uint64_t(1));      // 0: one interval
    QCOMPARE(intervalCount(t0, t1, 1e300), uint64_t(1));  // longer than the range: one interval
    QCOMPARE(intervalCount(t1, t0, 16000), uint64_t(7));  // backwards
    QCOMPARE(intervalCount(DateTime::minValue(), DateTime::maxValue(), 0.0001),
             uint64_t(std::numeric_limits<int64_t>::max()));  // one tick each: counted, not made
    const auto& h = aggTestHistorians().at(QStringLiteral("H1"));
    const ProcessedValues one = processAggregate(Aggregate::Count, h.raw, t0, t1, 0, h.settings);
    QCOMPARE(one.values.size(), std::size_t(1));
    QCOMPARE(one.values[0].sourceTimestamp, t0);
    QCOMPARE(one.values[0].value, Variant(int32_t(8)));  // 9 values: 40 is Bad, 70 Uncertain counts
}

void TestAggregates::windowPaging() {
    const auto& h = aggTestHistorians().at(QStringLiteral("H2"));
    const DateTime t0 = aggTestTime(QStringLiteral("12:00:00")), t1 = aggTestTime(QStringLiteral("12:01:40"));
    const ProcessedValues all = processAggregate(Aggregate::Average, h.raw, t0, t1, 16000, h.settings);
    QCOMPARE(all.values.size(), std::size_t(7));
    std::vector<DataValue> paged;
    IntervalWindow w{0, 3};
    for (int calls = 1;; ++calls) {
        const ProcessedValues part = processAggregate(Aggregate::Average, h.raw, t0, t1, 16000, h.settings, w);
        QCOMPARE(part.status, StatusCode(status::Good));
        paged.insert(paged.end(), part.values.begin(), part.values.end());
        if (part.nextInterval == 0) {
            QCOMPARE(calls, 3);
            break;
        }
        QCOMPARE(part.nextInterval, w.first + 3);
        w.first = part.nextInterval;
    }
    QCOMPARE(paged.size(), all.values.size());
    for (std::size_t i = 0; i < paged.size(); ++i) {
        QCOMPARE(paged[i].sourceTimestamp, all.values[i].sourceTimestamp);
        QCOMPARE(paged[i].status, all.values[i].status);
    }
}

void TestAggregates::backwardIntervals() {
    // 12:01:40 back to 12:00:00 in 20 s: intervals (12:01:20, 12:01:40] ... (12:00:00, 12:00:20],
    // each stamped with its later time; a value at the later time is inside, at the earlier not.
    const auto& h = aggTestHistorians().at(QStringLiteral("H1"));
    const DateTime t0 = aggTestTime(QStringLiteral("12:00:00")), t1 = aggTestTime(QStringLiteral("12:01:40"));
    const ProcessedValues r = processAggregate(Aggregate::Count, h.raw, t1, t0, 20000, h.settings);
    QCOMPARE(r.status, StatusCode(status::Good));
    const char* stamps[] = {"12:01:40", "12:01:20", "12:01:00", "12:00:40", "12:00:20"};
    // 90 | 80, 70 (Uncertain counts for Historian 1) | 60, 50 | 40 (Bad) and 30 | 20, 10
    const int32_t counts[] = {1, 2, 2, 1, 2};
    QCOMPARE(r.values.size(), std::size_t(5));
    for (std::size_t i = 0; i < 5; ++i) {
        QCOMPARE(r.values[i].sourceTimestamp, aggTestTime(QString::fromLatin1(stamps[i])));
        QCOMPARE(r.values[i].value, Variant(counts[i]));
    }
    // Start and End follow the direction of processing.
    const ProcessedValues starts = processAggregate(Aggregate::Start, h.raw, t1, t0, 20000, h.settings);
    QCOMPARE(starts.values[1].sourceTimestamp, aggTestTime(QStringLiteral("12:01:20")));
    const ProcessedValues ends = processAggregate(Aggregate::End, h.raw, t1, t0, 20000, h.settings);
    QCOMPARE(ends.values[1].sourceTimestamp, aggTestTime(QStringLiteral("12:01:10")));
}

void TestAggregates::nonNumericIsBad() {
    // A value that cannot enter a calculation counts as Bad: Average skips it and says so.
    std::vector<DataValue> raw;
    for (int i = 0; i < 3; ++i) {
        DataValue dv(i == 1 ? Variant(String("x")) : Variant(int16_t(10 * (i + 1))));
        dv.setStatus(status::Good);
        dv.setSourceTimestamp(aggTestTime(QStringLiteral("12:00:0%1").arg(i)));
        raw.push_back(dv);
    }
    const ProcessedValues r = processAggregate(Aggregate::Average, raw, aggTestTime(QStringLiteral("12:00:00")),
                                               aggTestTime(QStringLiteral("12:00:03")), 0, AggregateSettings{});
    QCOMPARE(r.values.size(), std::size_t(1));
    QCOMPARE(r.values[0].value, Variant(20.0));
    QCOMPARE(r.values[0].status,
             historian::withBits(status::UncertainDataSubNormal, historian::kCalculated | historian::kPartial));
}

UA_TEST_GUILESS_MAIN(TestAggregates)
#include "tst_aggregates.moc"
