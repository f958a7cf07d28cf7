// A hostile server against our Client (issue 10 item 4; docs/Reliability.md "Hostile peers"): a
// ScriptedServer (ScriptedServer.h) that answers with bodies that do not decode, with another
// type or another request's RequestHandle, not at all, with garbage message types, chunks over
// the client's limits, or closes in the middle of a message. Each time the client reports the
// error the specification names to that call only (or to the calls of the lost connection), and
// recovers: the next request, on the same connection or a new one, succeeds.
#include "ClientTestUtil.h"
#include "ScriptedServer.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QElapsedTimer>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

ClientConfig hostileServerClientConfig() {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.keepAliveIntervalMs = 0;
    cfg.reconnect.initialDelayMs = 50;
    cfg.reconnect.maxDelayMs = 300;
    return cfg;
}

template <class T>
QByteArray le(T v) { return QByteArray(reinterpret_cast<const char*>(&v), sizeof v); }

// The node a test's handler acts on: reads of ns=1;i=<n>.
bool readsNode(const ScriptedServer::Request& r, uint32_t n) {
    if (r.typeId != ReadRequest::kBinaryEncodingId) return false;
    const auto req = r.decodeAs<ReadRequest>();
    return req.nodesToRead.size() == 1 && req.nodesToRead[0].nodeId == NodeId(1, n);
}

// A ReadResponse of `bytes` bytes or so (one String value).
ReadResponse bigReadResponse(uint32_t handle, int bytes) {
    ReadResponse resp;
    resp.responseHeader.requestHandle = handle;
    resp.results.push_back(DataValue(Variant(String(std::string(std::size_t(bytes), 'r')))));
    return resp;
}

} // namespace

class TestHostileServer : public QObject {
    Q_OBJECT
private slots:
    void bodyThatDoesNotDecode();
    void responseOfAnotherType();
    void responseWithAnotherRequestsHandle();
    void responseToARequestNeverSent();
    void serverStopsAnswering();
    void serverStopsAnsweringEverything();
    void closesInTheMiddleOfAChunk();
    void closesInTheMiddleOfAChunkedResponse();
    void responseOverMaxMessageSize();
    void responseOverMaxChunkCount();
    void chunkOverReceiveBufferSize();
    void garbageMessageType();
    void messageSizeBelowItsHeader();
    void abortChunkThatDoesNotDecode();
    void errThenRecovery();

private:
    // Connects client to peer: Good, or the first failure.
    StatusCode connectTo(Client& client, ScriptedServer& peer) { return connectSession(client, peer.url(), this); }
    // A Read of ns=1;i=<n>: its result (status, and the value's Int32 in *value).
    StatusCode read(Client& client, uint32_t n, int32_t* value = nullptr, uint32_t timeoutMs = 0) {
        Awaited<ServiceResult<ReadResponse>> r;
        client.readValues({NodeId(1, n)}, this, r.callback(), timeoutMs);
        if (!r.wait()) return status::BadUnexpectedError;  // no callback at all
        if (value && r->status.isGood() && r->response.results.size() == 1)
            if (const int32_t* v = r->response.results[0].value.get<int32_t>()) *value = *v;
        return r->status;
    }
    // The client works again: Connected (after reconnecting if it must) and a Read succeeds.
    bool recovered(Client& client) {
        if (!QTest::qWaitFor([&] { return client.state() == ClientState::Connected; }, 10000)) return false;
        return read(client, 1).isGood();
    }
};

void TestHostileServer::bodyThatDoesNotDecode() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 66)) return false;
        // A ReadResponse header with the right handle, then 3 bytes of a results array length.
        c.respond(r.requestId, RawBody<ReadResponse::kBinaryEncodingId>{le(int64_t(0)) + le(r.header.requestHandle) + "\x05\x00\x00"});
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    QCOMPARE(read(client, 66), StatusCode(status::BadDecodingError));
    QCOMPARE(client.state(), ClientState::Connected);  // one bad response does not end the channel
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 1);
}

void TestHostileServer::responseOfAnotherType() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 67)) return false;
        WriteResponse w;  // a Write's answer to a Read
        w.responseHeader.requestHandle = r.header.requestHandle;
        c.respond(r.requestId, w);
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    QCOMPARE(read(client, 67), StatusCode(status::BadUnknownResponse));
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 1);
}

