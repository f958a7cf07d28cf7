// LatencyHistogram (loadtest-app/engine): bucket bounds, nearest-rank percentiles on known
// distributions compared with the exact value (within the bucket precision of 1/32), merge, JSON.
#include "engine/LatencyHistogram.h"

#include <QtTest>
#include "TestMain.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using ua::loadtest::LatencyHistogram;

namespace {

// The exact nearest-rank percentile of v.
double exactPercentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const auto rank = std::size_t(std::max(1.0, std::ceil(p / 100.0 * double(v.size()) - 1e-9)));
    return v[std::min(rank, v.size()) - 1];
}

// The histogram reports the upper bound of the exact value's bucket (never lower, at most 1/32 above).
void checkPercentiles(const LatencyHistogram& h, const std::vector<double>& values) {
    for (double p : {1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
        const double exact = exactPercentile(values, p);
        const double got = h.percentile(p);
        QVERIFY2(got >= exact && got <= exact * (1.0 + 1.0 / LatencyHistogram::kSubBuckets) + 1e-9,
                 qPrintable(QStringLiteral("p%1: exact %2, histogram %3").arg(p).arg(exact).arg(got)));
    }
}

} // namespace

class TestLatencyHistogram : public QObject {
    Q_OBJECT
private slots:
    void buckets() {
        // Each value falls into a bucket whose bounds hold it; bounds are contiguous.
        for (double us : {1.0, 1.5, 2.0, 3.3, 100.0, 999.0, 1000.0, 1024.0, 65535.9, 1e6, 1e8}) {
            const int i = LatencyHistogram::bucketIndex(us);
            QVERIFY2(LatencyHistogram::bucketLower(i) <= us && us < LatencyHistogram::bucketUpper(i), qPrintable(QString::number(us)));
            QVERIFY(LatencyHistogram::bucketUpper(i) / LatencyHistogram::bucketLower(i) <= 1.0 + 1.0 / LatencyHistogram::kSubBuckets + 1e-12);
        }
        for (int i = 0; i + 1 < LatencyHistogram::kBuckets; ++i)
            QCOMPARE(LatencyHistogram::bucketUpper(i), LatencyHistogram::bucketLower(i + 1));
        QCOMPARE(LatencyHistogram::bucketLower(0), 1.0);
        QCOMPARE(LatencyHistogram::bucketIndex(0.2), 0);  // below 1 µs: the first bucket
        QCOMPARE(LatencyHistogram::bucketIndex(-5), 0);
        QCOMPARE(LatencyHistogram::bucketIndex(1e12), LatencyHistogram::kBuckets - 1);  // beyond: the last
        QCOMPARE(LatencyHistogram::bucketUpper(LatencyHistogram::kBuckets - 1), std::ldexp(1.0, LatencyHistogram::kOctaves));
    }

    void bucketOfEveryBoundAndRandomValues() {
        // The bucket read from the double's bits holds the value, at each bucket's lower bound, just
        // below it and inside it, and for random values over the whole range (and beyond it).
        for (int i = 1; i < LatencyHistogram::kBuckets; ++i) {
            const double lower = LatencyHistogram::bucketLower(i);
            QCOMPARE(LatencyHistogram::bucketIndex(lower), i);
            QCOMPARE(LatencyHistogram::bucketIndex(std::nextafter(lower, 0.0)), i - 1);
            QCOMPARE(LatencyHistogram::bucketIndex((lower + LatencyHistogram::bucketUpper(i)) / 2), i);
        }
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> exponent(-2.0, 30.0);
        for (int k = 0; k < 100000; ++k) {
            const double us = std::exp2(exponent(rng));
            const int i = LatencyHistogram::bucketIndex(us);
            if (us < 1.0) QCOMPARE(i, 0);
            else if (us >= std::ldexp(1.0, LatencyHistogram::kOctaves)) QCOMPARE(i, LatencyHistogram::kBuckets - 1);
            else QVERIFY2(LatencyHistogram::bucketLower(i) <= us && us < LatencyHistogram::bucketUpper(i), qPrintable(QString::number(us, 'g', 17)));
        }
        QCOMPARE(LatencyHistogram::bucketIndex(std::numeric_limits<double>::quiet_NaN()), 0);
        QCOMPARE(LatencyHistogram::bucketIndex(std::numeric_limits<double>::infinity()), LatencyHistogram::kBuckets - 1);
    }

