// The engine's figures against our Server in this process, for comparing the engine with
// tests/bench/bench_server_load --self (the driver it replaces) on the same machine, or against
// any server with --url:
//
//   bench_engine_self [--sessions 20] [--outstanding 1] [--seconds 10] [--values 1] [--io-threads 1]
//                     [--scenario read] [--rate 0] [--url opc.tcp://...] [--counter nodeid] [--items 100]
//
// Without --url the server is set up as bench_server_load --self sets it (2 I/O threads,
// 127.0.0.1, port 0; demo signals every 10 ms; anonymous Operator so that write works).
// Prints one line: requests/s (over the period, and the median of the per-second samples),
// values/s, p50, p99, errors, client CPU per request, and the scenario's own figures. Not a ctest test.
#include "DemoExtension.h"
#include "engine/LoadRunner.h"

#include "ua/server/runtime/Server.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLoggingCategory>
#include <algorithm>
#include <cstdio>
#include <memory>

using namespace ua;
using namespace ua::loadtest;

int main(int argc, char** argv) {
    ua::useDemoByDefault();  // the benchmark and demo namespaces (server-app/demo/)
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("ua.*.info=false"));
    QCommandLineParser cl;
    cl.addHelpOption();
    auto opt = [&](const char* name, const char* def) {
        cl.addOption({QString::fromLatin1(name), QString::fromLatin1(name), QStringLiteral("v"), QString::fromLatin1(def)});
    };
    opt("sessions", "20");
    opt("outstanding", "1");
    opt("seconds", "10");
    opt("values", "1");
    opt("io-threads", "1");
    opt("scenario", "read");
    opt("rate", "0");
    opt("url", "");
    opt("counter", "");
    opt("items", "100");
    cl.process(app);
    auto num = [&](const char* name) { return cl.value(QString::fromLatin1(name)).toDouble(); };

    std::unique_ptr<Server> server;
    LoadParameters p;
    p.endpointUrl = cl.value(QStringLiteral("url"));
    if (p.endpointUrl.isEmpty()) {
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.ioThreads = 2;
        cfg.demoUpdateRateMs = 10;
        cfg.security.users.anonymousRoles |= roleBit(Role::Operator);
        server = std::make_unique<Server>(cfg);
        if (!server->start()) {
            std::fprintf(stderr, "server: %s\n", qPrintable(server->errorString()));
            return 1;
        }
        p.endpointUrl = server->endpointUrl();
    }
    const auto scenario = scenarioFromName(cl.value(QStringLiteral("scenario")));
    if (!scenario) {
        std::fprintf(stderr, "unknown --scenario\n");
        return 2;
    }
    p.scenario = *scenario;
    p.sessions = int(num("sessions"));
    p.outstanding = int(num("outstanding"));
    p.durationS = num("seconds");
    p.valuesPerRequest = int(num("values"));
    p.ioThreads = int(num("io-threads"));
    p.targetRate = num("rate");
    p.counterNode = cl.value(QStringLiteral("counter"));
    p.monitoredItems = int(num("items"));
    p.warmupS = 1;
    LoadRunner runner;
    int rc = 0;
    QObject::connect(&runner, &LoadRunner::finished, &app, [&](const StepResult& r) {
        std::vector<double> perSecond;
        for (const TimelineSample& s : r.timeline)
            if (!s.warmup && s.tS >= 1) perSecond.push_back(s.requestsPerS);
        std::sort(perSecond.begin(), perSecond.end());
        const double median = perSecond.empty() ? 0 : perSecond[perSecond.size() / 2];
        QString extra;
        if (r.minFidelityPercent >= 0)
            extra += QStringLiteral(", fidelity min %1 % mean %2 %").arg(r.minFidelityPercent, 0, 'f', 1).arg(r.meanFidelityPercent, 0, 'f', 1);
        if (p.scenario == Scenario::Connect)
            extra += QStringLiteral(", too busy %1, retries %2").arg(r.serverTooBusy).arg(r.retries);
        if (r.serverDiagnostics)
            extra += QStringLiteral(", server cumulatedSessionCount +%1").arg(r.serverDiagnostics->delta.at(QStringLiteral("cumulatedSessionCount")));
        else
            extra += QStringLiteral(", no ServerDiagnosticsSummary");
        for (const auto& [name, n] : r.errorsByStatus) extra += QStringLiteral(", %1 x %2").arg(n).arg(name);
        if (r.generatorSaturated) extra += QStringLiteral(", generator saturated");
        if (!r.error.isEmpty()) extra += QStringLiteral(", error: ") + r.error;
        std::printf("engine %s-%d %d x %d for %.1f s: %.0f requests/s (median of seconds %.0f), %.0f values/s, p50 %.0f us, p99 %.0f us, "
                    "%llu errors, %llu timeouts, client CPU %.1f us/request (%.0f %% of a core)%s\n",
                    qPrintable(scenarioName(p.scenario)), p.valuesPerRequest, p.sessions, p.outstanding, r.durationS, r.requestsPerS,
                    median, r.valuesPerS, r.p50Us, r.p99Us, static_cast<unsigned long long>(r.errors),
                    static_cast<unsigned long long>(r.timeouts), r.clientCpuMsPerOp * 1000.0, r.clientCpuPercent, qPrintable(extra));
        rc = r.error.isEmpty() && r.answered > 0 ? 0 : 1;
        app.quit();
    });
    runner.start(p);
    app.exec();
    return rc;
}
