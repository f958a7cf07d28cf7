// Hostile peers against our Server in process (issue 10 item 3; docs/Reliability.md "Hostile
// peers"): raw UA-TCP clients that idle, trickle, never finish, never read, send what the decoder
// must refuse, or push every configured limit. Each case checks the status OPC 10000 names, the
// connection closed where it says so, the server's resources back to their baseline (channels,
// Sessions, the chunk budget, RSS) and a well-behaved client served meanwhile.
#include "../common/ProcessMemory.h"
#include "../common/TestServerConfig.h"
#include "RawSession.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"

#include <QElapsedTimer>
#include <QtTest>
#include "TestMain.h"
#include <algorithm>
#include <memory>

using namespace ua;
using namespace ua::test;

namespace {

ServerConfig hostilePeersServerConfig() {
    ServerConfig cfg = localServerConfig();
    cfg.benchmarkVariables = 20;
    return cfg;
}

ReadRequest readOf(int values, const NodeId& token = {}) {
    ReadRequest r;
    r.requestHeader.authenticationToken = token;
    r.timestampsToReturn = TimestampsToReturn::Neither;
    for (int k = 0; k < values; ++k) {
        ReadValueId v;
        v.nodeId = NodeId(1, uint32_t(1000 + k % 20));
        v.attributeId = uint32_t(AttributeId::Value);
        r.nodesToRead.push_back(std::move(v));
    }
    return r;
}

// The well-behaved client: one Read of one value, Good.
bool served(RawClient& c, const NodeId& token) {
    ReadResponse r;
    return rawCall(c, readOf(1, token), &r).isGood() && r.results.size() == 1 && r.results[0].status.isGood();
}

// A well-behaved client with an activated Session.
struct GoodClient {
    RawClient raw;
    NodeId token;
    bool open(quint16 port) {
        if (!raw.connectTo(port) || !raw.openChannel()) return false;
        token = rawOpenSession(raw);
        return !token.isNull();
    }
    bool served() { return ::served(raw, token); }
};

QByteArray bytesOf(const Buffer& b) { return QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size())); }

// A request body (type id, RequestHeader with handle) followed by raw bytes the test writes.
QByteArray bodyWith(uint32_t encodingId, const NodeId& token, uint32_t handle, const QByteArray& rest) {
    Buffer b;
    BinaryEncoder e(b);
    encode(e, NodeId(encodingId));
    RequestHeader h;
    h.authenticationToken = token;
    h.requestHandle = handle;
    encode(e, h);
    return bytesOf(b) + rest;
}

template <class T>
QByteArray le(T v) { return QByteArray(reinterpret_cast<const char*>(&v), sizeof v); }

// Bytes after a length under test, so that an array's check of the bytes its elements need at
// least passes and the length itself is what the decoder refuses.
const QByteArray kPad(64, '\0');

// The serviceResult of the answer to a raw request body (a ServiceFault's or the response's).
uint32_t faultOf(RawClient& c, const QByteArray& body) {
    c.sendRaw(c.messageChunk(body));
    ++c.m_requestId;
    const RawMessage m = c.read();
    if (const uint32_t f = RawClient::serviceFault(m)) return f;
    return m.valid && m.type == TcpMessageType::Message ? 0 : 1;  // 0: answered without fault; 1: no MSG
}

CreateSubscriptionRequest subscriptionRequest(const NodeId& token) {
    CreateSubscriptionRequest r;
    r.requestHeader.authenticationToken = token;
    r.requestedPublishingInterval = 1000;
    r.requestedLifetimeCount = 300;
    r.requestedMaxKeepAliveCount = 10;
    r.publishingEnabled = true;
    return r;
}

} // namespace

namespace QTest {
template <>
inline char* toString(const ua::StatusCode& s) {
    return qstrdup(s.name().c_str());
}
} // namespace QTest

class TestHostilePeers : public QObject {
    Q_OBJECT
private slots:
    void idleConnectionsAreClosedByTheHelloTimeout();
    void helloTrickledOneByteAtATimeTimesOut();
    void helloInTimeKeepsTheConnection();
    void unfinishedChunkedRequestsAcrossManyChannels();
    void interleavedRequestIdsCloseTheChannel();
    void messageOverMaxMessageSizeWithItsFinalChunk();
    void messageOverMaxChunkCount();
    void chunkOverReceiveBufferSize();
    void abortChunkReleasesTheRequest();
    void clientThatNeverReadsAndLeaves();
    void negativeLengthIsADecodingError();
    void lengthsBeyondTheLimitsAreRefused();
    void lengthBeyondTheMessageIsADecodingError();
    void deepNestingIsRefused();
    void unknownServiceAndBadTypeIds();
    void garbageMessageTypeClosesTheConnection();
    void unactivatedSessionsDoNotExhaustMaxSessions();
    void beyondMaxSessions();
    void beyondMaxSubscriptions();
    void beyondMaxMonitoredItems();
    void beyondOperationsPerRequest();
    void beyondMonitoredItemsPerCall();
    void beyondBrowseContinuationPoints();
};