    void empty() {
        LatencyHistogram h;
        QCOMPARE(h.count(), uint64_t(0));
        QCOMPARE(h.percentile(50), 0.0);
        QCOMPARE(h.max(), 0.0);
        QCOMPARE(h.min(), 0.0);
        QCOMPARE(h.mean(), 0.0);
        QVERIFY(h.nonEmptyBuckets().empty());
    }

    void uniform() {
        // 1..1000 µs, each once: p50 = 500, p99 = 990, p99.9 = 999, p100 = 1000.
        LatencyHistogram h;
        std::vector<double> v;
        for (int i = 1; i <= 1000; ++i) {
            v.push_back(i);
            h.record(i);
        }
        QCOMPARE(h.count(), uint64_t(1000));
        QCOMPARE(h.min(), 1.0);
        QCOMPARE(h.max(), 1000.0);
        QCOMPARE(h.mean(), 500.5);
        checkPercentiles(h, v);
        QCOMPARE(h.percentile(100), 1000.0);  // clamped to max
        QVERIFY(h.percentile(50) >= 500 && h.percentile(50) < 516);
        // Shuffled order gives the same histogram.
        std::shuffle(v.begin(), v.end(), std::mt19937(7));
        LatencyHistogram h2;
        for (double x : v) h2.record(x);
        QVERIFY(h == h2);
    }

    void bimodalTail() {
        // 99.9 % around 200 µs, 0.1 % at 50 ms: p99 stays low, p99.9 is the last fast one, p99.99 the tail.
        LatencyHistogram h;
        std::vector<double> v;
        std::mt19937 rng(42);
        std::uniform_real_distribution<double> fast(150, 250), slow(45'000, 55'000);
        for (int i = 0; i < 100'000; ++i) {
            const double x = i % 1000 == 999 ? slow(rng) : fast(rng);
            v.push_back(x);
            h.record(x);
        }
        checkPercentiles(h, v);
        QVERIFY(h.percentile(99) < 260);
        QVERIFY(h.percentile(99.9) < 260);      // rank 99,900: still a fast one (100 slow values)
        QVERIFY(h.percentile(99.91) > 40'000);  // the tail
        QVERIFY(h.max() >= 45'000);
    }

    void outOfRange() {
        LatencyHistogram h;
        h.record(0.3);
        h.record(3e9);  // ~50 min: the last bucket, max kept exactly
        QCOMPARE(h.count(), uint64_t(2));
        QCOMPARE(h.min(), 0.3);
        QCOMPARE(h.max(), 3e9);
        QCOMPARE(h.percentile(50), LatencyHistogram::bucketUpper(0));
        QCOMPARE(h.percentile(100), 3e9);
        QCOMPARE(int(h.nonEmptyBuckets().size()), 2);
    }

    void merge() {
        LatencyHistogram a, b, all;
        for (int i = 1; i <= 500; ++i) {
            a.record(i);
            all.record(i);
        }
        for (int i = 501; i <= 1000; ++i) {
            b.record(i * 10);
            all.record(i * 10);
        }
        LatencyHistogram m;
        m.merge(a);  // into an empty one: min/max taken over
        m.merge(b);
        m.merge(LatencyHistogram());  // an empty one changes nothing
        QVERIFY(m == all);
        QCOMPARE(m.count(), uint64_t(1000));
        QCOMPARE(m.min(), 1.0);
        QCOMPARE(m.max(), 10000.0);
        QCOMPARE(m.percentile(50), all.percentile(50));
        m.clear();
        QCOMPARE(m.count(), uint64_t(0));
    }

    void json() {
        LatencyHistogram h;
        for (int i = 0; i < 5000; ++i) h.record(37.5 + i * 3.25);
        h.record(2e6);
        const QJsonObject o = h.toJson();
        QCOMPARE(o.value(QStringLiteral("count")).toDouble(), 5001.0);
        QVERIFY(o.value(QStringLiteral("buckets")).isArray());
        const LatencyHistogram back = LatencyHistogram::fromJson(o);
        QVERIFY(back == h);
        QCOMPARE(back.percentile(99), h.percentile(99));
        QVERIFY(LatencyHistogram::fromJson(LatencyHistogram().toJson()) == LatencyHistogram());
        // Bad bucket entries are ignored.
        QJsonObject bad = o;
        bad.insert(QStringLiteral("buckets"), QJsonArray{QJsonArray{-1, 5}, QJsonArray{99999, 3}, QStringLiteral("x")});
        QCOMPARE(LatencyHistogram::fromJson(bad).count(), uint64_t(0));
    }
};

UA_TEST_GUILESS_MAIN(TestLatencyHistogram)
#include "tst_latency_histogram.moc"
