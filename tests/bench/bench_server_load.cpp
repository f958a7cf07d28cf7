// A load driver for a running server (issue 6's measurements of the server app; docs/Benchmarks.md
// "Server app"), with our ua::Client against any --url:
//
//   bench_server_load --url opc.tcp://localhost:4841 --sessions 1000 --subscribe-items 10 --hold 60
//   bench_server_load --url opc.tcp://localhost:4841 --read-sessions 20 --seconds 20
//   (both at once: the background sessions are opened first, the reads run while they are held)
//
// Background: N Sessions (SecurityPolicy None, anonymous, one SecureChannel each), each with one
// Subscription (--publish-ms) of K MonitoredItems (--items bench: ns=1;i=1000+k, the benchmark
// variables, which do not change, so the server only sends keep-alives; --items demo: the demo
// namespace's Sine/Ramp/Random, which change every --demo-rate ms), kept open for --hold seconds
// while the number of connected Sessions and the notifications received are printed every second.
// Reads: S Sessions, each with one Read of --read-node outstanding (closed loop) for --seconds;
// prints the median of the per-second request rates, and p50/p99 latency of all requests.
//
// The driver needs N + S + ~20 file descriptors (raised to the hard limit at start); the server
// needs maxSessions >= N + S and maxChannels >= N + S (ServerConfig defaults: 1000 each) and as
// many descriptors. --self runs our Server in this process instead (ctest's smoke run).
// --self --shutdown S ends with Server::shutdown(S) and times it to shutdownFinished().
// --server-pid PID (a server on this machine): its CPU time per read and while holding, and its RSS,
// from /proc. Exit code 1 when a Session failed to open or was lost, or no Read succeeded.
#include "DemoExtension.h"
#include "BenchClient.h"
#include "engine/ProcessStats.h"
#include "ua/server/runtime/Server.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

using namespace ua;

