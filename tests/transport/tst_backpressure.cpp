// Backpressure (issue 9 target 9; BackpressureConfig in ua/server/AdmissionConfig.h) on raw
// sockets against our Server in process: a client that sends many requests and reads nothing
// stops being read from (its responses queued beyond maxQueuedResponses), costs the server little
// memory, does not hold up a second client, and gets every response in order once it reads; the
// chunks of incomplete requests share one budget across channels and expire.
#include "../common/ProcessMemory.h"
#include "../common/TestServerConfig.h"
#include "RawSession.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/runtime/Server.h"

#include <QElapsedTimer>
#include <QtTest>
#include "TestMain.h"
#include <algorithm>

using namespace ua;
using namespace ua::test;


namespace {

ServerConfig backpressureServerConfig() {
    return localServerConfig();
}

ReadRequest readRequest(const NodeId& token, uint32_t handle, int values) {
    ReadRequest r;
    r.requestHeader.authenticationToken = token;
    r.requestHeader.requestHandle = handle;
    r.timestampsToReturn = TimestampsToReturn::Neither;
    std::vector<ReadValueId> ids(static_cast<std::size_t>(values));
    for (int k = 0; k < values; ++k) {
        ids[std::size_t(k)].nodeId = NodeId(1, uint32_t(1000 + k));
        ids[std::size_t(k)].attributeId = 13;  // Value
    }
    r.nodesToRead = Array<ReadValueId>(std::move(ids));
    return r;
}

// n Reads of one value, one after the other: the p99 of their round trips (ms).
double p99Ms(RawClient& c, const NodeId& token, int n, int* failures) {
    std::vector<double> ms;
    for (int i = 0; i < n; ++i) {
        QElapsedTimer t;
        t.start();
        c.sendRaw(c.request(readRequest(token, uint32_t(i + 1), 1)));
        ReadResponse r;
        if (!decodeResponse(c.read(), r) || r.responseHeader.serviceResult.isBad()) {
            ++*failures;
            continue;
        }
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    if (ms.empty()) return 1e9;
    std::sort(ms.begin(), ms.end());
    return ms[std::min(ms.size() - 1, std::size_t(double(ms.size()) * 0.99))];
}

// A MSG chunk of raw payload bytes for requestId (no type id: its meaning does not matter until
// the final chunk).
QByteArray payloadChunk(RawClient& c, uint32_t requestId, ChunkType type, int bytes) {
    return c.messageChunk(QByteArray(bytes, 'x'), type, requestId);
}

} // namespace

class TestBackpressure : public QObject {
    Q_OBJECT
private slots:
    void clientThatDoesNotReadIsPaused();
    void chunkBudgetIsSharedAndBounded();
    void unfinishedChunkedRequestExpires();
};

void TestBackpressure::clientThatDoesNotReadIsPaused() {
    ServerConfig cfg = backpressureServerConfig();
    // UA_MAX_QUEUED_RESPONSES=0 runs the same scenario without backpressure and only prints the
    // figures (the "off" column of docs/Benchmarks.md); nothing is asserted then.
    bool fromEnv = false;
    const int maxQueued = qEnvironmentVariableIntValue("UA_MAX_QUEUED_RESPONSES", &fromEnv);
    if (fromEnv) {
        cfg.backpressure.maxQueuedResponses = maxQueued;
        cfg.backpressure.resumeQueuedResponses = maxQueued / 2;
    }
    const bool off = fromEnv && maxQueued == 0;
    Server server(cfg);
    QVERIFY(server.start());

    RawClient good;
    QVERIFY(good.connectTo(server.port()) && good.openChannel());
    const NodeId goodToken = rawOpenSession(good);
    QVERIFY(!goodToken.isNull());
    int failures = 0;
    const double baseline = p99Ms(good, goodToken, 300, &failures);
    QCOMPARE(failures, 0);

    // The flooder: small socket buffers of its own, so that what it does not read piles up at the
    // server and not in its kernel.
    RawClient flood;
    flood.socket().setSocketOption(QAbstractSocket::ReceiveBufferSizeSocketOption, 8192);
    flood.socket().setSocketOption(QAbstractSocket::SendBufferSizeSocketOption, 8192);
    QVERIFY(flood.connectTo(server.port()) && flood.openChannel());
    const NodeId token = rawOpenSession(flood);
    QVERIFY(!token.isNull());
    // QTcpSocket reads into its own buffer while it waits for its writes: bounded, it reads nothing.
    flood.socket().setReadBufferSize(1);

    // 10,000 Reads of 200 values each (responses of about 2.9 KB: 29 MB if the server kept them
    // all), written as fast as the connection takes them, nothing read.
    constexpr int kRequests = 10000;
    constexpr int kValues = 200;
    const qint64 rssBefore = rssBytes();
    qint64 rssMax = rssBefore;
    int sent = 0;
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    qint64 lastLeft = -1;
    const auto& counters = server.admission().counters();
    while (sent < kRequests) {
        QTcpSocket& s = flood.socket();
        if (s.bytesToWrite() < 64 * 1024) {
            s.write(flood.request(readRequest(token, uint32_t(sent + 1), kValues)));
            ++sent;
            continue;
        }
        s.waitForBytesWritten(100);
        rssMax = std::max(rssMax, rssBytes());
        if (s.bytesToWrite() != lastLeft) {
            lastLeft = s.bytesToWrite();
            sinceProgress.restart();
        } else if (sinceProgress.elapsed() > 1500 && (off || counters.readPauses.load() > counters.readResumes.load())) {
            break;  // the server takes nothing more: it stopped reading this connection
        } else if (sinceProgress.elapsed() > 30000) {
            break;  // no progress and no pause: the checks below fail
        }
        // A stall without a pause is a server busy with what it has read (under ASan, on a loaded
        // machine, it reads more slowly than the flooder writes): keep writing.
    }
    qInfo("sent %d of %d before the flooder's writes stalled; read pauses so far %llu", sent, kRequests,
          static_cast<unsigned long long>(counters.readPauses.load()));
    if (!off) {
        // The connection is paused now and stays so: one pause more than resumes. (Whether the
        // flooder could write all its requests depends on the kernel's buffers: net.ipv4.tcp_rmem
        // lets a receive buffer grow to 32 MB here, so the requests wait there, not in the server.)
        QTRY_VERIFY2_WITH_TIMEOUT(counters.readPauses.load() == counters.readResumes.load() + 1,
                                  "the server stopped reading the connection", 15000);
        QTest::qWait(500);
        QCOMPARE(counters.readPauses.load(), counters.readResumes.load() + 1);
    }

    // Meanwhile a second client is served. The 2x goal is measured by the benchmark
    // (docs/Benchmarks.md); here loosely, for a noisy shared machine.
    const double during = p99Ms(good, goodToken, 300, &failures);
    rssMax = std::max(rssMax, rssBytes());
    qInfo("second client's p99: %.3f ms before, %.3f ms while the flooder is paused", baseline, during);
    QCOMPARE(failures, 0);
    if (!off) QVERIFY2(during < std::max(10 * baseline, 50.0), qPrintable(QString::number(during)));

    // What the server holds for a client that does not read: the growth up to here (the reading
    // below makes the test's own client buffer what it reads).
    const double growthMb = double(rssMax - rssBefore) / (1024.0 * 1024.0);
    qInfo("RSS of the test process (server and both clients): %.1f MB before, growth %.1f MB while the flooder did not read",
          double(rssBefore) / 1048576.0, growthMb);
    // Under ASan the process's RSS is mostly the allocator's: freed blocks wait in its quarantine
    // (256 MB by default) and every block has shadow memory, so the bound says nothing there
    // (./test.sh --asan: 325 MB); the pause and what follows are checked all the same.
    if (!off && !kSanitizer) QVERIFY2(growthMb < 50, qPrintable(QString::number(growthMb)));

    // The flooder reads: the server reads it again, and every response comes, in order.
    flood.socket().setReadBufferSize(0);
    int received = 0;
    while (received < kRequests) {
        while (sent < kRequests && flood.socket().bytesToWrite() < 64 * 1024) {
            flood.socket().write(flood.request(readRequest(token, uint32_t(sent + 1), kValues)));
            ++sent;
        }
        const RawMessage m = flood.read(10000);
        ReadResponse r;
        QVERIFY2(decodeResponse(m, r), qPrintable(QStringLiteral("response %1 missing").arg(received + 1)));
        QCOMPARE(r.responseHeader.requestHandle, uint32_t(received + 1));
        QCOMPARE(r.results.size(), std::size_t(kValues));
        ++received;
    }
    if (off) return;
    QVERIFY(counters.readResumes.load() >= 1);
    QVERIFY(good.getEndpoints());
}

void TestBackpressure::chunkBudgetIsSharedAndBounded() {
    ServerConfig cfg = backpressureServerConfig();
    cfg.backpressure.chunkBudgetBytes = 200'000;
    cfg.backpressure.chunkTimeoutMs = 60'000;
    Server server(cfg);
    QVERIFY(server.start());
    const auto& budget = *server.admission().chunkBudget();
    RawClient a, b, c;
    for (RawClient* x : {&a, &b, &c}) QVERIFY(x->connectTo(server.port()) && x->openChannel());
    // Each channel starts a chunked request: 60 KB chunks, never the final one.
    a.sendRaw(payloadChunk(a, 7, ChunkType::Intermediate, 60000));
    a.sendRaw(payloadChunk(a, 7, ChunkType::Intermediate, 60000));
    QTRY_COMPARE(budget.used(), uint64_t(120000));
    b.sendRaw(payloadChunk(b, 7, ChunkType::Intermediate, 60000));
    QTRY_COMPARE(budget.used(), uint64_t(180000));
    // Over the budget: ERR Bad_TcpNotEnoughResources (OPC 10000-6 7.1.5), the channel closed, its
    // chunks given back.
    b.sendRaw(payloadChunk(b, 7, ChunkType::Intermediate, 60000));
    QCOMPARE(RawClient::errorCode(b.read()), status::BadTcpNotEnoughResources.code);
    QVERIFY(b.waitClosed());
    QTRY_COMPARE(budget.used(), uint64_t(120000));
    QCOMPARE(budget.refusals(), uint64_t(1));
    // The other channels go on: c sends a whole chunked request within the budget and is answered.
    GetEndpointsRequest ge;
    ge.requestHeader.requestHandle = 99;
    ge.endpointUrl = String("opc.tcp://localhost");
    const QByteArray body = RawClient::body(ge);
    const uint32_t rid = c.m_requestId++;
    c.sendRaw(c.messageChunk(body.left(20), ChunkType::Intermediate, rid));
    c.sendRaw(c.messageChunk(body.mid(20), ChunkType::Final, rid));
    GetEndpointsResponse resp;
    QVERIFY(decodeResponse(c.read(), resp));
    QCOMPARE(resp.responseHeader.requestHandle, uint32_t(99));
    QCOMPARE(budget.used(), uint64_t(120000));  // c's chunks left the budget with its request
    a.socket().abort();
    QTRY_COMPARE(budget.used(), uint64_t(0));
}

void TestBackpressure::unfinishedChunkedRequestExpires() {
    ServerConfig cfg = backpressureServerConfig();
    cfg.backpressure.chunkTimeoutMs = 1000;
    Server server(cfg);
    QVERIFY(server.start());
    RawClient a;
    QVERIFY(a.connectTo(server.port()) && a.openChannel());
    QElapsedTimer t;
    t.start();
    a.sendRaw(payloadChunk(a, 5, ChunkType::Intermediate, 30000));
    QTRY_COMPARE(server.admission().chunkBudget()->used(), uint64_t(30000));
    // No final chunk: after chunkTimeoutMs (checked every second) ERR Bad_RequestTimeout, closed.
    const RawMessage err = a.read(5000);
    QCOMPARE(RawClient::errorCode(err), status::BadRequestTimeout.code);
    QVERIFY(t.elapsed() >= 1000);
    QVERIFY(a.waitClosed());
    QCOMPARE(server.admission().counters().chunkTimeouts.load(), uint64_t(1));
    QTRY_COMPARE(server.admission().chunkBudget()->used(), uint64_t(0));
}

UA_TEST_GUILESS_MAIN(TestBackpressure)
#include "tst_backpressure.moc"
