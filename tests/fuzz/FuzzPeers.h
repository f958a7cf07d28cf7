// The shared setup of the stream fuzz harnesses (fuzz_server_stream, fuzz_client_responses) and of
// fuzz_capture, which records their seeds:
//   - fuzzApp(): a QCoreApplication, with Qt's log output dropped (each rejected input logs);
//   - FuzzServer: one Server for the process (started on a loopback port so that it has its
//     endpoints; the harness's connections do not use the port) plus a SubscriptionScheduler on
//     this thread in fake-clock mode (runDue per frame), so Publish responses come deterministically;
//     SessionManager::tokenSource is a counter reset per input, so captured AuthenticationTokens
//     replay;
//   - forEachFrame(): how an input is cut into frames (by the UA-TCP MessageSize of each header);
//   - ClientScenario: what the client does (a fixed sequence of services), so that the responses
//     in a captured stream match the requests the client sends when it is replayed.
#pragma once

#include "DemoExtension.h"
#include "MemorySocket.h"

#include "ua/client/Client.h"
#include "ua/client/channel/ClientConnection.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/runtime/ServerConnection.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include <QCoreApplication>
#include <QPointer>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>

namespace uafuzz {

inline QCoreApplication& fuzzApp() {
    static int argc = 1;
    static char name[] = "ua-fuzz";
    static char* argv[] = {name, nullptr};
    static QCoreApplication* app = [] {
        // Quiet, but for fatal messages; UA_FUZZ_LOG=1 shows everything.
        static const bool all = qEnvironmentVariableIsSet("UA_FUZZ_LOG");
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& text) {
            if (all || type == QtFatalMsg) std::fprintf(stderr, "%s\n", qPrintable(text));
        });
        return new QCoreApplication(argc, argv);
    }();
    return *app;
}

// Runs what the event loop has (a few rounds: a response can post further work).
inline void drainEvents(int rounds = 4) {
    for (int i = 0; i < rounds; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents);
}

// Cuts data into UA-TCP messages by the MessageSize in each 8-byte header; a size below 8 or past
// the end makes the rest one piece. f(p, n) is called for each.
template <class F>
void forEachFrame(const uint8_t* data, std::size_t size, F&& f) {
    std::size_t off = 0;
    while (off < size) {
        const std::size_t left = size - off;
        std::size_t n = left;
        if (left >= 8) {
            uint32_t m;
            std::memcpy(&m, data + off + 4, 4);
            if (m >= 8 && m <= left) n = m;
        }
        f(data + off, n);
        off += n;
    }
}

// The deterministic random source of the server's Sessions (SessionManager::tokenSource).
inline uint64_t g_tokenState = 0;
inline void fuzzTokens(uint8_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        g_tokenState = g_tokenState * 6364136223846793005ull + 1442695040888963407ull;
        out[i] = uint8_t(g_tokenState >> 56);
    }
}

class FuzzServer {
public:
    static FuzzServer& instance() {
        static FuzzServer* s = new FuzzServer;  // never destroyed: libFuzzer exits with it alive
        return *s;
    }

