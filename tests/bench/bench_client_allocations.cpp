// Heap allocations of the client per request in steady state (issue 9, target 10: the client keeps
// no allocation per request that the server avoids; the server makes none per Read in steady
// state, bench_allocations). Our Server and `sessions` ua::Clients run in this process; every Client is on
// one I/O thread of their own (as the load tester's Sessions share a few), and only that thread's
// allocations are counted (AllocationCounter.h: malloc & co. interposed for the whole process, the
// client's I/O thread marked with countThisThread), so the server's threads do not count. Each
// Session keeps `outstanding` Reads of one Value outstanding (a benchmark variable ns=1;i=1000+k);
// a response's callback (no context: on the I/O thread, as in the load tester) sends the next one.
//
// What is counted per request, after the warm-up over `window` seconds:
//   total:   every allocation on the client's I/O thread (the library, the loop, Qt's event loop);
//   caller:  the allocations made while the loop builds the ReadRequest (its nodesToRead array),
//            counted around that code and subtracted: what any caller of Client::read pays;
//   library: total - caller (the request path of ua::Client: ClientCore, the channel, the
//            response decoding; a ReadResponse is decoded into a reused object,
//            ResponseScratch.h, so its results array is not one of them).
//
//   bench_client_allocations [--values N] [--sessions S] [--outstanding K] [--window SECONDS]
//                            [--max-per-request X]
// Prints one line of figures. Exit code 1 when total allocations per request exceed
// --max-per-request (if given), 2 on errors.
#include "DemoExtension.h"
#include "../common/TestServerConfig.h"
#include "AllocationCounter.h"
#include "BenchClient.h"

#include "ua/server/runtime/Server.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QThread>
#include <cstdio>

using namespace ua;

namespace {

// The closed loop of every Session on the client's I/O thread (touched by that thread only, but
// the counters, read by the main thread).
struct Loop {
    std::vector<Client*> clients;
    int values = 1;
    int outstanding = 1;
    std::atomic<bool> running{false};
    std::atomic<uint64_t> completed{0};
    std::atomic<uint64_t> errors{0};
    std::atomic<int64_t> inFlight{0};
    std::atomic<uint64_t> callerCalls{0};  // allocations while building requests (client thread)
    std::vector<NodeId> variables;         // ns=1;i=1000..1099
    std::size_t next = 0;

    void send(Client* c) {
        const uint64_t before = bench::markedThreadAllocationsSoFar().calls;
        ReadRequest r;
        r.maxAge = 0;
        r.timestampsToReturn = TimestampsToReturn::Both;
        r.nodesToRead.resize(std::size_t(values));
        for (ReadValueId& v : r.nodesToRead) {
            v.nodeId = variables[next++ % variables.size()];
            v.attributeId = uint32_t(AttributeId::Value);
        }
        callerCalls.fetch_add(bench::markedThreadAllocationsSoFar().calls - before, std::memory_order_relaxed);
        inFlight.fetch_add(1, std::memory_order_relaxed);
        c->read(std::move(r), nullptr, [this, c](const ServiceResult<ReadResponse>& res) {
            if (res.isGood() && !res.response.results.empty() && res.response.results[0].status.isGood())
                completed.fetch_add(1, std::memory_order_relaxed);
            else
                errors.fetch_add(1, std::memory_order_relaxed);
            inFlight.fetch_sub(1, std::memory_order_relaxed);
            if (running.load(std::memory_order_relaxed)) send(c);
        });
    }
};

// Runs f on the thread of `anchor` and waits for it.
template <class F>
void onThread(QObject* anchor, F f) {
    QMetaObject::invokeMethod(anchor, std::move(f), Qt::BlockingQueuedConnection);
}

} // namespace