void TestHostilePeers::idleConnectionsAreClosedByTheHelloTimeout() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.maxChannels = 2100;
    cfg.admission.helloTimeoutMs = 2000;
    Server server(cfg);
    QVERIFY(server.start());
    // One well-behaved client per I/O thread (connections are dealt to the threads in turn). Each
    // thread keeps the AddressSpace snapshot it last served from until it serves again, and every
    // Session created or closed publishes a new snapshot (SessionDiagnostics objects, a ~9.5 MB
    // copy): a Read on every thread before each measurement lets the old copies go.
    std::vector<std::unique_ptr<GoodClient>> good;
    for (int i = 0; i < cfg.ioThreads; ++i) {
        good.push_back(std::make_unique<GoodClient>());
        QVERIFY(good.back()->open(server.port()));
    }
    const int goodCount = int(good.size());
    auto allServed = [&] {
        return std::all_of(good.begin(), good.end(), [](const auto& g) { return g->served(); });
    };
    constexpr int kIdle = 2000;
    std::vector<qint64> rssAfter, heapAfter;
    qint64 rssHeldMax = 0;
    const qint64 rssBefore = rssBytes();
    const qint64 heapBefore = heapInUseBytes();
    const int rounds = std::max(6, qEnvironmentVariableIntValue("UA_IDLE_ROUNDS"));  // more to look for a trend
    for (int round = 1; round <= rounds; ++round) {
        // 2,000 TCP connections that send nothing.
        std::vector<std::unique_ptr<RawClient>> idle;
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < kIdle; ++i) {
            idle.push_back(std::make_unique<RawClient>());
            QVERIFY2(idle.back()->connectTo(server.port()), qPrintable(QString::number(i)));
        }
        const qint64 connectMs = t.elapsed();
        QTRY_COMPARE_WITH_TIMEOUT(server.channelCount.load(), kIdle + goodCount, 10000);
        const qint64 rssHeld = rssBytes();
        rssHeldMax = std::max(rssHeldMax, rssHeld);
        const qint64 heapHeld = heapInUseBytes();
        // Meanwhile the Sessions go on, and a new client gets a channel and a Session.
        QVERIFY(allServed());
        GoodClient late;
        QVERIFY(late.open(server.port()));
        QVERIFY(late.served());
        // No Hello within helloTimeoutMs: ERR Bad_Timeout (OPC 10000-6 7.1.3), every one closed.
        QTRY_COMPARE_WITH_TIMEOUT(server.channelCount.load(), goodCount + 1, 15000);
        QCOMPARE(server.admission().counters().helloTimeouts.load(), uint64_t(round * kIdle));
        int errs = 0;
        for (auto& c : idle)
            if (RawClient::errorCode(c->read(100)) == status::BadTimeout.code) ++errs;
        QCOMPARE(errs, kIdle);
        for (auto& c : idle) QVERIFY(c->waitClosed(1000));
        idle.clear();
        QVERIFY(allServed());
        QVERIFY(late.served());
        // The late client leaves properly: its Session closed, not left to its timeout.
        CloseSessionRequest close;
        close.requestHeader.authenticationToken = late.token;
        close.deleteSubscriptions = true;
        CloseSessionResponse closed;
        QCOMPARE(rawCall(late.raw, close, &closed), StatusCode(status::Good));
        late.raw.socket().abort();
        QTRY_COMPARE(server.channelCount.load(), goodCount);
        QCOMPARE(server.sessions().count(), goodCount);
        // The I/O threads delete their closed connections (deleteLater) and the diagnostics
        // (a 250 ms tick) remove the late Session's object meanwhile; then every thread serves
        // from the newest snapshot and releases its old one from its event loop.
        QTest::qWait(600);
        QVERIFY(allServed());
        QTest::qWait(100);
        rssAfter.push_back(rssBytes());
        heapAfter.push_back(heapInUseBytes());
        qInfo("round %d: %d idle connections made in %lld ms, all closed %lld ms after the first; RSS of the test process "
              "(both sides) %.1f MB before, %.1f MB with them, %.1f MB after; heap in use %lld, %lld, %lld bytes "
              "(%+lld since round 1)",
              round, kIdle, connectMs, t.elapsed(), double(rssBefore) / 1048576.0, double(rssHeld) / 1048576.0,
              double(rssAfter.back()) / 1048576.0, heapBefore, heapHeld, heapAfter.back(), heapAfter.back() - heapAfter.front());
    }
    QVERIFY(allServed());
    if (!kSanitizer) {  // a sanitizer's allocator keeps freed memory (quarantine, shadow): no baseline
        // The heap in use after round 1 (the warm-up: the allocator's and Qt's first-use structures,
        // the I/O threads' containers at their high-water mark) is the baseline.
        // Measured here (10 rounds, RelWithDebInfo, 2 I/O threads, idle and with both cores busy):
        // rounds 2-10 at +277..+403 KB above round 1. The heap does not grow evenly: it stays flat
        // for rounds, then steps up by 50-70 KB once (containers that never shrink, such as the
        // event dispatchers' socket-notifier tables and the I/O threads' own, reaching a new
        // high-water mark when the connections fall unevenly on the threads). CI once measured two
        // such steps in a row (+86, +94 KB), so the mean over three rounds is not a leak test.
        // A leak is paid by every connection of every round: 32 bytes each are 64 KB in every
        // step. So the median step (rounds 2 to the last) is bounded by 64 KB, and the whole
        // growth by 3 MB above round 1 (10x what was measured, far below one AddressSpace copy,
        // which an idle thread once kept and which moved the figure by ~10 MB).
        constexpr qint64 kHeapAboveBaseline = 3ll << 20;
        constexpr qint64 kHeapGrowthPerRound = 64ll << 10;
        const qint64 baseline = heapAfter.front();
        for (std::size_t r = 1; r < heapAfter.size(); ++r)
            QVERIFY2(heapAfter[r] - baseline <= kHeapAboveBaseline,
                     qPrintable(QStringLiteral("round %1: %2 bytes above round 1").arg(r + 1).arg(heapAfter[r] - baseline)));
        std::vector<qint64> steps;
        for (std::size_t r = 2; r < heapAfter.size(); ++r) steps.push_back(heapAfter[r] - heapAfter[r - 1]);
        std::sort(steps.begin(), steps.end());
        const qint64 medianStep = steps.size() % 2 ? steps[steps.size() / 2]
                                                   : (steps[steps.size() / 2 - 1] + steps[steps.size() / 2]) / 2;
        QVERIFY2(medianStep <= kHeapGrowthPerRound,
                 qPrintable(QStringLiteral("median step %1 bytes a round").arg(medianStep)));
        // RSS is no leak test: it keeps what free() gave back to the allocator, the arenas of the
        // threads fill unevenly, and the closing itself (ERRs, deleted connections) touches pages
        // after the "with them" figure was read. Measured (6 rounds, heap flat): 40 to 55-59 MB
        // after, up to 8 MB above the most held with 2,000 connections open. The heap above is the
        // leak test; RSS is only bounded by what a whole round's connections would leave if none
        // were freed at all (~15 MB a round, both sides): 48 MB over the start after 6 rounds.
        QVERIFY2(rssAfter.back() - rssBefore < 48ll << 20,
                 qPrintable(QStringLiteral("the idle connections left memory behind: %1 MB after, %2 MB at the start, "
                                           "%3 MB at most with them")
                                .arg(double(rssAfter.back()) / 1048576.0)
                                .arg(double(rssBefore) / 1048576.0)
                                .arg(double(rssHeldMax) / 1048576.0)));
    }
}

