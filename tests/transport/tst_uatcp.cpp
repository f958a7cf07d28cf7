// UA-TCP (OPC 10000-6 7.1) and SecureChannel (6.7) rules on raw sockets against our server: each
// violation gets its ERR code and a closed socket, while a second, well-behaved client on an open
// SecureChannel keeps being served. The codes for cases the specification leaves open are listed
// in docs/Protocol.md.
#include "../fuzz/MemorySocket.h"
#include "RawSession.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/runtime/ServerConnection.h"

#include <QScopeGuard>
#include <QtTest>
#include "MetaTypes.h"
#include "TestMain.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <functional>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace ua;
using namespace ua::test;

class TestUaTcp : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void violationsGetErrAndClose_data();
    void violationsGetErrAndClose();
    void bufferSizesAreNegotiated_data();
    void bufferSizesAreNegotiated();
    void messagesSplitAnyWayDecode();
    void largeResponsesAreChunkedWithinTheClientBuffer();
    void responsesAreSplitIntoChunks();
    void requestOverMaxMessageSizeIsRefused();
    void responseOverClientLimitIsAborted();
    void unknownServiceIsUnsupported();
    void renewKeepsOldTokenUntilNewOneIsUsed();
    void closeSecureChannelClosesTheSocket();
    void idleConnectionGivesBackItsBuffers();
    void pausedConnectionReadsNoMoreThanItProcesses();
    void halfClosedPeerGetsEveryResponse();
    void memorySocketFeedLargerThanAReadIsProcessed();

private:
    void checkWitness();
    std::unique_ptr<Server> m_server;
    std::unique_ptr<RawClient> m_witness;  // the well-behaved second client
};

void TestUaTcp::initTestCase() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.ioThreads = 2;
    cfg.transport.receiveBufferSize = 16384;
    cfg.transport.sendBufferSize = 16384;
    cfg.transport.maxMessageSize = 64 * 1024;
    m_server = std::make_unique<Server>(cfg);
    QVERIFY(m_server->start());
    m_witness = std::make_unique<RawClient>();
    QVERIFY(m_witness->connectTo(m_server->port()));
    QVERIFY(m_witness->openChannel());
}

void TestUaTcp::cleanupTestCase() {
    m_witness.reset();
    m_server.reset();
}

void TestUaTcp::checkWitness() { QVERIFY2(m_witness->getEndpoints(), "the second client was not served"); }

namespace {
QByteArray withSize(QByteArray m, uint32_t size) {
    std::memcpy(m.data() + 4, &size, 4);
    return m;
}
} // namespace

void TestUaTcp::violationsGetErrAndClose_data() {
    QTest::addColumn<QString>("script");
    QTest::addColumn<StatusCode>("expected");
    QTest::newRow("message before Hello") << "opn-first" << status::BadTcpMessageTypeInvalid;
    QTest::newRow("second Hello") << "hello-twice" << status::BadTcpMessageTypeInvalid;
    QTest::newRow("unknown message type") << "unknown-type" << status::BadTcpMessageTypeInvalid;
    QTest::newRow("MessageSize below header") << "size-4" << status::BadTcpMessageTypeInvalid;
    QTest::newRow("Hello larger than any Hello") << "hello-huge" << status::BadTcpMessageTooLarge;
    QTest::newRow("chunk over negotiated buffer") << "chunk-too-large" << status::BadTcpMessageTooLarge;
    QTest::newRow("EndpointUrl over 4096 bytes") << "long-url" << status::BadTcpEndpointUrlInvalid;
    QTest::newRow("Hello buffers below 1024") << "tiny-buffers" << status::BadTcpInternalError;
    QTest::newRow("Hello as intermediate chunk") << "hello-C" << status::BadTcpMessageTypeInvalid;
    QTest::newRow("truncated Hello body") << "hello-short" << status::BadDecodingError;
    QTest::newRow("MSG before OPN") << "msg-before-opn" << status::BadSecureChannelIdInvalid;
    QTest::newRow("unsupported SecurityPolicy") << "bad-policy" << status::BadSecurityPolicyRejected;
    QTest::newRow("wrong SecureChannelId") << "wrong-channel" << status::BadSecureChannelIdInvalid;
    QTest::newRow("unknown SecurityToken") << "wrong-token" << status::BadSecureChannelTokenUnknown;
    QTest::newRow("sequence number gap") << "sequence-gap" << status::BadSequenceNumberInvalid;
    QTest::newRow("second Issue on an open channel") << "issue-twice" << status::BadRequestTypeInvalid;
    QTest::newRow("unknown chunk type") << "chunk-X" << status::BadTcpMessageTypeInvalid;
    QTest::newRow("chunks of two requests interleaved") << "interleaved" << status::BadDecodingError;
}

