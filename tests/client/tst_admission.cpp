// Admission control under a connect storm (issue 9 target 8; AdmissionConfig.h): our Server in
// process, raw UA-TCP clients for the exact answers, and our Client for the back-off.
#include "../transport/RawSession.h"
#include "ClientTestUtil.h"
#include "TcpProxy.h"
#include "ua/client/session/ReconnectBackoff.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include "TestMain.h"
#include <set>

using namespace ua;
using namespace ua::test;

namespace {

ServerConfig admissionServerConfig() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 2;
    cfg.demoNamespace = false;
    cfg.benchmarkVariables = 10;
    return cfg;
}

QString localhostUrlOf(quint16 port) { return QStringLiteral("opc.tcp://localhost:%1").arg(port); }

// CreateSession and an anonymous ActivateSession on a raw channel (RawSession.h).
StatusCode createSession(RawClient& c, NodeId* token = nullptr) { return rawCreateSession(c, token); }
StatusCode activate(RawClient& c, const NodeId& token) { return rawActivate(c, token); }

} // namespace

class TestAdmission : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void helloBeyondHandshakesIsTooBusyAfterADelay();
    void refusedPeerThatKeepsItsSideOpenIsDroppedAfterTwoSeconds();
    void handshakeEndsWithActivation();
    void connectionsBeyondMaxChannelsAreTooBusy();
    void createSessionBeyondPendingIsTooBusy();
    void unactivatedSessionsDoNotExhaustAnything();
    void discoveryGetsInAtMaxSessions();
    void secureStormConnectsThroughTheBackOff();
    void backOffGrowsWithJitter();
    void busyRetriesAreBoundedByTime();
    void lateActivateClosesTheSession();
    void lateCreateClosesTheSession();

private:
    std::unique_ptr<Server> start(ServerConfig cfg) {
        auto s = std::make_unique<Server>(std::move(cfg));
        if (!s->start()) return nullptr;
        return s;
    }
};

void TestAdmission::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
}

// After the ERR the server shuts its side down and waits for the peer's close; a peer that never
// closes is dropped 2 s later (a deadline of the connection's housekeeping timer).
void TestAdmission::refusedPeerThatKeepsItsSideOpenIsDroppedAfterTwoSeconds() {
    ServerConfig cfg = admissionServerConfig();
    cfg.admission.maxHandshakes = 1;
    cfg.admission.busyDelayMs = 100;
    auto server = start(cfg);
    QVERIFY(server);
    RawClient a;
    QVERIFY(a.connectTo(server->port()) && a.openChannel());
    // A plain socket (a QTcpSocket closes itself when the peer shuts its side down).
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(server->port());
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QVERIFY(::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0);
    QTRY_COMPARE(server->channelCount.load(), 2);
    QElapsedTimer t;
    t.start();
    const QByteArray hello = RawClient::hello();
    QCOMPARE(::send(fd, hello.constData(), std::size_t(hello.size()), 0), ssize_t(hello.size()));
    // The ERR, then the server's end of the stream; this side stays open.
    QByteArray got;
    char buf[256];
    while (t.elapsed() < 3000) {
        QTest::qWait(20);
        const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n > 0) got.append(buf, qsizetype(n));
        if (n == 0) break;
    }
    QVERIFY(got.startsWith("ERRF"));
    QCOMPARE(server->channelCount.load(), 2);  // still waiting for this side's close
    QTRY_COMPARE_WITH_TIMEOUT(server->channelCount.load(), 1, 3000);
    QVERIFY2(t.elapsed() >= 1900, qPrintable(QString::number(t.elapsed())));
    ::close(fd);
    QVERIFY(a.getEndpoints());
}

void TestAdmission::helloBeyondHandshakesIsTooBusyAfterADelay() {
    ServerConfig cfg = admissionServerConfig();
    cfg.admission.maxHandshakes = 2;
    cfg.admission.busyDelayMs = 300;
    auto server = start(cfg);
    QVERIFY(server);
    RawClient a, b, c;
    QVERIFY(a.connectTo(server->port()) && a.openChannel());
    QVERIFY(b.connectTo(server->port()) && b.openChannel());
    QCOMPARE(server->admission().handshakes(), 2);
    // The third Hello: ERR Bad_TcpServerTooBusy (OPC 10000-6 7.1.5), no earlier than the delay,
    // and the connection closed; nothing was acknowledged.
    QVERIFY(c.connectTo(server->port()));
    QElapsedTimer t;
    t.start();
    c.sendRaw(RawClient::hello());
    const RawMessage err = c.read();
    QCOMPARE(RawClient::errorCode(err), status::BadTcpServerTooBusy.code);
    QVERIFY2(t.elapsed() >= 250, qPrintable(QString::number(t.elapsed())));
    QVERIFY(c.waitClosed());
    QCOMPARE(server->admission().counters().busyChannels.load(), uint64_t(1));
    // A refusal stops reading, but is no backpressure pause: the ERR's write resumed nothing.
    QCOMPARE(server->admission().counters().readPauses.load(), uint64_t(0));
    QCOMPARE(server->admission().counters().readResumes.load(), uint64_t(0));
    // The channels admitted still work, and a closed one frees its slot.
    QVERIFY(a.getEndpoints());
    b.socket().abort();
    QTRY_COMPARE(server->admission().handshakes(), 1);
    RawClient d;
    QVERIFY(d.connectTo(server->port()) && d.openChannel());
    QVERIFY(d.getEndpoints());
}

