// ClientSecureChannel against ServerSecureChannel in memory with each SecurityPolicy and
// MessageSecurityMode (OPC 10000-6 6.7): OpenSecureChannel with certificates, multi-chunk messages
// both ways, Renew with the token overlap of 6.7.4, sequence numbers across the wrap (6.7.2.4),
// 4096-bit keys (ExtraPaddingSize), the ECC policies (a signed-only OPN whose nonces are
// EphemeralKeys, OPC 10000-6 6.8.1), and the bad input a channel must refuse: a tampered chunk, a
// replayed chunk, a short ClientNonce, an untrusted certificate, a wrong thumbprint, a policy that
// is not offered, an ECC nonce off the curve, a certificate of the wrong key kind.
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/ClientSecureChannel.h"
#include "ua/secure/ServerSecureChannel.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <map>
#include <optional>

using namespace ua;
using Kind = ClientSecureChannel::Event::Kind;
using SKind = ServerSecureChannel::Event::Kind;

namespace {

struct Identity {
    Certificate certificate;
    PrivateKey key;
};

// Application instance certificates made once per key size and role (RSA key generation is slow);
// with an ECC key type, bits is ignored.
Identity identity(const std::string& role, int bits, KeyType type = KeyType::Rsa) {
    static std::map<std::string, Identity> cache;
    static QTemporaryDir dir;
    const std::string name = role + (type == KeyType::Rsa ? std::to_string(bits) : type == KeyType::EccNistP256 ? "p256" : "p384");
    auto it = cache.find(name);
    if (it != cache.end()) return it->second;
    CertificateStore store(dir.filePath(QString::fromStdString(name)).toStdString());
    CertificateRequest req;
    req.applicationUri = "urn:test:" + name;
    req.applicationName = "test " + name;
    req.hostNames = {"localhost"};
    req.keyBits = bits;
    req.keyType = type;
    std::string error;
    if (!store.ensureOwnCertificate(req, &error)) qFatal("certificate: %s", error.c_str());
    return cache[name] = Identity{store.ownCertificate(type), store.ownPrivateKey(type)};
}

KeyType keyTypeFor(SecurityPolicyId id) {
    const EccCurve c = securityPolicy(id).curve;
    return c == EccCurve::NistP256 ? KeyType::EccNistP256 : c == EccCurve::NistP384 ? KeyType::EccNistP384 : KeyType::Rsa;
}

constexpr SecurityPolicyId kChannelPolicies[] = {SecurityPolicyId::Basic256Sha256, SecurityPolicyId::Aes128Sha256RsaOaep,
                                                 SecurityPolicyId::Aes256Sha256RsaPss, SecurityPolicyId::EccNistP256,
                                                 SecurityPolicyId::EccNistP384};

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

uint32_t u32(const std::vector<uint8_t>& m, std::size_t at) {
    uint32_t v;
    std::memcpy(&v, m.data() + at, 4);
    return v;
}

// A read whose encoding is about `bytes` long (one string value per node id).
ReadRequest readOf(std::size_t bytes) {
    ReadRequest r;
    r.requestHeader.requestHandle = 5;
    r.timestampsToReturn = TimestampsToReturn::Both;
    ReadValueId v;
    v.nodeId = NodeId(2, String(std::string(bytes, 'x')));
    v.attributeId = uint32_t(AttributeId::Value);
    r.nodesToRead.push_back(std::move(v));
    return r;
}

struct Setup {
    SecurityPolicyId policy = SecurityPolicyId::None;
    MessageSecurityMode mode = MessageSecurityMode::None;
    int clientBits = 2048;
    int serverBits = 2048;
    uint32_t firstSequenceNumber = 1;
};

struct Pair {
    Setup setup;
    Identity serverId, clientId;
    std::shared_ptr<ServerChannelSecurity> security = std::make_shared<ServerChannelSecurity>();
    StatusCode validation = status::Good;  // what the server's certificate validation answers
    int validations = 0;
    Wire toServer, toClient;
    std::optional<ClientSecureChannel> client;
    std::optional<ServerSecureChannel> server;
    int64_t now = 1000;