void TestUaTcp::violationsGetErrAndClose() {
    QFETCH(QString, script);
    QFETCH(StatusCode, expected);
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    if (script == "opn-first") {
        c.sendRaw(c.openRequest(0, SecurityTokenRequestType::Issue));
    } else if (script == "hello-twice") {
        c.sendRaw(RawClient::hello());
        QCOMPARE(c.read().type, TcpMessageType::Acknowledge);
        c.sendRaw(RawClient::hello());
    } else if (script == "unknown-type") {
        c.sendRaw(QByteArray("XYZF\x08\x00\x00\x00", 8));
    } else if (script == "size-4") {
        c.sendRaw(withSize(RawClient::hello(), 4));
    } else if (script == "hello-huge") {
        c.sendRaw(withSize(RawClient::hello(), 100000));
    } else if (script == "chunk-too-large") {
        QVERIFY(c.openChannel());
        c.sendRaw(QByteArray("MSGF", 4) + QByteArray::fromHex("00000100"));  // 65536 > 16384
    } else if (script == "long-url") {
        c.sendRaw(RawClient::hello(65535, 65535, 0, 0, std::string(5000, 'x')));
    } else if (script == "tiny-buffers") {
        c.sendRaw(RawClient::hello(512, 512));
    } else if (script == "hello-C") {
        QByteArray h = RawClient::hello();
        h[3] = 'C';
        c.sendRaw(h);
    } else if (script == "hello-short") {
        QByteArray h = RawClient::hello().left(20);
        c.sendRaw(withSize(h, 20));
    } else if (script == "msg-before-opn") {
        c.sendRaw(RawClient::hello());
        QCOMPARE(c.read().type, TcpMessageType::Acknowledge);
        c.sendRaw(c.request(GetEndpointsRequest{}));
    } else if (script == "bad-policy") {
        c.sendRaw(RawClient::hello());
        QCOMPARE(c.read().type, TcpMessageType::Acknowledge);
        c.sendRaw(c.openRequest(0, SecurityTokenRequestType::Issue, "http://opcfoundation.org/UA/SecurityPolicy#Nonsense"));
    } else if (script == "wrong-channel") {
        QVERIFY(c.openChannel());
        c.m_channelId += 1000;
        c.sendRaw(c.request(GetEndpointsRequest{}));
    } else if (script == "wrong-token") {
        QVERIFY(c.openChannel());
        c.m_tokenId += 7;
        c.sendRaw(c.request(GetEndpointsRequest{}));
    } else if (script == "sequence-gap") {
        QVERIFY(c.openChannel());
        c.m_sequence += 5;
        c.sendRaw(c.request(GetEndpointsRequest{}));
    } else if (script == "issue-twice") {
        QVERIFY(c.openChannel());
        c.sendRaw(c.openRequest(c.m_channelId, SecurityTokenRequestType::Issue));
    } else if (script == "chunk-X") {
        QVERIFY(c.openChannel());
        c.sendRaw(c.messageChunk(RawClient::body(GetEndpointsRequest{}), ChunkType('X')));
    } else if (script == "interleaved") {
        QVERIFY(c.openChannel());
        const QByteArray body = RawClient::body(GetEndpointsRequest{});
        c.sendRaw(c.messageChunk(body.left(10), ChunkType::Intermediate, 100));
        c.sendRaw(c.messageChunk(body.mid(10), ChunkType::Final, 101));
    }
    const RawMessage m = c.read();
    QCOMPARE(QString::fromStdString(StatusCode(RawClient::errorCode(m)).name()), QString::fromStdString(expected.name()));
    QVERIFY2(c.waitClosed(), "the server did not close the socket");
    checkWitness();
}

void TestUaTcp::bufferSizesAreNegotiated_data() {
    QTest::addColumn<uint32_t>("helloRecv");
    QTest::addColumn<uint32_t>("helloSend");
    QTest::addColumn<uint32_t>("ackRecv");
    QTest::addColumn<uint32_t>("ackSend");
    // Server offers 16384 both ways. ACK.Receive <= HEL.Send, ACK.Send <= HEL.Receive (7.1.2.4).
    QTest::newRow("client larger") << 65535u << 65535u << 16384u << 16384u;
    QTest::newRow("client smaller") << 8192u << 9000u << 9000u << 8192u;
    QTest::newRow("client below 8192") << 2048u << 4096u << 4096u << 2048u;
    QTest::newRow("client 1024") << 1024u << 1024u << 1024u << 1024u;
}

void TestUaTcp::bufferSizesAreNegotiated() {
    QFETCH(uint32_t, helloRecv);
    QFETCH(uint32_t, helloSend);
    QFETCH(uint32_t, ackRecv);
    QFETCH(uint32_t, ackSend);
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    c.sendRaw(RawClient::hello(helloRecv, helloSend));
    const RawMessage m = c.read();
    QCOMPARE(m.type, TcpMessageType::Acknowledge);
    const auto ack = decodeAcknowledge(reinterpret_cast<const uint8_t*>(m.bytes.constData()) + 8, std::size_t(m.bytes.size() - 8));
    QVERIFY(ack);
    QCOMPARE(ack->receiveBufferSize, ackRecv);
    QCOMPARE(ack->sendBufferSize, ackSend);
    QCOMPARE(ack->maxMessageSize, uint32_t(64 * 1024));
}

