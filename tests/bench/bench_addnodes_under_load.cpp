// AddNodes while Sessions read (issue 29 item 6; docs/Benchmarks.md "AddNodes while reading"):
//
//   bench_addnodes_under_load [--nodeset FILE] [--readers 20] [--rate 1000] [--seconds 5] [--cycles 3]
//
// Runs our Server in this process (2 I/O threads, the NodeSet FILE imported at start, e.g. one of
// tools/generate_large_nodeset.py), READERS Sessions in the read-1 closed loop (one Read of the
// Server's ServiceLevel outstanding each), and one more Session (a ConfigureAdmin user) that sends
// AddNodes of one Int32 Variable (HasTypeDefinition BaseDataVariableType, so the type node gains
// an inverse reference each time) at RATE requests/s, paced, at most 64 in flight, into the
// model's folders in turn (ns=<model>;i=1, 2, ...; under Objects when no model is loaded).
// Phases of SECONDS alternate: reads alone, reads with AddNodes, ..., CYCLES times, then alone
// once more. Prints the median read rate of the seconds alone and of those with AddNodes, the
// slowdown, the AddNodes achieved per second and their round-trip p50/p99 (µs). Everything shares this machine's cores:
// compare the phases of one run, not runs. Exit code 1 when a Session failed or an AddNodes was
// refused. ctest runs a short smoke pass.
#include "BenchClient.h"
#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>

using namespace ua;

namespace {

constexpr const char* kLargeUri = "urn:ua-workbench:bench:large";

ClientConfig benchClientConfig(UserIdentity identity, const QString& pkiDir) {
    ClientConfig c;
    c.pkiDir = pkiDir;  // the UserName token is encrypted with the server's certificate, which is checked
    c.securityPolicyUri = QString(kSecurityPolicyNone);
    c.securityMode = MessageSecurityMode::None;
    c.keepAliveIntervalMs = 0;
    c.connectTimeoutMs = 30'000;
    c.requestTimeoutMs = 30'000;
    c.autoReconnect = false;
    c.identity = std::move(identity);
    c.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    return c;
}

// Sends AddNodes at a fixed rate from the calling thread's loop (pump()), answers on the client's
// I/O thread.
class AddNodesPacer {
public:
    AddNodesPacer(Client* client, std::vector<NodeId> parents, uint16_t ns) : m_client(client), m_parents(std::move(parents)), m_ns(ns) {}
    void start(double rate) {
        m_rate = rate;
        m_clock.start();
        m_sentAtStart = m_sent;
        m_running = true;
    }
    void stop() { m_running = false; }
    // Sends what is due by now.
    void pump() {
        if (!m_running) return;
        const long due = m_sentAtStart + long(m_rate * double(m_clock.nsecsElapsed()) / 1e9);
        while (m_sent < due && m_inFlight.load() < 64) send();
    }
    long completed() const { return m_completed.load(); }
    long refused() const { return m_refused.load(); }
    int inFlight() const { return m_inFlight.load(); }
    std::vector<double> latenciesUs() {
        std::lock_guard lock(m_mutex);
        return m_latUs;
    }

private:
    void send() {
        const long n = m_sent++;
        AddNodesItem item;
        item.parentNodeId = ExpandedNodeId(m_parents[std::size_t(n) % m_parents.size()]);
        item.referenceTypeId = NodeId(id::Organizes);
        if (m_ns > 0) item.requestedNewNodeId = ExpandedNodeId(NodeId(m_ns, String("added/" + std::to_string(n))));
        item.browseName = QualifiedName{uint16_t(m_ns ? m_ns : 1), String("Added_" + std::to_string(n))};
        item.nodeClass = NodeClass::Variable;
        VariableAttributes a;
        a.dataType = NodeId(id::Int32);
        a.valueRank = -1;
        a.value = Variant(int32_t(n));
        a.accessLevel = 3;
        a.userAccessLevel = 3;
        item.nodeAttributes = ExtensionObject::make(std::move(a));
        item.typeDefinition = ExpandedNodeId(NodeId(id::BaseDataVariableType));
        AddNodesRequest req;
        req.nodesToAdd = Array<AddNodesItem>({std::move(item)});
        ++m_inFlight;
        const int64_t sentNs = bench::nowNs();
        m_client->call<AddNodesRequest, AddNodesResponse>(std::move(req), nullptr, [this, sentNs](const ServiceResult<AddNodesResponse>& r) {
            const bool ok = r.isGood() && !r.response.results.empty() && r.response.results[0].statusCode.isGood();
            if (ok) {
                m_completed.fetch_add(1);
                std::lock_guard lock(m_mutex);
                m_latUs.push_back(double(bench::nowNs() - sentNs) / 1000.0);
            } else {
                if (m_refused.fetch_add(1) == 0)
                    std::fprintf(stderr, "AddNodes refused: %s\n",
                                 (!r.isGood() ? r.status : r.response.results.empty() ? r.status : r.response.results[0].statusCode).name().c_str());
            }
            --m_inFlight;
        });
    }

