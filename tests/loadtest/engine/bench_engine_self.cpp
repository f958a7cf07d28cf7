// The engine's read figure against our Server in this process, for comparing the engine with
// tests/bench/bench_server_load --self (the driver it replaces) on the same machine:
//
//   bench_engine_self [sessions=20] [outstanding=1] [seconds=10] [valuesPerRequest=1] [ioThreads=1]
//
// The server is set up as bench_server_load --self sets it (2 I/O threads, 127.0.0.1, port 0).
// Prints one line: requests/s (over the period, and the median of the per-second samples), p50,
// p99, client CPU per request, and whether the generator saturated. Not a ctest test.
#include "engine/LoadRunner.h"

#include "ua/server/Server.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <algorithm>
#include <cstdio>

using namespace ua;
using namespace ua::loadtest;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("ua.*.info=false"));
    const QStringList a = app.arguments();
    auto arg = [&](int i, double def) { return a.size() > i ? a.at(i).toDouble() : def; };
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    Server server(cfg);
    if (!server.start()) {
        std::fprintf(stderr, "server: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    LoadParameters p;
    p.endpointUrl = server.endpointUrl();
    p.scenario = Scenario::Read;
    p.sessions = int(arg(1, 20));
    p.outstanding = int(arg(2, 1));
    p.durationS = arg(3, 10);
    p.valuesPerRequest = int(arg(4, 1));
    p.ioThreads = int(arg(5, 1));
    p.warmupS = 1;
    LoadRunner runner;
    int rc = 0;
    QObject::connect(&runner, &LoadRunner::finished, &app, [&](const StepResult& r) {
        std::vector<double> perSecond;
        for (const TimelineSample& s : r.timeline)
            if (!s.warmup && s.tS >= 1) perSecond.push_back(s.requestsPerS);
        std::sort(perSecond.begin(), perSecond.end());
        const double median = perSecond.empty() ? 0 : perSecond[perSecond.size() / 2];
        std::printf("engine read-%d %d x %d for %.1f s: %.0f requests/s (median of seconds %.0f), p50 %.0f us, p99 %.0f us, "
                    "%llu errors, %llu timeouts, client CPU %.1f us/request (%.0f %% of a core)%s%s\n",
                    p.valuesPerRequest, p.sessions, p.outstanding, r.durationS, r.requestsPerS, median, r.p50Us, r.p99Us,
                    static_cast<unsigned long long>(r.errors), static_cast<unsigned long long>(r.timeouts),
                    r.clientCpuMsPerOp * 1000.0, r.clientCpuPercent, r.generatorSaturated ? ", generator saturated" : "",
                    r.error.isEmpty() ? "" : qPrintable(QStringLiteral(", error: ") + r.error));
        rc = r.error.isEmpty() && r.answered > 0 ? 0 : 1;
        app.quit();
    });
    runner.start(p);
    app.exec();
    return rc;
}