void TestHostilePeers::helloTrickledOneByteAtATimeTimesOut() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.admission.helloTimeoutMs = 1200;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient good;
    QVERIFY(good.open(server.port()));
    RawClient slow;
    QVERIFY(slow.connectTo(server.port()));
    const QByteArray hello = RawClient::hello();
    QElapsedTimer t;
    t.start();
    int sent = 0;
    // One byte every 200 ms (one a second against the 10 s default, scaled down): the Hello is
    // never whole in time.
    while (sent < hello.size() && !slow.socket().bytesAvailable() && slow.socket().state() == QAbstractSocket::ConnectedState &&
           t.elapsed() < 5000) {
        slow.sendRaw(hello.mid(sent++, 1));
        QVERIFY(good.served());
        QTest::qWait(200);
    }
    const RawMessage err = slow.read(3000);
    QCOMPARE(RawClient::errorCode(err), status::BadTimeout.code);
    QVERIFY(t.elapsed() >= 1100);
    QVERIFY(sent < hello.size());
    QVERIFY(slow.waitClosed());
    QCOMPARE(server.admission().counters().helloTimeouts.load(), uint64_t(1));
    QTRY_COMPARE(server.channelCount.load(), 1);
    QVERIFY(good.served());
}

void TestHostilePeers::helloInTimeKeepsTheConnection() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.admission.helloTimeoutMs = 500;
    Server server(cfg);
    QVERIFY(server.start());
    RawClient c;
    QVERIFY(c.connectTo(server.port()));
    const QByteArray hello = RawClient::hello();
    c.sendRaw(hello.left(10));
    QTest::qWait(200);
    c.sendRaw(hello.mid(10));
    QCOMPARE(c.read().type, TcpMessageType::Acknowledge);
    QTest::qWait(800);  // past the Hello timeout: the Hello came in time, nothing closes
    c.sendRaw(c.openRequest(0, SecurityTokenRequestType::Issue));
    QCOMPARE(c.read().type, TcpMessageType::OpenSecureChannel);
    QCOMPARE(server.admission().counters().helloTimeouts.load(), uint64_t(0));
    QCOMPARE(c.socket().state(), QAbstractSocket::ConnectedState);
}

void TestHostilePeers::unfinishedChunkedRequestsAcrossManyChannels() {
    // tst_backpressure checks the budget and the timeout one channel at a time; here 24 channels
    // each start a request under its own request id and never finish it.
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.backpressure.chunkBudgetBytes = 400'000;
    cfg.backpressure.chunkTimeoutMs = 1000;
    cfg.admission.maxHandshakes = 0;  // 24 channels without a Session stay in their handshake
    Server server(cfg);
    QVERIFY(server.start());
    const auto& budget = *server.admission().chunkBudget();
    GoodClient good;
    QVERIFY(good.open(server.port()));
    constexpr int kChannels = 24;
    std::vector<std::unique_ptr<RawClient>> peers;
    for (int i = 0; i < kChannels; ++i) {
        peers.push_back(std::make_unique<RawClient>());
        QVERIFY(peers.back()->connectTo(server.port()) && peers.back()->openChannel());
    }
    // Each sends two 20 KB intermediate chunks of request 1000+i: 24 x 40 KB = 960 KB, over the
    // 400 KB budget: the channels whose chunk goes over get ERR Bad_TcpNotEnoughResources.
    for (int i = 0; i < kChannels; ++i)
        for (int k = 0; k < 2; ++k)
            peers[std::size_t(i)]->sendRaw(peers[std::size_t(i)]->messageChunk(QByteArray(20000, 'x'), ChunkType::Intermediate, uint32_t(1000 + i)));
    QVERIFY(good.served());
    int refused = 0, timedOut = 0;
    for (auto& p : peers) {
        const uint32_t code = RawClient::errorCode(p->read(4000));
        if (code == status::BadTcpNotEnoughResources.code) ++refused;
        else if (code == status::BadRequestTimeout.code) ++timedOut;
        QVERIFY(p->waitClosed());
    }
    qInfo("%d refused over the budget, %d timed out", refused, timedOut);
    // Some went over the budget (24 x 40 KB do not fit in 400 KB), and what the budget held at
    // the end was held by channels that then timed out.
    QVERIFY(refused >= 1);
    QVERIFY(timedOut >= 1);
    QCOMPARE(refused + timedOut, kChannels);
    QCOMPARE(budget.refusals(), uint64_t(refused));
    QCOMPARE(server.admission().counters().chunkTimeouts.load(), uint64_t(timedOut));
    QTRY_COMPARE(budget.used(), uint64_t(0));
    QTRY_COMPARE(server.channelCount.load(), 1);
    QVERIFY(good.served());
}

void TestHostilePeers::interleavedRequestIdsCloseTheChannel() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    RawClient c;
    QVERIFY(c.connectTo(server.port()) && c.openChannel());
    c.sendRaw(c.messageChunk(QByteArray(5000, 'x'), ChunkType::Intermediate, 11));
    QTRY_COMPARE(server.admission().chunkBudget()->used(), uint64_t(5000));
    // A second request's chunk before the first request's final one (OPC 10000-6 6.7.2: the chunks
    // of a message are sent one after the other): the channel is closed.
    c.sendRaw(c.messageChunk(QByteArray(5000, 'y'), ChunkType::Intermediate, 12));
    QCOMPARE(RawClient::errorCode(c.read()), status::BadDecodingError.code);
    QVERIFY(c.waitClosed());
    QTRY_COMPARE(server.admission().chunkBudget()->used(), uint64_t(0));
    QTRY_COMPARE(server.channelCount.load(), 0);
}

