// ClientSecureChannel against the server's ServerSecureChannel in memory (no sockets): the
// Hello/Acknowledge limits, OpenSecureChannel Issue and Renew, request chunking within the server's
// ReceiveBufferSize, Bad_RequestTooLarge before anything is sent, multi-chunk responses, abort
// chunks, ERR, and responses over our own limits.
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/ClientSecureChannel.h"
#include "ua/secure/ServerSecureChannel.h"

#include <QtTest>
#include "TestMain.h"
#include <optional>

using namespace ua;
using Kind = ClientSecureChannel::Event::Kind;

namespace {

// Whole UA-TCP messages, cut from what one side wrote.
struct Wire {
    std::vector<std::vector<uint8_t>> messages;
    std::vector<uint8_t> partial;
    void write(const uint8_t* p, std::size_t n) {
        partial.insert(partial.end(), p, p + n);
        while (partial.size() >= 8) {
            const TcpHeader h = readTcpHeader(partial.data());
            if (partial.size() < h.messageSize) break;
            messages.emplace_back(partial.begin(), partial.begin() + h.messageSize);
            partial.erase(partial.begin(), partial.begin() + h.messageSize);
        }
    }
    std::vector<std::vector<uint8_t>> take() { return std::exchange(messages, {}); }
};

ReadRequest bigRead(int nodes) {
    ReadRequest r;
    r.timestampsToReturn = TimestampsToReturn::Both;
    r.nodesToRead = Array<ReadValueId>::emptyArray();
    for (int i = 0; i < nodes; ++i) {
        ReadValueId v;
        v.nodeId = NodeId::parse("ns=1;i=" + std::to_string(1000 + i)).value();
        v.attributeId = uint32_t(AttributeId::Value);
        r.nodesToRead.push_back(std::move(v));
    }
    return r;
}

ReadResponse bigResponse(int values) {
    ReadResponse r;
    r.responseHeader.requestHandle = 9;
    for (int i = 0; i < values; ++i) r.results.push_back(DataValue(Variant(int32_t(i))));
    return r;
}

// A client channel and a server channel joined in memory.
struct Pair {
    TransportLimits clientLimits;
    TransportLimits serverLimits;
    SecureChannelConfig serverConfig;
    Wire toServer, toClient;
    std::optional<ClientSecureChannel> client;
    std::optional<ServerSecureChannel> server;
    HelloMessage hello;
    int64_t now = 1000;

    void start() {
        client.emplace(clientLimits, [this](const uint8_t* p, std::size_t n) { toServer.write(p, n); });
        client->sendHello("opc.tcp://localhost:4840");
    }
    // The server reads the Hello and answers it (what ServerConnection does).
    void acknowledge(std::optional<HelloMessage> helloAsSeen = std::nullopt) {
        auto msgs = toServer.take();
        QVERIFY(msgs.size() == 1);
        hello = *decodeHello(msgs[0].data() + 8, msgs[0].size() - 8);
        const AcknowledgeMessage ack = negotiateAcknowledge(hello, serverLimits);
        server.emplace(7, helloAsSeen ? *helloAsSeen : hello, ack, serverConfig, [this](const uint8_t* p, std::size_t n) { toClient.write(p, n); });
        Buffer b;
        encodeAcknowledge(b, ack);
        toClient.write(b.data(), b.size());
    }
    // Server-side events for everything the client wrote.
    std::vector<ServerSecureChannel::Event> serverReceives(std::vector<std::vector<uint8_t>>* storage) {
        std::vector<ServerSecureChannel::Event> out;
        *storage = toServer.take();
        for (auto& m : *storage) out.push_back(server->onChunk(m.data(), m.size(), now));
        return out;
    }
    // Client-side events for everything the server wrote (bodies copied out).
    struct Got {
        Kind kind;
        uint32_t requestId;
        uint32_t typeId;
        std::vector<uint8_t> body;
        StatusCode error;
    };
    std::vector<Got> clientReceives() {
        std::vector<Got> out;
        for (auto& m : toClient.take()) {
            const auto e = client->onMessage(m.data(), m.size(), now);
            out.push_back({e.kind, e.requestId, e.typeId, std::vector<uint8_t>(e.body, e.body + e.bodySize), e.error});
        }
        return out;
    }
    void open() {
        start();
        acknowledge();
        auto acked = clientReceives();
        QCOMPARE(acked.size(), std::size_t(1));
        QCOMPARE(acked[0].kind, Kind::Acknowledged);
        RequestHeader h;
        h.requestHandle = 1;
        client->sendOpen(1, SecurityTokenRequestType::Issue, 60000, h);
        std::vector<std::vector<uint8_t>> storage;
        for (const auto& e : serverReceives(&storage)) QCOMPARE(e.kind, ServerSecureChannel::Event::Kind::None);
        auto opened = clientReceives();
        QCOMPARE(opened.size(), std::size_t(1));
        QCOMPARE(opened[0].kind, Kind::Opened);
        QCOMPARE(opened[0].requestId, 1u);
        QVERIFY(opened[0].error.isGood());
        QVERIFY(client->isOpen());
    }
};

} // namespace