void TestUaTcp::messagesSplitAnyWayDecode() {
    // HEL, OPN and a GetEndpoints written one byte at a time, then all in one write.
    RawClient probe;
    const QByteArray all = RawClient::hello() + probe.openRequest(0, SecurityTokenRequestType::Issue);
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    for (char b : all) {
        c.socket().write(&b, 1);
        c.socket().flush();
    }
    c.socket().waitForBytesWritten(1000);
    QCOMPARE(c.read().type, TcpMessageType::Acknowledge);
    QCOMPARE(c.read().type, TcpMessageType::OpenSecureChannel);
    RawClient d;
    QVERIFY(d.connectTo(m_server->port()));
    d.sendRaw(RawClient::hello() + d.openRequest(0, SecurityTokenRequestType::Issue));
    QCOMPARE(d.read().type, TcpMessageType::Acknowledge);
    QCOMPARE(d.read().type, TcpMessageType::OpenSecureChannel);
}

void TestUaTcp::largeResponsesAreChunkedWithinTheClientBuffer() {
    // A client that receives at most 1024-byte chunks gets GetEndpoints in several chunks.
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    QVERIFY(c.openChannel(1024));
    GetEndpointsRequest req;
    req.requestHeader.requestHandle = 5;
    c.sendRaw(c.request(req));
    QByteArray body;
    int chunks = 0;
    while (true) {
        const RawMessage m = c.read();
        QVERIFY(m.valid);
        QVERIFY(m.bytes.size() <= 1024);
        ++chunks;
        body += m.bytes.mid(24);
        if (m.chunk == 'F') break;
        QCOMPARE(m.chunk, 'C');
    }
    QVERIFY(chunks >= 1);  // GetEndpoints may fit in one; see responsesAreSplitIntoChunks
    BinaryDecoder d(reinterpret_cast<const uint8_t*>(body.constData()), std::size_t(body.size()));
    NodeId type;
    decode(d, type);
    GetEndpointsResponse r;
    decode(d, r);
    QVERIFY(d.ok() && d.atEnd());
    QCOMPARE(r.responseHeader.requestHandle, 5u);
}

void TestUaTcp::responsesAreSplitIntoChunks() {
    // The SecureChannel alone, with a client that accepts 1024-byte chunks: a 30 KB response
    // goes out as C...C F chunks of at most 1024 bytes that reassemble to the same response.
    HelloMessage hello{0, 1024, 1024, 0, 0, String("opc.tcp://x")};
    const AcknowledgeMessage ack = negotiateAcknowledge(hello, TransportLimits{});
    QByteArray sent;
    ServerSecureChannel ch(42, hello, ack, SecureChannelConfig{}, [&](const uint8_t* p, std::size_t n) {
        sent.append(reinterpret_cast<const char*>(p), qsizetype(n));
    });
    RawClient c;
    const QByteArray opn = c.openRequest(0, SecurityTokenRequestType::Issue);
    QCOMPARE(int(ch.onChunk(reinterpret_cast<const uint8_t*>(opn.constData()), std::size_t(opn.size()), 0).kind),
             int(ServerSecureChannel::Event::Kind::None));
    QVERIFY(ch.isOpen());
    sent.clear();
    GetEndpointsResponse big;
    for (int i = 0; i < 100; ++i) {
        EndpointDescription e;
        e.endpointUrl = String("opc.tcp://host-" + std::to_string(i) + ":4840/" + std::string(200, 'p'));
        big.endpoints.push_back(e);
    }
    ch.sendResponse(7, big);
    QByteArray body;
    int chunks = 0;
    uint32_t lastSeq = 0;
    for (qsizetype at = 0; at < sent.size();) {
        const TcpHeader h = readTcpHeader(reinterpret_cast<const uint8_t*>(sent.constData() + at));
        QVERIFY(h.messageSize <= 1024);
        uint32_t seq, req;
        std::memcpy(&seq, sent.constData() + at + 16, 4);
        std::memcpy(&req, sent.constData() + at + 20, 4);
        QCOMPARE(req, 7u);
        if (chunks) QCOMPARE(seq, lastSeq + 1);
        lastSeq = seq;
        body += sent.mid(at + 24, h.messageSize - 24);
        at += h.messageSize;
        ++chunks;
        QCOMPARE(char(h.chunkType), at == sent.size() ? 'F' : 'C');
    }
    QVERIFY(chunks > 25);
    BinaryDecoder d(reinterpret_cast<const uint8_t*>(body.constData()), std::size_t(body.size()));
    NodeId type;
    decode(d, type);
    GetEndpointsResponse back;
    decode(d, back);
    QVERIFY(d.ok() && d.atEnd());
    QVERIFY(back == big);
}

void TestUaTcp::requestOverMaxMessageSizeIsRefused() {
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    QVERIFY(c.openChannel());
    // 6 chunks of 15000 bytes: over the 64 KiB MaxMessageSize.
    const QByteArray filler(15000, 'x');
    for (int i = 0; i < 5; ++i) c.sendRaw(c.messageChunk(filler, ChunkType::Intermediate, 900));
    c.sendRaw(c.messageChunk(filler, ChunkType::Final, 900));
    const RawMessage m = c.read();
    QCOMPARE(RawClient::serviceFault(m), status::BadRequestTooLarge.code);
    // The channel stays open and usable.
    QVERIFY(c.getEndpoints());
}

