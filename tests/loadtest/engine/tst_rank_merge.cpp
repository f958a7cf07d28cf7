// A step run by several ranks (loadtest-app/engine/RankMerge.h, docs/LoadTesterCli.md "Distributed
// runs"), in one process: how the Sessions and the rate are split, and that the merge of the
// ranks' results is exact where the issue asks it to be. Random samples (a new seed each run,
// printed on a failure) split at random between ranks give, once merged bucket by bucket, the
// same histogram and percentiles as one histogram fed every sample; the results travel through
// their JSON first, as between the ranks of an MPI job.
#include "engine/RankMerge.h"

#include <QJsonDocument>
#include <QtTest>
#include "TestMain.h"
#include <algorithm>
#include <random>

using namespace ua::loadtest;

namespace {

// As DistributedSteps sends a rank's result to the others: its JSON text, read back.
StepResult asSentBetweenRanks(const StepResult& s) {
    const QByteArray bytes = QJsonDocument(s.toJson()).toJson(QJsonDocument::Compact);
    QString error;
    const auto back = StepResult::fromJson(QJsonDocument::fromJson(bytes).object(), &error);
    if (!back) qFatal("StepResult JSON: %s", qPrintable(error));
    return *back;
}

double sortedPercentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const auto rank = std::size_t(std::max(1.0, std::ceil(p / 100.0 * double(v.size()) - 1e-9)));
    return v[std::min(rank, v.size()) - 1];
}

} // namespace

class TestRankMerge : public QObject {
    Q_OBJECT
private slots:
    void sharesAddUpToTheWhole() {
        std::mt19937 rng(std::random_device{}());
        for (int trial = 0; trial < 500; ++trial) {
            LoadParameters whole;
            const int size = 1 + int(rng() % 64);
            whole.sessions = size + int(rng() % 5000);
            whole.targetRate = (rng() % 2) ? double(rng() % 100000) : 0.0;
            int sessions = 0, most = 0, fewest = whole.sessions;
            double rate = 0;
            for (int r = 0; r < size; ++r) {
                const LoadParameters p = shareOfRank(whole, r, size);
                sessions += p.sessions;
                rate += p.targetRate;
                most = std::max(most, p.sessions);
                fewest = std::min(fewest, p.sessions);
                // The remainder goes to the low ranks; every Session is paced at the same rate.
                QCOMPARE(p.sessions, whole.sessions / size + (r < whole.sessions % size ? 1 : 0));
                if (whole.targetRate > 0)
                    QVERIFY(qAbs(p.targetRate / p.sessions - whole.targetRate / whole.sessions) < 1e-9 * whole.targetRate + 1e-12);
                QCOMPARE(p.outstanding, whole.outstanding);
            }
            QCOMPARE(sessions, whole.sessions);
            QVERIFY(most - fewest <= 1);
            QVERIFY(qAbs(rate - whole.targetRate) <= 1e-9 * whole.targetRate);
        }
        LoadParameters one;
        one.sessions = 7;
        one.targetRate = 100;
        QCOMPARE(shareOfRank(one, 0, 1).sessions, 7);  // one process: the whole step
        QCOMPARE(shareOfRank(one, 0, 1).targetRate, 100.0);
    }