    explicit Pair(Setup s) : setup(s) {
        const bool secure = s.policy != SecurityPolicyId::None;
        // The server holds an RSA pair and, for the ECC policies, an ECC pair of each curve beside it;
        // serverId is the one the chosen policy uses, clientId the client's of the policy's kind.
        Identity rsa;
        if (secure) {
            rsa = identity("server", s.serverBits);
            serverId = identity("server", s.serverBits, keyTypeFor(s.policy));
            clientId = identity("client", s.clientBits, keyTypeFor(s.policy));
            const Identity p256 = identity("server", 0, KeyType::EccNistP256);
            const Identity p384 = identity("server", 0, KeyType::EccNistP384);
            security->eccNistP256 = {p256.certificate, p256.certificate.der(), p256.key};
            security->eccNistP384 = {p384.certificate, p384.certificate.der(), p384.key};
        }
        security->offers = {{SecurityPolicyId::None, MessageSecurityMode::None}};
        for (auto p : kChannelPolicies)
            for (auto m : {MessageSecurityMode::Sign, MessageSecurityMode::SignAndEncrypt}) security->offers.push_back({p, m});
        security->certificate = rsa.certificate;
        security->certificateChain = rsa.certificate.isNull() ? std::string() : rsa.certificate.der();
        security->privateKey = rsa.key;
        security->validateCertificate = [this](const std::string&, const SecurityPolicy&) {
            ++validations;
            return validation;
        };
    }

    ClientChannelSecurity clientSecurity() const {
        ClientChannelSecurity c;
        c.policy = setup.policy;
        c.mode = setup.mode;
        if (setup.policy != SecurityPolicyId::None) {
            c.clientCertificateChain = clientId.certificate.der();
            c.clientKey = clientId.key;
            c.serverCertificate = serverId.certificate;
        }
        c.firstSequenceNumber = setup.firstSequenceNumber;
        return c;
    }

    void connect() {
        TransportLimits limits;
        limits.receiveBufferSize = limits.sendBufferSize = 8192;
        client.emplace(limits, [this](const uint8_t* p, std::size_t n) { toServer.write(p, n); }, clientSecurity());
        client->sendHello("opc.tcp://localhost:4840");
        auto msgs = toServer.take();
        QCOMPARE(msgs.size(), std::size_t(1));
        const HelloMessage hello = *decodeHello(msgs[0].data() + 8, msgs[0].size() - 8);
        const AcknowledgeMessage ack = negotiateAcknowledge(hello, limits);
        SecureChannelConfig cfg;
        cfg.security = security;
        cfg.firstSequenceNumber = setup.firstSequenceNumber;
        server.emplace(7, hello, ack, cfg, [this](const uint8_t* p, std::size_t n) { toClient.write(p, n); });
        Buffer b;
        encodeAcknowledge(b, ack);
        const auto e = client->onMessage(b.data(), b.size(), now);
        QCOMPARE(e.kind, Kind::Acknowledged);
    }

    std::vector<ServerSecureChannel::Event> serverReceives() {
        std::vector<ServerSecureChannel::Event> out;
        m_storage = toServer.take();
        for (auto& m : m_storage) {
            out.push_back(server->onChunk(m.data(), m.size(), now));
            if (out.back().kind == SKind::Fatal) break;
        }
        return out;
    }
    ClientSecureChannel::Event clientReceivesOne() {
        ClientSecureChannel::Event last;
        m_clientStorage = toClient.take();
        for (auto& m : m_clientStorage) {
            last = client->onMessage(m.data(), m.size(), now);
            if (last.kind != Kind::None) {
                m_lastBody.assign(last.body, last.body + last.bodySize);
                last.body = m_lastBody.data();
            }
        }
        return last;
    }

    // OPN Issue (or Renew) through both sides; the server's event.
    ServerSecureChannel::Event openToken(SecurityTokenRequestType type = SecurityTokenRequestType::Issue) {
        RequestHeader h;
        h.requestHandle = 1;
        client->sendOpen(11, type, 60000, h);
        auto events = serverReceives();
        if (events.size() != 1) return {};
        if (events[0].kind == SKind::None) {
            const auto e = clientReceivesOne();
            if (e.kind != Kind::Opened || e.error.isBad()) qWarning("client: %s %s", e.error.name().c_str(), std::string(e.reason).c_str());
        }
        return events[0];
    }

    // A request of about `bytes`, answered with a response of about `bytes`; true when both arrive intact.
    bool roundTrip(uint32_t requestId, std::size_t bytes) {
        if (client->sendRequest(requestId, readOf(bytes)).isBad()) return false;
        auto events = serverReceives();
        if (events.empty() || events.back().kind != SKind::Request) return false;
        for (std::size_t i = 0; i + 1 < events.size(); ++i)
            if (events[i].kind != SKind::None) return false;
        const auto& req = events.back();
        if (req.requestId != requestId || req.typeId != ReadRequest::kBinaryEncodingId) return false;
        BinaryDecoder d(req.body, req.bodySize);
        ReadRequest decoded;
        decode(d, decoded);
        if (!d.ok() || decoded.nodesToRead.size() != 1 || decoded.nodesToRead[0].nodeId.string().size() != bytes)
            return false;
        ReadResponse resp;
        resp.responseHeader.requestHandle = 5;
        resp.results.push_back(DataValue(Variant(String(std::string(bytes, 'y')))));
        server->sendResponse(requestId, resp);
        const auto e = clientReceivesOne();
        if (e.kind != Kind::Response || e.requestId != requestId) return false;
        BinaryDecoder rd(e.body, e.bodySize);
        ReadResponse got;
        decode(rd, got);
        return rd.ok() && got.results.size() == 1 && got.results[0].value == Variant(String(std::string(bytes, 'y')));
    }