class TestClientChannel : public QObject {
    Q_OBJECT
private slots:
    void helloOffersOurLimitsAndAckRevisesThem();
    void openIssuesAToken();
    void requestsAreSplitIntoTheServersBufferSize();
    void requestOverMaxMessageSizeFailsLocally();
    void requestOverMaxChunkCountFailsLocally();
    void multiChunkResponsesAreReassembled();
    void abortChunkFailsOnlyItsRequest();
    void errFailsWithItsStatus();
    void renewSwitchesTokensAndKeepsTheOld();
    void responseOverOurLimitIsDropped();
    void sequenceNumberGapIsFatal();
};

void TestClientChannel::helloOffersOurLimitsAndAckRevisesThem() {
    Pair p;
    p.clientLimits = {65536, 32768, 1 << 20, 64};
    p.serverLimits.receiveBufferSize = 8192;
    p.serverLimits.sendBufferSize = 1 << 20;
    p.start();
    p.acknowledge();
    QCOMPARE(p.hello.receiveBufferSize, 65536u);
    QCOMPARE(p.hello.sendBufferSize, 32768u);
    QCOMPARE(p.hello.maxMessageSize, uint32_t(1 << 20));
    QCOMPARE(p.hello.maxChunkCount, 64u);
    QCOMPARE(p.hello.endpointUrl, String("opc.tcp://localhost:4840"));
    const auto got = p.clientReceives();
    QCOMPARE(got[0].kind, Kind::Acknowledged);
    QCOMPARE(p.client->acknowledge().receiveBufferSize, 8192u);
    QCOMPARE(p.client->sendChunkSize(), 8192u);        // never more than the server receives
    QCOMPARE(p.client->acknowledge().sendBufferSize, 65536u);  // capped by our receive size
}

void TestClientChannel::openIssuesAToken() {
    Pair p;
    p.serverConfig.minTokenLifetimeMs = 1000;
    p.open();
    QCOMPARE(p.client->channelId(), 7u);
    QCOMPARE(p.client->token().tokenId, 1u);
    QCOMPARE(p.client->token().revisedLifetime, 60000u);
    QCOMPARE(p.client->renewAtMs(), p.now + 45000);  // 75 % of the lifetime
}

void TestClientChannel::requestsAreSplitIntoTheServersBufferSize() {
    Pair p;
    p.serverLimits.receiveBufferSize = 8192;
    p.open();
    const ReadRequest req = bigRead(2000);
    QCOMPARE(p.client->sendRequest(42, req), status::Good);
    std::vector<std::vector<uint8_t>> storage;
    const auto events = p.serverReceives(&storage);
    QVERIFY2(storage.size() >= 4, "2000 nodes need several 8 KiB chunks");
    for (std::size_t i = 0; i < storage.size(); ++i) {
        QVERIFY(storage[i].size() <= 8192);
        QCOMPARE(char(storage[i][3]), i + 1 == storage.size() ? 'F' : 'C');
        uint32_t requestId;
        std::memcpy(&requestId, storage[i].data() + 20, 4);
        QCOMPARE(requestId, 42u);
    }
    const auto& last = events.back();
    QCOMPARE(last.kind, ServerSecureChannel::Event::Kind::Request);
    QCOMPARE(last.typeId, ReadRequest::kBinaryEncodingId);
    BinaryDecoder d(last.body, last.bodySize);
    ReadRequest decoded;
    decode(d, decoded);
    QVERIFY(d.ok() && d.atEnd());
    QCOMPARE(decoded, req);
}

