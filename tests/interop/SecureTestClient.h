// A blocking test client on our ClientSecureChannel over a socket: HEL/ACK, OPN with any policy and
// mode, then typed requests whose fields a test may craft (wrong signatures, short nonces, ...).
// For protocol tests only: it waits on the socket in the calling thread.
#pragma once

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/ClientSecureChannel.h"
#include "ua/transport/MessageFramer.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <optional>

// QVERIFY of two StatusCodes that prints both names when they differ (inside a test function).
#ifndef COMPARE_STATUS
#define COMPARE_STATUS(actual, expected)                                                                     \
    do {                                                                                                     \
        const ::ua::StatusCode a_ = (actual), e_ = (expected);                                               \
        QVERIFY2(a_.code == e_.code, qPrintable(QStringLiteral("got %1, expected %2")                        \
                                                    .arg(QString::fromStdString(a_.name()),                  \
                                                         QString::fromStdString(e_.name()))));               \
    } while (0)
#endif

namespace ua::test {

class SecureTestClient {
public:
    // Connects, says Hello and opens the channel; false (and error()) when any step fails.
    bool open(quint16 port, const std::string& url, ClientChannelSecurity security) {
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!m_socket.waitForConnected(5000)) return fail("connect");
        m_channel.emplace(
            TransportLimits{},
            [this](const uint8_t* p, std::size_t n) {
                m_socket.write(reinterpret_cast<const char*>(p), qint64(n));
            },
            std::move(security));
        m_channel->sendHello(url);
        ClientSecureChannel::Event e = next();
        if (e.kind != ClientSecureChannel::Event::Kind::Acknowledged) return fail("hello");
        RequestHeader h;
        h.requestHandle = 1;
        m_channel->sendOpen(m_requestId++, SecurityTokenRequestType::Issue, 600000, h);
        e = next();
        if (e.kind != ClientSecureChannel::Event::Kind::Opened || e.error.isBad()) {
            m_openError = e.error;
            return fail("open: " + std::string(e.reason));
        }
        return true;
    }

    // Sends req and waits for its answer: Good with resp decoded, the ServiceFault's serviceResult,
    // or Bad_CommunicationError when the channel failed.
    template <class Req, class Resp> StatusCode call(Req req, Resp& resp) {
        req.requestHeader.authenticationToken = authenticationToken;
        req.requestHeader.requestHandle = m_requestId;
        req.requestHeader.timeoutHint = 10000;
        const uint32_t id = m_requestId++;
        if (StatusCode s = m_channel->sendRequest(id, req); s.isBad()) return s;
        const ClientSecureChannel::Event e = next();
        if (e.kind != ClientSecureChannel::Event::Kind::Response || e.requestId != id) {
            m_error = "no response: " + std::string(e.reason);
            return status::BadCommunicationError;
        }
        BinaryDecoder d(e.body, e.bodySize);
        if (e.typeId == id::ServiceFault_Encoding_DefaultBinary) {
            ServiceFault f;
            decode(d, f);
            return f.responseHeader.serviceResult;
        }
        if (e.typeId != Resp::kBinaryEncodingId) return status::BadUnknownResponse;
        decode(d, resp);
        return d.ok() ? resp.responseHeader.serviceResult : StatusCode(status::BadDecodingError);
    }

    const std::string& error() const { return m_error; }
    // The status the server refused the OpenSecureChannel with (its ERR), Good otherwise.
    StatusCode openError() const { return m_openError; }
    QTcpSocket& socket() { return m_socket; }
    NodeId authenticationToken;

private:
    bool fail(std::string what) {
        m_error = std::move(what);
        return false;
    }
    // The next event that is not None (or a Fatal one after 10 s without).
    ClientSecureChannel::Event next() {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 10000) {
            const uint8_t* p = nullptr;
            std::size_t n = 0;
            while (m_framer.next(1 << 24, p, n) == MessageFramer::Result::Message) {
                ClientSecureChannel::Event e = m_channel->onMessage(p, n, t.elapsed());
                if (e.kind != ClientSecureChannel::Event::Kind::None) return e;
            }
            m_socket.flush();
            if (!m_socket.waitForReadyRead(200) && m_socket.state() != QAbstractSocket::ConnectedState) break;
            const QByteArray got = m_socket.readAll();
            m_framer.append(got.constData(), std::size_t(got.size()));
        }
        ClientSecureChannel::Event e;
        e.kind = ClientSecureChannel::Event::Kind::Fatal;
        e.error = status::BadTimeout;
        e.reason = "no answer";
        return e;
    }

    QTcpSocket m_socket;
    MessageFramer m_framer;
    std::optional<ClientSecureChannel> m_channel;
    uint32_t m_requestId = 1;
    std::string m_error;
    StatusCode m_openError = status::Good;
};

} // namespace ua::test