void TestAdmission::handshakeEndsWithActivation() {
    ServerConfig cfg = admissionServerConfig();
    cfg.admission.maxHandshakes = 1;
    cfg.admission.busyDelayMs = 0;
    cfg.admission.handshakeTimeoutMs = 1500;
    auto server = start(cfg);
    QVERIFY(server);
    RawClient a;
    QVERIFY(a.connectTo(server->port()) && a.openChannel());
    QCOMPARE(server->admission().handshakes(), 1);
    NodeId token;
    QCOMPARE(createSession(a, &token), status::Good);
    QCOMPARE(server->admission().handshakes(), 1);  // created, not activated: still in its handshake
    QCOMPARE(activate(a, token), status::Good);
    QCOMPARE(server->admission().handshakes(), 0);
    // A channel that activates nothing gives its slot back after handshakeTimeoutMs, and stays open.
    RawClient b;
    QVERIFY(b.connectTo(server->port()) && b.openChannel());
    QCOMPARE(server->admission().handshakes(), 1);
    RawClient refused;
    QVERIFY(refused.connectTo(server->port()));
    refused.sendRaw(RawClient::hello());
    QCOMPARE(RawClient::errorCode(refused.read()), status::BadTcpServerTooBusy.code);
    QTRY_COMPARE_WITH_TIMEOUT(server->admission().handshakes(), 0, 4000);
    QCOMPARE(server->admission().counters().handshakeTimeouts.load(), uint64_t(1));
    QVERIFY(b.getEndpoints());
    RawClient later;
    QVERIFY(later.connectTo(server->port()) && later.openChannel());
}

void TestAdmission::connectionsBeyondMaxChannelsAreTooBusy() {
    ServerConfig cfg = admissionServerConfig();
    cfg.maxSessions = 1;
    cfg.maxChannels = 2;
    cfg.admission.busyDelayMs = 2000;  // not used beyond maxChannels: answered at once
    auto server = start(cfg);
    QVERIFY(server);
    RawClient a, b, c;
    QVERIFY(a.connectTo(server->port()) && a.openChannel());
    QVERIFY(b.connectTo(server->port()) && b.openChannel());
    QElapsedTimer t;
    t.start();
    QVERIFY(c.connectTo(server->port()));
    c.sendRaw(RawClient::hello());
    QCOMPARE(RawClient::errorCode(c.read()), status::BadTcpServerTooBusy.code);
    QVERIFY(t.elapsed() < 1500);
    QVERIFY(c.waitClosed());
}

void TestAdmission::createSessionBeyondPendingIsTooBusy() {
    ServerConfig cfg = admissionServerConfig();
    cfg.admission.maxPendingSessions = 2;
    auto server = start(cfg);
    QVERIFY(server);
    RawClient a;
    QVERIFY(a.connectTo(server->port()) && a.openChannel());
    NodeId t1, t2, t3;
    QCOMPARE(createSession(a, &t1), status::Good);
    QCOMPARE(createSession(a, &t2), status::Good);
    const uint32_t rejectedBefore = server->diagnostics().summary().rejectedSessionCount;
    QCOMPARE(createSession(a, &t3), status::BadServerTooBusy);
    QCOMPARE(server->sessions().count(), 2);
    QCOMPARE(server->admission().counters().busySessions.load(), uint64_t(1));
    // Counted where OPC 10000-5 12.9 says: RejectedSessionCount and RejectedRequestsCount.
    QCOMPARE(server->diagnostics().summary().rejectedSessionCount, rejectedBefore + 1);
    QVERIFY(server->diagnostics().summary().rejectedRequestsCount >= 1);
    // A first activation is always served; then there is room for a new establishment.
    QCOMPARE(activate(a, t1), status::Good);
    QCOMPARE(server->sessions().pendingCount(), 1);
    QCOMPARE(createSession(a, &t3), status::Good);
    // Both pending again: moving the activated Session to another channel waits (Bad_ServerTooBusy),
    // the pending ones still activate.
    RawClient b;
    QVERIFY(b.connectTo(server->port()) && b.openChannel());
    QCOMPARE(activate(b, t1), status::BadServerTooBusy);
    QCOMPARE(activate(a, t2), status::Good);
    QCOMPARE(activate(b, t1), status::Good);
}