void TestHostileServer::responseWithAnotherRequestsHandle() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    std::vector<ScriptedServer::Request> held;
    ScriptedServer::Connection* conn = nullptr;
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 71) && !readsNode(r, 72)) return false;
        conn = &c;
        held.push_back(r);
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    Awaited<ServiceResult<ReadResponse>> a, b;
    client.readValues({NodeId(1, 71)}, this, a.callback());
    client.readValues({NodeId(1, 72)}, this, b.callback());
    QTRY_COMPARE(int(held.size()), 2);
    // A's RequestId, B's RequestHandle (OPC 10000-4 7.33): A fails with Bad_UnknownResponse, B is
    // not completed by it.
    ReadResponse wrong;
    wrong.responseHeader.requestHandle = held[1].header.requestHandle;
    wrong.results.push_back(DataValue(Variant(int32_t(999))));
    conn->respond(held[0].requestId, wrong);
    QVERIFY(a.wait());
    QCOMPARE(a->status, StatusCode(status::BadUnknownResponse));
    QVERIFY(a->response.results.empty());
    QTest::qWait(100);
    QVERIFY(!b.has());
    // B's own answer completes B.
    ReadResponse right;
    right.responseHeader.requestHandle = held[1].header.requestHandle;
    right.results.push_back(DataValue(Variant(int32_t(72))));
    conn->respond(held[1].requestId, right);
    QVERIFY(b.wait());
    QCOMPARE(b->status, StatusCode(status::Good));
    QCOMPARE(*b->response.results[0].value.get<int32_t>(), 72);
    QCOMPARE(a.calls(), 1);
    QVERIFY(recovered(client));
}

void TestHostileServer::responseToARequestNeverSent() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 73)) return false;
        // First an answer under a RequestId the client never used, then the real one.
        ReadResponse stray;
        stray.responseHeader.requestHandle = r.header.requestHandle;
        stray.results.push_back(DataValue(Variant(int32_t(-1))));
        c.respond(r.requestId + 1000, stray);
        ReadResponse real;
        real.responseHeader.requestHandle = r.header.requestHandle;
        real.results.push_back(DataValue(Variant(int32_t(73))));
        c.respond(r.requestId, real);
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    int32_t v = 0;
    QCOMPARE(read(client, 73, &v), StatusCode(status::Good));
    QCOMPARE(v, 73);  // the stray answer was dropped
    QCOMPARE(client.state(), ClientState::Connected);
    QVERIFY(recovered(client));
}

void TestHostileServer::serverStopsAnswering() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    bool silent = true;
    peer.handler = [&](ScriptedServer::Connection&, const ScriptedServer::Request& r) {
        return silent && readsNode(r, 74);  // held for ever
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    QElapsedTimer t;
    t.start();
    QCOMPARE(read(client, 74, nullptr, 300), StatusCode(status::BadTimeout));
    QVERIFY(t.elapsed() >= 280);
    QCOMPARE(client.state(), ClientState::Connected);
    QVERIFY(recovered(client));
    silent = false;
    QCOMPARE(read(client, 74), StatusCode(status::Good));
    QCOMPARE(peer.connections(), 1);
}

void TestHostileServer::serverStopsAnsweringEverything() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    bool silent = false;
    peer.handler = [&](ScriptedServer::Connection&, const ScriptedServer::Request&) { return silent; };
    ClientConfig cfg = hostileServerClientConfig();
    cfg.keepAliveIntervalMs = 200;
    cfg.keepAliveTimeoutMs = 300;
    Client client(cfg);
    QCOMPARE(connectTo(client, peer), status::Good);
    silent = true;  // the keep-alive Read is not answered either: the link counts as lost
    QTRY_VERIFY_WITH_TIMEOUT(client.state() != ClientState::Connected, 5000);
    silent = false;  // answering again: the client reconnects on a new connection
    QVERIFY(recovered(client));
    QVERIFY(peer.connections() >= 2);
}

void TestHostileServer::closesInTheMiddleOfAChunk() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 75)) return false;
        c.cutAfterBytes = 30;  // the header and part of the body, then FIN
        ReadResponse resp;
        resp.responseHeader.requestHandle = r.header.requestHandle;
        resp.results.push_back(DataValue(Variant(int32_t(75))));
        c.respond(r.requestId, resp);
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    QCOMPARE(read(client, 75), StatusCode(status::BadConnectionClosed));
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 2);
}