    std::vector<std::vector<uint8_t>> m_storage, m_clientStorage;
    std::vector<uint8_t> m_lastBody;
};

const char* modeName(MessageSecurityMode m) { return m == MessageSecurityMode::Sign ? "Sign" : m == MessageSecurityMode::SignAndEncrypt ? "SignAndEncrypt" : "None"; }

void addSecureRows() {
    QTest::addColumn<int>("policy");
    QTest::addColumn<int>("mode");
    for (auto p : kChannelPolicies)
        for (auto m : {MessageSecurityMode::Sign, MessageSecurityMode::SignAndEncrypt})
            QTest::newRow((std::string(securityPolicy(p).uri.substr(securityPolicy(p).uri.find('#') + 1)) + " " + modeName(m)).c_str())
                << int(p) << int(m);
}

} // namespace

class TestChannelSecurity : public QObject {
    Q_OBJECT
private slots:
    void messagesTravelSecured_data() { addSecureRows(); QTest::newRow("None") << int(SecurityPolicyId::None) << int(MessageSecurityMode::None); }
    void messagesTravelSecured();
    void encryptedChunksHideTheBody();
    void renewOverlapsTokens_data() { addSecureRows(); }
    void renewOverlapsTokens();
    void sequenceNumbersCrossTheWrap_data() { addSecureRows(); }
    void sequenceNumbersCrossTheWrap();
    void largeKeysUseExtraPadding();
    void tamperedChunkClosesTheChannel_data() { addSecureRows(); }
    void tamperedChunkClosesTheChannel();
    void replayedChunkClosesTheChannel();
    void forgedAbortChunkIsCheckedFirst_data() { addSecureRows(); }
    void forgedAbortChunkIsCheckedFirst();
    void interleavedResponsesCloseTheChannel();
    void shortClientNonceIsRefused();
    void untrustedCertificateIsRefused();
    void wrongThumbprintIsRefused();
    void policyNotOfferedIsRefused();
    void modeNoneWithSecurePolicyIsRefused();
    void eccOpenIsSignedNotEncrypted_data();
    void eccOpenIsSignedNotEncrypted();
    void eccBadOpenIsRefused_data() { eccOpenIsSignedNotEncrypted_data(); }
    void eccBadOpenIsRefused();
    void eccServerNonceOffTheCurveIsRefused();
};

void TestChannelSecurity::messagesTravelSecured() {
    QFETCH(int, policy);
    QFETCH(int, mode);
    Pair pair({SecurityPolicyId(policy), MessageSecurityMode(mode)});
    pair.connect();
    QCOMPARE(pair.openToken().kind, SKind::None);
    QVERIFY(pair.client->isOpen());
    QCOMPARE(pair.server->securityMode(), MessageSecurityMode(mode));
    QCOMPARE(pair.validations, policy == int(SecurityPolicyId::None) ? 0 : 1);
    // Single chunks, then messages of several chunks each way (8192-byte buffers).
    for (std::size_t bytes : {std::size_t(0), std::size_t(100), std::size_t(7000), std::size_t(8150), std::size_t(30000), std::size_t(100000)})
        QVERIFY2(pair.roundTrip(uint32_t(100 + bytes), bytes), qPrintable(QString::number(bytes)));
}

void TestChannelSecurity::encryptedChunksHideTheBody() {
    // The same marker appears in a Sign chunk and never in a SignAndEncrypt chunk.
    for (auto mode : {MessageSecurityMode::Sign, MessageSecurityMode::SignAndEncrypt}) {
        Pair pair({SecurityPolicyId::Basic256Sha256, mode});
        pair.connect();
        pair.openToken();
        ReadRequest r = readOf(0);
        r.nodesToRead[0].nodeId = NodeId(2, "MARKER-0123456789");
        QVERIFY(pair.client->sendRequest(3, r).isGood());
        const auto msgs = pair.toServer.take();
        QCOMPARE(msgs.size(), std::size_t(1));
        const std::string wire(msgs[0].begin(), msgs[0].end());
        QCOMPARE(wire.find("MARKER-0123456789") != std::string::npos, mode == MessageSecurityMode::Sign);
        if (mode == MessageSecurityMode::SignAndEncrypt) QCOMPARE((msgs[0].size() - 16) % 16, std::size_t(0));
        const auto e = pair.server->onChunk(msgs[0].data(), msgs[0].size(), pair.now);
        QCOMPARE(e.kind, SKind::Request);
    }
}