namespace {

struct Options {
    QString url;
    int sessions = 0;
    int items = 0;
    bool demoItems = false;
    double publishMs = 1000;
    int holdSeconds = 0;
    int readSessions = 0;
    int seconds = 10;
    QString readNode;
    int clientThreads = 2;
    int window = 32;
    bool self = false;
    long serverPid = 0;
    int shutdownSeconds = -1;
};

// CPU time and RSS of the server from /proc (the load tester's ProcessStats); unknown (-1) when
// no --server-pid was given.
using ua::loadtest::ProcessSample;
ProcessSample sampleProcess(long pid) {
    return pid > 0 ? ua::loadtest::sampleProcess(pid) : ProcessSample{};
}

ClientConfig clientConfig(uint32_t keepAliveMs) {
    ClientConfig c;
    c.securityPolicyUri = QString(kSecurityPolicyNone);
    c.securityMode = MessageSecurityMode::None;
    c.keepAliveIntervalMs = keepAliveMs;
    c.connectTimeoutMs = 30'000;
    c.requestTimeoutMs = 30'000;
    c.autoReconnect = false;  // a lost Session is counted, not hidden
    return c;
}

// Raises the soft limit of open files to the hard one; returns the soft limit in force.
rlim_t raiseFileLimit() {
    rlimit r{};
    if (getrlimit(RLIMIT_NOFILE, &r) != 0) return 0;
    if (r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
        getrlimit(RLIMIT_NOFILE, &r);
    }
    return r.rlim_cur;
}

int connectedCount(const std::vector<std::unique_ptr<Client>>& clients) {
    int n = 0;
    for (const auto& c : clients) n += c->state() == ClientState::Connected;
    return n;
}

void printFailures(const char* what, const bench::OpenResult& r) {
    for (const auto& [name, n] : r.failures) std::printf("  %s failed: %d x %s\n", what, n, name.c_str());
}

// One Subscription of `items` MonitoredItems on every client; returns how many Subscriptions got
// all their items. Notifications are counted in `notifications` (any thread).
int subscribeAll(const std::vector<Client*>& clients, const Options& o, std::atomic<long>& notifications) {
    std::vector<NodeId> nodes;
    if (o.demoItems) {
        const NodeIdConverter conv = clients.front()->nodeIdConverter();
        for (const char* name : {"Sine", "Ramp", "Random"}) {
            const auto id = conv.fromPersistentString(std::string("nsu=urn:ua-workbench:demo;s=Demo.Simulation.") + name);
            if (!id) {
                std::printf("  the server has no demo namespace (urn:ua-workbench:demo)\n");
                return 0;
            }
            nodes.push_back(*id);
        }
    } else {
        nodes.push_back(NodeId(1, uint32_t(1000)));
    }
    auto done = std::make_shared<std::atomic<int>>(0);
    auto good = std::make_shared<std::atomic<int>>(0);
    std::size_t next = 0;
    int started = 0;
    QElapsedTimer report;
    report.start();
    while (*done < int(clients.size())) {
        while (next < clients.size() && started - *done < o.window) {
            Client* c = clients[next++];
            ++started;
            SubscriptionSettings s;
            s.publishingIntervalMs = o.publishMs;
            s.maxKeepAliveCount = 10;
            s.lifetimeCount = 60;
            SubscriptionHandlers h;
            h.notification = [&notifications](const SubscriptionNotification& n) {
                notifications.fetch_add(long(n.dataChanges.size()), std::memory_order_relaxed);
            };
            std::vector<MonitoredItemSpec> specs;
            for (int k = 0; k < o.items; ++k) {
                MonitoredItemSpec m;
                m.clientHandle = uint32_t(k + 1);
                m.nodeId = o.demoItems ? nodes[std::size_t(k) % nodes.size()] : NodeId(1, uint32_t(1000 + k));
                m.settings.samplingIntervalMs = o.publishMs;
                specs.push_back(std::move(m));
            }
            c->createSubscription(s, nullptr, h, [c, specs, done, good](const SubscriptionInfo& info) {
                if (info.status.isBad()) {
                    ++*done;
                    return;
                }
                c->createMonitoredItems(info.handle, specs, nullptr, [done, good](const MonitoredItemsResult& r) {
                    bool all = r.status.isGood();
                    for (const auto& i : r.items) all = all && i.statusCode.isGood();
                    if (all) ++*good;
                    ++*done;
                });
            });
        }
        QCoreApplication::processEvents();
        QThread::msleep(1);
        if (report.elapsed() >= 1000) {
            std::printf("  subscribed %d/%zu\n", good->load(), clients.size());
            std::fflush(stdout);
            report.restart();
        }
    }
    return *good;
}

} // namespace