void TestClientChannel::requestOverMaxMessageSizeFailsLocally() {
    Pair p;
    p.serverLimits.maxMessageSize = 16384;
    p.open();
    QCOMPARE(p.client->sendRequest(5, bigRead(2000)), status::BadRequestTooLarge);
    QVERIFY(p.toServer.take().empty());  // nothing went out
    QCOMPARE(p.client->sendRequest(6, bigRead(10)), status::Good);
    // The CreateSession's maxRequestMessageSize applies as well.
    p.client->setMaxRequestMessageSize(100);
    QCOMPARE(p.client->sendRequest(7, bigRead(10)), status::BadRequestTooLarge);
}

void TestClientChannel::requestOverMaxChunkCountFailsLocally() {
    Pair p;
    p.serverLimits.receiveBufferSize = 8192;
    p.serverLimits.maxChunkCount = 2;
    p.open();
    QCOMPARE(p.client->sendRequest(5, bigRead(2000)), status::BadRequestTooLarge);
    QVERIFY(p.toServer.take().empty());
    QCOMPARE(p.client->sendRequest(6, bigRead(500)), status::Good);  // 9 KB: two chunks
    std::vector<std::vector<uint8_t>> storage;
    QCOMPARE(p.serverReceives(&storage).back().kind, ServerSecureChannel::Event::Kind::Request);
    QCOMPARE(storage.size(), std::size_t(2));
}

void TestClientChannel::multiChunkResponsesAreReassembled() {
    Pair p;
    p.clientLimits.receiveBufferSize = 8192;
    p.open();
    const ReadResponse resp = bigResponse(3000);
    p.server->sendResponse(11, resp);
    const auto got = p.clientReceives();
    QVERIFY(got.size() > 2);
    for (std::size_t i = 0; i + 1 < got.size(); ++i) QCOMPARE(got[i].kind, Kind::None);
    QCOMPARE(got.back().kind, Kind::Response);
    QCOMPARE(got.back().requestId, 11u);
    QCOMPARE(got.back().typeId, ReadResponse::kBinaryEncodingId);
    BinaryDecoder d(got.back().body.data(), got.back().body.size());
    ReadResponse decoded;
    decode(d, decoded);
    QVERIFY(d.ok() && d.atEnd());
    QCOMPARE(decoded, resp);
}

void TestClientChannel::abortChunkFailsOnlyItsRequest() {
    Pair p;
    p.open();
    p.server->sendAbort(3, status::BadEncodingLimitsExceeded, "too big to encode");
    ReadResponse r;
    r.responseHeader.requestHandle = 4;
    p.server->sendResponse(4, r);
    const auto got = p.clientReceives();
    QCOMPARE(got.size(), std::size_t(2));
    QCOMPARE(got[0].kind, Kind::Aborted);
    QCOMPARE(got[0].requestId, 3u);
    QCOMPARE(got[0].error, status::BadEncodingLimitsExceeded);
    QCOMPARE(got[1].kind, Kind::Response);  // the channel stays open (6.7.3)
    QVERIFY(p.client->isOpen());
}

void TestClientChannel::errFailsWithItsStatus() {
    Pair p;
    p.open();
    Buffer b;
    encodeError(b, ErrorMessage{status::BadTcpServerTooBusy, String("busy")});
    p.toClient.write(b.data(), b.size());
    const auto got = p.clientReceives();
    QCOMPARE(got[0].kind, Kind::PeerError);
    QCOMPARE(got[0].error, status::BadTcpServerTooBusy);
    QVERIFY(!p.client->isOpen());
    QCOMPARE(p.client->sendRequest(1, bigRead(1)), status::BadSecureChannelClosed);
}

