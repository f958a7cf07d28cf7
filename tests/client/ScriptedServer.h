// A scripted UA-TCP server in the test's thread, for the cases a well-behaved server never shows:
// it answers HEL and OPN with the real server-side code (negotiateAcknowledge, ServerSecureChannel),
// then gives each request to the test's handler, which may answer, hold it, abort it, or send ERR.
// Requests the handler leaves alone get plain answers (GetEndpoints with a None endpoint on an
// advertised host that does not exist, CreateSession, ActivateSession, CloseSession, Read).
// Mode Silent accepts connections and never answers anything; busyHellos answers the first Hellos
// with ERR Bad_TcpServerTooBusy. For a hostile server (tst_hostile_server): channelLimits changes the
// limits the channel obeys (not those the Acknowledge announces), Connection::sendRaw writes any
// bytes, cutAfterBytes closes the connection in the middle of what the channel sends, and
// RawBody<TypeId> is a response body of the test's bytes.
#pragma once

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/secure/ServerSecureChannel.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ua::test {

// A response of type id Id whose body (after the type id) is whatever bytes the test gives:
// Connection::respond(requestId, RawBody<Id>{bytes}).
template <uint32_t Id>
struct RawBody {
    static constexpr uint32_t kBinaryEncodingId = Id;
    QByteArray bytes;
};
template <uint32_t Id>
void encode(BinaryEncoder& e, const RawBody<Id>& b) {
    e.writeBytes(b.bytes.constData(), std::size_t(b.bytes.size()));
}

class ScriptedServer : public QObject {
public:
    enum class Mode { Silent, Scripted };

    struct Connection {
        QTcpSocket* socket = nullptr;
        std::optional<ServerSecureChannel> channel;
        QByteArray rx;

        template <class T>
        void respond(uint32_t requestId, const T& response) { channel->sendResponse(requestId, response); }
        void fault(uint32_t requestId, StatusCode s) { channel->sendServiceFault(requestId, 0, s); }
        void abortResponse(uint32_t requestId, StatusCode s) { channel->sendAbort(requestId, s, "aborted by the test"); }
        // Bytes written as they are (after what the channel has sent).
        void sendRaw(const QByteArray& b) {
            socket->write(b);
            socket->flush();
        }
        // >= 0: of what the channel sends from now on, this many bytes go out; then the connection
        // is closed (FIN) and the rest dropped.
        qint64 cutAfterBytes = -1;
        bool cut = false;
        void write(const uint8_t* d, std::size_t len) {
            if (cut) return;
            if (cutAfterBytes < 0 || qint64(len) < cutAfterBytes) {
                socket->write(reinterpret_cast<const char*>(d), qint64(len));
                if (cutAfterBytes >= 0) cutAfterBytes -= qint64(len);
                return;
            }
            socket->write(reinterpret_cast<const char*>(d), cutAfterBytes);
            cut = true;
            socket->flush();
            socket->disconnectFromHost();
        }
        void sendErr(StatusCode s) {
            Buffer b;
            encodeError(b, ErrorMessage{s, String("error sent by the test")});
            socket->write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
            socket->flush();
            socket->disconnectFromHost();
        }
    };

    struct Request {
        uint32_t requestId = 0;
        uint32_t typeId = 0;  // DefaultBinary encoding id
        RequestHeader header;
        QByteArray body;      // after the type id

        template <class T>
        T decodeAs() const {
            T r;
            BinaryDecoder d(reinterpret_cast<const uint8_t*>(body.constData()), std::size_t(body.size()));
            decode(d, r);
            return r;
        }
    };
    // Returns true when it dealt with the request (answered, held or failed it).
    using Handler = std::function<bool(Connection&, const Request&)>;

    explicit ScriptedServer(Mode mode = Mode::Scripted, TransportLimits limits = {}) : m_mode(mode), m_limits(limits) {
        connect(&m_server, &QTcpServer::newConnection, this, &ScriptedServer::onNewConnection);
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }
    QString url() const { return QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port()); }
    int connections() const { return m_accepted; }
    const std::vector<Request>& received() const { return m_received; }
    Connection* last() { return m_connections.empty() ? nullptr : m_connections.back().get(); }

    Handler handler;
    int busyHellos = 0;  // the first ones get ERR Bad_TcpServerTooBusy
    // Called with the client's Hello and our Acknowledge before the channel is made: what it
    // changes is what the channel obeys (e.g. hello.maxMessageSize = 0: responses of any size),
    // while the Acknowledge sent keeps the negotiated values.
    std::function<void(HelloMessage&, AcknowledgeMessage&)> channelLimits;
    QString advertisedUrl = QStringLiteral("opc.tcp://advertised-host.invalid:4840");

private:
    void onNewConnection() {
        while (QTcpSocket* s = m_server.nextPendingConnection()) {
            ++m_accepted;
            auto c = std::make_unique<Connection>();
            c->socket = s;
            Connection* raw = c.get();
            m_connections.push_back(std::move(c));
            connect(s, &QTcpSocket::readyRead, this, [this, raw] { onReadyRead(*raw); });
        }
    }

    void onReadyRead(Connection& c) {
        c.rx += c.socket->readAll();
        if (m_mode == Mode::Silent) return;
        while (c.rx.size() >= 8) {
            const auto* p = reinterpret_cast<const uint8_t*>(c.rx.constData());
            const TcpHeader h = readTcpHeader(p);
            if (qsizetype(h.messageSize) > c.rx.size()) return;
            const QByteArray msg = c.rx.left(h.messageSize);
            c.rx.remove(0, h.messageSize);
            handleMessage(c, reinterpret_cast<const uint8_t*>(msg.constData()), std::size_t(msg.size()));
        }
    }

    void handleMessage(Connection& c, const uint8_t* p, std::size_t n) {
        const TcpHeader h = readTcpHeader(p);
        if (h.type == TcpMessageType::Hello) {
            if (busyHellos > 0) {
                --busyHellos;
                c.sendErr(status::BadTcpServerTooBusy);
                return;
            }
            const auto hello = decodeHello(p + 8, n - 8);
            const AcknowledgeMessage ack = negotiateAcknowledge(*hello, m_limits);
            HelloMessage channelHello = *hello;
            AcknowledgeMessage channelAck = ack;
            if (channelLimits) channelLimits(channelHello, channelAck);
            c.channel.emplace(m_nextChannelId++, channelHello, channelAck, SecureChannelConfig{},
                              [&c](const uint8_t* d, std::size_t len) { c.write(d, len); });
            Buffer b;
            encodeAcknowledge(b, ack);
            c.socket->write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
            return;
        }
        if (!c.channel) return;
        const auto ev = c.channel->onChunk(p, n, 0);
        if (ev.kind != ServerSecureChannel::Event::Kind::Request) return;
        Request r;
        r.requestId = ev.requestId;
        r.typeId = ev.typeId;
        r.body = QByteArray(reinterpret_cast<const char*>(ev.body), qsizetype(ev.bodySize));
        BinaryDecoder d(ev.body, ev.bodySize);
        decode(d, r.header);
        m_received.push_back(r);
        if (handler && handler(c, r)) return;
        answer(c, r);
    }

    void answer(Connection& c, const Request& r) {
        switch (r.typeId) {
        case GetEndpointsRequest::kBinaryEncodingId: {
            GetEndpointsResponse resp;
            resp.responseHeader.requestHandle = r.header.requestHandle;
            EndpointDescription e;
            e.endpointUrl = String::fromQString(advertisedUrl);
            e.securityMode = MessageSecurityMode::None;
            e.securityPolicyUri = String(kSecurityPolicyNone);
            UserTokenPolicy anonymous;
            anonymous.policyId = String("scripted-anonymous");
            anonymous.tokenType = UserTokenType::Anonymous;
            e.userIdentityTokens = Array<UserTokenPolicy>{anonymous};
            e.transportProfileUri = String("http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary");
            resp.endpoints = Array<EndpointDescription>{e};
            c.respond(r.requestId, resp);
            return;
        }
        case CreateSessionRequest::kBinaryEncodingId: {
            CreateSessionResponse resp;
            resp.responseHeader.requestHandle = r.header.requestHandle;
            resp.sessionId = NodeId(1, m_nextSession);
            resp.authenticationToken = NodeId(0, ByteString("token-" + std::to_string(m_nextSession)));
            ++m_nextSession;
            resp.revisedSessionTimeout = 60000;
            c.respond(r.requestId, resp);
            return;
        }
        case ActivateSessionRequest::kBinaryEncodingId: {
            ActivateSessionResponse resp;
            resp.responseHeader.requestHandle = r.header.requestHandle;
            c.respond(r.requestId, resp);
            return;
        }
        case CloseSessionRequest::kBinaryEncodingId: {
            CloseSessionResponse resp;
            resp.responseHeader.requestHandle = r.header.requestHandle;
            c.respond(r.requestId, resp);
            return;
        }
        case ReadRequest::kBinaryEncodingId: {
            const auto req = r.decodeAs<ReadRequest>();
            ReadResponse resp;
            resp.responseHeader.requestHandle = r.header.requestHandle;
            for (const auto& n : req.nodesToRead) {
                if (n.nodeId == NodeId(id::Server_NamespaceArray))
                    resp.results.push_back(DataValue(Variant(Array<String>{String("http://opcfoundation.org/UA/"), String("urn:scripted")})));
                else
                    resp.results.push_back(DataValue(Variant(int32_t(0))));
            }
            c.respond(r.requestId, resp);
            return;
        }
        default: c.fault(r.requestId, status::BadServiceUnsupported);
        }
    }

    Mode m_mode;
    TransportLimits m_limits;
    QTcpServer m_server;
    std::vector<std::unique_ptr<Connection>> m_connections;
    std::vector<Request> m_received;
    int m_accepted = 0;
    uint32_t m_nextChannelId = 100;
    uint32_t m_nextSession = 1;
};

} // namespace ua::test