int main(int argc, char** argv) {
    ua::useDemoByDefault();  // the benchmark and demo namespaces (server-app/demo/)
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("ua.server.*.info=false\nua.client.info=false"));
    QCommandLineParser p;
    const QCommandLineOption values(QStringLiteral("values"), QStringLiteral("values per Read"), QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption sessions(QStringLiteral("sessions"), QStringLiteral("Sessions"), QStringLiteral("n"), QStringLiteral("20"));
    const QCommandLineOption outstanding(QStringLiteral("outstanding"), QStringLiteral("per Session"), QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption window(QStringLiteral("window"), QStringLiteral("counted seconds"), QStringLiteral("s"), QStringLiteral("3"));
    const QCommandLineOption maxPer(QStringLiteral("max-per-request"), QStringLiteral("fail above"), QStringLiteral("x"));
    p.addOptions({values, sessions, outstanding, window, maxPer});
    p.addHelpOption();
    p.process(app);
    const double windowS = p.value(window).toDouble();
    const int sessionCount = std::max(1, p.value(sessions).toInt());

    QTemporaryDir dir;
    ServerConfig cfg = ua::test::localServerConfig();
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.pkiDir = dir.filePath(QStringLiteral("pki"));
    Server server(cfg);
    if (!server.start()) {
        std::fprintf(stderr, "bench_client_allocations: the server did not start\n");
        return 2;
    }

    QThread io;
    io.setObjectName(QStringLiteral("client-io"));
    io.start();
    QObject anchor;
    anchor.moveToThread(&io);
    onThread(&anchor, [] { bench::countThisThread(true); });

    Loop loop;
    loop.values = std::max(1, p.value(values).toInt());
    loop.outstanding = std::max(1, p.value(outstanding).toInt());
    for (uint32_t i = 0; i < 100; ++i) loop.variables.emplace_back(uint16_t(1), 1000 + i);
    std::vector<std::unique_ptr<Client>> owned;
    ClientConfig ccfg;
    ccfg.requestTimeoutMs = 10'000;
    for (int i = 0; i < sessionCount; ++i) {
        owned.push_back(std::make_unique<Client>(ccfg, &io));
        loop.clients.push_back(owned.back().get());
    }
    const bench::OpenResult opened = bench::openSessions(loop.clients, server.config().endpointUrl(), 32, 30'000);
    if (opened.ok != sessionCount) {
        std::fprintf(stderr, "bench_client_allocations: %d of %d Sessions failed\n", opened.failed, sessionCount);
        return 2;
    }

    loop.running = true;
    onThread(&anchor, [&] {
        for (Client* c : loop.clients)
            for (int k = 0; k < loop.outstanding; ++k) loop.send(c);
    });
    bench::waitFor([] { return false; }, 1000);  // warm-up: pools and buffers reach their size

    const bench::AllocationCount a0 = bench::markedThreadAllocationsSoFar();
    const uint64_t r0 = loop.completed, e0 = loop.errors, c0 = loop.callerCalls;
    bench::waitFor([] { return false; }, int(windowS * 1000));
    const bench::AllocationCount a1 = bench::markedThreadAllocationsSoFar();
    const uint64_t r1 = loop.completed, e1 = loop.errors, c1 = loop.callerCalls;

    loop.running = false;
    bench::waitFor([&] { return loop.inFlight.load() == 0; }, 15'000);
    onThread(&anchor, [] { bench::countThisThread(false); });
    const uint64_t requests = r1 - r0;
    if (requests == 0 || e1 != e0) {
        std::fprintf(stderr, "bench_client_allocations: %llu requests, %llu errors in the window\n",
                     static_cast<unsigned long long>(requests), static_cast<unsigned long long>(e1 - e0));
        return 2;
    }
    // The requests built in the window and those answered differ by at most the outstanding ones.
    const double total = double(a1.calls - a0.calls) / double(requests);
    const double caller = double(c1 - c0) / double(requests);
    const double bytes = double(a1.bytes - a0.bytes) / double(requests);
    std::printf("values=%d sessions=%d outstanding=%d requests=%llu allocations/request total=%.4f caller=%.4f library=%.4f "
                "bytes/request=%.1f\n",
                loop.values, sessionCount, loop.outstanding, static_cast<unsigned long long>(requests), total, caller,
                total - caller, bytes);
    owned.clear();
    io.quit();
    io.wait();
    server.stop();
    if (p.isSet(maxPer) && total > p.value(maxPer).toDouble()) {
        std::fprintf(stderr, "bench_client_allocations: %.4f allocations per request, more than %s\n", total,
                     qPrintable(p.value(maxPer)));
        return 1;
    }
    return 0;
}