void TestUaTcp::responseOverClientLimitIsAborted() {
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    QVERIFY(c.openChannel(65535, 100));  // the client accepts responses of at most 100 bytes
    GetEndpointsRequest req;
    c.sendRaw(c.request(req));
    const RawMessage m = c.read();
    QVERIFY(m.valid);
    QCOMPARE(m.type, TcpMessageType::Message);
    QCOMPARE(m.chunk, 'A');
    uint32_t code;
    std::memcpy(&code, m.bytes.constData() + 24, 4);
    QCOMPARE(code, status::BadResponseTooLarge.code);
    checkWitness();
}

void TestUaTcp::unknownServiceIsUnsupported() {
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    QVERIFY(c.openChannel());
    QueryFirstRequest q;
    q.requestHeader.requestHandle = 9;
    c.sendRaw(c.request(q));
    QCOMPARE(RawClient::serviceFault(c.read()), status::BadServiceUnsupported.code);
    QVERIFY(c.getEndpoints());
}

void TestUaTcp::renewKeepsOldTokenUntilNewOneIsUsed() {
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    QVERIFY(c.openChannel());
    const uint32_t oldToken = c.m_tokenId;
    c.sendRaw(c.openRequest(c.m_channelId, SecurityTokenRequestType::Renew));
    const RawMessage opn = c.read();
    QCOMPARE(opn.type, TcpMessageType::OpenSecureChannel);
    // Still on the old token: accepted.
    QVERIFY(c.getEndpoints());
    // Now the new token (old + 1): accepted; afterwards the old one is refused.
    c.m_tokenId = oldToken + 1;
    QVERIFY(c.getEndpoints());
    c.m_tokenId = oldToken;
    c.sendRaw(c.request(GetEndpointsRequest{}));
    QCOMPARE(RawClient::errorCode(c.read()), status::BadSecureChannelTokenUnknown.code);
}

void TestUaTcp::closeSecureChannelClosesTheSocket() {
    RawClient c;
    QVERIFY(c.connectTo(m_server->port()));
    QVERIFY(c.openChannel());
    c.sendRaw(c.messageChunk(RawClient::body(CloseSecureChannelRequest{}), ChunkType::Final, 0, TcpMessageType::CloseSecureChannel));
    QVERIFY(c.waitClosed());
    checkWitness();
}

namespace {

// Hello, OpenSecureChannel, CreateSession, ActivateSession (anonymous) through exchange (a
// message out, the server's answer back): the Session's token, null on a failure.
NodeId openSessionOver(RawClient& c, const std::function<RawMessage(const QByteArray&)>& exchange, NodeId* sessionId) {
    if (exchange(RawClient::hello()).type != TcpMessageType::Acknowledge) return {};
    if (!c.acceptOpen(exchange(c.openRequest(0, SecurityTokenRequestType::Issue)))) return {};
    CreateSessionRequest create;
    create.sessionName = String("raw");
    create.requestedSessionTimeout = 60000;
    CreateSessionResponse created;
    if (!decodeResponse(exchange(c.request(create)), created)) return {};
    ActivateSessionRequest activate;
    activate.requestHeader.authenticationToken = created.authenticationToken;
    AnonymousIdentityToken anon;
    anon.policyId = String("anonymous");
    activate.userIdentityToken = ExtensionObject::make(anon);
    ActivateSessionResponse activated;
    if (!decodeResponse(exchange(c.request(activate)), activated) || !activated.responseHeader.serviceResult.isGood())
        return {};
    *sessionId = created.sessionId;
    return created.authenticationToken;
}

// The whole messages at the front of bytes, taken out of it.
std::vector<RawMessage> takeMessages(QByteArray& bytes) {
    std::vector<RawMessage> all;
    qsizetype at = 0;
    while (bytes.size() - at >= 8) {
        const TcpHeader h = readTcpHeader(reinterpret_cast<const uint8_t*>(bytes.constData() + at));
        if (h.messageSize < 8 || qsizetype(h.messageSize) > bytes.size() - at) break;
        RawMessage& m = all.emplace_back();
        m.type = h.type;
        m.chunk = char(h.chunkType);
        m.bytes = bytes.mid(at, h.messageSize);
        m.valid = true;
        at += h.messageSize;
    }
    bytes.remove(0, at);
    return all;
}

// One I/O thread; a connection stops reading above 8 queued responses and reads again at 4.
ServerConfig pausingServerConfig() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.ioThreads = 1;
    cfg.backpressure.maxQueuedResponses = 8;
    cfg.backpressure.resumeQueuedResponses = 4;
    return cfg;
}

// A Read of the Server's CurrentTime count times (timestamps: ts).
ReadRequest currentTimeRead(const NodeId& token, uint32_t handle, int count, TimestampsToReturn ts = TimestampsToReturn::Source) {
    ReadRequest read;
    read.requestHeader.authenticationToken = token;
    read.requestHeader.requestHandle = handle;
    read.timestampsToReturn = ts;
    read.nodesToRead.resize(std::size_t(count));
    for (auto& v : read.nodesToRead) {
        v.nodeId = NodeId(id::Server_ServerStatus_CurrentTime);
        v.attributeId = uint32_t(AttributeId::Value);
    }
    return read;
}