void TestChannelSecurity::renewOverlapsTokens() {
    QFETCH(int, policy);
    QFETCH(int, mode);
    Pair pair({SecurityPolicyId(policy), MessageSecurityMode(mode)});
    pair.connect();
    pair.openToken();
    const uint32_t first = pair.client->token().tokenId;
    QVERIFY(pair.roundTrip(20, 50));
    QCOMPARE(pair.openToken(SecurityTokenRequestType::Renew).kind, SKind::None);
    const uint32_t second = pair.client->token().tokenId;
    QVERIFY(second != first);
    // 6.7.4: until the client uses the new token, the server still sends with the old one.
    ReadResponse unsolicited;
    pair.server->sendResponse(21, unsolicited);
    auto msgs = pair.toClient.take();
    QCOMPARE(msgs.size(), std::size_t(1));
    QCOMPARE(u32(msgs[0], 12), first);
    QCOMPARE(pair.client->onMessage(msgs[0].data(), msgs[0].size(), pair.now).kind, Kind::Response);
    // The client's next request uses the new token; the server switches and answers with it.
    QVERIFY(pair.client->sendRequest(22, readOf(10)).isGood());
    msgs = pair.toServer.take();
    QCOMPARE(u32(msgs[0], 12), second);
    QCOMPARE(pair.server->onChunk(msgs[0].data(), msgs[0].size(), pair.now).kind, SKind::Request);
    pair.server->sendResponse(22, unsolicited);
    msgs = pair.toClient.take();
    QCOMPARE(u32(msgs[0], 12), second);
    QCOMPARE(pair.client->onMessage(msgs[0].data(), msgs[0].size(), pair.now).kind, Kind::Response);
    // The old token is gone on both sides now.
    QVERIFY(pair.roundTrip(23, 20000));
}

void TestChannelSecurity::sequenceNumbersCrossTheWrap() {
    QFETCH(int, policy);
    QFETCH(int, mode);
    Setup s{SecurityPolicyId(policy), MessageSecurityMode(mode)};
    s.firstSequenceNumber = kSequenceWrapLimit - 3;
    Pair pair(s);
    pair.connect();
    pair.openToken();
    std::vector<uint32_t> seen;
    for (uint32_t i = 0; i < 6; ++i) {
        QVERIFY(pair.client->sendRequest(30 + i, readOf(10)).isGood());
        auto msgs = pair.toServer.take();
        QCOMPARE(msgs.size(), std::size_t(1));
        const auto e = pair.server->onChunk(msgs[0].data(), msgs[0].size(), pair.now);
        QCOMPARE(e.kind, SKind::Request);
        ReadResponse r;
        pair.server->sendResponse(30 + i, r);
        QCOMPARE(pair.clientReceivesOne().kind, Kind::Response);
        if (MessageSecurityMode(mode) == MessageSecurityMode::Sign) seen.push_back(u32(msgs[0], 16));
    }
    if (!seen.empty()) {
        // The OPN took the first; the numbers pass the limit by one, then wrap to 1 (6.7.2.4).
        const std::vector<uint32_t> expected{kSequenceWrapLimit - 2, kSequenceWrapLimit - 1, kSequenceWrapLimit,
                                             kSequenceWrapLimit + 1, 1, 2};
        QCOMPARE(seen, expected);
    }
}

void TestChannelSecurity::largeKeysUseExtraPadding() {
    Setup s{SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt};
    s.clientBits = s.serverBits = 4096;
    Pair pair(s);
    pair.connect();
    QCOMPARE(pair.openToken().kind, SKind::None);
    QVERIFY(pair.client->isOpen());
    QVERIFY(pair.roundTrip(40, 30000));
    // Mixed sizes: a 4096-bit client with a 2048-bit server.
    Setup m{SecurityPolicyId::Aes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt};
    m.clientBits = 4096;
    Pair mixed(m);
    mixed.connect();
    QCOMPARE(mixed.openToken().kind, SKind::None);
    QVERIFY(mixed.roundTrip(41, 1000));
}