    Client* m_client;
    std::vector<NodeId> m_parents;
    uint16_t m_ns;
    double m_rate = 0;
    QElapsedTimer m_clock;
    long m_sent = 0, m_sentAtStart = 0;
    bool m_running = false;
    std::atomic<int> m_inFlight{0};
    std::atomic<long> m_completed{0}, m_refused{0};
    std::mutex m_mutex;
    std::vector<double> m_latUs;
};

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("nodeset"), QStringLiteral("NodeSet2 file the server imports at start."), QStringLiteral("file")},
        {QStringLiteral("readers"), QStringLiteral("Sessions of the read-1 closed loop."), QStringLiteral("n"), QStringLiteral("20")},
        {QStringLiteral("rate"), QStringLiteral("AddNodes requests per second in the middle phase."), QStringLiteral("r"), QStringLiteral("1000")},
        {QStringLiteral("seconds"), QStringLiteral("Length of each phase."), QStringLiteral("s"), QStringLiteral("5")},
        {QStringLiteral("cycles"), QStringLiteral("Phases with AddNodes, each between two without."), QStringLiteral("n"), QStringLiteral("3")},
    });
    p.process(app);
    const int readers = std::max(1, p.value(QStringLiteral("readers")).toInt());
    const double rate = std::max(1.0, p.value(QStringLiteral("rate")).toDouble());
    const int seconds = std::max(1, p.value(QStringLiteral("seconds")).toInt());
    const int cycles = std::max(1, p.value(QStringLiteral("cycles")).toInt());

    QTemporaryDir dir;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.pkiDir = dir.filePath(QStringLiteral("pki"));
    cfg.security.trustAllClients = true;
    cfg.security.users.setUser("admin", "admin-pw", roleBit(Role::ConfigureAdmin), 1000);
    if (p.isSet(QStringLiteral("nodeset"))) cfg.nodeSetFiles = {p.value(QStringLiteral("nodeset"))};
    QElapsedTimer startClock;
    startClock.start();
    Server server(cfg);
    if (!server.start()) {
        std::fprintf(stderr, "server: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    const auto snap = server.addressSpace().snapshot();
    const int large = snap->namespaceIndex(kLargeUri);
    // Into the model's folders in turn (each of a generated model's folders holds 1,000 variables),
    // or under Objects without a model.
    std::vector<NodeId> parents;
    for (uint32_t f = 1; large > 0 && snap->find(NodeId(uint16_t(large), f)); ++f) parents.push_back(NodeId(uint16_t(large), f));
    if (parents.empty()) parents.push_back(NodeId(id::ObjectsFolder));
    const uint16_t ns = large > 0 ? uint16_t(large) : 0;  // 0: the server picks the NodeIds
    std::printf("server %s started in %lld ms with %zu nodes; AddNodes into %zu folders in turn\n", qPrintable(server.endpointUrl()),
                static_cast<long long>(startClock.elapsed()), snap->size(), parents.size());

    QThread readThread, addThread;
    readThread.start();
    addThread.start();
    struct StopThreads {
        QThread& a;
        QThread& b;
        ~StopThreads() {
            a.quit();
            b.quit();
            a.wait();
            b.wait();
        }
    } stopThreads{readThread, addThread};
    std::vector<std::unique_ptr<Client>> readerClients;
    std::vector<Client*> raw;
    for (int i = 0; i < readers; ++i) {
        readerClients.push_back(std::make_unique<Client>(benchClientConfig(UserIdentity::anonymous(), dir.filePath(QStringLiteral("client-pki"))), &readThread));
        raw.push_back(readerClients.back().get());
    }
    Client adder(benchClientConfig(UserIdentity::fromUserName(QStringLiteral("admin"), QStringLiteral("admin-pw")), dir.filePath(QStringLiteral("client-pki"))), &addThread);
    raw.push_back(&adder);
    const bench::OpenResult opened = bench::openSessions(raw, server.endpointUrl(), 32, 60'000);
    raw.pop_back();
    if (opened.failed) {
        for (const auto& [name, n] : opened.failures) std::fprintf(stderr, "CreateSession: %d x %s\n", n, name.c_str());
        return 1;
    }

    bench::ReadLoop loop(raw, NodeId(id::Server_ServiceLevel), false);
    AddNodesPacer pacer(&adder, parents, ns);
    loop.start();
    // Phases alternate (alone, with AddNodes, alone, ...) so that the machine's drift falls on both.
    std::vector<double> alone, with;
    QElapsedTimer t;
    t.start();
    long before = loop.completed();
    const int phases = 2 * cycles + 1;
    for (int s = 1; s <= phases * seconds; ++s) {
        const int ph = (s - 1) / seconds;
        if ((s - 1) % seconds == 0) {
            if (ph % 2 == 1) pacer.start(rate);
            else pacer.stop();
        }
        bench::waitFor([&] {
            pacer.pump();
            return t.elapsed() >= qint64(s) * 1000;
        }, 2000);
        const long now = loop.completed();
        (ph % 2 == 1 ? with : alone).push_back(double(now - before));
        before = now;
    }
    pacer.stop();
    loop.stop();
    bench::waitFor([&] { return pacer.inFlight() == 0; }, 10'000);
    const double a = bench::median(alone), b = bench::median(with);
    const std::vector<double> lat = pacer.latenciesUs();
    std::printf("read-1 %d x 1, median of the seconds: alone %.0f requests/s, with AddNodes %.0f; slowdown %.1f %%\n", readers, a, b,
                100.0 * (1.0 - b / a));
    std::printf("AddNodes: %ld done (%.0f/s of %.0f asked), %ld refused, round trip p50 %.0f us, p99 %.0f us; %ld read errors\n",
                pacer.completed(), double(pacer.completed()) / double(cycles * seconds), rate, pacer.refused(),
                bench::percentile(lat, 50), bench::percentile(lat, 99), loop.errors());
    std::printf("nodes now %zu\n", server.addressSpace().snapshot()->size());
    for (auto& cl : readerClients) cl->disconnectFromServer(nullptr, {});
    adder.disconnectFromServer(nullptr, {});
    bench::waitFor([&] { return adder.state() == ClientState::Disconnected; }, 5000);
    return pacer.refused() || loop.errors() || pacer.completed() == 0 ? 1 : 0;
}
