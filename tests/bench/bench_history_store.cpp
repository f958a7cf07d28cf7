// The history store's own throughput (libua/ua/server/history/HistoryStore.h), without a server:
//   bench_history_store [nodes] [seconds of samples] [rounds]
// 1. Insertion as the sampler does it: `nodes` series, one Double per node per 100 ms of simulated
//    time for `seconds`, appended, the open blocks written every 10 s of samples (the default
//    durability: a block of 256 values is written at 10 s, 20 s and when full). Prints values/s.
// 2. Raw reads as HistoryRead's Read Raw serves them: 1,000 values of one node (10 nodes per
//    "request"), from the file, ascending. Prints values/s.
// Issue 30 item 6 asks 100,000 values/s stored (10,000 items at 100 ms) and 1,000,000 values/s
// read through the server; this is the store's share of both (docs/Benchmarks.md "History").
#include "ua/server/history/HistoryStore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace ua;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const int nodes = argc > 1 ? std::max(1, atoi(argv[1])) : 10000;
    const int seconds = argc > 2 ? std::max(1, atoi(argv[2])) : 30;
    const int rounds = argc > 3 ? std::max(1, atoi(argv[3])) : 3;
    constexpr int64_t kStart = 133000000000000000LL;
    std::vector<double> insertRates, readRates;
    for (int round = 0; round < rounds; ++round) {
        QTemporaryDir dir;
        HistoryStore::Options o;
        o.durabilityMs = 0;  // every flush writes what is open: the most writing the store ever does
        HistoryStore store(dir.filePath("h.sqlite"), o);
        if (!store.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(store.error()));
            return 1;
        }
        std::vector<int64_t> series;
        for (int i = 0; i < nodes; ++i) series.push_back(store.series(NodeId(2, uint32_t(i + 1))));
        QElapsedTimer t;
        t.start();
        int64_t stored = 0;
        DataValue v(Variant(0.0));
        for (int step = 0; step < seconds * 10; ++step) {
            const int64_t ts = kStart + int64_t(step) * 1000000;  // 100 ms
            for (int i = 0; i < nodes; ++i) {
                v.value = Variant(double(step + i));
                v.setSourceTimestamp(DateTime{ts});
                v.setServerTimestamp(DateTime{ts});
                stored += store.append(series[std::size_t(i)], v);
            }
            // The default durability (10 s): what is open is written every 10 s of samples.
            if (step % 100 == 99) store.flush(true, 0);
        }
        store.flush(true, 0);
        const double insertSeconds = double(t.nsecsElapsed()) / 1e9;
        insertRates.push_back(double(stored) / insertSeconds);

        // Reads: 1,000 values per node, 10 nodes per request, from the middle of the history.
        const int perRead = std::min(1000, seconds * 10);  // from the file when seconds >= 100
        const int requests = std::min(nodes / 10, 200);
        std::vector<DataValue> out;
        int64_t read = 0;
        t.restart();
        for (int r = 0; r < std::max(requests, 1); ++r)
            for (int k = 0; k < 10 && r * 10 + k < nodes; ++k) {
                out.clear();
                store.read(series[std::size_t(r * 10 + k)], kStart, INT64_MAX, true, std::size_t(perRead), out);
                read += int64_t(out.size());
            }
        readRates.push_back(double(read) / (double(t.nsecsElapsed()) / 1e9));
        std::printf("round %d: stored %lld values in %.2f s (%.0f values/s), file %.1f MB; read %lld values (%.0f values/s)\n",
                    round + 1, static_cast<long long>(stored), insertSeconds, insertRates.back(), double(store.sizeBytes()) / 1e6,
                    static_cast<long long>(read), readRates.back());
    }
    std::printf("median over %d rounds: insert %.0f values/s, raw read %.0f values/s (%d nodes, %d s of 100 ms samples)\n", rounds,
                median(insertRates), median(readRates), nodes, seconds);
    return 0;
}