void TestChannelSecurity::tamperedChunkClosesTheChannel() {
    QFETCH(int, policy);
    QFETCH(int, mode);
    Pair pair({SecurityPolicyId(policy), MessageSecurityMode(mode)});
    pair.connect();
    pair.openToken();
    QVERIFY(pair.client->sendRequest(50, readOf(200)).isGood());
    auto msgs = pair.toServer.take();
    msgs[0][40] ^= 0x01;  // inside the body (or its ciphertext)
    const auto e = pair.server->onChunk(msgs[0].data(), msgs[0].size(), pair.now);
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadSecurityChecksFailed));
    QVERIFY(!pair.server->isOpen());
}

void TestChannelSecurity::replayedChunkClosesTheChannel() {
    Pair pair({SecurityPolicyId::Aes128Sha256RsaOaep, MessageSecurityMode::SignAndEncrypt});
    pair.connect();
    pair.openToken();
    QVERIFY(pair.client->sendRequest(60, readOf(20)).isGood());
    auto msgs = pair.toServer.take();
    QCOMPARE(pair.server->onChunk(msgs[0].data(), msgs[0].size(), pair.now).kind, SKind::Request);
    const auto e = pair.server->onChunk(msgs[0].data(), msgs[0].size(), pair.now);  // the same chunk again
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadSequenceNumberInvalid));
}

void TestChannelSecurity::forgedAbortChunkIsCheckedFirst() {
    // Issue 10 (docs/Reliability.md "Hostile peers"): an Abort chunk (OPC 10000-6 6.7.3) on a
    // signed channel is verified like any other chunk before it ends the request it names: a chunk
    // whose type was changed to 'A' on the way does not cancel anything, it closes the channel.
    QFETCH(int, policy);
    QFETCH(int, mode);
    Pair pair({SecurityPolicyId(policy), MessageSecurityMode(mode)});
    pair.connect();
    pair.openToken();
    QVERIFY(pair.client->sendRequest(70, readOf(20000)).isGood());  // 8 KB chunks: several
    auto msgs = pair.toServer.take();
    QVERIFY(msgs.size() >= 3);
    QCOMPARE(pair.server->onChunk(msgs[0].data(), msgs[0].size(), pair.now).kind, SKind::None);  // assembling
    msgs[1][3] = uint8_t('A');  // the header is signed: the signature no longer matches
    const auto e = pair.server->onChunk(msgs[1].data(), msgs[1].size(), pair.now);
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadSecurityChecksFailed));
    QVERIFY(!pair.server->isOpen());
}

void TestChannelSecurity::interleavedResponsesCloseTheChannel() {
    // A hostile server starts responses under RequestIds of its own choosing and finishes none
    // (issue 10 item 4): the client reassembles one response at a time (OPC 10000-6 6.7.2), so a
    // second one's chunk closes the channel instead of holding MaxMessageSize per RequestId.
    Pair pair({SecurityPolicyId::None, MessageSecurityMode::None});
    pair.connect();
    pair.openToken();
    QVERIFY(pair.roundTrip(80, 10));
    const auto& last = pair.m_clientStorage.back();
    const uint32_t channelId = u32(last, 8), tokenId = u32(last, 12), sequence = u32(last, 16);
    // Chunks of SecurityPolicy None written by hand: header, SecureChannelId, TokenId,
    // SequenceNumber, RequestId, 100 bytes of body.
    auto chunk = [&](char type, uint32_t seq, uint32_t requestId) {
        std::vector<uint8_t> c(124, 0x20);
        std::memcpy(c.data(), "MSG", 3);
        c[3] = uint8_t(type);
        const uint32_t size = uint32_t(c.size());
        const uint32_t fields[] = {size, channelId, tokenId, seq, requestId};  // at bytes 4, 8, ..., 20
        std::memcpy(&c[4], fields, sizeof fields);
        return c;
    };
    auto a = chunk('C', sequence + 1, 81);
    QCOMPARE(pair.client->onMessage(a.data(), a.size(), pair.now).kind, Kind::None);
    auto b = chunk('C', sequence + 2, 82);
    const auto e = pair.client->onMessage(b.data(), b.size(), pair.now);
    QCOMPARE(e.kind, Kind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadDecodingError));
}