void TestClientChannel::renewSwitchesTokensAndKeepsTheOld() {
    Pair p;
    p.serverConfig.minTokenLifetimeMs = 1000;
    p.open();
    RequestHeader h;
    p.now += 45000;
    p.client->sendOpen(3, SecurityTokenRequestType::Renew, 60000, h);
    std::vector<std::vector<uint8_t>> storage;
    p.serverReceives(&storage);
    const auto opened = p.clientReceives();
    QCOMPARE(opened[0].kind, Kind::Opened);
    QCOMPARE(opened[0].requestId, 3u);
    QCOMPARE(p.client->token().tokenId, 2u);
    QCOMPARE(p.client->channelId(), 7u);
    QCOMPARE(p.client->renewAtMs(), p.now + 45000);
    // New requests use the new token, which the server accepts.
    QCOMPARE(p.client->sendRequest(4, bigRead(1)), status::Good);
    std::vector<std::vector<uint8_t>> s2;
    QCOMPARE(p.serverReceives(&s2).back().kind, ServerSecureChannel::Event::Kind::Request);
    uint32_t tokenId;
    std::memcpy(&tokenId, s2.back().data() + 12, 4);
    QCOMPARE(tokenId, 2u);
    // A server may answer with the old token until it sees the new one used (6.7.4): accepted.
    ReadResponse r;
    p.server->sendResponse(4, r);
    auto msgs = p.toClient.take();
    const uint32_t oldToken = 1, unknownToken = 9;
    std::memcpy(msgs[0].data() + 12, &oldToken, 4);
    p.toClient.write(msgs[0].data(), msgs[0].size());
    QCOMPARE(p.clientReceives()[0].kind, Kind::Response);
    // Any other token is not.
    p.server->sendResponse(5, r);
    msgs = p.toClient.take();
    std::memcpy(msgs[0].data() + 12, &unknownToken, 4);
    p.toClient.write(msgs[0].data(), msgs[0].size());
    const auto bad = p.clientReceives();
    QCOMPARE(bad[0].kind, Kind::Fatal);
    QCOMPARE(bad[0].error, status::BadSecureChannelTokenUnknown);
}

void TestClientChannel::responseOverOurLimitIsDropped() {
    Pair p;
    p.clientLimits.receiveBufferSize = 8192;
    p.clientLimits.maxMessageSize = 20000;
    p.start();
    // A server that ignores our MaxMessageSize (it sees a Hello without one).
    HelloMessage lax;
    lax.receiveBufferSize = 8192;
    lax.sendBufferSize = 65535;
    lax.maxMessageSize = 0;
    p.acknowledge(lax);
    p.clientReceives();
    RequestHeader h;
    p.client->sendOpen(1, SecurityTokenRequestType::Issue, 60000, h);
    std::vector<std::vector<uint8_t>> storage;
    p.serverReceives(&storage);
    p.clientReceives();
    p.server->sendResponse(8, bigResponse(5000));  // ~35 KB
    ReadResponse small;
    p.server->sendResponse(9, small);
    const auto got = p.clientReceives();
    int aborted = 0, responses = 0;
    for (const auto& g : got) {
        if (g.kind == Kind::Aborted) {
            ++aborted;
            QCOMPARE(g.requestId, 8u);
            QCOMPARE(g.error, status::BadResponseTooLarge);
        }
        if (g.kind == Kind::Response) {
            ++responses;
            QCOMPARE(g.requestId, 9u);
        }
    }
    QCOMPARE(aborted, 1);
    QCOMPARE(responses, 1);
}

void TestClientChannel::sequenceNumberGapIsFatal() {
    Pair p;
    p.open();
    ReadResponse r;
    p.server->sendResponse(2, r);
    auto first = p.toClient.take();
    p.toClient.write(first[0].data(), first[0].size());
    QCOMPARE(p.clientReceives()[0].kind, Kind::Response);
    p.toClient.write(first[0].data(), first[0].size());  // the same sequence number again
    const auto got = p.clientReceives();
    QCOMPARE(got[0].kind, Kind::Fatal);
    QCOMPARE(got[0].error, status::BadSequenceNumberInvalid);
}

UA_TEST_GUILESS_MAIN(TestClientChannel)
#include "tst_client_channel.moc"