void TestHostileServer::closesInTheMiddleOfAChunkedResponse() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 76)) return false;
        c.cutAfterBytes = 100'000;  // the first 64 KB chunk whole, part of the second
        c.respond(r.requestId, bigReadResponse(r.header.requestHandle, 300'000));
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    QCOMPARE(read(client, 76), StatusCode(status::BadConnectionClosed));
    QVERIFY(recovered(client));
}

void TestHostileServer::responseOverMaxMessageSize() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    // The server ignores the client's MaxMessageSize (the Hello's 100,000 bytes): it sends 300 KB.
    peer.channelLimits = [](HelloMessage& hello, AcknowledgeMessage&) { hello.maxMessageSize = 0; };
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 77)) return false;
        c.respond(r.requestId, bigReadResponse(r.header.requestHandle, 300'000));
        return true;
    };
    ClientConfig cfg = hostileServerClientConfig();
    cfg.transport.maxMessageSize = 100'000;
    Client client(cfg);
    QCOMPARE(connectTo(client, peer), status::Good);
    // Bad_ResponseTooLarge (OPC 10000-6 7.1.2.3) for that call; its other chunks are dropped.
    QCOMPARE(read(client, 77), StatusCode(status::BadResponseTooLarge));
    QCOMPARE(client.state(), ClientState::Connected);
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 1);
}

void TestHostileServer::responseOverMaxChunkCount() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.channelLimits = [](HelloMessage& hello, AcknowledgeMessage&) { hello.maxChunkCount = 0; };
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 78)) return false;
        c.respond(r.requestId, bigReadResponse(r.header.requestHandle, 400'000));  // 7 chunks of 64 KB
        return true;
    };
    ClientConfig cfg = hostileServerClientConfig();
    cfg.transport.maxChunkCount = 3;
    Client client(cfg);
    QCOMPARE(connectTo(client, peer), status::Good);
    QCOMPARE(read(client, 78), StatusCode(status::BadResponseTooLarge));
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 1);
}

void TestHostileServer::chunkOverReceiveBufferSize() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    // The server's chunks are 1 MB whatever the client's ReceiveBufferSize (64 KB) says.
    peer.channelLimits = [](HelloMessage&, AcknowledgeMessage& ack) { ack.sendBufferSize = 1u << 20; };
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 79)) return false;
        c.respond(r.requestId, bigReadResponse(r.header.requestHandle, 200'000));
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    // Bad_TcpMessageTooLarge (OPC 10000-6 7.1.2.2), the connection dropped; the client reconnects.
    QCOMPARE(read(client, 79), StatusCode(status::BadTcpMessageTooLarge));
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 2);
}

void TestHostileServer::garbageMessageType() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 80)) return false;
        c.sendRaw(QByteArray("XYZF", 4) + le(uint32_t(24)) + QByteArray(16, '\x7f'));
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    QCOMPARE(read(client, 80), StatusCode(status::BadTcpMessageTypeInvalid));
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 2);
}

void TestHostileServer::messageSizeBelowItsHeader() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 81)) return false;
        c.sendRaw(QByteArray("MSGF", 4) + le(uint32_t(4)));
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    QCOMPARE(read(client, 81), StatusCode(status::BadTcpMessageTypeInvalid));
    QVERIFY(recovered(client));
}

void TestHostileServer::abortChunkThatDoesNotDecode() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 82)) return false;
        // An abort chunk (OPC 10000-6 6.7.3) whose Error is Good, not an error: the call fails all
        // the same (Bad_TcpInternalError stands in for the unusable code), and only that call.
        c.channel->sendAbort(r.requestId, status::Good, "");
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    QCOMPARE(read(client, 82), StatusCode(status::BadTcpInternalError));
    QCOMPARE(client.state(), ClientState::Connected);
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 1);
}

void TestHostileServer::errThenRecovery() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (!readsNode(r, 83)) return false;
        c.sendErr(status::BadTcpInternalError);
        return true;
    };
    Client client(hostileServerClientConfig());
    QCOMPARE(connectTo(client, peer), status::Good);
    // ERR (OPC 10000-6 7.1.5): the call fails with its code, the client reconnects by itself.
    QCOMPARE(read(client, 83), StatusCode(status::BadTcpInternalError));
    QVERIFY(recovered(client));
    QCOMPARE(peer.connections(), 2);
}

UA_TEST_GUILESS_MAIN(TestHostileServer)
#include "tst_hostile_server.moc"