// The connection's one timer waits for something seconds away (the SecurityToken's expiry, a
// chunked request's timeout), not for an idle check a second away.
bool armedSecondsAway(ServerConnection* conn) {
    const QList<QTimer*> timers = conn->findChildren<QTimer*>();
    return timers.size() == 1 && timers[0]->isActive() && timers[0]->remainingTime() > 5000;
}

// One of the server's connections over an in-memory socket on this thread, so that its timer runs
// here and its buffers can be looked at; the test's RawClient builds the messages only.
struct MemoryConnection {
    explicit MemoryConnection(Server& server)
        : socket(new uafuzz::MemorySocket(true)), conn(new ServerConnection(server.parts(), socket)) {}
    // Closes the connection and waits until it is gone (also when a check failed half-way), so
    // that it never outlives the server it was made for.
    ~MemoryConnection() {
        if (conn.isNull()) return;
        socket->remoteClose();
        for (int i = 0; i < 500 && !conn.isNull(); ++i) QTest::qWait(10);
    }
    // Feeds request and runs the events once: the last whole message the server wrote since.
    RawMessage exchange(const QByteArray& request) {
        socket->feed(request);
        QCoreApplication::processEvents();
        return lastWritten();
    }
    RawMessage lastWritten() {
        std::vector<RawMessage> all = written();
        return all.empty() ? RawMessage{} : all.back();
    }
    // The whole messages the server wrote since the last call.
    std::vector<RawMessage> written() {
        QByteArray rest = socket->written().mid(at);
        std::vector<RawMessage> all = takeMessages(rest);
        at = socket->written().size() - rest.size();
        return all;
    }
    NodeId openSession(NodeId* sessionId) {
        return openSessionOver(c, [this](const QByteArray& m) { return exchange(m); }, sessionId);
    }
    // Feeds, in one write, Reads of the Server's CurrentTime (handles 1, 2, ...) of at least bytes
    // bytes in all: how many.
    uint32_t feedCurrentTimeReads(const NodeId& token, qsizetype bytes) {
        QByteArray requests;
        uint32_t count = 0;
        while (requests.size() < bytes) requests += c.request(currentTimeRead(token, ++count, 1));
        socket->feed(requests);
        return count;
    }
    // Runs the events until count responses came, or timeoutMs: how many came, in order, each a
    // Good Read of one value (it stops counting at the first that is not). eachTurn after each turn.
    uint32_t answeredInOrder(uint32_t count, int timeoutMs, const std::function<void()>& eachTurn = {}) {
        uint32_t received = 0;
        QElapsedTimer t;
        t.start();
        while (received < count && t.elapsed() < timeoutMs && !conn.isNull()) {
            QCoreApplication::processEvents();
            if (eachTurn) eachTurn();
            for (const RawMessage& m : written()) {
                ReadResponse r;
                if (!decodeResponse(m, r) || r.responseHeader.requestHandle != received + 1 || r.results.size() != 1 ||
                    !r.results[0].status.isGood())
                    return received;
                ++received;
            }
        }
        return received;
    }

    uafuzz::MemorySocket* socket;  // owned by the connection
    QPointer<ServerConnection> conn;
    RawClient c;
    qsizetype at = 0;  // how far socket->written() was looked at
};

} // namespace