void TestHostilePeers::messageOverMaxMessageSizeWithItsFinalChunk() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.transport.maxMessageSize = 100'000;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // A control: a Read padded to 90 KB, in 30 KB chunks, is within the limit: it is reassembled
    // and decoded (its padding makes it Bad_DecodingError, not Bad_RequestTooLarge).
    QByteArray payload = RawClient::body(readOf(1, c.token));
    payload.append(QByteArray(90'000 - int(payload.size()), '\0'));
    for (int at = 0; at < payload.size(); at += 30000)
        c.raw.sendRaw(c.raw.messageChunk(payload.mid(at, 30000), at + 30000 >= payload.size() ? ChunkType::Final : ChunkType::Intermediate, 50));
    QCOMPARE(RawClient::serviceFault(c.raw.read()), status::BadDecodingError.code);
    // 99,000 bytes in its intermediate chunks, then a final chunk that takes it past 100,000:
    // Bad_RequestTooLarge (OPC 10000-6 7.1.2.4, OPC 10000-4 7.38.1), the channel stays open.
    for (int k = 0; k < 3; ++k) c.raw.sendRaw(c.raw.messageChunk(QByteArray(33000, 'z'), ChunkType::Intermediate, 51));
    QTRY_COMPARE(server.admission().chunkBudget()->used(), uint64_t(99000));
    c.raw.sendRaw(c.raw.messageChunk(QByteArray(2000, 'z'), ChunkType::Final, 51));
    const RawMessage m = c.raw.read();
    QCOMPARE(RawClient::serviceFault(m), status::BadRequestTooLarge.code);
    QCOMPARE(server.admission().chunkBudget()->used(), uint64_t(0));
    QVERIFY(c.served());
}

void TestHostilePeers::messageOverMaxChunkCount() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.transport.maxChunkCount = 4;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // The fifth chunk of a request: Bad_RequestTooLarge at once, the rest of its chunks dropped.
    for (int k = 0; k < 5; ++k) c.raw.sendRaw(c.raw.messageChunk(QByteArray(100, 'q'), ChunkType::Intermediate, 60));
    QCOMPARE(RawClient::serviceFault(c.raw.read()), status::BadRequestTooLarge.code);
    for (int k = 0; k < 5; ++k) c.raw.sendRaw(c.raw.messageChunk(QByteArray(100, 'q'), ChunkType::Intermediate, 60));
    c.raw.sendRaw(c.raw.messageChunk(QByteArray(100, 'q'), ChunkType::Final, 60));
    QCOMPARE(server.admission().chunkBudget()->used(), uint64_t(0));
    QVERIFY(c.served());  // nothing else was answered for request 60: the next message is this Read's
}

void TestHostilePeers::chunkOverReceiveBufferSize() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    RawClient c;
    QVERIFY(c.connectTo(server.port()) && c.openChannel(8192));
    // The server's ReceiveBufferSize is the Hello's SendBufferSize (65535 here): a larger chunk is
    // ERR Bad_TcpMessageTooLarge (OPC 10000-6 7.1.5), the connection closed.
    c.sendRaw(c.messageChunk(QByteArray(int(c.m_ack.receiveBufferSize) + 10, 'x'), ChunkType::Intermediate, 70));
    QCOMPARE(RawClient::errorCode(c.read()), status::BadTcpMessageTooLarge.code);
    QVERIFY(c.waitClosed());
    QTRY_COMPARE(server.channelCount.load(), 0);
}

void TestHostilePeers::abortChunkReleasesTheRequest() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    for (int k = 0; k < 3; ++k) c.raw.sendRaw(c.raw.messageChunk(QByteArray(10000, 'a'), ChunkType::Intermediate, 80));
    QTRY_COMPARE(server.admission().chunkBudget()->used(), uint64_t(30000));
    // An Abort chunk (OPC 10000-6 6.7.3): the request is dropped without an answer, its chunks leave
    // the budget, the channel goes on.
    c.raw.sendRaw(c.raw.messageChunk(le(uint32_t(status::BadRequestCancelledByClient.code)) + le(int32_t(-1)), ChunkType::Abort, 80));
    QTRY_COMPARE(server.admission().chunkBudget()->used(), uint64_t(0));
    QVERIFY(c.served());
}

void TestHostilePeers::clientThatNeverReadsAndLeaves() {
    // tst_backpressure checks the pause, the memory and the other client's latency; here the peer
    // that never reads then disappears: its Session and channel go, nothing stays paused.
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.backpressure.maxQueuedResponses = 20;
    cfg.backpressure.resumeQueuedResponses = 10;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient good;
    QVERIFY(good.open(server.port()));
    GoodClient flood;
    flood.raw.socket().setSocketOption(QAbstractSocket::ReceiveBufferSizeSocketOption, 4096);
    QVERIFY(flood.open(server.port()));
    flood.raw.socket().setReadBufferSize(1);
    const auto& counters = server.admission().counters();
    QElapsedTimer t;
    t.start();
    int sent = 0;
    // Until the pause (at once on a quiet machine; under ASan beside other tests it took over 10 s).
    while (counters.readPauses.load() == 0 && t.elapsed() < 45000) {
        if (flood.raw.socket().bytesToWrite() < 32 * 1024) {
            ReadRequest r = readOf(200, flood.token);
            r.requestHeader.requestHandle = uint32_t(++sent);
            flood.raw.socket().write(flood.raw.request(r));
        } else {
            flood.raw.socket().waitForBytesWritten(20);
        }
    }
    QVERIFY2(counters.readPauses.load() >= 1, "the server did not stop reading the connection");
    QVERIFY(good.served());
    QCOMPARE(server.sessions().count(), 2);
    flood.raw.socket().abort();
    QTRY_COMPARE(server.channelCount.load(), 1);
    QVERIFY(good.served());
    qInfo("%d requests sent before the pause", sent);
}

