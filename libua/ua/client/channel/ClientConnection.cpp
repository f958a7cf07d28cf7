#include "ua/client/channel/ClientConnection.h"

#include "ua/client/channel/ReverseListener.h"
#include "ua/transport/DescriptorStream.h"
#include "ua/transport/QtSocketStream.h"

#include <QElapsedTimer>
#include <chrono>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>
#include <unistd.h>

namespace ua {

namespace {
ClientConnection::SocketFactory g_socketFactory = nullptr;

QTcpSocket* newSocket(QObject* parent) { return g_socketFactory ? g_socketFactory(parent) : new QTcpSocket(parent); }
} // namespace

void ClientConnection::setSocketFactory(SocketFactory factory) { g_socketFactory = factory; }

int64_t ClientConnection::nowMs() {
    static const QElapsedTimer clock = [] { QElapsedTimer t; t.start(); return t; }();
    return clock.elapsed();
}

ClientConnection::ClientConnection(const ClientConfig& config, Handlers handlers, ClientChannelSecurity security, QObject* parent)
    : QObject(parent), m_config(config), m_handlers(std::move(handlers)), m_socket(newSocket(this)),
      m_timeout(new QTimer(this)), m_renewTimer(new QTimer(this)),
      m_channel(config.transport, [this](const uint8_t* d, std::size_t n) {
          if (!m_finished) m_writer.send(d, n);
      }, std::move(security)) {
    m_timeout->setSingleShot(true);
    m_renewTimer->setSingleShot(true);
    connect(m_socket, &QTcpSocket::connected, this, &ClientConnection::onConnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, &ClientConnection::onSocketError);
    connect(m_socket, &QTcpSocket::disconnected, this, [this] { fail(status::BadConnectionClosed); });
    connect(m_timeout, &QTimer::timeout, this, [this] { fail(status::BadTimeout); });
    connect(m_renewTimer, &QTimer::timeout, this, &ClientConnection::renew);
}

ClientConnection::~ClientConnection() {
    m_finished = true;
    cancelReverseWait();
    if (m_stream) m_stream->abort();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

uint32_t ClientConnection::nextRequestId() {
    const uint32_t id = m_nextRequestId;
    m_nextRequestId = id == 0xFFFFFFFFu ? 1 : id + 1;
    return id;
}

void ClientConnection::open(const QString& host, quint16 port, const QString& endpointUrl) {
    m_endpointUrl = endpointUrl;
    m_timeout->start(int(m_config.connectTimeoutMs));
    m_socket->connectToHost(host, port);
}

void ClientConnection::openReverse(ReverseListener& listener, const QString& endpointUrl, const QString& serverUri) {
    m_endpointUrl = endpointUrl;
    m_timeout->start(int(m_config.connectTimeoutMs));
    m_reverseLink = listener.link();
    m_reverseWait = listener.waitFor(this, ReverseExpectation{endpointUrl, serverUri},
                                     [this](int fd, const ReverseHelloMessage& hello) { onReverseAccepted(fd, hello); });
}

void ClientConnection::cancelReverseWait() {
    if (m_reverseWait && m_reverseLink) m_reverseLink->cancel(m_reverseWait);
    m_reverseWait = 0;
}

void ClientConnection::onReverseAccepted(int fd, const ReverseHelloMessage& hello) {
    m_reverseWait = 0;
    if (m_finished || m_stream) {  // timed out or closed meanwhile
        ::close(fd);
        return;
    }
    m_tcpConnected = true;
    if (m_socket) {  // never used: the Server made the connection
        m_socket->disconnect(this);
        m_socket->deleteLater();
        m_socket = nullptr;
    }
    m_stream = new DescriptorStream(fd, *this, this);
    m_writer.setStream(m_stream);
    // OPC 10000-6 7.1.2.6: the ReverseHello's EndpointUrl "shall be passed back to the Server in
    // the Hello Message".
    m_endpointUrl = hello.endpointUrl.toQString();
    m_reverseServerUri = hello.serverUri.toQString();
    m_channel.sendHello(m_endpointUrl.toStdString());
}

void ClientConnection::onConnected() {
    m_tcpConnected = true;
    // QTcpSocket made the connection (host lookup, each address in turn); the requests go over our
    // own copy of its descriptor (DescriptorStream: no ioctl and no copy per read). Qt's copy is
    // closed with the QTcpSocket, which leaves the connection open: it stays open while one
    // descriptor refers to it.
    const int own = duplicateDescriptor(m_socket->socketDescriptor());
    m_socket->disconnect(this);
    if (own >= 0) {
        m_socket->abort();
        m_socket->deleteLater();
        m_socket = nullptr;
        m_stream = new DescriptorStream(own, *this, this);
    } else {  // no descriptor (a test's socket), or dup() failed
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_stream = new QtSocketStream(m_socket, *this, this);
        m_socket = nullptr;
    }
    m_writer.setStream(m_stream);
    m_channel.sendHello(m_endpointUrl.toStdString());
}

void ClientConnection::onSocketError() {
    if (m_finished) return;
    // Before the TCP connection stands (refused, unreachable, unknown host) the server could not
    // be reached; afterwards the connection was lost.
    fail(m_tcpConnected ? status::BadConnectionClosed : status::BadConnectionRejected);
}

void ClientConnection::sendOpen(SecurityTokenRequestType type) {
    m_openRequestId = nextRequestId();
    RequestHeader h;
    h.timestamp = DateTime::now();
    h.requestHandle = m_openRequestId;
    h.timeoutHint = m_config.requestTimeoutMs;
    m_channel.sendOpen(m_openRequestId, type, m_config.requestedTokenLifetimeMs, h);
}

void ClientConnection::scheduleRenew() {
    const int64_t wait = std::max<int64_t>(0, m_channel.renewAtMs() - nowMs());
    m_renewTimer->start(int(std::min<int64_t>(wait, 0x7FFFFFFF)));
}

void ClientConnection::renew() {
    if (m_finished || !m_channel.isOpen()) return;
    sendOpen(SecurityTokenRequestType::Renew);
    m_timeout->start(int(m_config.requestTimeoutMs));
}

void ClientConnection::close() {
    if (m_finished) return;
    m_timeout->stop();
    m_renewTimer->stop();
    if (m_channel.isOpen()) {
        RequestHeader h;
        h.timestamp = DateTime::now();
        h.requestHandle = nextRequestId();
        m_channel.sendClose(h.requestHandle, h);
    }
    m_finished = true;
    m_writer.flush();
    cancelReverseWait();
    if (m_stream) m_stream->disconnectFromHost();  // after the CLO is written
    else if (m_socket) m_socket->abort();          // still connecting
}

void ClientConnection::abort() {
    if (m_finished) return;
    m_finished = true;
    m_timeout->stop();
    m_renewTimer->stop();
    dropSocket();
}

void ClientConnection::fail(StatusCode reason) {
    if (m_finished) return;
    m_finished = true;
    m_timeout->stop();
    m_renewTimer->stop();
    dropSocket();
    if (m_handlers.closed) m_handlers.closed(reason);
}

void ClientConnection::dropSocket() {
    cancelReverseWait();
    if (m_stream) m_stream->abort();
    else if (m_socket) m_socket->abort();
}

void ClientConnection::onReadable() {
    if (m_finished) return;
    const BatchedWriter::Batch batch(m_writer);  // requests sent from the response callbacks
    if (m_framer.readFrom(*m_stream) <= 0) return;  // -1: closed, onClosed() follows
    // One clock read per read from the socket, not per response: each response of this read gets
    // it (the load tester's latencies; a precise clock read per response was 5 % of its CPU).
    m_receivedAtNs = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    processMessages();
}

void ClientConnection::onClosed() { fail(status::BadConnectionClosed); }

void ClientConnection::processMessages() {
    const uint8_t* p = nullptr;
    std::size_t n = 0;
    while (!m_finished) {
        // 7.1.2.2: no chunk may exceed the ReceiveBufferSize we announced.
        switch (m_framer.next(m_channel.receiveChunkSize(), p, n)) {
        case MessageFramer::Result::NeedMore: return;
        case MessageFramer::Result::UnknownType:
        case MessageFramer::Result::TooSmall: return fail(status::BadTcpMessageTypeInvalid);
        case MessageFramer::Result::TooLarge: return fail(status::BadTcpMessageTooLarge);
        case MessageFramer::Result::Message: process(p, n); break;
        }
    }
}

void ClientConnection::process(const uint8_t* p, std::size_t n) {
    // The clock matters only for an OpenSecureChannel response (when its token was received, for
    // the renewal): not read for every other message.
    const bool open = n >= kTcpHeaderSize && readTcpHeader(p).type == TcpMessageType::OpenSecureChannel;
    const auto ev = m_channel.onMessage(p, n, open ? nowMs() : 0);
    using Kind = ClientSecureChannel::Event::Kind;
    switch (ev.kind) {
    case Kind::None: return;
    case Kind::Acknowledged: sendOpen(SecurityTokenRequestType::Issue); return;
    case Kind::Opened:
        if (ev.requestId != m_openRequestId) return fail(status::BadUnknownResponse);
        m_openRequestId = 0;
        if (ev.error.isBad()) return fail(ev.error);
        m_timeout->stop();
        scheduleRenew();
        if (!m_opened) {
            m_opened = true;
            if (m_handlers.opened) m_handlers.opened();
        }
        return;
    case Kind::Response:
        if (m_handlers.response) m_handlers.response(ev.requestId, status::Good, ev.typeId, ev.body, ev.bodySize);
        return;
    case Kind::Aborted:
        if (m_handlers.response) m_handlers.response(ev.requestId, ev.error, 0, nullptr, 0);
        return;
    case Kind::PeerError:
    case Kind::Fatal: return fail(ev.error);
    }
}

} // namespace ua
