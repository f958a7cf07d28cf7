// Historical Access end to end (issue 30 item 6; docs/Benchmarks.md "History"):
//
//   bench_history_server [--items 10000] [--interval 100] [--readers 20] [--seconds 5] [--cycles 2]
//                        [--history-sessions 10] [--nodes 10] [--values 1000]
//
// Our Server in this process (2 I/O threads, history in a temporary SQLite file), our Clients:
// 1. Sampling next to reads: ITEMS benchmark variables change every INTERVAL / 2 ms (a thread stores
//    a new value into each, in both kinds of phase), so each sample every INTERVAL ms finds a new one; READERS Sessions run the read-1 closed loop. Phases of SECONDS
//    alternate: history off, the ITEMS variables historized at INTERVAL ms (Server::setHistorized),
//    off, ... CYCLES times, then off once more. Prints the median reads/s of both kinds of phase,
//    the slowdown, and the values the history stored per second while on.
// 2. HistoryRead from the file: NODES more variables get 100,000 values each (appended to the store
//    directly), then HISTORY-SESSIONS Sessions each keep one HistoryRead outstanding: Read Raw of
//    NODES nodes, VALUES values per node from a random start, SecurityPolicy None. Prints the
//    values/s over SECONDS and the requests/s.
// Everything shares this machine's cores: compare phases of one run, not runs.
#include "BenchClient.h"
#include "DemoExtension.h"
#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/history/HistoryManager.h"
#include "ua/server/runtime/Server.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>
#include <cstdio>
#include <random>
#include <thread>

using namespace ua;