void TestHostilePeers::negativeLengthIsADecodingError() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // Read: maxAge, timestampsToReturn, nodesToRead[1] = { NodeId ns=1;s=<length -5> ... }.
    const QByteArray rest = le(0.0) + le(uint32_t(2)) + le(int32_t(1)) + QByteArray("\x03\x01\x00", 3) + le(int32_t(-5)) + kPad;
    QCOMPARE(faultOf(c.raw, bodyWith(ReadRequest::kBinaryEncodingId, c.token, 5, rest)), status::BadDecodingError.code);
    // An array length of -7 (only -1, null, is allowed).
    const QByteArray arr = le(0.0) + le(uint32_t(2)) + le(int32_t(-7));
    QCOMPARE(faultOf(c.raw, bodyWith(ReadRequest::kBinaryEncodingId, c.token, 6, arr)), status::BadDecodingError.code);
    QVERIFY(c.served());  // a ServiceFault, not a closed channel (OPC 10000-4 7.34)
}

void TestHostilePeers::lengthsBeyondTheLimitsAreRefused() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // An array of 2^31-1 ReadValueIds and a String of 2^31-1 bytes: over the EncodingLimits,
    // Bad_EncodingLimitsExceeded before any of it is allocated.
    const QByteArray arr = le(0.0) + le(uint32_t(2)) + le(int32_t(0x7FFFFFFF));
    QCOMPARE(faultOf(c.raw, bodyWith(ReadRequest::kBinaryEncodingId, c.token, 7, arr)), status::BadEncodingLimitsExceeded.code);
    const QByteArray str = le(0.0) + le(uint32_t(2)) + le(int32_t(1)) + QByteArray("\x03\x01\x00", 3) + le(int32_t(0x7FFFFFFF)) + kPad;
    QCOMPARE(faultOf(c.raw, bodyWith(ReadRequest::kBinaryEncodingId, c.token, 8, str)), status::BadEncodingLimitsExceeded.code);
    QVERIFY(c.served());
}