    // A connection over a new MemorySocket, as the server's I/O thread would make it; channel ids,
    // tokens and the fake clock start over so that an input behaves the same every time.
    ua::ServerConnection* connect(MemorySocket*& socket) {
        m_server->nextChannelId = 1;
        g_tokenState = 0;
        socket = new MemorySocket(true);
        return new ua::ServerConnection(m_server->parts(), socket);
    }
    // After a frame: the event loop, then the publishing/sampling deadlines of the next 500 ms.
    void pump() {
        drainEvents();
        m_clockUs += 500'000;
        m_scheduler->runDue(m_clockUs);
        drainEvents();
    }
    // Ends the connection and every Session it left, so the next input starts from the same state.
    void finish(QPointer<ua::ServerConnection> conn, QPointer<MemorySocket> socket) {
        if (socket) socket->remoteClose();
        drainEvents();
        delete conn.data();
        for (const auto& s : m_server->sessions().snapshot()) m_server->closeSession(s->sessionId);
        drainEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    ua::Server& server() { return *m_server; }

private:
    FuzzServer() {
        fuzzApp();
        ua::SessionManager::tokenSource = fuzzTokens;
        ua::ServerConfig c;
        c.extensions = {std::make_shared<ua::DemoExtension>()};  // namespace 1 (server-app/demo/)
        c.hostName = QStringLiteral("fuzz");
        c.port = 0;
        c.listenAddress = QHostAddress::LocalHost;
        c.ioThreads = 1;
        c.benchmarkVariables = 100;
        c.maxSessions = 20;
        m_server = new ua::Server(c);
        if (!m_server->start()) qFatal("fuzz server: %s", qPrintable(m_server->errorString()));
        m_scheduler = new ua::SubscriptionScheduler(m_server->addressSpace(), m_server->config().subscriptions,
                                                    m_server->subscriptionRegistry(), false);
        m_scheduler->makeCurrent();
        m_server->diagnostics().addHome(m_scheduler);
        m_server->events().attach(*m_scheduler);
        m_clockUs = ua::SubscriptionScheduler::clockUs();
    }

    ua::Server* m_server = nullptr;
    ua::SubscriptionScheduler* m_scheduler = nullptr;
    int64_t m_clockUs = 0;
};

// --- The client's side -----------------------------------------------------------------------

inline QPointer<MemorySocket> g_clientSocket;  // the socket of the client's latest connection
inline QTcpSocket* makeClientSocket(QObject* parent) {
    auto* s = new MemorySocket(false, parent);
    g_clientSocket = s;
    return s;
}

// What the client does; each scenario is a fixed sequence of calls, issued as the responses come.
enum class Scenario : uint8_t { Services, Subscriptions, Discovery, Chunked, Count };

class ClientScenario {
public:
    ClientScenario(Scenario which) : m_which(which) {
        ua::ClientConnection::setSocketFactory(makeClientSocket);
        ua::ClientConfig c;
        c.autoReconnect = false;
        c.keepAliveIntervalMs = 0;
        c.connectTimeoutMs = 60'000;
        c.requestTimeoutMs = 60'000;
        if (which == Scenario::Chunked) {
            c.transport.receiveBufferSize = 8192;  // the server's responses come in chunks of 8 KiB
            c.transport.sendBufferSize = 8192;
        }
        m_client = std::make_unique<ua::Client>(c, QThread::currentThread());
    }
    ~ClientScenario() {
        m_alive = false;
        m_client.reset();  // outstanding calls complete with Bad_Shutdown (ignored: m_alive)
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    ua::Client& client() { return *m_client; }

    void start() {
        const QString url = QStringLiteral("opc.tcp://fuzz:4840");
        if (m_which == Scenario::Discovery) {
            m_client->discover(url, nullptr, [](const ua::DiscoveryResult&) {});
            return;
        }
        m_client->connectToServer(url, nullptr, [this](const ua::ServiceResult<ua::GetEndpointsResponse>& r) {
            if (!m_alive || !r.isGood()) return;
            m_client->createSession(nullptr, [this](const ua::ServiceResult<ua::CreateSessionResponse>& s) {
                if (!m_alive || !s.isGood()) return;
                if (m_which == Scenario::Subscriptions) subscriptions();
                else services();
            });
        });
    }

private:
    // Every call at once; when all have answered, CloseSession and disconnect.
    void services() {
        using namespace ua;
        auto left = std::make_shared<int>(0);
        auto done = [this, left] {
            if (!m_alive || --*left > 0) return;
            m_client->closeSession(nullptr, [this](const ServiceResult<CloseSessionResponse>&) {
                if (m_alive) m_client->disconnectFromServer(nullptr, [](StatusCode) {});
            });
        };
        std::vector<NodeId> nodes{NodeId(id::Server_ServerStatus_State), NodeId(id::Server_ServerStatus_CurrentTime),
                                  NodeId(id::Server_NamespaceArray), NodeId(1, 1000), NodeId(1, 1001)};
        if (m_which == Scenario::Chunked) {
            // A response of several chunks. (gcc 12 -O2 warns of a variant's string member "maybe
            // uninitialized" when a NodeId temporary is moved in here: a false positive.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
            for (uint32_t i = 0; i < 100; ++i) nodes.emplace_back(uint16_t(1), 1000 + i);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
        }
        ++*left;
        m_client->readValues(nodes, nullptr, [done](const ServiceResult<ReadResponse>&) { done(); });
        ++*left;
        const Variant v = m_which == Scenario::Chunked ? Variant(ByteString(std::string(20000, 'x')))  // a chunked request
                                                       : Variant(int32_t(42));
        m_client->writeValue(NodeId(1, 1000), v, nullptr, [done](const ServiceResult<WriteResponse>&) { done(); });
        BrowseRequest req;
        req.requestedMaxReferencesPerNode = 5;  // ContinuationPoints and BrowseNext
        BrowseDescription d;
        d.nodeId = NodeId(id::Server);
        d.browseDirection = BrowseDirection::Forward;
        d.referenceTypeId = NodeId(id::HierarchicalReferences);
        d.includeSubtypes = true;
        d.resultMask = uint32_t(BrowseResultMask::All);
        req.nodesToBrowse = Array<BrowseDescription>{d};
        ++*left;
        m_client->browse(req, BrowseOptions(), nullptr, [done](const ServiceResult<BrowseResponse>&) { done(); });
        ++*left;
        m_client->translateBrowsePaths({*makeBrowsePath(NodeId(id::RootFolder), "/Objects/Server.ServerStatus"),
                                        *makeBrowsePath(NodeId(id::RootFolder), "/Objects/NoSuchNode")},
                                       nullptr, [done](const ServiceResult<TranslateBrowsePathsToNodeIdsResponse>&) { done(); });
        ++*left;
        m_client->callMethod(NodeId(id::Server), NodeId(id::Server_GetMonitoredItems), {Variant(uint32_t(1))}, nullptr,
                             [done](const ServiceResult<CallResponse>&) { done(); });
    }

    // A subscription with data-change and event items, changed step by step, then deleted.
    void subscriptions() {
        using namespace ua;
        SubscriptionSettings settings;
        settings.publishingIntervalMs = 100;
        SubscriptionHandlers handlers;
        handlers.notification = [](const SubscriptionNotification&) {};
        handlers.status = [](const SubscriptionStatusChange&) {};
        m_client->createSubscription(settings, nullptr, handlers, [this](const SubscriptionInfo& info) {
            if (!m_alive || info.status.isBad()) return;
            const SubscriptionHandle h = info.handle;
            std::vector<MonitoredItemSpec> items(3);
            items[0].clientHandle = 1;
            items[0].nodeId = NodeId(id::Server_ServerStatus_CurrentTime);
            items[0].settings.samplingIntervalMs = 100;
            items[1].clientHandle = 2;
            items[1].nodeId = NodeId(1, 1000);
            items[1].settings.queueSize = 5;
            items[2].clientHandle = 3;
            items[2].nodeId = NodeId(id::Server);
            items[2].attributeId = uint32_t(AttributeId::EventNotifier);
            items[2].settings.eventFilter = EventFilter();
            m_client->createMonitoredItems(h, std::move(items), nullptr, [this, h](const MonitoredItemsResult&) {
                if (!m_alive) return;
                m_client->writeValue(NodeId(1, 1000), Variant(int32_t(7)), nullptr, [](const ServiceResult<WriteResponse>&) {});
                SubscriptionSettings changed;
                changed.publishingIntervalMs = 200;
                changed.maxKeepAliveCount = 3;
                m_client->modifySubscription(h, changed, nullptr, [this, h](const SubscriptionInfo&) {
                    if (!m_alive) return;
                    m_client->setMonitoringMode(h, {2}, MonitoringMode::Sampling, nullptr, [this, h](const MonitoredItemsResult&) {
                        if (!m_alive) return;
                        m_client->deleteMonitoredItems(h, {1}, nullptr, [this, h](const MonitoredItemsResult&) {
                            if (!m_alive) return;
                            m_client->deleteSubscription(h, nullptr, [this](StatusCode) {
                                if (m_alive) m_client->disconnectFromServer(nullptr, [](StatusCode) {});
                            });
                        });
                    });
                });
            });
        });
    }

    Scenario m_which;
    bool m_alive = true;
    std::unique_ptr<ua::Client> m_client;
};

} // namespace uafuzz