void TestAdmission::unactivatedSessionsDoNotExhaustAnything() {
    ServerConfig cfg = admissionServerConfig();
    cfg.maxSessions = 3;
    cfg.maxChannels = 10;
    cfg.admission.maxPendingSessions = 10;
    cfg.admission.activationTimeoutMs = 1000;
    auto server = start(cfg);
    QVERIFY(server);
    RawClient a;
    QVERIFY(a.connectTo(server->port()) && a.openChannel());
    // At maxSessions, CreateSession removes the oldest Session not activated (OPC 10000-4 5.7.2.1).
    NodeId first, token;
    QCOMPARE(createSession(a, &first), status::Good);
    QTest::qWait(5);  // "oldest" is by creation time in ms: the others come later
    for (int i = 0; i < 5; ++i) QCOMPARE(createSession(a, &token), status::Good);
    QCOMPARE(server->sessions().count(), 3);
    QCOMPARE(activate(a, first), status::BadSessionIdInvalid);  // it made room
    QCOMPARE(activate(a, token), status::Good);
    // The others are removed once activationTimeoutMs has passed (the expiry runs every second).
    QTRY_COMPARE_WITH_TIMEOUT(server->sessions().count(), 1, 5000);
    QCOMPARE(server->sessions().pendingCount(), 0);
    QVERIFY(server->diagnostics().summary().sessionAbortCount >= 5);
    // With every Session activated, the limit is Bad_TooManySessions.
    NodeId t2, t3, t4;
    QCOMPARE(createSession(a, &t2), status::Good);
    QCOMPARE(activate(a, t2), status::Good);
    QCOMPARE(createSession(a, &t3), status::Good);
    QCOMPARE(activate(a, t3), status::Good);
    QCOMPARE(createSession(a, &t4), status::BadTooManySessions);
}

void TestAdmission::discoveryGetsInAtMaxSessions() {
    // maxChannels above maxSessions (OPC 10000-4 5.7.2.1: N Sessions, N+1 SecureChannels): with
    // every Session taken, a discovery connection is served and CreateSession gets the limit.
    ServerConfig cfg = admissionServerConfig();
    cfg.maxSessions = 3;
    cfg.maxChannels = 4;
    auto server = start(cfg);
    QVERIFY(server);
    std::vector<std::unique_ptr<Client>> clients;
    ClientConfig ccfg;
    ccfg.keepAliveIntervalMs = 0;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<Client>(ccfg));
        QCOMPARE(connectSession(*clients.back(), localhostUrlOf(server->port()), this), status::Good);
    }
    QTRY_COMPARE(server->channelCount.load(), 3);  // each client's discovery channel has closed
    QCOMPARE(server->sessions().count(), 3);
    RawClient discovery;
    QVERIFY(discovery.connectTo(server->port()) && discovery.openChannel());
    QVERIFY(discovery.getEndpoints());
    QCOMPARE(createSession(discovery), status::BadTooManySessions);
}

