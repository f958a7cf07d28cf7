// Heap allocations of the server per request in steady state (issue 9, target 5). Our Server runs
// in this process (2 I/O threads, SecurityPolicy None, the benchmark variables ns=1;i=1000..);
// the load comes from the load tester in another process (`ua-loadtest run`, 20 Sessions x 1
// outstanding by default), so every allocation counted here (AllocationCounter.h: malloc & co.
// interposed for the whole process) is the server's. After the warm-up, the allocation calls and
// bytes and the Server's own count of Read requests served (ServerDiagnostics::serviceTotals) are
// taken twice, `window` seconds apart; the result is their ratio.
//
//   bench_allocations [--values N] [--sessions S] [--outstanding K] [--window SECONDS]
//                     [--max-per-request X] [--loadtest PATH]
// Prints: values, requests in the window, allocations per request, bytes per request. Exit code 1
// when allocations per request exceed --max-per-request (if given), 2 on errors.
#include "DemoExtension.h"
#include "../common/TestServerConfig.h"
#include "AllocationCounter.h"

#include "ua/server/runtime/Server.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLoggingCategory>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <cstdio>

using namespace ua;

namespace {

uint64_t readsServed(Server& server) {
    return server.diagnostics().serviceTotals()[std::size_t(ServiceKind::Read)].totalCount;
}

} // namespace

int main(int argc, char** argv) {
    ua::useDemoByDefault();  // the benchmark and demo namespaces (server-app/demo/)
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("ua.server.*.info=false"));
    QCommandLineParser p;
    const QCommandLineOption values(QStringLiteral("values"), QStringLiteral("values per Read"), QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption sessions(QStringLiteral("sessions"), QStringLiteral("Sessions"), QStringLiteral("n"), QStringLiteral("20"));
    const QCommandLineOption outstanding(QStringLiteral("outstanding"), QStringLiteral("per Session"), QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption window(QStringLiteral("window"), QStringLiteral("counted seconds"), QStringLiteral("s"), QStringLiteral("3"));
    const QCommandLineOption maxPer(QStringLiteral("max-per-request"), QStringLiteral("fail above"), QStringLiteral("x"));
    const QCommandLineOption loadtest(QStringLiteral("loadtest"), QStringLiteral("ua-loadtest"), QStringLiteral("path"),
                                      QStringLiteral(UA_LOADTEST_EXE));
    p.addOptions({values, sessions, outstanding, window, maxPer, loadtest});
    p.addHelpOption();
    p.process(app);
    const double windowS = p.value(window).toDouble();
    const int warmupS = 1;

    QTemporaryDir dir;
    ServerConfig cfg = ua::test::localServerConfig();
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.security.pkiDir = dir.filePath(QStringLiteral("pki"));
    Server server(cfg);
    if (!server.start()) {
        std::fprintf(stderr, "bench_allocations: the server did not start\n");
        return 2;
    }

    QProcess load;
    load.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("LD_PRELOAD"));  // under heaptrack, only this process is traced
    load.setProcessEnvironment(env);
    const int durationS = int(windowS + 3);
    load.start(p.value(loadtest), {QStringLiteral("run"), server.config().endpointUrl(), QStringLiteral("--values"), p.value(values),
                                   QStringLiteral("--sessions"), p.value(sessions), QStringLiteral("--outstanding"),
                                   p.value(outstanding), QStringLiteral("--warmup"), QString::number(warmupS),
                                   QStringLiteral("--duration"), QString::number(durationS), QStringLiteral("--no-diagnostics"),
                                   QStringLiteral("--quiet"), QStringLiteral("--pki"), dir.filePath(QStringLiteral("client-pki"))});
    if (!load.waitForStarted(5000)) {
        std::fprintf(stderr, "bench_allocations: %s did not start\n", qPrintable(p.value(loadtest)));
        return 2;
    }

    // Into the measured period of the load (connecting + warm-up + 1 s), then the window.
    ua::bench::AllocationCount a0, a1;
    uint64_t r0 = 0, r1 = 0;
    QTimer::singleShot((warmupS + 2) * 1000, &app, [&] {
        r0 = readsServed(server);
        a0 = ua::bench::allocationsSoFar();
        QTimer::singleShot(int(windowS * 1000), &app, [&] {
            a1 = ua::bench::allocationsSoFar();
            r1 = readsServed(server);
            app.quit();
        });
    });
    QObject::connect(&load, &QProcess::finished, &app, [&] {
        if (!r1) app.exit(2);  // ended before the window closed
    });
    if (app.exec() != 0) {
        std::fprintf(stderr, "bench_allocations: the load ended early (exit %d)\n", load.exitCode());
        return 2;
    }
    const uint64_t requests = r1 - r0;
    if (requests == 0) {
        std::fprintf(stderr, "bench_allocations: no Read served in the window\n");
        return 2;
    }
    const double perRequest = double(a1.calls - a0.calls) / double(requests);
    const double bytesPerRequest = double(a1.bytes - a0.bytes) / double(requests);
    std::printf("values=%s sessions=%s outstanding=%s requests=%llu allocations/request=%.4f bytes/request=%.1f\n",
                qPrintable(p.value(values)), qPrintable(p.value(sessions)), qPrintable(p.value(outstanding)),
                static_cast<unsigned long long>(requests), perRequest, bytesPerRequest);
    load.waitForFinished(int(durationS + 10) * 1000);
    server.stop();
    if (p.isSet(maxPer) && perRequest > p.value(maxPer).toDouble()) {
        std::fprintf(stderr, "bench_allocations: %.4f allocations per request, more than %s\n", perRequest, qPrintable(p.value(maxPer)));
        return 1;
    }
    return 0;
}