    void mergedHistogramIsOneHistogramOfAllSamples() {
        const unsigned seed = std::random_device{}();
        std::mt19937_64 rng(seed);
        const QByteArray why = "seed " + QByteArray::number(seed);
        // Latencies as a server gives them: a log-normal body around 300 µs and a tail of stalls.
        std::lognormal_distribution<double> body(std::log(300.0), 0.6);
        std::exponential_distribution<double> stall(1.0 / 20000.0);
        std::uniform_real_distribution<double> unit(0, 1);
        const int ranks = 2 + int(rng() % 5);
        std::vector<StepResult> steps(std::size_t(ranks), StepResult{});
        LatencyHistogram all;
        std::vector<double> samples;
        const int n = 20000 + int(rng() % 30000);
        for (int i = 0; i < n; ++i) {
            const double us = unit(rng) < 0.995 ? body(rng) : 1000 + stall(rng);
            samples.push_back(us);
            all.record(us);
            StepResult& s = steps[std::size_t(rng() % std::uint64_t(ranks))];  // unevenly, at random
            s.latency.record(us);
            ++s.sent;
            ++s.answered;
        }
        std::vector<QString> hosts;
        for (int r = 0; r < ranks; ++r) {
            StepResult& s = steps[std::size_t(r)];
            s.durationS = 2;
            s.computeFigures();
            s = asSentBetweenRanks(s);
            hosts.push_back(QStringLiteral("host-%1").arg(r % 2));
        }
        LoadParameters whole;
        whole.sessions = ranks;
        const StepResult m = mergeRankSteps(steps, hosts, whole);

        QCOMPARE(m.latency.count(), uint64_t(n));
        QCOMPARE(m.answered, uint64_t(n));
        QCOMPARE(m.latency.min(), all.min());
        QCOMPARE(m.latency.max(), all.max());
        QVERIFY2(qAbs(m.latency.mean() - all.mean()) <= 1e-9 * all.mean(), why);  // a sum in another order
        // Bucket by bucket the same histogram.
        const auto a = m.latency.nonEmptyBuckets(), b = all.nonEmptyBuckets();
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QVERIFY2(a[i].lowerUs == b[i].lowerUs && a[i].count == b[i].count, why);
        }
        // So every percentile is the one of a single histogram, and within a bucket of the exact one.
        for (double p : {1.0, 25.0, 50.0, 90.0, 99.0, 99.5, 99.9, 99.99, 100.0}) {
            QVERIFY2(m.latency.percentile(p) == all.percentile(p), why + " p" + QByteArray::number(p));
            const double exact = sortedPercentile(samples, p);
            QVERIFY2(all.percentile(p) >= exact && all.percentile(p) <= exact * (1 + 1.0 / LatencyHistogram::kSubBuckets) + 1e-9,
                     why + " p" + QByteArray::number(p));
        }
        QCOMPARE(m.p50Us, all.percentile(50));
        QCOMPARE(m.p99Us, all.percentile(99));
        QCOMPARE(m.p999Us, all.percentile(99.9));
        QCOMPARE(m.maxUs, all.max());
        // A rank's share keeps its own histogram.
        QCOMPARE(int(m.ranks.size()), ranks);
        uint64_t counted = 0;
        for (const RankShare& r : m.ranks) counted += r.latency.count();
        QCOMPARE(counted, uint64_t(n));
    }

    void countsAndFiguresMerge() {
        LoadParameters whole;
        whole.scenario = Scenario::Read;
        whole.sessions = 5;
        whole.outstanding = 2;
        whole.targetRate = 1000;
        std::vector<StepResult> steps(3);
        const uint64_t answered[] = {300, 500, 200};
        for (int r = 0; r < 3; ++r) {
            StepResult& s = steps[std::size_t(r)];
            s.sessions = shareOfRank(whole, r, 3).sessions;
            s.durationS = 1.0 + 0.01 * r;
            s.answered = answered[r];
            s.errors = uint64_t(r);
            s.timeouts = r == 2 ? 4 : 0;
            s.sent = s.answered + s.errors + s.timeouts;
            if (r > 0) s.errorsByStatus[QStringLiteral("Bad_TooManyOperations")] = uint64_t(r);
            s.requestsPerS = double(s.answered) / s.durationS;
            s.valuesPerS = 2 * s.requestsPerS;
            s.clientCpuPercent = 10.0 * (r + 1);
            s.clientCpuMsPerOp = s.clientCpuPercent * s.durationS * 10 / double(s.answered);
            s.clientRssKb = 1000 * (r + 1);
            s.ioThreads = 1;
            s.setupS = 0.1 * (r + 1);
            s.serverCpuPercent = r == 0 ? 40 : -1;  // only rank 0 knows the server's process
            s.serverRssKb = r == 0 ? 50000 : -1;
            s.serverRssBeforeKb = r == 0 ? 40000 : -1;
            if (r == 1) s.warnings << QStringLiteral("slow");
            if (r == 2) s.connectionBroken = true;
            s.timeline.resize(std::size_t(2 + (r == 1)));  // one rank sampled a second more
            for (TimelineSample& t : s.timeline) {
                t.requestsPerS = 100.0 * (r + 1);
                t.p99Us = 1000.0 * (r + 1);
                t.errors = 1;
            }
        }
        const StepResult m = mergeRankSteps(steps, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}, whole);
        QVERIFY(m.error.isEmpty());
        QCOMPARE(m.sessions, 5);
        QCOMPARE(m.outstanding, 2);
        QCOMPARE(m.answered, uint64_t(1000));
        QCOMPARE(m.errors, uint64_t(3));
        QCOMPARE(m.timeouts, uint64_t(4));
        QCOMPARE(m.sent, uint64_t(1007));
        QCOMPARE(m.errorsByStatus.at(QStringLiteral("Bad_TooManyOperations")), uint64_t(3));
        QCOMPARE(m.durationS, 1.02);
        QVERIFY(qAbs(m.requestsPerS - (300 / 1.0 + 500 / 1.01 + 200 / 1.02)) < 1e-9);
        QVERIFY(qAbs(m.valuesPerS - 2 * m.requestsPerS) < 1e-9);
        QCOMPARE(m.clientCpuPercent, 60.0);
        const double cpuMs = 10 * 1.0 * 10 + 20 * 1.01 * 10 + 30 * 1.02 * 10;
        QVERIFY(qAbs(m.clientCpuMsPerOp - cpuMs / 1000) < 1e-12);
        QCOMPARE(m.clientRssKb, 6000L);
        QCOMPARE(m.ioThreads, 3);
        QCOMPARE(m.setupS, 0.3);
        // The server's figures are rank 0's; its CPU per request counts every rank's requests.
        QCOMPARE(m.serverCpuPercent, 40.0);
        QCOMPARE(m.serverRssKb, 50000L);
        QVERIFY(qAbs(m.serverCpuMsPerOp - 40 * 1.0 * 10 / 1000) < 1e-12);
        QCOMPARE(m.serverKbPerSession(), 2000.0);
        QVERIFY(m.connectionBroken);
        QCOMPARE(m.warnings, QStringList{QStringLiteral("rank 1 (b): slow")});
        QCOMPARE(m.timeline.size(), std::size_t(3));
        QCOMPARE(m.timeline[0].requestsPerS, 600.0);
        QCOMPARE(m.timeline[0].errors, uint64_t(3));
        QCOMPARE(m.timeline[0].p99Us, 3000.0);  // the highest rank's, an upper bound
        QCOMPARE(m.timeline[2].requestsPerS, 200.0);
        QCOMPARE(m.ranks.size(), std::size_t(3));
        QCOMPARE(m.ranks[1].host, QStringLiteral("b"));
        QCOMPARE(m.ranks[1].sessions, 2);
        QCOMPARE(m.ranks[2].sessions, 1);
        QCOMPARE(m.ranks[2].targetRate, 200.0);
        QCOMPARE(m.ranks[1].answered, uint64_t(500));
        // The merged step's JSON keeps the shares.
        const StepResult back = asSentBetweenRanks(m);
        QCOMPARE(back.ranks.size(), std::size_t(3));
        QCOMPARE(back.ranks[2].timeouts, uint64_t(4));
        QCOMPARE(back.ranks[0].host, QStringLiteral("a"));
    }

    void subscribeFidelityMerges() {
        LoadParameters whole;
        whole.scenario = Scenario::Subscribe;
        whole.sessions = 4;
        std::vector<StepResult> steps(2);
        steps[0].sessions = 3;
        steps[0].minFidelityPercent = 98;
        steps[0].meanFidelityPercent = 99;
        steps[0].itemsBelow99 = 5;
        steps[1].sessions = 1;
        steps[1].minFidelityPercent = 100;
        steps[1].meanFidelityPercent = 100;
        const StepResult m = mergeRankSteps(steps, {}, whole);
        QCOMPARE(m.minFidelityPercent, 98.0);
        QCOMPARE(m.meanFidelityPercent, (3 * 99.0 + 100.0) / 4);  // over every item
        QCOMPARE(m.itemsBelow99, 5);
        QCOMPARE(mergeRankSteps(std::vector<StepResult>(2), {}, LoadParameters()).minFidelityPercent, -1.0);  // not subscribe
    }

    void errorsNameTheRank() {
        const std::vector<QString> hosts{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
        QCOMPARE(combineRankErrors({{}, {}, {}}, hosts), QString());
        QCOMPARE(combineRankErrors({{}, {}, QStringLiteral("connect to x: Bad_ConnectionRejected")}, hosts),
                 QStringLiteral("rank 2 of 3 (c): connect to x: Bad_ConnectionRejected"));
        QCOMPARE(combineRankErrors({QStringLiteral("e1"), {}, QStringLiteral("e2")}, hosts),
                 QStringLiteral("rank 0 of 3 (a): e1; rank 2 of 3 (c): e2"));
        QCOMPARE(combineRankErrors({QStringLiteral("e"), QStringLiteral("e"), QStringLiteral("e")}, hosts),
                 QStringLiteral("every rank (3): e"));
        QCOMPARE(combineRankErrors({QStringLiteral("e")}, {}), QStringLiteral("rank 0 of 1 (?): e"));

        // After ready() failed every rank has the same message: the step keeps it as it is, and each
        // rank's share says what failed there.
        std::vector<StepResult> steps(3);
        const QString gate = QStringLiteral("rank 2 of 3 (c): connect to x: Bad_ConnectionRejected");
        for (StepResult& s : steps) s.error = gate;
        StepResult m = mergeRankSteps(steps, hosts, LoadParameters(), {{}, {}, QStringLiteral("connect to x: Bad_ConnectionRejected")});
        QCOMPARE(m.error, gate);
        QVERIFY(m.ranks[0].error.isEmpty());
        QCOMPARE(m.ranks[2].error, QStringLiteral("connect to x: Bad_ConnectionRejected"));
        // Different errors (a rank stopped after the start): each named.
        steps[0].error.clear();
        steps[1].error = QStringLiteral("stopped during the warm-up: nothing was measured");
        m = mergeRankSteps(steps, hosts, LoadParameters());
        QVERIFY(m.error.startsWith(QStringLiteral("rank 1 of 3 (b): stopped during the warm-up")));
        QVERIFY(m.error.contains(QStringLiteral("; rank 2 of 3 (c): ")));
    }
};

UA_TEST_GUILESS_MAIN(TestRankMerge)
#include "tst_rank_merge.moc"