void TestAdmission::secureStormConnectsThroughTheBackOff() {
    // 30 clients at once, Basic256Sha256 SignAndEncrypt, against 3 handshakes and 2 pending
    // Sessions: the excess is refused (ERR Bad_TcpServerTooBusy, Bad_ServerTooBusy) and every
    // client gets in through its back-off; no Session is left behind.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ServerConfig cfg = admissionServerConfig();
    cfg.security.pkiDir = dir.filePath("server-pki");
    cfg.security.trustAllClients = true;
    cfg.admission.maxHandshakes = 3;
    cfg.admission.maxPendingSessions = 2;
    cfg.admission.busyDelayMs = 20;
    auto server = start(cfg);
    QVERIFY(server);
    ClientConfig ccfg;
    ccfg.keepAliveIntervalMs = 0;
    ccfg.pkiDir = dir.filePath("client-pki");
    ccfg.securityPolicyUri = QString(kSecurityPolicyBasic256Sha256);
    ccfg.securityMode = MessageSecurityMode::SignAndEncrypt;
    ccfg.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::TrustPermanently; };
    ccfg.connectTimeoutMs = 20000;
    ccfg.requestTimeoutMs = 20000;
    ccfg.reconnect.initialDelayMs = 50;
    ccfg.reconnect.maxDelayMs = 1000;
    ccfg.busyRetries = 40;
    {  // the client certificate is made once, before the storm
        Client first(ccfg);
        QCOMPARE(connectSession(first, localhostUrlOf(server->port()), this), status::Good);
        Awaited<StatusCode> closed;
        first.disconnectFromServer(this, closed.callback());
        QVERIFY(closed.wait());
    }
    QTRY_COMPARE(server->sessions().count(), 0);
    constexpr int kClients = 30;
    std::vector<std::unique_ptr<Client>> clients;
    std::vector<Awaited<ServiceResult<GetEndpointsResponse>>> connected(kClients);
    for (int i = 0; i < kClients; ++i) clients.push_back(std::make_unique<Client>(ccfg));
    for (int i = 0; i < kClients; ++i) clients[i]->connectToServer(localhostUrlOf(server->port()), this, connected[i].callback());
    std::vector<Awaited<ServiceResult<CreateSessionResponse>>> sessions(kClients);
    std::vector<bool> asked(kClients, false);
    QVERIFY(QTest::qWaitFor([&] {
        bool all = true;
        for (int i = 0; i < kClients; ++i) {
            if (!connected[i].has()) { all = false; continue; }
            if (connected[i]->status.isBad()) continue;
            if (!asked[i]) {
                asked[i] = true;
                clients[i]->createSession(this, sessions[i].callback());
            }
            if (!sessions[i].has()) all = false;
        }
        return all;
    }, 120000));
    for (int i = 0; i < kClients; ++i) {
        QCOMPARE(connected[i]->status, status::Good);
        QCOMPARE(sessions[i]->status, status::Good);
        QCOMPARE(clients[i]->state(), ClientState::Connected);
    }
    const auto& c = server->admission().counters();
    qInfo("busy channels %llu, busy sessions %llu", (unsigned long long)c.busyChannels.load(),
          (unsigned long long)c.busySessions.load());
    QVERIFY(c.busyChannels.load() > 0);  // the storm was larger than the bound
    // No orphaned Session: the server holds exactly what the clients hold, then nothing.
    QCOMPARE(server->sessions().count(), kClients);
    QCOMPARE(server->sessions().pendingCount(), 0);
    std::vector<Awaited<StatusCode>> closed(kClients);
    for (int i = 0; i < kClients; ++i) clients[i]->disconnectFromServer(this, closed[i].callback());
    for (auto& w : closed) QVERIFY(w.wait());
    QTRY_COMPARE(server->sessions().count(), 0);
    QTRY_COMPARE(server->admission().handshakes(), 0);
}

void TestAdmission::backOffGrowsWithJitter() {
    // The client's delays after Bad_TcpServerTooBusy / Bad_ServerTooBusy (ReconnectPolicy): each
    // attempt's range doubles, and clients refused together do not come back together.
    ReconnectPolicy p;
    p.initialDelayMs = 100;
    p.maxDelayMs = 100'000;
    p.multiplier = 2;
    p.jitter = 0.2;
    for (int attempt = 0; attempt < 5; ++attempt) {
        const uint32_t lowest = ReconnectBackoff::delayMs(p, attempt, 0.0);
        const uint32_t highest = ReconnectBackoff::delayMs(p, attempt, 0.999);
        QCOMPARE(lowest, uint32_t(std::lround(100 * std::pow(2, attempt) * 0.8)));
        if (attempt > 0) QVERIFY(lowest > ReconnectBackoff::delayMs(p, attempt - 1, 0.999));  // grows past the jitter
        QVERIFY(highest > lowest);
    }
    std::set<uint32_t> first;
    for (int i = 0; i < 20; ++i) {
        ReconnectBackoff b(p);
        first.insert(b.nextDelayMs());
    }
    QVERIFY2(first.size() >= 10, "20 clients' first delays are spread");
}

