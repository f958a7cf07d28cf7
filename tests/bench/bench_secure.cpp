// Read-1 throughput with and without security, and session establishment with Basic256Sha256
// SignAndEncrypt (issue 4's benchmarks; the load tester takes them over once it exists):
//   bench_secure [sessions=20] [seconds=3] [rounds=3]   (sessions 0: session establishment only)
// Our Server in process (2 I/O threads) and `sessions` Clients on one shared I/O thread, each with
// one Read of one Int32 outstanding (closed loop). Rounds alternate None and SignAndEncrypt so the
// ratio of their medians comes from the same machine state. Then OPN + CreateSession +
// ActivateSession + CloseSession + CloseSecureChannel in a loop for `seconds`: sessions per second.
#include "DemoExtension.h"
#include "BenchClient.h"
#include "ua/server/runtime/Server.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <vector>

using namespace ua;

namespace {

ClientConfig clientConfig(const QString& pki, bool secure) {
    ClientConfig c;
    c.pkiDir = pki;
    c.securityPolicyUri = secure ? QString(kSecurityPolicyBasic256Sha256) : QString(kSecurityPolicyNone);
    c.securityMode = secure ? MessageSecurityMode::SignAndEncrypt : MessageSecurityMode::None;
    c.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::TrustPermanently; };
    c.keepAliveIntervalMs = 0;
    c.autoReconnect = false;
    return c;
}

double readRound(const QString& url, const QString& pki, bool secure, int sessions, int seconds, QThread* io) {
    std::vector<std::unique_ptr<Client>> clients;
    std::vector<Client*> raw;
    for (int i = 0; i < sessions; ++i) {
        clients.push_back(std::make_unique<Client>(clientConfig(pki, secure), io));
        raw.push_back(clients.back().get());
    }
    const bench::OpenResult open = bench::openSessions(raw, url, sessions, 60000);
    for (const auto& [name, n] : open.failures) std::fprintf(stderr, "connect: %d x %s\n", n, name.c_str());
    if (open.failed) return -1;
    bench::ReadLoop loop(raw, NodeId(1, uint32_t(1000)), false);
    loop.start();
    QElapsedTimer t;
    t.start();
    const long before = loop.completed();
    bench::waitFor([] { return false; }, seconds * 1000);
    const double rate = double(loop.completed() - before) * 1000.0 / double(t.elapsed());
    loop.stop();
    return rate;
}

double sessionRound(const QString& url, const QString& pki, int seconds, QThread* io) {
    QElapsedTimer t;
    t.start();
    int done = 0;
    while (t.elapsed() < seconds * 1000) {
        Client c(clientConfig(pki, true), io);
        bool finished = false, ok = false;
        c.connectToServer(url, nullptr, [&](const ServiceResult<GetEndpointsResponse>& r) {
            if (!r.isGood()) { finished = true; return; }
            c.createSession(nullptr, [&](const ServiceResult<CreateSessionResponse>& s) {
                if (!s.isGood()) { finished = true; return; }
                c.disconnectFromServer(nullptr, [&](StatusCode) { ok = true; finished = true; });
            });
        });
        bench::waitFor([&] { return bool(finished); }, 30000);
        if (!ok) return -1;
        ++done;
    }
    return double(done) * 1000.0 / double(t.elapsed());
}

} // namespace

int main(int argc, char** argv) {
    ua::useDemoByDefault();  // the benchmark and demo namespaces (server-app/demo/)
    QCoreApplication app(argc, argv);
    const int sessions = argc > 1 ? std::atoi(argv[1]) : 20;
    const int seconds = argc > 2 ? std::atoi(argv[2]) : 3;
    const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
    QTemporaryDir dir;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.pkiDir = dir.filePath("server-pki");
    cfg.security.trustAllClients = true;  // the benchmark's client certificate (a lab setting)
    Server server(cfg);
    if (!server.start()) { std::fprintf(stderr, "server: %s\n", qPrintable(server.errorString())); return 1; }
    QThread io;
    io.start();
    const QString pki = dir.filePath("client-pki");
    std::vector<double> none, secure;
    for (int r = 0; r < rounds && sessions > 0; ++r) {
        none.push_back(readRound(server.endpointUrl(), pki, false, sessions, seconds, &io));
        secure.push_back(readRound(server.endpointUrl(), pki, true, sessions, seconds, &io));
        std::printf("round %d: read-1 %d x 1  None %.0f/s  Basic256Sha256 SignAndEncrypt %.0f/s\n", r + 1, sessions,
                    none.back(), secure.back());
        std::fflush(stdout);
    }
    if (sessions > 0)
        std::printf("median: None %.0f/s, SignAndEncrypt %.0f/s, ratio %.2f\n", bench::median(none), bench::median(secure),
                bench::median(secure) / bench::median(none));
    std::vector<double> establish;
    for (int r = 0; r < rounds; ++r) establish.push_back(sessionRound(server.endpointUrl(), pki, seconds, &io));
    std::printf("session establishment (OPN + CreateSession + ActivateSession + CloseSession), Basic256Sha256 "
                "SignAndEncrypt, sequential: median %.1f/s (rounds:", bench::median(establish));
    for (double e : establish) std::printf(" %.1f", e);
    std::printf(")\n");
    io.quit();
    io.wait();
    return 0;
}