void TestHostilePeers::lengthBeyondTheMessageIsADecodingError() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // Within the limits, but longer than what the message holds.
    const QByteArray arr = le(0.0) + le(uint32_t(2)) + le(int32_t(500'000)) + QByteArray(40, '\0');
    QCOMPARE(faultOf(c.raw, bodyWith(ReadRequest::kBinaryEncodingId, c.token, 9, arr)), status::BadDecodingError.code);
    const QByteArray str = le(0.0) + le(uint32_t(2)) + le(int32_t(1)) + QByteArray("\x03\x01\x00", 3) + le(int32_t(1'000'000)) + kPad;
    QCOMPARE(faultOf(c.raw, bodyWith(ReadRequest::kBinaryEncodingId, c.token, 10, str)), status::BadDecodingError.code);
    // An ExtensionObject whose body length runs past the message (ActivateSession's identity token).
    // clientSignature (algorithm, signature), clientSoftwareCertificates, localeIds: null; then
    // the userIdentityToken: AnonymousIdentityToken (i=321), binary body of 100,000 bytes.
    const QByteArray ext = le(int32_t(-1)) + le(int32_t(-1)) + le(int32_t(-1)) + le(int32_t(-1)) + QByteArray("\x01\x00\x41\x01", 4) + QByteArray("\x01", 1) +
                           le(int32_t(100'000)) + "xy";
    QCOMPARE(faultOf(c.raw, bodyWith(ActivateSessionRequest::kBinaryEncodingId, c.token, 11, ext)), status::BadDecodingError.code);
    QVERIFY(c.served());
}

void TestHostilePeers::deepNestingIsRefused() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // Write of a Variant holding an array of one Variant holding ... 150 deep (the limit is 100):
    // Bad_EncodingLimitsExceeded, without running out of stack.
    auto writeOf = [&](int depth) {
        QByteArray v;
        for (int i = 0; i < depth; ++i) v += QByteArray("\x98", 1) + le(int32_t(1));  // Variant[] of 1 (type 24)
        v += QByteArray("\x06", 1) + le(int32_t(42));                                  // Int32
        return le(int32_t(1)) + QByteArray("\x01\x01\xE8\x03", 4) /* ns=1;i=1000 */ + le(uint32_t(13)) + le(int32_t(-1)) +
               QByteArray("\x01", 1) /* DataValue: value */ + v;
    };
    QCOMPARE(faultOf(c.raw, bodyWith(WriteRequest::kBinaryEncodingId, c.token, 12, writeOf(150))), status::BadEncodingLimitsExceeded.code);
    QCOMPARE(faultOf(c.raw, bodyWith(WriteRequest::kBinaryEncodingId, c.token, 13, writeOf(10'000))), status::BadEncodingLimitsExceeded.code);
    // Within the limit it decodes (and is answered: not a fault from the decoder).
    const uint32_t shallow = faultOf(c.raw, bodyWith(WriteRequest::kBinaryEncodingId, c.token, 14, writeOf(3)));
    QVERIFY(shallow != status::BadEncodingLimitsExceeded.code && shallow != status::BadDecodingError.code && shallow != 1);
    QVERIFY(c.served());
}

void TestHostilePeers::unknownServiceAndBadTypeIds() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // A type id no service has: Bad_ServiceUnsupported; a non-numeric or non-ns0 type id, or none
    // at all: Bad_DecodingError. The channel goes on.
    QCOMPARE(faultOf(c.raw, bodyWith(99999, c.token, 15, {})), status::BadServiceUnsupported.code);
    QCOMPARE(faultOf(c.raw, QByteArray("\x01\x05\x10\x00", 4)), status::BadDecodingError.code);  // ns=5;i=16
    QCOMPARE(faultOf(c.raw, QByteArray("\x03", 1)), status::BadDecodingError.code);              // truncated
    QCOMPARE(faultOf(c.raw, QByteArray()), status::BadDecodingError.code);                       // empty body
    QVERIFY(c.served());
}

void TestHostilePeers::garbageMessageTypeClosesTheConnection() {
    Server server(hostilePeersServerConfig());
    QVERIFY(server.start());
    GoodClient good;
    QVERIFY(good.open(server.port()));
    // Before the Hello, and after the channel is open: ERR Bad_TcpMessageTypeInvalid, closed.
    RawClient a;
    QVERIFY(a.connectTo(server.port()));
    a.sendRaw(QByteArray("XYZF\x10\x00\x00\x00", 8) + QByteArray(8, '\0'));
    QCOMPARE(RawClient::errorCode(a.read()), status::BadTcpMessageTypeInvalid.code);
    QVERIFY(a.waitClosed());
    RawClient b;
    QVERIFY(b.connectTo(server.port()) && b.openChannel());
    b.sendRaw(QByteArray("ACKF\x1C\x00\x00\x00", 8) + QByteArray(20, '\0'));
    QCOMPARE(RawClient::errorCode(b.read()), status::BadTcpMessageTypeInvalid.code);
    QVERIFY(b.waitClosed());
    QTRY_COMPARE(server.channelCount.load(), 1);
    QVERIFY(good.served());
}

void TestHostilePeers::unactivatedSessionsDoNotExhaustMaxSessions() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.maxSessions = 4;
    cfg.maxChannels = 20;
    cfg.admission.activationTimeoutMs = 600;
    Server server(cfg);
    QVERIFY(server.start());
    // 60 Sessions created on 3 channels and never activated.
    std::vector<std::unique_ptr<RawClient>> peers;
    for (int i = 0; i < 3; ++i) {
        peers.push_back(std::make_unique<RawClient>());
        QVERIFY(peers.back()->connectTo(server.port()) && peers.back()->openChannel());
    }
    int created = 0, busy = 0;
    for (int i = 0; i < 60; ++i) {
        const StatusCode s = rawCreateSession(*peers[std::size_t(i % 3)]);
        if (s.isGood()) ++created;
        else if (s == StatusCode(status::BadServerTooBusy)) ++busy;
        else QFAIL(s.name().c_str());
        QVERIFY(server.sessions().count() <= cfg.maxSessions);
    }
    qInfo("%d created, %d Bad_ServerTooBusy", created, busy);
    QVERIFY(created >= 1);
    // A well-behaved client still gets its Session (the oldest unactivated one makes room,
    // OPC 10000-4 5.7.2.1) ...
    GoodClient good;
    QVERIFY(good.open(server.port()));
    QVERIFY(good.served());
    // ... and the unactivated ones are removed after activationTimeoutMs.
    QTRY_COMPARE_WITH_TIMEOUT(server.sessions().count(), 1, 5000);
    QCOMPARE(server.sessions().pendingCount(), 0);
    QVERIFY(good.served());
}

void TestHostilePeers::beyondMaxSessions() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.maxSessions = 3;
    cfg.maxChannels = 10;
    Server server(cfg);
    QVERIFY(server.start());
    std::vector<std::unique_ptr<GoodClient>> clients;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<GoodClient>());
        QVERIFY(clients.back()->open(server.port()));
    }
    // Every Session activated: CreateSession is Bad_TooManySessions (OPC 10000-4 5.7.2.3).
    RawClient extra;
    QVERIFY(extra.connectTo(server.port()) && extra.openChannel());
    QCOMPARE(rawCreateSession(extra), StatusCode(status::BadTooManySessions));
    QVERIFY(extra.getEndpoints());  // discovery still works on the N+1th channel
    for (auto& c : clients) QVERIFY(c->served());
    QCOMPARE(server.sessions().count(), 3);
}

void TestHostilePeers::beyondMaxSubscriptions() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.subscriptions.maxSubscriptionsPerSession = 2;
    cfg.subscriptions.maxSubscriptions = 3;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient a, b;
    QVERIFY(a.open(server.port()) && b.open(server.port()));
    CreateSubscriptionResponse r;
    QCOMPARE(rawCall(a.raw, subscriptionRequest(a.token), &r), StatusCode(status::Good));
    QCOMPARE(rawCall(a.raw, subscriptionRequest(a.token), &r), StatusCode(status::Good));
    // Per Session, then server-wide: Bad_TooManySubscriptions (OPC 10000-4 5.13.2.3).
    QCOMPARE(rawCall(a.raw, subscriptionRequest(a.token), &r), StatusCode(status::BadTooManySubscriptions));
    QCOMPARE(rawCall(b.raw, subscriptionRequest(b.token), &r), StatusCode(status::Good));
    QCOMPARE(rawCall(b.raw, subscriptionRequest(b.token), &r), StatusCode(status::BadTooManySubscriptions));
    QVERIFY(a.served() && b.served());
}

void TestHostilePeers::beyondMaxMonitoredItems() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.subscriptions.maxMonitoredItemsPerSubscription = 3;
    cfg.subscriptions.maxMonitoredItems = 5;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    auto itemsRequest = [&](uint32_t subscriptionId, int n) {
        CreateMonitoredItemsRequest req;
        req.requestHeader.authenticationToken = c.token;
        req.subscriptionId = subscriptionId;
        req.timestampsToReturn = TimestampsToReturn::Both;
        for (int i = 0; i < n; ++i) {
            // Built in place: GCC 12 took the moved NodeId's string for uninitialized
            // (-Wmaybe-uninitialized) once this file shared its unity unit with another test.
            MonitoredItemCreateRequest& m = req.itemsToCreate.emplace_back();
            m.itemToMonitor.nodeId = NodeId(1, uint32_t(1000 + i));
            m.itemToMonitor.attributeId = uint32_t(AttributeId::Value);
            m.monitoringMode = MonitoringMode::Reporting;
            m.requestedParameters.clientHandle = uint32_t(i);
            m.requestedParameters.samplingInterval = 1000;
            m.requestedParameters.queueSize = 1;
        }
        return req;
    };
    CreateSubscriptionResponse s1, s2;
    QCOMPARE(rawCall(c.raw, subscriptionRequest(c.token), &s1), StatusCode(status::Good));
    QCOMPARE(rawCall(c.raw, subscriptionRequest(c.token), &s2), StatusCode(status::Good));
    // Per Subscription: 5 asked, 3 created, 2 Bad_TooManyMonitoredItems (OPC 10000-4 5.12.2.4).
    CreateMonitoredItemsResponse r;
    QCOMPARE(rawCall(c.raw, itemsRequest(s1.subscriptionId, 5), &r), StatusCode(status::Good));
    QCOMPARE(r.results.size(), std::size_t(5));
    for (std::size_t i = 0; i < 5; ++i)
        QCOMPARE(r.results[i].statusCode, StatusCode(i < 3 ? status::Good : status::BadTooManyMonitoredItems));
    // Server-wide: 3 more asked on the other Subscription, 2 left.
    QCOMPARE(rawCall(c.raw, itemsRequest(s2.subscriptionId, 3), &r), StatusCode(status::Good));
    QCOMPARE(r.results.size(), std::size_t(3));
    QCOMPARE(r.results[0].statusCode, StatusCode(status::Good));
    QCOMPARE(r.results[1].statusCode, StatusCode(status::Good));
    QCOMPARE(r.results[2].statusCode, StatusCode(status::BadTooManyMonitoredItems));
    QVERIFY(c.served());
}