namespace {
// An OPN Issue sealed by hand, so its fields can be wrong.
std::vector<uint8_t> craftOpen(const Pair& pair, SecurityPolicyId policyId, MessageSecurityMode mode, std::size_t nonceSize,
                               const std::string& thumbprint) {
    const SecurityPolicy& policy = securityPolicy(policyId);
    OpenSecureChannelRequest req;
    req.requestType = SecurityTokenRequestType::Issue;
    req.securityMode = mode;
    const auto nonce = crypto::randomBytes(nonceSize);
    req.clientNonce = ByteString(std::string(nonce.begin(), nonce.end()));
    req.requestedLifetime = 60000;
    Buffer body;
    BinaryEncoder e(body);
    encode(e, NodeId(OpenSecureChannelRequest::kBinaryEncodingId));
    encode(e, req);
    const std::string chain = pair.clientId.certificate.der();
    AsymmetricSecurity sec{&policy, pair.clientId.key.get(), pair.serverId.certificate.publicKey(), chain, thumbprint};
    Buffer out;
    SequenceCounter seq;
    const StatusCode s = sealAsymmetric(out, 0, sec, 1, body.data(), body.size(), ChunkLimits{8192, 0, 0}, seq);
    if (s.isBad()) qFatal("seal: %s", s.name().c_str());
    return std::vector<uint8_t>(out.data(), out.data() + out.size());
}
} // namespace

void TestChannelSecurity::shortClientNonceIsRefused() {
    Pair pair({SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt});
    pair.connect();
    auto opn = craftOpen(pair, SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt, 16,
                         pair.serverId.certificate.thumbprint());
    const auto e = pair.server->onChunk(opn.data(), opn.size(), pair.now);
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadNonceInvalid));
    // The same message with a 32-byte nonce opens the channel.
    Pair ok({SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt});
    ok.connect();
    opn = craftOpen(ok, SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt, 32, ok.serverId.certificate.thumbprint());
    QCOMPARE(ok.server->onChunk(opn.data(), opn.size(), ok.now).kind, SKind::None);
    QVERIFY(ok.server->isOpen());
}

void TestChannelSecurity::untrustedCertificateIsRefused() {
    Pair pair({SecurityPolicyId::Aes256Sha256RsaPss, MessageSecurityMode::Sign});
    pair.validation = status::BadCertificateUntrusted;
    pair.connect();
    const auto e = pair.openToken();
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadSecurityChecksFailed));  // the peer learns no detail
    QCOMPARE(e.detail, StatusCode(status::BadCertificateUntrusted));  // the log does
    QCOMPARE(pair.validations, 1);
    QVERIFY(pair.toClient.take().empty());
}

void TestChannelSecurity::wrongThumbprintIsRefused() {
    Pair pair({SecurityPolicyId::Basic256Sha256, MessageSecurityMode::Sign});
    pair.connect();
    auto opn = craftOpen(pair, SecurityPolicyId::Basic256Sha256, MessageSecurityMode::Sign, 32, std::string(20, 'z'));
    const auto e = pair.server->onChunk(opn.data(), opn.size(), pair.now);
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadCertificateInvalid));
}

void TestChannelSecurity::policyNotOfferedIsRefused() {
    Pair pair({SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt});
    pair.security->offers = {{SecurityPolicyId::Aes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt}};
    pair.connect();
    auto e = pair.openToken();
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadSecurityPolicyRejected));
    // The policy is offered, but only with SignAndEncrypt: Sign is refused.
    Pair sign({SecurityPolicyId::Aes256Sha256RsaPss, MessageSecurityMode::Sign});
    sign.security->offers = {{SecurityPolicyId::Aes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt}};
    sign.connect();
    e = sign.openToken();
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadSecurityModeRejected));
}

void TestChannelSecurity::modeNoneWithSecurePolicyIsRefused() {
    Pair pair({SecurityPolicyId::Basic256Sha256, MessageSecurityMode::Sign});
    pair.connect();
    auto opn = craftOpen(pair, SecurityPolicyId::Basic256Sha256, MessageSecurityMode::None, 32, pair.serverId.certificate.thumbprint());
    const auto e = pair.server->onChunk(opn.data(), opn.size(), pair.now);
    QCOMPARE(e.kind, SKind::Fatal);
    QCOMPARE(e.error, StatusCode(status::BadSecurityModeRejected));
}

namespace {
// The chunk with its SenderCertificate replaced (the rest, signature included, unchanged).
std::vector<uint8_t> withSenderCertificate(const std::vector<uint8_t>& chunk, const std::string& der) {
    AsymmetricHeader ah;
    if (parseAsymmetricHeader(chunk.data(), chunk.size(), 0, ah).isBad()) qFatal("header");
    auto field = [](std::vector<uint8_t>& out, std::string_view v) {
        const int32_t n = int32_t(v.size());
        const auto* l = reinterpret_cast<const uint8_t*>(&n);
        out.insert(out.end(), l, l + 4);
        out.insert(out.end(), v.begin(), v.end());
    };
    std::vector<uint8_t> out(chunk.begin(), chunk.begin() + 12);
    field(out, ah.policyUri);
    field(out, der);
    field(out, ah.receiverThumbprint);
    out.insert(out.end(), chunk.begin() + std::ptrdiff_t(12 + ah.size), chunk.end());
    const uint32_t size = uint32_t(out.size());
    std::memcpy(&out[4], &size, 4);
    return out;
}

// The message body of a signed-only (ECC) OPN chunk: after the sequence header, before the signature.
OpenedChunk eccBody(const std::vector<uint8_t>& chunk, std::size_t signature) {
    AsymmetricHeader ah;
    if (parseAsymmetricHeader(chunk.data(), chunk.size(), 0, ah).isBad()) qFatal("header");
    OpenedChunk o;
    const std::size_t start = 12 + ah.size + kSequenceHeaderSize;
    o.body = chunk.data() + start;
    o.bodySize = chunk.size() - signature - start;
    return o;
}
} // namespace