void TestAdmission::busyRetriesAreBoundedByTime() {
    // ClientConfig::busyRetryTimeMs: with no bound on the count (busyRetries -1) the client retries
    // a busy server with its back-off until the time is up, then reports Bad_TcpServerTooBusy.
    ServerConfig cfg = admissionServerConfig();
    cfg.admission.maxHandshakes = 1;
    cfg.admission.busyDelayMs = 0;
    auto server = start(cfg);
    QVERIFY(server);
    RawClient holder;  // holds the one handshake slot
    QVERIFY(holder.connectTo(server->port()) && holder.openChannel());
    ClientConfig ccfg;
    ccfg.keepAliveIntervalMs = 0;
    ccfg.reconnect.initialDelayMs = 50;
    ccfg.reconnect.maxDelayMs = 100;
    ccfg.busyRetries = -1;
    ccfg.busyRetryTimeMs = 1500;
    Client client(ccfg);
    QElapsedTimer t;
    t.start();
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(localhostUrlOf(server->port()), this, c.callback());
    QVERIFY(c.wait(10000));
    const qint64 elapsed = t.elapsed();
    QCOMPARE(c->status, status::BadTcpServerTooBusy);
    QVERIFY2(elapsed >= 1500 && elapsed < 4000, qPrintable(QString::number(elapsed)));
    // More attempts than a count of 10 would have allowed in that time: the time is the bound.
    const auto busy = server->admission().counters().busyChannels.load();
    QVERIFY2(busy > 11, qPrintable(QString::number(busy)));
    QCOMPARE(client.state(), ClientState::Disconnected);
}

// Our Client through a TcpProxy that keeps back the server's answer to one request, so that the
// client times out on it while the server serves it: the Session it created must not stay on the
// server until a time limit (the orphans of a connect storm, docs/Scalability.md).
namespace {
struct LateFixture {
    std::unique_ptr<Server> server;
    std::unique_ptr<TcpProxy> proxy;
    std::unique_ptr<Client> client;
};
bool lateFixture(LateFixture& f, QObject* context) {
    ServerConfig cfg = admissionServerConfig();
    cfg.admission.activationTimeoutMs = 120'000;  // an unactivated Session would stay 2 minutes
    f.server = std::make_unique<Server>(cfg);
    if (!f.server->start()) return false;
    f.proxy = std::make_unique<TcpProxy>(f.server->port());
    if (!f.proxy->listen()) return false;
    ClientConfig ccfg;
    ccfg.keepAliveIntervalMs = 0;
    ccfg.autoReconnect = false;
    ccfg.requestTimeoutMs = 700;
    ccfg.requestedSessionTimeoutMs = 120'000;  // an activated Session would stay 2 minutes
    f.client = std::make_unique<Client>(ccfg);
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    f.client->connectToServer(f.proxy->url(), context, c.callback());
    return c.wait() && c->status.isGood() && f.client->state() == ClientState::ChannelOpen;
}
} // namespace

void TestAdmission::lateActivateClosesTheSession() {
    LateFixture f;
    QVERIFY(lateFixture(f, this));
    f.proxy->holdRepliesAfter(2);  // CreateSession answered; ActivateSession's answer kept back
    Awaited<ServiceResult<CreateSessionResponse>> s;
    f.client->createSession(this, s.callback());
    QVERIFY(s.wait(5000));
    QCOMPARE(s->status, status::BadTimeout);
    QVERIFY(f.proxy->heldBytes() > 0);  // the server did answer ActivateSession
    // The client closed the Session it gave up on: gone well before any server time limit.
    QTRY_COMPARE_WITH_TIMEOUT(f.server->sessions().count(), 0, 3000);
    QCOMPARE(f.server->diagnostics().counters().sessionTimeouts.load(), 0u);
    QCOMPARE(f.server->diagnostics().counters().sessionAborts.load(), 0u);
    f.proxy->releaseReplies();  // the late answers change nothing
    QTest::qWait(200);
    QCOMPARE(f.client->state(), ClientState::ChannelOpen);
    // The channel still serves a new Session.
    Awaited<ServiceResult<CreateSessionResponse>> again;
    f.client->createSession(this, again.callback());
    QVERIFY(again.wait(5000));
    QCOMPARE(again->status, status::Good);
    QCOMPARE(f.server->sessions().count(), 1);
}

void TestAdmission::lateCreateClosesTheSession() {
    LateFixture f;
    QVERIFY(lateFixture(f, this));
    f.proxy->holdRepliesAfter(1);  // CreateSession's answer kept back
    Awaited<ServiceResult<CreateSessionResponse>> s;
    f.client->createSession(this, s.callback());
    QVERIFY(s.wait(5000));
    QCOMPARE(s->status, status::BadTimeout);
    QCOMPARE(f.server->sessions().count(), 1);  // created on the server, not activated
    // The answer comes after the client gave up: it closes that Session on the same channel
    // (OPC 10000-4 5.7.4.1) instead of leaving it to the activation time limit.
    f.proxy->releaseReplies();
    QTRY_COMPARE_WITH_TIMEOUT(f.server->sessions().count(), 0, 3000);
    QCOMPARE(f.server->diagnostics().counters().sessionAborts.load(), 0u);
    QCOMPARE(f.client->state(), ClientState::ChannelOpen);
}

UA_TEST_GUILESS_MAIN(TestAdmission)
#include "tst_admission.moc"