void TestUaTcp::idleConnectionGivesBackItsBuffers() {
    // A Read of 500 Values (request 9 KB, response 13 KB) that arrives whole is framed in the
    // thread's read buffer, and its response encoded, sealed and gathered in the thread's buffers:
    // the connection grows no buffer of its own. The same Read in two halves makes the framer keep
    // the first half, which grows its buffer to 16 KB; the connection keeps it while such requests
    // keep coming and gives it back (docs/Scalability.md "Memory per Session") within two idle
    // checks (1 s apart) once it is idle.
    MemoryConnection mc(*m_server);
    auto* socket = mc.socket;
    QPointer<ServerConnection>& conn = mc.conn;
    RawClient& c = mc.c;
    auto exchange = [&](const QByteArray& request) { return mc.exchange(request); };
    NodeId sessionId;
    const NodeId token = mc.openSession(&sessionId);
    QVERIFY(!token.isNull());

    ReadRequest read;
    read.requestHeader.authenticationToken = token;
    read.nodesToRead.resize(500);
    for (auto& v : read.nodesToRead) {
        v.nodeId = NodeId(id::Server_ServerStatus_CurrentTime);
        v.attributeId = uint32_t(AttributeId::Value);
    }
    auto bigRead = [&] {
        ReadResponse r;
        return decodeResponse(exchange(c.request(read)), r) && r.results.size() == 500 && r.results[0].status.isGood();
    };
    auto splitRead = [&] {  // the request in two halves, each read on its own
        const QByteArray request = c.request(read);
        const qsizetype written = socket->written().size();
        socket->feed(request.left(request.size() / 2));
        QCoreApplication::processEvents();
        if (socket->written().size() != written) return false;  // nothing answered before the rest came
        ReadResponse r;
        return decodeResponse(exchange(request.mid(request.size() / 2)), r) && r.results.size() == 500 &&
               r.results[0].status.isGood();
    };
    QVERIFY(bigRead());
    QCOMPARE(conn->bufferCapacity(), std::size_t(0));
    QVERIFY(splitRead());
    const std::size_t warm = conn->bufferCapacity();
    qInfo("buffers after a large Read in two halves: %zu bytes", warm);
    QVERIFY2(warm >= 16384, qPrintable(QString::number(warm)));

    // Under steady load (a large Read every 200 ms, over more than two ticks) they are kept.
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 2500) {
        QVERIFY(splitRead());
        QVERIFY2(conn->bufferCapacity() >= warm, qPrintable(QString::number(conn->bufferCapacity())));
        QTest::qWait(200);
    }
    // Idle: given back within two ticks (the first one sees the last Read's response).
    t.restart();
    QTRY_VERIFY_WITH_TIMEOUT(conn->bufferCapacity() <= ServerConnection::kIdleBufferKeep, 3000);
    qInfo("buffers %zu bytes, %lld ms after the last Read", conn->bufferCapacity(), qlonglong(t.elapsed()));
    QVERIFY(!conn.isNull());
    // Idle with small buffers, the connection's one timer waits for the SecurityToken's expiry
    // (its lifetime, at least 10 s, plus 25 %), not for a tick a second away: an idle connection
    // costs its thread nothing per second.
    const QList<QTimer*> timers = conn->findChildren<QTimer*>();
    QCOMPARE(timers.size(), 1);
    QVERIFY(timers[0]->isActive());
    QVERIFY2(timers[0]->remainingTime() > 5000, qPrintable(QString::number(timers[0]->remainingTime())));
    // And the connection goes on as before.
    QVERIFY(bigRead());
    QVERIFY(splitRead());
    QVERIFY(conn->bufferCapacity() >= warm);
    QTRY_VERIFY_WITH_TIMEOUT(conn->bufferCapacity() <= ServerConnection::kIdleBufferKeep, 3000);

    // A request in two chunks, arriving together: framed in place, but reassembled in the
    // SecureChannel's own buffer, which the idle check gives back likewise.
    auto chunkedRead = [&] {
        const QByteArray body = RawClient::body(read);
        const uint32_t id = c.m_requestId++;
        QByteArray both = c.messageChunk(body.left(body.size() / 2), ChunkType::Intermediate, id);  // sequence n
        both += c.messageChunk(body.mid(body.size() / 2), ChunkType::Final, id);                    // then n + 1
        ReadResponse r;
        return decodeResponse(exchange(both), r) && r.results.size() == 500 && r.results[0].status.isGood();
    };
    QVERIFY(chunkedRead());
    QVERIFY2(conn->bufferCapacity() >= 16384, qPrintable(QString::number(conn->bufferCapacity())));
    QTRY_VERIFY_WITH_TIMEOUT(conn->bufferCapacity() <= ServerConnection::kIdleBufferKeep, 3000);

    auto noCheckPerSecond = [&] { return armedSecondsAway(conn); };
    // Part of a request waits in the framer over two idle checks: its buffer (16 KB) cannot be
    // given back meanwhile. It is not counted as kept either, and not looked at every second: the
    // rest fits in it, so nothing grows when it comes, and once the Read is answered and the
    // connection idle, the buffer is given back all the same.
    ReadRequest unknown;  // 700 unknown nodes: a 15 KB request, a 4 KB response in one chunk
    unknown.requestHeader.authenticationToken = token;
    unknown.nodesToRead.resize(700);
    for (auto& v : unknown.nodesToRead) {
        v.nodeId = NodeId(1, 999999u);
        v.attributeId = uint32_t(AttributeId::Value);
    }
    const QByteArray request = c.request(unknown);
    QVERIFY2(request.size() > 9000 && request.size() <= 16384, qPrintable(QString::number(request.size())));
    socket->feed(request.left(9000));
    QCoreApplication::processEvents();
    const std::size_t held = conn->bufferCapacity();
    QVERIFY2(held > ServerConnection::kIdleBufferKeep && held >= std::size_t(request.size()), qPrintable(QString::number(held)));
    QTest::qWait(2500);
    QCOMPARE(conn->bufferCapacity(), held);
    QVERIFY(noCheckPerSecond());
    ReadResponse unknownRead;
    QVERIFY(decodeResponse(exchange(request.mid(9000)), unknownRead));
    QCOMPARE(unknownRead.results.size(), std::size_t(700));
    QCOMPARE(unknownRead.results[0].status.code, status::BadNodeIdUnknown.code);
    QCOMPARE(conn->bufferCapacity(), held);
    QTRY_VERIFY_WITH_TIMEOUT(conn->bufferCapacity() <= ServerConnection::kIdleBufferKeep, 4000);
    QVERIFY(noCheckPerSecond());

    // The same for a chunked request whose final chunk is late: its first chunk (10 KB) waits in
    // the SecureChannel's reassembly buffer over an idle check. Once the request is answered, or
    // once the client abandons it with an abort chunk (6.7.3), the buffer is given back.
    const QByteArray body = RawClient::body(unknown);
    for (const char end : {'F', 'A'}) {
        const uint32_t id = c.m_requestId++;
        exchange(c.messageChunk(body.left(10000), ChunkType::Intermediate, id));
        QVERIFY2(conn->bufferCapacity() > ServerConnection::kIdleBufferKeep, qPrintable(QString::number(conn->bufferCapacity())));
        QTest::qWait(2200);
        QVERIFY(conn->bufferCapacity() > ServerConnection::kIdleBufferKeep);
        QVERIFY(noCheckPerSecond());
        if (end == 'F') {
            ReadResponse r;
            QVERIFY(decodeResponse(exchange(c.messageChunk(body.mid(10000), ChunkType::Final, id)), r));
            QCOMPARE(r.results.size(), std::size_t(700));
        } else {
            QByteArray abort(8, '\0');  // Error (Bad_RequestCancelledByClient: 0x802C0000 little-endian), Reason null
            abort[2] = char(0x2C);
            abort[3] = char(0x80);
            abort[4] = abort[5] = abort[6] = abort[7] = char(0xFF);
            exchange(c.messageChunk(abort, ChunkType::Abort, id));
        }
        QTRY_VERIFY_WITH_TIMEOUT(conn->bufferCapacity() <= ServerConnection::kIdleBufferKeep, 4000);
        QVERIFY(noCheckPerSecond());
    }
    // A chunked request over MaxMessageSize (64 KB here) is answered Bad_RequestTooLarge at its
    // fifth chunk and its other chunks are dropped (OPC 10000-6 7.1.2.4). Its reassembly buffer
    // (64 KB, emptied but not freed) takes nothing more meanwhile: the check gives it back before
    // the dropped final chunk comes.
    {
        const uint32_t id = c.m_requestId++;
        const QByteArray part(14000, 'x');
        for (int k = 0; k < 4; ++k) QVERIFY(!exchange(c.messageChunk(part, ChunkType::Intermediate, id)).valid);
        QCOMPARE(RawClient::serviceFault(exchange(c.messageChunk(part, ChunkType::Intermediate, id))),
                 status::BadRequestTooLarge.code);
        QVERIFY2(conn->bufferCapacity() >= 65536, qPrintable(QString::number(conn->bufferCapacity())));
        QTRY_VERIFY_WITH_TIMEOUT(conn->bufferCapacity() <= ServerConnection::kIdleBufferKeep, 4000);
        QVERIFY(!exchange(c.messageChunk(part, ChunkType::Final, id)).valid);  // dropped, unanswered
        QVERIFY(noCheckPerSecond());
    }
    QVERIFY(bigRead());  // and the channel goes on

    socket->remoteClose();
    QTRY_VERIFY(conn.isNull());
    m_server->closeSession(sessionId);
}