void TestChannelSecurity::eccOpenIsSignedNotEncrypted_data() {
    QTest::addColumn<int>("policy");
    QTest::newRow("ECC_nistP256") << int(SecurityPolicyId::EccNistP256);
    QTest::newRow("ECC_nistP384") << int(SecurityPolicyId::EccNistP384);
}

void TestChannelSecurity::eccOpenIsSignedNotEncrypted() {
    // OPC 10000-6 6.8.1 (and OPC 30300 B.1): the OPN of an ECC policy is signed with the sender's
    // certificate key (r | s) and not encrypted, in SignAndEncrypt too; its nonces are EphemeralKeys.
    QFETCH(int, policy);
    const SecurityPolicy& p = securityPolicy(SecurityPolicyId(policy));
    Pair pair({SecurityPolicyId(policy), MessageSecurityMode::SignAndEncrypt});
    pair.connect();
    std::vector<std::string> clientNonces, serverNonces;
    for (auto type : {SecurityTokenRequestType::Issue, SecurityTokenRequestType::Renew}) {
        RequestHeader h;
        h.requestHandle = 1;
        pair.client->sendOpen(11, type, 60000, h);
        auto msgs = pair.toServer.take();
        QCOMPARE(msgs.size(), std::size_t(1));
        const std::vector<uint8_t> opn = msgs[0];
        const std::size_t sig = p.nonceLength;  // r | s: two coordinates, as long as the public key
        QVERIFY(crypto::asymmetricVerify(p, pair.clientId.certificate.publicKey(), opn.data(), opn.size() - sig,
                                         opn.data() + opn.size() - sig, sig));
        const OpenedChunk body = eccBody(opn, sig);
        BinaryDecoder d(body.body, body.bodySize);
        NodeId typeId;
        OpenSecureChannelRequest req;
        decode(d, typeId);
        decode(d, req);
        QVERIFY(d.ok() && d.atEnd());  // in clear, no padding
        QCOMPARE(req.clientNonce.size(), std::size_t(p.nonceLength));
        clientNonces.push_back(req.clientNonce.str());

        QCOMPARE(pair.server->onChunk(opn.data(), opn.size(), pair.now).kind, SKind::None);
        msgs = pair.toClient.take();
        QCOMPARE(msgs.size(), std::size_t(1));
        QVERIFY(crypto::asymmetricVerify(p, pair.serverId.certificate.publicKey(), msgs[0].data(), msgs[0].size() - sig,
                                         msgs[0].data() + msgs[0].size() - sig, sig));
        const OpenedChunk reply = eccBody(msgs[0], sig);
        BinaryDecoder rd(reply.body, reply.bodySize);
        OpenSecureChannelResponse resp;
        decode(rd, typeId);
        decode(rd, resp);
        QVERIFY(rd.ok() && rd.atEnd());
        QCOMPARE(resp.serverNonce.size(), std::size_t(p.nonceLength));
        serverNonces.push_back(resp.serverNonce.str());
        const auto e = pair.client->onMessage(msgs[0].data(), msgs[0].size(), pair.now);
        QCOMPARE(e.kind, Kind::Opened);
        QVERIFY(e.error.isGood());
        // The server sends with the ECC certificate of the policy's curve, not the RSA one.
        QCOMPARE(pair.server->serverCertificateChain(), pair.serverId.certificate.der());
        QVERIFY(pair.roundTrip(uint32_t(200 + int(type)), 20000));
    }
    // A Renew makes new EphemeralKeys on both sides.
    QVERIFY(clientNonces[0] != clientNonces[1]);
    QVERIFY(serverNonces[0] != serverNonces[1]);
}

