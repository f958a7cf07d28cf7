// A deliberately low-level OPC UA client for protocol tests: it writes whatever bytes a test asks
// for (valid or not) and reads back whole UA-TCP messages.
#pragma once

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/transport/TcpMessages.h"

#include <QTcpSocket>

namespace ua::test {

struct RawMessage {
    TcpMessageType type{};
    char chunk = 0;
    QByteArray bytes;  // the whole message, header included
    bool valid = false;
};

class RawClient {
public:
    bool connectTo(quint16 port) {
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        return m_socket.waitForConnected(5000);
    }
    void sendRaw(const QByteArray& b) { m_socket.write(b); m_socket.waitForBytesWritten(5000); }
    void sendBuffer(const Buffer& b) { sendRaw(QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size()))); }

    static QByteArray hello(uint32_t recv = 65535, uint32_t send = 65535, uint32_t maxMessage = 0, uint32_t maxChunks = 0,
                            const std::string& url = "opc.tcp://localhost") {
        Buffer b;
        encodeHello(b, HelloMessage{0, recv, send, maxMessage, maxChunks, String(url)});
        return QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size()));
    }

    // Reads one whole message (or returns an invalid one after the timeout / on close).
    RawMessage read(int timeoutMs = 5000) {
        RawMessage m;
        while (true) {
            if (m_rx.size() >= 8) {
                const TcpHeader h = readTcpHeader(reinterpret_cast<const uint8_t*>(m_rx.constData()));
                if (qsizetype(h.messageSize) <= m_rx.size() && h.messageSize >= 8) {
                    m.type = h.type;
                    m.chunk = char(h.chunkType);
                    m.bytes = m_rx.left(h.messageSize);
                    m_rx.remove(0, h.messageSize);
                    m.valid = true;
                    return m;
                }
            }
            if (!m_socket.waitForReadyRead(timeoutMs)) {
                // Closed by the peer (or timed out): what arrived before the close is still
                // buffered by the socket; a message may be whole there.
                const QByteArray rest = m_socket.readAll();
                if (rest.isEmpty()) return m;
                m_rx += rest;
                timeoutMs = 0;
                continue;
            }
            m_rx += m_socket.readAll();
        }
    }
    // True when the server closes the connection within the timeout.
    bool waitClosed(int timeoutMs = 5000) {
        if (m_socket.state() == QAbstractSocket::UnconnectedState) return true;
        m_socket.waitForDisconnected(timeoutMs);
        return m_socket.state() == QAbstractSocket::UnconnectedState;
    }
    // The ERR's code (0 if the message is not an ERR).
    static uint32_t errorCode(const RawMessage& m) {
        if (!m.valid || m.type != TcpMessageType::Error) return 0;
        auto e = decodeError(reinterpret_cast<const uint8_t*>(m.bytes.constData()) + 8, std::size_t(m.bytes.size() - 8));
        return e ? e->error.code : 0;
    }

    // HEL/ACK then OPN (SecurityPolicy None). Returns false when either fails.
    bool openChannel(uint32_t recv = 65535, uint32_t maxMessage = 0) {
        sendRaw(hello(recv, 65535, maxMessage));
        RawMessage ack = read();
        if (ack.type != TcpMessageType::Acknowledge) return false;
        m_ack = *decodeAcknowledge(reinterpret_cast<const uint8_t*>(ack.bytes.constData()) + 8, std::size_t(ack.bytes.size() - 8));
        sendRaw(openRequest(0, SecurityTokenRequestType::Issue));
        return acceptOpen(read());
    }
    // Takes the channel id and token id from the OPN response opn (SecurityPolicy None); false
    // when it is not one.
    bool acceptOpen(const RawMessage& opn) {
        if (!opn.valid || opn.type != TcpMessageType::OpenSecureChannel) return false;
        // Skip headers: 8 + channel id 4 + policy string + 2 null byte strings + sequence header 8.
        BinaryDecoder d(reinterpret_cast<const uint8_t*>(opn.bytes.constData()) + 12, std::size_t(opn.bytes.size() - 12));
        String uri;
        ByteString c1, c2;
        decode(d, uri);
        decode(d, c1);
        decode(d, c2);
        d.readPod<uint64_t>();
        NodeId type;
        decode(d, type);
        OpenSecureChannelResponse r;
        decode(d, r);
        if (!d.ok()) return false;
        m_channelId = r.securityToken.channelId;
        m_tokenId = r.securityToken.tokenId;
        return true;
    }

    QByteArray openRequest(uint32_t channelId, SecurityTokenRequestType type, const char* policy = kSecurityPolicyNone) {
        Buffer b;
        b.grow(8);
        BinaryEncoder e(b);
        encode(e, channelId);
        encode(e, String(policy));
        encode(e, ByteString());
        encode(e, ByteString());
        encode(e, m_sequence++);
        encode(e, m_requestId++);
        encode(e, NodeId(id::OpenSecureChannelRequest_Encoding_DefaultBinary));
        OpenSecureChannelRequest req;
        req.requestType = type;
        req.securityMode = MessageSecurityMode::None;
        req.clientNonce = ByteString("");
        req.requestedLifetime = 60000;
        encode(e, req);
        writeTcpHeader(b.data(), TcpMessageType::OpenSecureChannel, ChunkType::Final, uint32_t(b.size()));
        return QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size()));
    }

    // A MSG chunk with an already encoded body (type id + request).
    QByteArray messageChunk(const QByteArray& body, ChunkType chunk = ChunkType::Final, uint32_t requestId = 0,
                            TcpMessageType type = TcpMessageType::Message) {
        Buffer b;
        b.grow(8);
        BinaryEncoder e(b);
        encode(e, m_channelId);
        encode(e, m_tokenId);
        encode(e, m_sequence++);
        encode(e, requestId ? requestId : m_requestId);
        e.writeBytes(body.constData(), std::size_t(body.size()));
        writeTcpHeader(b.data(), type, chunk, uint32_t(b.size()));
        return QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size()));
    }

    template <class T>
    static QByteArray body(const T& request) {
        Buffer b;
        BinaryEncoder e(b);
        encode(e, NodeId(T::kBinaryEncodingId));
        encode(e, request);
        return QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size()));
    }

    template <class T>
    QByteArray request(const T& r) {
        QByteArray m = messageChunk(body(r));
        ++m_requestId;
        return m;
    }

    // Decodes the response in a single-chunk MSG: its type id and body.
    static bool response(const RawMessage& m, NodeId& typeId, BinaryDecoder*& d, std::vector<uint8_t>& storage) {
        if (!m.valid || m.type != TcpMessageType::Message || m.bytes.size() < 24) return false;
        storage.assign(m.bytes.begin() + 24, m.bytes.end());
        d = new BinaryDecoder(storage.data(), storage.size());
        decode(*d, typeId);
        return d->ok();
    }

    // GetEndpoints round trip: true when the server answers with at least one endpoint.
    bool getEndpoints() {
        GetEndpointsRequest req;
        req.requestHeader.requestHandle = 77;
        req.endpointUrl = String("opc.tcp://localhost");
        sendRaw(request(req));
        RawMessage m = read();
        NodeId type;
        BinaryDecoder* d = nullptr;
        std::vector<uint8_t> storage;
        if (!response(m, type, d, storage)) { delete d; return false; }
        GetEndpointsResponse r;
        decode(*d, r);
        const bool ok = d->ok() && type == NodeId(id::GetEndpointsResponse_Encoding_DefaultBinary) && !r.endpoints.empty() &&
                        r.responseHeader.requestHandle == 77;
        delete d;
        return ok;
    }

    // The serviceResult of a ServiceFault response (0 if the message is something else).
    static uint32_t serviceFault(const RawMessage& m) {
        NodeId type;
        BinaryDecoder* d = nullptr;
        std::vector<uint8_t> storage;
        uint32_t code = 0;
        if (response(m, type, d, storage) && type == NodeId(id::ServiceFault_Encoding_DefaultBinary)) {
            ServiceFault f;
            decode(*d, f);
            if (d->ok()) code = f.responseHeader.serviceResult.code;
        }
        delete d;
        return code;
    }

    QTcpSocket& socket() { return m_socket; }
    uint32_t m_channelId = 0;
    uint32_t m_tokenId = 0;
    uint32_t m_sequence = 1;
    uint32_t m_requestId = 1;
    AcknowledgeMessage m_ack;

private:
    QTcpSocket m_socket;
    QByteArray m_rx;
};

} // namespace ua::test