int main(int argc, char** argv) {
    ua::useDemoByDefault();  // the benchmark and demo namespaces (server-app/demo/)
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Load driver for an OPC UA server (docs/Benchmarks.md \"Server app\")."));
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("url"), QStringLiteral("Server endpoint URL."), QStringLiteral("url"), QStringLiteral("opc.tcp://localhost:4841")},
        {QStringLiteral("self"), QStringLiteral("Run our Server in this process (2 I/O threads) and use it.")},
        {QStringLiteral("sessions"), QStringLiteral("Background Sessions to open and hold."), QStringLiteral("n"), QStringLiteral("0")},
        {QStringLiteral("subscribe-items"), QStringLiteral("MonitoredItems of the one Subscription of each background Session (0: no Subscription)."),
         QStringLiteral("k"), QStringLiteral("0")},
        {QStringLiteral("items"), QStringLiteral("bench (ns=1;i=1000+k) or demo (Demo.Simulation signals)."), QStringLiteral("kind"), QStringLiteral("bench")},
        {QStringLiteral("publish-ms"), QStringLiteral("Publishing and sampling interval of the Subscriptions."), QStringLiteral("ms"), QStringLiteral("1000")},
        {QStringLiteral("hold"), QStringLiteral("Seconds to hold the background Sessions (at least while the reads run)."), QStringLiteral("s"), QStringLiteral("0")},
        {QStringLiteral("read-sessions"), QStringLiteral("Sessions of the read-1 closed loop (0: no reads)."), QStringLiteral("s"), QStringLiteral("0")},
        {QStringLiteral("seconds"), QStringLiteral("Duration of the reads."), QStringLiteral("t"), QStringLiteral("10")},
        {QStringLiteral("read-node"), QStringLiteral("The node read."), QStringLiteral("nodeid"), QStringLiteral("ns=1;i=1000")},
        {QStringLiteral("client-threads"), QStringLiteral("I/O threads shared by the background Clients (the readers have one more of their own)."), QStringLiteral("n"), QStringLiteral("2")},
        {QStringLiteral("shutdown"), QStringLiteral("With --self: end with Server::shutdown(s) and time it (-1: stop())."),
         QStringLiteral("s"), QStringLiteral("-1")},
        {QStringLiteral("server-pid"), QStringLiteral("Process id of the server (same machine): its CPU time and memory are reported."),
         QStringLiteral("pid"), QStringLiteral("0")},
        {QStringLiteral("connect-window"), QStringLiteral("Session openings (and subscription set-ups) in flight at once."), QStringLiteral("n"), QStringLiteral("32")},
    });
    p.process(app);
    Options o;
    o.url = p.value(QStringLiteral("url"));
    o.self = p.isSet(QStringLiteral("self"));
    o.sessions = p.value(QStringLiteral("sessions")).toInt();
    o.items = p.value(QStringLiteral("subscribe-items")).toInt();
    o.demoItems = p.value(QStringLiteral("items")) == QStringLiteral("demo");
    o.publishMs = p.value(QStringLiteral("publish-ms")).toDouble();
    o.holdSeconds = p.value(QStringLiteral("hold")).toInt();
    o.readSessions = p.value(QStringLiteral("read-sessions")).toInt();
    o.seconds = std::max(1, p.value(QStringLiteral("seconds")).toInt());
    o.readNode = p.value(QStringLiteral("read-node"));
    o.clientThreads = std::max(1, p.value(QStringLiteral("client-threads")).toInt());
    o.window = std::max(1, p.value(QStringLiteral("connect-window")).toInt());
    o.serverPid = p.value(QStringLiteral("server-pid")).toLong();
    o.shutdownSeconds = p.value(QStringLiteral("shutdown")).toInt();
    if (o.self) o.serverPid = long(getpid());
    const auto readNode = NodeId::parse(o.readNode.toStdString());
    if (!readNode) {
        std::fprintf(stderr, "--read-node %s is not a NodeId\n", qPrintable(o.readNode));
        return 2;
    }

    const rlim_t files = raiseFileLimit();
    std::printf("open files limit %llu; this run needs about %d\n", static_cast<unsigned long long>(files),
                o.sessions + o.readSessions + 20 + (o.self ? o.sessions + o.readSessions : 0));
    std::unique_ptr<Server> self;
    if (o.self) {
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.ioThreads = 2;
        cfg.maxSessions = std::max(cfg.maxSessions, o.sessions + o.readSessions);
        cfg.maxChannels = std::max(cfg.maxChannels, o.sessions + o.readSessions + 1);
        self = std::make_unique<Server>(cfg);
        if (!self->start()) {
            std::fprintf(stderr, "server: %s\n", qPrintable(self->errorString()));
            return 1;
        }
        o.url = self->endpointUrl();
    }
    std::printf("server %s\n", qPrintable(o.url));

    // The readers get an I/O thread of their own: Qt's event loop polls every socket of its thread
    // at each wake-up, so 20 readers sharing threads with 1,000 background Sessions would measure
    // the driver's own polling as much as the server (docs/Benchmarks.md "Server app").
    std::vector<std::unique_ptr<QThread>> pool, readerPool;
    for (int i = 0; i <= o.clientThreads; ++i) {
        auto& into = i < o.clientThreads ? pool : readerPool;
        into.push_back(std::make_unique<QThread>());
        into.back()->setObjectName(i < o.clientThreads ? QStringLiteral("bench-io-%1").arg(i) : QStringLiteral("bench-reads"));
        into.back()->start();
    }
    auto makeClients = [&](int n, uint32_t keepAliveMs, std::vector<std::unique_ptr<Client>>& out,
                           const std::vector<std::unique_ptr<QThread>>& threads) {
        std::vector<Client*> raw;
        for (int i = 0; i < n; ++i) {
            out.push_back(std::make_unique<Client>(clientConfig(keepAliveMs), threads[std::size_t(i) % threads.size()].get()));
            raw.push_back(out.back().get());
        }
        return raw;
    };
    int exitCode = 0;
    QElapsedTimer total;
    total.start();

    // --- Background Sessions ---------------------------------------------------------------------
    std::vector<std::unique_ptr<Client>> background;
    std::atomic<long> notifications{0};
    int opened = 0;
    if (o.sessions > 0) {
        // Sessions without a Subscription are kept alive by a Read every 20 s (a Subscription's
        // Publish requests do that otherwise); 1,000 of them add 50 reads/s.
        const std::vector<Client*> raw = makeClients(o.sessions, o.items > 0 ? 0 : 20'000, background, pool);
        QElapsedTimer t;
        t.start();
        const bench::OpenResult r = bench::openSessions(raw, o.url, o.window, 300'000, [](int done, int ok) {
            std::printf("  opening: %d answered, %d connected\n", done, ok);
            std::fflush(stdout);
        });
        std::printf("background: %d/%d Sessions open in %.1f s (%.0f/s)\n", r.ok, o.sessions, double(t.elapsed()) / 1000.0,
                    double(r.ok) * 1000.0 / double(std::max<qint64>(1, t.elapsed())));
        printFailures("CreateSession", r);
        opened = r.ok;
        if (r.failed) exitCode = 1;
        if (o.items > 0 && r.ok > 0) {
            std::vector<Client*> open;
            for (Client* c : raw)
                if (c->state() == ClientState::Connected) open.push_back(c);
            t.restart();
            const int subscribed = subscribeAll(open, o, notifications);
            std::printf("background: %d/%zu Subscriptions with %d items each in %.1f s\n", subscribed, open.size(), o.items,
                        double(t.elapsed()) / 1000.0);
            if (subscribed < int(open.size())) exitCode = 1;
        }
        if (const ProcessSample s = sampleProcess(o.serverPid); s.rssKb >= 0)
            std::printf("server RSS with the background Sessions: %ld kB\n", s.rssKb);
        std::fflush(stdout);
    }

    // --- Reads -----------------------------------------------------------------------------------
    QElapsedTimer held;
    held.start();
    long lastNotifications = notifications;
    auto progressLine = [&](const char* prefix) {
        const long n = notifications;
        std::printf("%s connected %d/%d, notifications %ld/s\n", prefix, connectedCount(background), o.sessions,
                    n - lastNotifications);
        lastNotifications = n;
        std::fflush(stdout);
    };
    if (o.readSessions > 0) {
        std::vector<std::unique_ptr<Client>> readers;
        const std::vector<Client*> raw = makeClients(o.readSessions, 0, readers, readerPool);
        const bench::OpenResult r = bench::openSessions(raw, o.url, o.window, 60'000);
        printFailures("reader CreateSession", r);
        if (r.failed) {
            exitCode = 1;
        } else {
            bench::ReadLoop loop(raw, *readNode, true);
            std::vector<double> perSecond;
            const ProcessSample serverBefore = sampleProcess(o.serverPid);
            const long completedBefore = loop.completed();
            loop.start();
            QElapsedTimer t;
            t.start();
            long before = loop.completed();
            for (int s = 1; s <= o.seconds; ++s) {
                bench::waitFor([&] { return t.elapsed() >= s * 1000; }, 2000);
                const long now = loop.completed();
                perSecond.push_back(double(now - before));
                before = now;
                std::printf("  t=%2ds read-1 %.0f/s", s, perSecond.back());
                if (o.sessions > 0) progressLine(", background");
                else std::printf("\n");
            }
            const ProcessSample serverAfter = sampleProcess(o.serverPid);
            const double readSeconds = double(t.elapsed()) / 1000.0;
            const long reads = loop.completed() - completedBefore;
            loop.stop();
            const std::vector<double> lat = loop.latenciesUs();
            if (serverAfter.cpuMs >= 0 && serverBefore.cpuMs >= 0 && reads > 0)
                std::printf("server%s during the reads: CPU %.0f %% of one core, %.1f us CPU per read, RSS %ld kB\n",
                            o.self ? " (and driver: --self)" : "", (serverAfter.cpuMs - serverBefore.cpuMs) / readSeconds / 10.0,
                            (serverAfter.cpuMs - serverBefore.cpuMs) * 1000.0 / double(reads), serverAfter.rssKb);
            std::printf("read-1 %d x 1 (%s) for %d s: median %.0f requests/s (min %.0f, max %.0f), p50 %.0f us, p99 %.0f us, "
                        "%ld errors; %d background Sessions connected\n",
                        o.readSessions, qPrintable(o.readNode), o.seconds, bench::median(perSecond),
                        *std::min_element(perSecond.begin(), perSecond.end()),
                        *std::max_element(perSecond.begin(), perSecond.end()), bench::percentile(lat, 50),
                        bench::percentile(lat, 99), loop.errors(), connectedCount(background));
            if (loop.completed() == 0) exitCode = 1;
        }
        for (auto& c : readers) c->disconnectFromServer(nullptr, {});
        bench::waitFor([&] {
            for (auto& c : readers)
                if (c->state() != ClientState::Disconnected) return false;
            return true;
        }, 5000);
    }

    // --- Hold ------------------------------------------------------------------------------------
    const ProcessSample holdBefore = sampleProcess(o.serverPid);
    QElapsedTimer holdClock;
    holdClock.start();
    while (o.sessions > 0 && held.elapsed() < qint64(o.holdSeconds) * 1000) {
        const qint64 next = (held.elapsed() / 1000 + 1) * 1000;
        bench::waitFor([&] { return held.elapsed() >= next; }, 2000);
        std::printf("  t=%3llds", static_cast<long long>(held.elapsed() / 1000));
        progressLine("");
    }
    if (self && o.shutdownSeconds >= 0) {
        // Graceful shutdown with the Sessions open: time to shutdownFinished(), clients told.
        bool finished = false;
        QObject::connect(self.get(), &Server::shutdownFinished, [&finished] { finished = true; });
        const int before = connectedCount(background);
        QElapsedTimer t;
        t.start();
        self->shutdown(uint32_t(o.shutdownSeconds), QStringLiteral("bench_server_load"));
        bench::waitFor([&] { return finished; }, (o.shutdownSeconds + 30) * 1000);
        const qint64 ms = t.elapsed();
        bench::waitFor([&] { return connectedCount(background) == 0; }, 5000);
        std::printf("shutdown(%d) with %d Sessions connected: shutdownFinished after %lld ms; %d still connected, "
                    "%d Sessions and %d Subscriptions left in the server\n",
                    o.shutdownSeconds, before, static_cast<long long>(ms), connectedCount(background), self->sessions().count(),
                    self->subscriptionRegistry().subscriptionCount());
        if (!finished || connectedCount(background) > 0 || self->sessions().count() > 0) exitCode = 1;
        opened = 0;  // their end is expected
    }
    if (o.sessions > 0) {
        const int still = connectedCount(background);
        std::printf("background: %d/%d Sessions still connected after %.0f s\n", still, o.sessions, double(held.elapsed()) / 1000.0);
        const ProcessSample holdAfter = sampleProcess(o.serverPid);
        if (holdAfter.cpuMs >= 0 && holdBefore.cpuMs >= 0 && holdClock.elapsed() >= 1000)
            std::printf("server while holding: CPU %.1f %% of one core, RSS %ld kB\n",
                        (holdAfter.cpuMs - holdBefore.cpuMs) / double(holdClock.elapsed()) * 100.0, holdAfter.rssKb);
        if (still < opened) exitCode = 1;  // lost on the way
        for (auto& c : background) c->disconnectFromServer(nullptr, {});
        bench::waitFor([&] { return connectedCount(background) == 0; }, 30'000);
    }
    background.clear();
    for (auto* threads : {&pool, &readerPool})
        for (auto& t : *threads) {
            t->quit();
            t->wait();
        }
    std::printf("done in %.1f s\n", double(total.elapsed()) / 1000.0);
    return exitCode;
}