void TestChannelSecurity::eccBadOpenIsRefused() {
    QFETCH(int, policy);
    const auto id = SecurityPolicyId(policy);
    const SecurityPolicy& p = securityPolicy(id);
    const auto mode = MessageSecurityMode::SignAndEncrypt;
    {
        // A ClientNonce of the right length that is no point of the curve.
        Pair pair({id, mode});
        pair.connect();
        const auto opn = craftOpen(pair, id, mode, p.nonceLength, pair.serverId.certificate.thumbprint());
        const auto e = pair.server->onChunk(opn.data(), opn.size(), pair.now);
        QCOMPARE(e.kind, SKind::Fatal);
        QCOMPARE(e.error, StatusCode(status::BadNonceInvalid));
        QVERIFY(!pair.server->isOpen());
        QVERIFY(pair.toClient.take().empty());
    }
    {
        // A tampered signature; a signature cut short.
        Pair pair({id, mode});
        pair.connect();
        RequestHeader h;
        pair.client->sendOpen(11, SecurityTokenRequestType::Issue, 60000, h);
        auto opn = pair.toServer.take().at(0);
        opn[opn.size() - 5] ^= 0x01;
        auto e = pair.server->onChunk(opn.data(), opn.size(), pair.now);
        QCOMPARE(e.kind, SKind::Fatal);
        QCOMPARE(e.error, StatusCode(status::BadSecurityChecksFailed));
        QCOMPARE(pair.validations, 0);  // no trust decision on an unproven certificate
    }
    {
        // The client's certificate is RSA, or ECC of the other curve: not of the policy's kind.
        for (KeyType wrong : {KeyType::Rsa, id == SecurityPolicyId::EccNistP256 ? KeyType::EccNistP384 : KeyType::EccNistP256}) {
            Pair pair({id, mode});
            pair.connect();
            RequestHeader h;
            pair.client->sendOpen(11, SecurityTokenRequestType::Issue, 60000, h);
            const auto opn = withSenderCertificate(pair.toServer.take().at(0), identity("client", 2048, wrong).certificate.der());
            const auto e = pair.server->onChunk(opn.data(), opn.size(), pair.now);
            QCOMPARE(e.kind, SKind::Fatal);
            QCOMPARE(e.error, StatusCode(status::BadSecurityChecksFailed));
            QCOMPARE(e.detail, StatusCode(status::BadCertificatePolicyCheckFailed));
        }
    }
    {
        // The server offers the policy but has no certificate of its curve.
        Pair pair({id, mode});
        pair.security->eccNistP256 = {};
        pair.security->eccNistP384 = {};
        pair.connect();
        const auto e = pair.openToken();
        QCOMPARE(e.kind, SKind::Fatal);
        QCOMPARE(e.error, StatusCode(status::BadSecurityPolicyRejected));
    }
}

void TestChannelSecurity::eccServerNonceOffTheCurveIsRefused() {
    // A server (hostile, or broken) that signs a response whose ServerNonce is no public key: the
    // client closes the channel instead of deriving keys from it.
    const auto id = SecurityPolicyId::EccNistP256;
    const SecurityPolicy& p = securityPolicy(id);
    Pair pair({id, MessageSecurityMode::Sign});
    pair.connect();
    RequestHeader h;
    pair.client->sendOpen(11, SecurityTokenRequestType::Issue, 60000, h);
    QCOMPARE(pair.toServer.take().size(), std::size_t(1));
    OpenSecureChannelResponse resp;
    resp.securityToken.channelId = 7;
    resp.securityToken.tokenId = 1;
    resp.securityToken.revisedLifetime = 60000;
    const auto bad = crypto::randomBytes(p.nonceLength);
    resp.serverNonce = ByteString(std::string(bad.begin(), bad.end()));
    Buffer body;
    BinaryEncoder e(body);
    encode(e, NodeId(OpenSecureChannelResponse::kBinaryEncodingId));
    encode(e, resp);
    const std::string chain = pair.serverId.certificate.der();
    const std::string thumbprint = pair.clientId.certificate.thumbprint();
    const AsymmetricSecurity sec{&p, pair.serverId.key.get(), pair.clientId.certificate.publicKey(), chain, thumbprint};
    Buffer out;
    SequenceCounter seq;
    QVERIFY(sealAsymmetric(out, 7, sec, 11, body.data(), body.size(), ChunkLimits{8192, 0, 0}, seq).isGood());
    const auto ev = pair.client->onMessage(out.data(), out.size(), pair.now);
    QCOMPARE(ev.kind, Kind::Fatal);
    QCOMPARE(ev.error, StatusCode(status::BadNonceInvalid));
    QVERIFY(!pair.client->isOpen());
}

UA_TEST_GUILESS_MAIN(TestChannelSecurity)
#include "tst_channel_security.moc"