namespace {

constexpr uint32_t kFirst = 1000;  // the benchmark variables: ns=1;i=1000..

ClientConfig clientConfig(const QString& pkiDir) {
    ClientConfig c;
    c.pkiDir = pkiDir;
    c.securityPolicyUri = QString(kSecurityPolicyNone);
    c.securityMode = MessageSecurityMode::None;
    c.keepAliveIntervalMs = 0;
    c.connectTimeoutMs = 30'000;
    c.requestTimeoutMs = 30'000;
    c.autoReconnect = false;
    c.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    return c;
}

// Keeps one HistoryRead outstanding per Client; counts requests and values.
class HistoryLoop {
public:
    HistoryLoop(std::vector<Client*> clients, uint32_t firstNode, int nodes, uint32_t values, int64_t firstTicks, int64_t spanValues)
        : m_clients(std::move(clients)), m_firstNode(firstNode), m_nodes(nodes), m_values(values), m_first(firstTicks), m_span(spanValues) {}
    void start() {
        m_running = true;
        for (std::size_t i = 0; i < m_clients.size(); ++i) send(i);
    }
    void stop() { m_running = false; }
    long requests() const { return m_requests.load(); }
    long values() const { return m_valuesRead.load(); }
    long errors() const { return m_errors.load(); }
    int inFlight() const { return m_inFlight.load(); }

private:
    void send(std::size_t i) {
        if (!m_running) return;
        thread_local std::mt19937_64 rng{std::random_device{}()};
        const int64_t startIndex = int64_t(rng() % uint64_t(std::max<int64_t>(1, m_span - m_values)));
        HistoryReadRequest req;
        ReadRawModifiedDetails d;
        d.startTime = DateTime{m_first + startIndex * DateTime::kTicksPerMs};
        d.endTime = DateTime{m_first + (startIndex + m_values) * DateTime::kTicksPerMs};
        d.numValuesPerNode = m_values;
        req.historyReadDetails = ExtensionObject::make(d);
        req.timestampsToReturn = TimestampsToReturn::Source;
        std::vector<HistoryReadValueId> ids;
        ids.resize(std::size_t(m_nodes));
        for (int n = 0; n < m_nodes; ++n) ids[std::size_t(n)].nodeId = NodeId(1, m_firstNode + uint32_t(n));
        req.nodesToRead = Array<HistoryReadValueId>(std::move(ids));
        ++m_inFlight;
        m_clients[i]->call<HistoryReadRequest, HistoryReadResponse>(std::move(req), nullptr, [this, i](const ServiceResult<HistoryReadResponse>& r) {
            long got = 0;
            bool ok = r.isGood();
            for (const HistoryReadResult& x : r.response.results) {
                if (x.statusCode.isBad()) ok = false;
                if (const HistoryData* h = x.historyData.get<HistoryData>()) got += long(h->dataValues.size());
            }
            --m_inFlight;
            if (!ok) {  // that Session stops
                if (m_errors.fetch_add(1) == 0) std::fprintf(stderr, "HistoryRead failed: %s\n", r.status.name().c_str());
                return;
            }
            m_requests.fetch_add(1);
            m_valuesRead.fetch_add(got);
            send(i);
        });
    }
    std::vector<Client*> m_clients;
    uint32_t m_firstNode;
    int m_nodes;
    uint32_t m_values;
    int64_t m_first, m_span;
    std::atomic<bool> m_running{false};
    std::atomic<int> m_inFlight{0};
    std::atomic<long> m_requests{0}, m_valuesRead{0}, m_errors{0};
};

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    useDemoByDefault();
    QCommandLineParser p;
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("items"), QStringLiteral("Variables sampled into the history."), QStringLiteral("n"), QStringLiteral("10000")},
        {QStringLiteral("interval"), QStringLiteral("Their change and sampling interval, ms."), QStringLiteral("ms"), QStringLiteral("100")},
        {QStringLiteral("readers"), QStringLiteral("Sessions of the read-1 closed loop."), QStringLiteral("n"), QStringLiteral("20")},
        {QStringLiteral("seconds"), QStringLiteral("Length of each phase."), QStringLiteral("s"), QStringLiteral("5")},
        {QStringLiteral("cycles"), QStringLiteral("Phases with history, each between two without."), QStringLiteral("n"), QStringLiteral("2")},
        {QStringLiteral("history-sessions"), QStringLiteral("Sessions with one HistoryRead outstanding."), QStringLiteral("n"), QStringLiteral("10")},
        {QStringLiteral("nodes"), QStringLiteral("Nodes per HistoryRead."), QStringLiteral("n"), QStringLiteral("10")},
        {QStringLiteral("values"), QStringLiteral("numValuesPerNode."), QStringLiteral("n"), QStringLiteral("1000")},
    });
    p.process(app);
    const int items = std::max(1, p.value(QStringLiteral("items")).toInt());
    const int interval = std::max(10, p.value(QStringLiteral("interval")).toInt());
    const int readers = std::max(1, p.value(QStringLiteral("readers")).toInt());
    const int seconds = std::max(1, p.value(QStringLiteral("seconds")).toInt());
    const int cycles = std::max(1, p.value(QStringLiteral("cycles")).toInt());
    const int historySessions = std::max(1, p.value(QStringLiteral("history-sessions")).toInt());
    const int nodes = std::clamp(p.value(QStringLiteral("nodes")).toInt(), 1, 1000);
    const uint32_t values = uint32_t(std::clamp(p.value(QStringLiteral("values")).toInt(), 1, 10000));

    QTemporaryDir dir;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.pkiDir = dir.filePath(QStringLiteral("pki"));
    cfg.benchmarkVariables = uint32_t(std::max(items + nodes, 1100));
    cfg.history.databasePath = dir.filePath(QStringLiteral("history.sqlite"));
    Server server(cfg);
    if (!server.start()) {
        std::fprintf(stderr, "server: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    // The changing values: a thread stores a new value into each variable every interval.
    std::vector<ValueCell::Ptr> cells;
    {
        const auto snap = server.addressSpace().snapshot();
        for (int i = 0; i < items; ++i)
            if (const Node* n = snap->find(NodeId(1, kFirst + uint32_t(i)))) cells.push_back(n->value);
    }
    std::atomic<bool> changing{true};
    std::thread changer([&] {
        // Twice per sampling interval, on absolute deadlines: every sample finds a new value (at
        // the same period the two clocks' phases decide whether a sample sees 0, 1 or 2 changes).
        auto next = std::chrono::steady_clock::now();
        for (int32_t round = 0; changing.load(); ++round) {
            const DateTime now = DateTime::now();
            for (const auto& c : cells) {
                DataValue v{Variant(round)};
                v.setSourceTimestamp(now);
                c->store(std::move(v));
            }
            next += std::chrono::microseconds(interval * 500);
            std::this_thread::sleep_until(next);
        }
    });
    struct Join {
        std::atomic<bool>& flag;
        std::thread& t;
        ~Join() {
            flag = false;
            t.join();
        }
    } join{changing, changer};

    QThread clientThread;
    clientThread.start();
    struct Stop {
        QThread& t;
        ~Stop() {
            t.quit();
            t.wait();
        }
    } stopThread{clientThread};
    std::vector<std::unique_ptr<Client>> owned;
    std::vector<Client*> readerClients, historyClients;
    for (int i = 0; i < readers + historySessions; ++i) {
        owned.push_back(std::make_unique<Client>(clientConfig(dir.filePath(QStringLiteral("client-pki"))), &clientThread));
        (i < readers ? readerClients : historyClients).push_back(owned.back().get());
    }
    if (bench::openSessions(readerClients, server.endpointUrl(), 32, 60'000).failed) return 1;

    // 1. Sampling next to reads.
    auto historize = [&](bool on) {
        for (int i = 0; i < items; ++i) {
            HistorizedNode h;
            h.node = NodeId(1, kFirst + uint32_t(i));
            h.samplingIntervalMs = interval;
            server.setHistorized(h, on);
        }
    };
    auto storedValues = [&] { return server.history()->sampledValues(); };
    bench::ReadLoop loop(readerClients, NodeId(id::Server_ServiceLevel), false);
    loop.start();
    std::vector<double> off, on, storedPerSecond;
    for (int phase = 0; phase < 2 * cycles + 1; ++phase) {
        const bool historized = phase % 2 == 1;
        if (historized) historize(true);
        const uint64_t storedBefore = storedValues();
        QElapsedTimer t;
        t.start();
        long before = loop.completed();
        for (int s = 1; s <= seconds; ++s) {
            bench::waitFor([&] { return t.elapsed() >= qint64(s) * 1000; }, 3000);
            const long now = loop.completed();
            (historized ? on : off).push_back(double(now - before));
            before = now;
        }
        if (historized) {
            storedPerSecond.push_back(double(storedValues() - storedBefore) / (double(t.elapsed()) / 1000.0));
            historize(false);
        }
    }
    loop.stop();
    const double a = bench::median(off), b = bench::median(on);
    std::printf("read-1 %d x 1, median of the seconds: history off %.0f requests/s, %d items at %d ms historized %.0f; slowdown %.1f %%\n",
                readers, a, items, interval, b, 100.0 * (1.0 - b / a));
    std::printf("stored while historized: %.0f values/s (median of %zu phases; asked %d)\n", bench::median(storedPerSecond),
                storedPerSecond.size(), items * 1000 / interval);

    // 2. HistoryRead from the file: NODES variables after the sampled ones get 100,000 values each,
    // 1 ms apart on 1970-01-02, appended as samples; then they are historized (their AccessLevel
    // gets HistoryRead) with a sampling interval of a day, so nothing else comes.
    const int64_t first = DateTime::fromUnixMs(86'400'000LL).ticks;
    constexpr int64_t kSpan = 100'000;
    const uint32_t firstRead = kFirst + uint32_t(items);
    server.history()->runAndWait([&](HistoryStore& s) {
        for (int n = 0; n < nodes; ++n) {
            const int64_t series = s.series(NodeId(1, firstRead + uint32_t(n)));
            for (int64_t k = 0; k < kSpan; ++k) {
                DataValue v{Variant(double(k))};
                v.setSourceTimestamp(DateTime{first + k * DateTime::kTicksPerMs});
                v.setServerTimestamp(v.sourceTimestamp);
                s.append(series, v);
            }
        }
        s.flush(true, 0);
    });
    for (int n = 0; n < nodes; ++n) {
        HistorizedNode h;
        h.node = NodeId(1, firstRead + uint32_t(n));
        h.samplingIntervalMs = 86'400'000;
        server.setHistorized(h, true);
    }
    // Its Sessions open now (idle through part 1 they would have timed out: no keep-alive).
    if (bench::openSessions(historyClients, server.endpointUrl(), 32, 60'000).failed) return 1;
    HistoryLoop history(historyClients, firstRead, nodes, values, first, kSpan);
    history.start();
    bench::waitFor([] { return false; }, 1000);  // warm-up
    const long r0 = history.requests(), v0 = history.values();
    QElapsedTimer h;
    h.start();
    bench::waitFor([] { return false; }, seconds * 1000);
    const double secs = double(h.nsecsElapsed()) / 1e9;
    const long r1 = history.requests(), v1 = history.values();
    history.stop();
    bench::waitFor([&] { return history.inFlight() == 0; }, 30'000);
    std::printf("HistoryRead raw %d x 1, %d nodes x %u values: %.0f requests/s, %.0f values/s; %ld errors\n", historySessions, nodes,
                values, double(r1 - r0) / secs, double(v1 - v0) / secs, history.errors());
    for (auto& c : owned) c->disconnectFromServer(nullptr, {});
    bench::waitFor([&] { return owned.back()->state() == ClientState::Disconnected; }, 5000);
    return history.errors() || loop.errors() ? 1 : 0;
}