void TestUaTcp::pausedConnectionReadsNoMoreThanItProcesses() {
    // Backpressure (AdmissionConfig.h) over the in-memory socket: 400 KB of small Reads in one
    // write, six times what one read takes (64 KB). The connection stops reading while more than 8
    // responses are queued and resumes when this thread's event loop reports them written (at 4).
    // What it read and has not processed yet is processed before it reads again, so its framer
    // holds at most about one read whatever the number of pauses. Reading first on each resume, it
    // grew by a read per pause, to all 400 KB. Every response comes, in order.
    Server server(pausingServerConfig());
    QVERIFY(server.start());
    MemoryConnection mc(server);
    NodeId sessionId;
    const NodeId token = mc.openSession(&sessionId);
    QVERIFY(!token.isNull());

    const auto& counters = server.admission().counters();
    const auto pausesBefore = counters.readPauses.load();
    const uint32_t count = mc.feedCurrentTimeReads(token, 400 * 1024);
    std::size_t maxHeld = mc.conn->bufferCapacity();
    const uint32_t received = mc.answeredInOrder(count, 60000, [&] {
        if (!mc.conn.isNull()) maxHeld = std::max(maxHeld, mc.conn->bufferCapacity());
    });
    const auto pauses = counters.readPauses.load() - pausesBefore;
    qInfo("%u Reads: %llu read pauses, the connection's buffers at most %zu bytes", count,
          static_cast<unsigned long long>(pauses), maxHeld);
    QCOMPARE(received, count);
    QVERIFY2(pauses >= 100, qPrintable(QString::number(pauses)));
    QVERIFY2(maxHeld <= 160 * 1024, qPrintable(QString::number(maxHeld)));
    mc.socket->remoteClose();
    QTRY_VERIFY(mc.conn.isNull());
    server.closeSession(sessionId);
}