void TestHostilePeers::beyondOperationsPerRequest() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.operationLimits.maxNodesPerRead = 10;
    cfg.operationLimits.maxNodesPerWrite = 10;
    cfg.operationLimits.maxNodesPerBrowse = 10;
    cfg.operationLimits.maxNodesPerTranslateBrowsePathsToNodeIds = 10;
    cfg.operationLimits.maxNodesPerRegisterNodes = 10;
    cfg.operationLimits.maxNodesPerMethodCall = 10;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // One operation more than the limit: Bad_TooManyOperations for the whole request (OPC 10000-4 7.38.2).
    ReadResponse read;
    QCOMPARE(rawCall(c.raw, readOf(10, c.token), &read), StatusCode(status::Good));
    QCOMPARE(read.results.size(), std::size_t(10));
    QCOMPARE(rawCall(c.raw, readOf(11, c.token), &read), StatusCode(status::BadTooManyOperations));
    WriteRequest w;
    w.requestHeader.authenticationToken = c.token;
    for (int i = 0; i < 11; ++i) {
        WriteValue v;
        v.nodeId = NodeId(1, 1000);
        v.attributeId = uint32_t(AttributeId::Value);
        v.value = DataValue(Variant(int32_t(i)));
        w.nodesToWrite.push_back(std::move(v));
    }
    WriteResponse wr;
    QCOMPARE(rawCall(c.raw, w, &wr), StatusCode(status::BadTooManyOperations));
    BrowseRequest b;
    b.requestHeader.authenticationToken = c.token;
    for (int i = 0; i < 11; ++i) {
        BrowseDescription d;
        d.nodeId = NodeId(id::ObjectsFolder);
        d.browseDirection = BrowseDirection::Forward;
        b.nodesToBrowse.push_back(std::move(d));
    }
    BrowseResponse br;
    QCOMPARE(rawCall(c.raw, b, &br), StatusCode(status::BadTooManyOperations));
    TranslateBrowsePathsToNodeIdsRequest t;
    t.requestHeader.authenticationToken = c.token;
    t.browsePaths = Array<BrowsePath>(std::vector<BrowsePath>(11));
    TranslateBrowsePathsToNodeIdsResponse tr;
    QCOMPARE(rawCall(c.raw, t, &tr), StatusCode(status::BadTooManyOperations));
    RegisterNodesRequest rn;
    rn.requestHeader.authenticationToken = c.token;
    rn.nodesToRegister = Array<NodeId>(std::vector<NodeId>(11, NodeId(1, 1000)));
    RegisterNodesResponse rnr;
    QCOMPARE(rawCall(c.raw, rn, &rnr), StatusCode(status::BadTooManyOperations));
    CallRequest call;
    call.requestHeader.authenticationToken = c.token;
    call.methodsToCall = Array<CallMethodRequest>(std::vector<CallMethodRequest>(11));
    CallResponse cr;
    QCOMPARE(rawCall(c.raw, call, &cr), StatusCode(status::BadTooManyOperations));
    QVERIFY(c.served());
}

void TestHostilePeers::beyondMonitoredItemsPerCall() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.subscriptions.maxMonitoredItemsPerCall = 4;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // Published in OperationLimits (OPC 10000-5 6.3.11).
    ReadRequest limit = readOf(0, c.token);
    ReadValueId v;
    v.nodeId = NodeId(id::Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall);
    v.attributeId = uint32_t(AttributeId::Value);
    limit.nodesToRead.push_back(v);
    ReadResponse lr;
    QCOMPARE(rawCall(c.raw, limit, &lr), StatusCode(status::Good));
    QCOMPARE(lr.results.size(), std::size_t(1));
    QVERIFY(lr.results[0].value.get<uint32_t>() && *lr.results[0].value.get<uint32_t>() == 4u);
    CreateSubscriptionResponse sub;
    QCOMPARE(rawCall(c.raw, subscriptionRequest(c.token), &sub), StatusCode(status::Good));
    auto createOf = [&](int n) {
        CreateMonitoredItemsRequest req;
        req.requestHeader.authenticationToken = c.token;
        req.subscriptionId = sub.subscriptionId;
        req.timestampsToReturn = TimestampsToReturn::Both;
        req.itemsToCreate.resize(std::size_t(n));  // filled in place (a moved local tripped GCC 12's -Wmaybe-uninitialized)
        for (int i = 0; i < n; ++i) {
            MonitoredItemCreateRequest& m = req.itemsToCreate[std::size_t(i)];
            m.itemToMonitor.nodeId = NodeId(1, uint32_t(1000 + i));
            m.itemToMonitor.attributeId = uint32_t(AttributeId::Value);
            m.monitoringMode = MonitoringMode::Reporting;
            m.requestedParameters.samplingInterval = 1000;
            m.requestedParameters.queueSize = 1;
        }
        return req;
    };
    // One item more than MaxMonitoredItemsPerCall: Bad_TooManyOperations for the whole request,
    // no results (OPC 10000-4 7.38.2); at the limit: served.
    CreateMonitoredItemsResponse cr;
    QCOMPARE(rawCall(c.raw, createOf(5), &cr), StatusCode(status::BadTooManyOperations));
    QVERIFY(cr.results.empty());
    QCOMPARE(server.subscriptionRegistry().itemCount(), 0u);
    QCOMPARE(rawCall(c.raw, createOf(4), &cr), StatusCode(status::Good));
    QCOMPARE(cr.results.size(), std::size_t(4));
    Array<uint32_t> ids;
    for (const auto& r : cr.results) ids.push_back(r.monitoredItemId);
    Array<uint32_t> five = ids;
    five.push_back(99999);

    ModifyMonitoredItemsRequest mod;
    mod.requestHeader.authenticationToken = c.token;
    mod.subscriptionId = sub.subscriptionId;
    for (uint32_t id : five) {
        MonitoredItemModifyRequest m;
        m.monitoredItemId = id;
        m.requestedParameters.samplingInterval = 500;
        m.requestedParameters.queueSize = 1;
        mod.itemsToModify.push_back(std::move(m));
    }
    ModifyMonitoredItemsResponse mr;
    QCOMPARE(rawCall(c.raw, mod, &mr), StatusCode(status::BadTooManyOperations));
    QVERIFY(mr.results.empty());
    mod.itemsToModify.resize(4);
    QCOMPARE(rawCall(c.raw, mod, &mr), StatusCode(status::Good));
    QCOMPARE(mr.results.size(), std::size_t(4));

    SetMonitoringModeRequest mode;
    mode.requestHeader.authenticationToken = c.token;
    mode.subscriptionId = sub.subscriptionId;
    mode.monitoringMode = MonitoringMode::Sampling;
    mode.monitoredItemIds = five;
    SetMonitoringModeResponse smr;
    QCOMPARE(rawCall(c.raw, mode, &smr), StatusCode(status::BadTooManyOperations));
    QVERIFY(smr.results.empty());
    mode.monitoredItemIds = ids;
    QCOMPARE(rawCall(c.raw, mode, &smr), StatusCode(status::Good));
    QCOMPARE(smr.results.size(), std::size_t(4));

    // SetTriggering: linksToAdd and linksToRemove count together, 3 + 2 > 4.
    SetTriggeringRequest trig;
    trig.requestHeader.authenticationToken = c.token;
    trig.subscriptionId = sub.subscriptionId;
    trig.triggeringItemId = ids[0];
    trig.linksToAdd = Array<uint32_t>{ids[1], ids[2], ids[3]};
    trig.linksToRemove = Array<uint32_t>{ids[1], ids[2]};
    SetTriggeringResponse tr;
    QCOMPARE(rawCall(c.raw, trig, &tr), StatusCode(status::BadTooManyOperations));
    QVERIFY(tr.addResults.empty() && tr.removeResults.empty());
    trig.linksToRemove = Array<uint32_t>{ids[1]};
    QCOMPARE(rawCall(c.raw, trig, &tr), StatusCode(status::Good));
    QCOMPARE(tr.addResults.size(), std::size_t(3));

    DeleteMonitoredItemsRequest del;
    del.requestHeader.authenticationToken = c.token;
    del.subscriptionId = sub.subscriptionId;
    del.monitoredItemIds = five;
    DeleteMonitoredItemsResponse dr;
    QCOMPARE(rawCall(c.raw, del, &dr), StatusCode(status::BadTooManyOperations));
    QVERIFY(dr.results.empty());
    QCOMPARE(server.subscriptionRegistry().itemCount(), 4u);
    del.monitoredItemIds = ids;
    QCOMPARE(rawCall(c.raw, del, &dr), StatusCode(status::Good));
    QCOMPARE(dr.results, (Array<StatusCode>{status::Good, status::Good, status::Good, status::Good}));
    QVERIFY(c.served());
}

void TestHostilePeers::beyondBrowseContinuationPoints() {
    ServerConfig cfg = hostilePeersServerConfig();
    cfg.operationLimits.maxBrowseContinuationPoints = 2;
    Server server(cfg);
    QVERIFY(server.start());
    GoodClient c;
    QVERIFY(c.open(server.port()));
    // Three nodes with more than one reference each, one reference per node asked: two
    // ContinuationPoints, then Bad_NoContinuationPoints with none returned (OPC 10000-4 5.8.2.2, 7.9).
    BrowseRequest b;
    b.requestHeader.authenticationToken = c.token;
    b.requestedMaxReferencesPerNode = 1;
    for (uint32_t n : {id::RootFolder, id::ObjectsFolder, id::Server}) {
        BrowseDescription d;
        d.nodeId = NodeId(n);
        d.browseDirection = BrowseDirection::Both;
        d.includeSubtypes = true;
        d.resultMask = 63;
        b.nodesToBrowse.push_back(std::move(d));
    }
    BrowseResponse r;
    QCOMPARE(rawCall(c.raw, b, &r), StatusCode(status::Good));
    QCOMPARE(r.results.size(), std::size_t(3));
    QCOMPARE(r.results[0].statusCode, StatusCode(status::Good));
    QVERIFY(!r.results[0].continuationPoint.isNull());
    QCOMPARE(r.results[1].statusCode, StatusCode(status::Good));
    QVERIFY(!r.results[1].continuationPoint.isNull());
    QCOMPARE(r.results[2].statusCode, StatusCode(status::BadNoContinuationPoints));
    QVERIFY(r.results[2].continuationPoint.isNull());
    QVERIFY(r.results[2].references.empty());
    // Released, the points can be used again.
    BrowseNextRequest next;
    next.requestHeader.authenticationToken = c.token;
    next.releaseContinuationPoints = true;
    next.continuationPoints = Array<ByteString>{r.results[0].continuationPoint, r.results[1].continuationPoint};
    BrowseNextResponse nr;
    QCOMPARE(rawCall(c.raw, next, &nr), StatusCode(status::Good));
    QCOMPARE(rawCall(c.raw, b, &r), StatusCode(status::Good));
    QCOMPARE(r.results[2].statusCode, StatusCode(status::BadNoContinuationPoints));
    QVERIFY(c.served());
}

UA_TEST_GUILESS_MAIN(TestHostilePeers)
#include "tst_hostile_peers.moc"