void TestUaTcp::halfClosedPeerGetsEveryResponse() {
    // Over a real TCP connection (DescriptorStream) with small socket buffers, a client writes 300
    // Reads of 50 values (390 KB of responses), reads nothing for 2 s, then shuts its side
    // (SHUT_WR) and reads slowly. Its connection pauses above 8 queued responses and resumes at 4,
    // many times. The server meets the peer's close only after it processed every request it
    // read, and each response, the last ones too, goes out before its side closes. (The responses
    // to requests held back over a pause were batched, and the read that found the close came
    // before the batch was written: those requests ran, and their responses were dropped.)
    Server server(pausingServerConfig());
    QVERIFY(server.start());

    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    const auto closeListener = qScopeGuard([listener] { ::close(listener); });
    QVERIFY(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 && ::listen(listener, 1) == 0);
    QVERIFY(::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    const int client = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    QPointer<ServerConnection> conn;
    // Also when a check fails half-way: the client's side is reset (the server's connection ends
    // at once, paused or not) and the connection is gone before the server.
    const auto closeClient = qScopeGuard([&] {
        const linger reset{1, 0};
        ::setsockopt(client, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        ::close(client);
        for (int i = 0; i < 500 && !conn.isNull(); ++i) QTest::qWait(10);
        QVERIFY(conn.isNull());
    });
    const int small = 4096;
    ::setsockopt(client, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);  // before connect: the window it announces
    QVERIFY(::connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    const int accepted = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    QVERIFY(accepted >= 0);
    ::setsockopt(accepted, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    conn = new ServerConnection(server.parts(), accepted);  // takes the descriptor

    RawClient c;  // builds the messages only
    QByteArray in;
    auto receive = [&](int maxBytes) {  // what has come, without waiting; false once the server closed
        char buf[65536];
        const ssize_t n = ::recv(client, buf, std::size_t(std::min<int>(maxBytes, int(sizeof buf))), MSG_DONTWAIT);
        if (n > 0) in.append(buf, qsizetype(n));
        return n != 0;
    };
    auto exchange = [&](const QByteArray& request) {
        if (::send(client, request.constData(), std::size_t(request.size()), MSG_NOSIGNAL) != request.size()) return RawMessage{};
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 5000) {
            QCoreApplication::processEvents();
            receive(65536);
            std::vector<RawMessage> got = takeMessages(in);
            if (!got.empty()) return got.back();
        }
        return RawMessage{};
    };
    NodeId sessionId;
    const NodeId token = openSessionOver(c, exchange, &sessionId);
    QVERIFY(!token.isNull());
    ::fcntl(client, F_SETFL, ::fcntl(client, F_GETFL) | O_NONBLOCK);

    QByteArray requests;
    constexpr uint32_t kCount = 300;
    for (uint32_t i = 1; i <= kCount; ++i) requests += c.request(currentTimeRead(token, i, 50, TimestampsToReturn::Both));
    const auto& counters = server.admission().counters();
    const auto pausesBefore = counters.readPauses.load();
    qsizetype sent = 0;
    uint32_t received = 0;
    bool open = true;
    bool shut = false;
    QElapsedTimer t;
    t.start();
    // First nothing is read: the connection pauses, and stays paused without a timer a second
    // away (its idle check waits for the resume).
    while (counters.readPauses.load() == counters.readResumes.load() && t.elapsed() < 10000) {
        const ssize_t n = ::send(client, requests.constData() + sent, std::size_t(requests.size() - sent), MSG_NOSIGNAL);
        if (n > 0) sent += n;
        QTest::qWait(1);
    }
    QVERIFY(counters.readPauses.load() > counters.readResumes.load());
    QTest::qWait(2200);
    QVERIFY(counters.readPauses.load() > counters.readResumes.load());
    QVERIFY(armedSecondsAway(conn));
    while (received < kCount && open && t.elapsed() < 60000) {
        if (!shut) {
            const ssize_t n = ::send(client, requests.constData() + sent, std::size_t(requests.size() - sent), MSG_NOSIGNAL);
            if (n > 0) sent += n;
            shut = sent == requests.size() && ::shutdown(client, SHUT_WR) == 0;
        }
        QTest::qWait(1);
        open = receive(2048);  // slowly: a couple of responses per turn
        for (const RawMessage& m : takeMessages(in)) {
            ReadResponse r;
            QVERIFY(decodeResponse(m, r));
            QCOMPARE(r.responseHeader.requestHandle, ++received);
            QVERIFY(r.results.size() == 50 && r.results[49].status.isGood());
        }
    }
    const auto pauses = counters.readPauses.load() - pausesBefore;
    qInfo("%lld of %lld request bytes sent, %u of %u responses, %llu read pauses", qlonglong(sent), qlonglong(requests.size()),
          received, kCount, static_cast<unsigned long long>(pauses));
    QCOMPARE(sent, requests.size());
    QCOMPARE(received, kCount);
    QVERIFY2(pauses >= 10, qPrintable(QString::number(pauses)));
    // Then the server closes its side too.
    QTRY_VERIFY_WITH_TIMEOUT(!receive(65536), 5000);
    QVERIFY(in.isEmpty());
    server.closeSession(sessionId);
}

void TestUaTcp::memorySocketFeedLargerThanAReadIsProcessed() {
    // The test seam's stream (QtSocketStream over a MemorySocket) reads at most 64 KB per
    // onReadable(), like the descriptor's. 200 KB fed at once, without backpressure (which would
    // resume, and so read, on its own): every request is answered, not only the first read's.
    ServerConfig cfg = pausingServerConfig();
    cfg.backpressure.maxQueuedResponses = 0;  // never pauses
    Server server(cfg);
    QVERIFY(server.start());
    MemoryConnection mc(server);
    NodeId sessionId;
    const NodeId token = mc.openSession(&sessionId);
    QVERIFY(!token.isNull());
    const uint32_t count = mc.feedCurrentTimeReads(token, 200 * 1024);
    QCOMPARE(mc.answeredInOrder(count, 10000), count);
    server.closeSession(sessionId);
}

UA_TEST_GUILESS_MAIN(TestUaTcp)
#include "tst_uatcp.moc"
