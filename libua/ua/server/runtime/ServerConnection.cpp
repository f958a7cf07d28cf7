#include "ua/server/runtime/ServerConnection.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/ThreadSnapshot.h"
#include "ua/server/common/Clock.h"
#include "ua/server/runtime/RequestContext.h"
#include "ua/server/runtime/ServerParts.h"
#include "ua/server/runtime/ServiceDispatcher.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/runtime/IoWorker.h"
#include "ua/transport/DescriptorStream.h"
#include "ua/transport/QtSocketStream.h"
#include "ua/transport/ReverseHello.h"

#include <QLoggingCategory>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>

namespace ua {

Q_LOGGING_CATEGORY(lcChannel, "ua.server.channel", QtInfoMsg)

namespace {
// Before the Hello is known, a message may be at most this large (a Hello is 32 bytes plus an
// EndpointUrl of at most 4096 bytes).
constexpr uint32_t kMaxHelloSize = 8192;

// "host:port" as an administrator reads it: an IPv4 peer on a dual-stack socket as plain IPv4
// (127.0.0.1:4840, not ::ffff:127.0.0.1:4840), an IPv6 peer in brackets ([::1]:4840).
QString peerText(const QHostAddress& address, quint16 port) {
    bool v4 = false;
    const quint32 ip4 = address.toIPv4Address(&v4);
    if (v4) return QStringLiteral("%1:%2").arg(QHostAddress(ip4).toString()).arg(port);
    return QStringLiteral("[%1]:%2").arg(address.toString()).arg(port);
}
} // namespace

ServerConnection::ServerConnection(ServerParts& server, qintptr socketDescriptor) : ServerConnection(server) {
    auto* stream = new DescriptorStream(int(socketDescriptor), *this, this);
    start(stream, stream->peerAddress(), stream->peerPort());
}

ServerConnection::ServerConnection(ServerParts& server, qintptr socketDescriptor, ReverseOrigin origin)
    : ServerConnection(server, socketDescriptor) {
    if (m_closing || m_readPaused) {  // refused at once (too many connections): reported when it goes
        m_reverse = std::move(origin);
        return;
    }
    // OPC 10000-6 7.1.2.6: the ReverseHello first; the Hello must follow within the reverse
    // connection's own timeout (7.1.3: configurable, at most 2 minutes by default).
    Buffer out;
    encodeReverseHello(out, ReverseHelloMessage{String::fromQString(origin.serverUri), String::fromQString(origin.endpointUrl)});
    send(out.data(), out.size());
    m_writer.flush();
    m_helloDeadlineMs = monotonicMs() + int64_t(std::max<uint32_t>(origin.helloTimeoutMs, 1));
    armHousekeeping();
    m_reverse = std::move(origin);
}

ServerConnection::ServerConnection(ServerParts& server, QTcpSocket* socket) : ServerConnection(server) {
    start(new QtSocketStream(socket, *this, this), socket->peerAddress(), socket->peerPort());
}

ServerConnection::ServerConnection(ServerParts& server)
    : m_server(server), m_stream(nullptr), m_housekeeping(new QTimer(this)), m_maxChunk(kMaxHelloSize),
      m_channelId(server.nextChannelId.fetch_add(1)), m_worker(IoWorker::current()),
      m_snapshot(m_worker ? &m_worker->snapshot() : new ThreadSnapshot(server.addressSpace(), this)) {
    m_link = std::make_shared<ConnectionLink>();
    m_link->channelId = m_channelId;
    m_link->poster = m_worker;
    m_link->thread = QThread::currentThread();
    ++m_server.channelCount;
}

void ServerConnection::start(TcpStream* stream, const QHostAddress& peer, quint16 peerPort) {
    m_stream = stream;
    m_writer.setStream(stream);
    m_peerAddress = peerText(peer, peerPort);
    m_housekeeping->setSingleShot(true);
    m_housekeeping->setTimerType(Qt::PreciseTimer);
    connect(m_housekeeping, &QTimer::timeout, this, &ServerConnection::onHousekeeping);
    setUpAdmission();
}

ServerConnection::~ServerConnection() {
    reportReverse(ReverseHub::Outcome::Closed);
    m_link->channel = nullptr;  // responses still posted to this thread are dropped
    m_link->open = false;          // parked Publish requests of this connection are skipped
    --m_server.channelCount;
    if (m_inHandshake) m_server.admission().endHandshake();
    m_server.sessions().channelClosed(m_channelId);
}

const AddressSpace& ServerConnection::addressSpace() { return m_snapshot->get(); }

void ServerConnection::reportReverse(ReverseHub::Outcome outcome) {
    if (!m_reverse) return;
    if (m_reverse->hub) m_reverse->hub->report(m_reverse->target, outcome);
    m_reverse.reset();
}

void ServerConnection::send(const uint8_t* p, std::size_t n) {
    noteSent(n);  // counted before it is written (BatchedWriter reports what went out directly)
    m_writer.send(p, n);
}

std::size_t ServerConnection::bufferCapacity() const {
    return m_framer.capacity() + m_writer.capacity() + (m_channel ? m_channel->bufferCapacity() : 0);
}

// The connection's one timer (m_housekeeping) is armed for the earliest of: the Hello timeout
// until the Hello came, the handshake timeout until a Session was activated (AdmissionConfig.h),
// the SecurityToken's expiry without renewal (6.7.4: the channel is closed), the timeout of a
// chunked request waiting for its final chunk, and, while a buffer grew since the last release,
// an idle check 1 s later. (The Hello and handshake timeouts were a single-shot QTimer object each
// per connection, created at connect and fired 10 s later whether still needed or not: at 10,000
// Sessions set up, 20,000 timer objects firing in the seconds after.)
// An idle connection whose buffers are small has only its token's expiry armed (by default an
// hour away): nothing per connection per second, so the thread's cost does not grow with the
// connections it holds (docs/Benchmarks.md, "An event loop per I/O thread on epoll"). Checked
// after each batch of requests (a few loads and compares) and after each tick; the timer is
// re-armed only when the new deadline is earlier than the armed one.
void ServerConnection::armHousekeeping(bool lookAtBuffers) {
    if (m_closing) return;
    int64_t due = m_channel ? m_channel->nextDeadlineMs() : kNever;
    // Only when a buffer of the connection's own was used can one have grown: requests that
    // arrive whole and their responses use the thread's (ThreadBuffer.h), and the channel's
    // buffers, in the cold part of its object, are not looked at after every batch.
    if (lookAtBuffers && m_idleCheckMs == kNever &&
        (m_framer.capacity() + m_writer.capacity() > m_localCapacityKept || (m_channel && m_channel->takeOwnBuffersUsed())) &&
        bufferCapacity() > m_capacityKept) {
        m_idleCheckMs = monotonicMs() + kIdleCheckMs;
        m_bytesQueuedAtCheck = m_bytesQueued;
    }
    due = std::min({due, m_idleCheckMs, m_helloDeadlineMs, m_handshakeDeadlineMs, m_busyRefusalMs});
    if (due >= m_housekeepingDueMs) return;
    m_housekeepingDueMs = due;
    const int64_t wait = std::clamp<int64_t>(due - monotonicMs(), 0, INT32_MAX);
    m_housekeeping->start(int(wait));
}

void ServerConnection::disarmDeadline(int64_t& deadlineMs) {
    if (deadlineMs == kNever) return;
    const bool armedForIt = deadlineMs == m_housekeepingDueMs;
    deadlineMs = kNever;
    if (!armedForIt) return;  // the timer is armed for an earlier one, which re-arms it when it fires
    m_housekeepingDueMs = kNever;
    m_housekeeping->stop();
    armHousekeeping();
}

void ServerConnection::onHousekeeping() {
    m_housekeepingDueMs = kNever;
    const int64_t now = monotonicMs();
    if (m_closing) {
        if (m_deleteDueMs <= now) deleteLater();  // a peer that never closed its side
        return;
    }
    if (m_busyRefusalMs <= now) {
        m_busyRefusalMs = kNever;
        return fail(status::BadTcpServerTooBusy, m_busyReason);
    }
    if (m_helloDeadlineMs <= now) {
        m_helloDeadlineMs = kNever;
        if (!m_channel && !m_readPaused) return helloTimedOut();
    }
    if (m_handshakeDeadlineMs <= now) {
        m_handshakeDeadlineMs = kNever;
        handshakeTimedOut();
    }
    if (m_channel && m_channel->tokenExpired(now)) return fail(status::BadSecureChannelClosed, "SecurityToken expired");
    checkChunkTimeout(now);
    if (m_closing) return;
    const bool checked = m_idleCheckMs <= now;
    if (checked) {
        m_idleCheckMs = kNever;
        releaseIdleBuffers();
    }
    armHousekeeping(!checked);  // a buffer in use that the check left is looked at after a batch, not a second later
}

// On the idle check, never per request. The buffers grow to the largest message the connection
// handled (the GetEndpoints and CreateSession responses of every new Session are over 8 KB) and a
// reused buffer keeps its capacity, so without this every idle connection would keep three or
// more of them for its lifetime (docs/Scalability.md "Memory per Session"). Idle: nothing was
// sent since the check was armed (m_bytesQueued is counted per response anyway) and no partial
// message waits; a connection under load is checked again a second later and keeps its warm
// buffers meanwhile; the buffers of a steady small-message load stay under the threshold and are
// never touched. (The stream holds no read buffer of its own: MessageFramer::readInPlace() reads
// through one buffer per thread, and a request that arrives whole and its response use only the
// thread's buffers, so most connections never grow one of their own.)
void ServerConnection::releaseIdleBuffers() {
    if (m_readPaused) {  // its buffers hold what it will process: looked at again once it reads (resumeReading)
        m_checkOnResume = true;  // a peer that never reads costs its thread nothing per second
        return;
    }
    if (m_bytesQueued != m_bytesQueuedAtCheck) {  // active
        m_idleCheckMs = monotonicMs() + kIdleCheckMs;  // again a second later
        m_bytesQueuedAtCheck = m_bytesQueued;
        return;
    }
    m_framer.releaseIfIdle(kIdleBufferKeep);
    m_writer.releaseIfIdle(kIdleBufferKeep);
    const std::size_t channelHeld = m_channel ? m_channel->releaseIdleBuffers(kIdleBufferKeep) : 0;
    // What is left is kept: no check until a buffer grows again, or the channel uses one of its
    // own. A buffer still in use (half a message in the framer, a chunked request being
    // reassembled) could not be given back, and is not counted as kept: once the message is
    // complete, the batch that processes it finds the buffers above what was kept and arms the
    // check again. (Counted, its bytes let other buffers grow by as much without a check once it
    // was consumed or freed. Nor is it looked at every second meanwhile: a peer that stops halfway
    // through a message costs its thread nothing per second.)
    const auto inUse = [](std::size_t capacity) { return capacity > kIdleBufferKeep ? capacity : 0; };
    m_localCapacityKept = m_framer.capacity() - inUse(m_framer.capacity()) + m_writer.capacity() - inUse(m_writer.capacity());
    m_capacityKept = m_localCapacityKept + (m_channel ? m_channel->bufferCapacity() - channelHeld : 0);
}

void ServerConnection::onReadable() {
    if (m_closing) {
        // After an ERR only the peer's close is waited for: what it still sends is dropped.
        uint8_t sink[4096];
        m_stream->read(sink, sizeof sink);
        return;
    }
    if (m_readPaused) return;
    {
        const BatchedWriter::Batch batch(m_writer);  // every response to these bytes in one write
        // Requests are cut from the thread's read buffer; what is left goes into the framer when
        // this scope ends (MessageFramer.h). No handler runs a nested event loop.
        const MessageFramer::KeepRest keepRest(m_framer);
        // After a pause (resumeReading()), what waited in the framer is processed before anything
        // more is read: if it pauses reading again, nothing new is read. Read first, a client that
        // pipelines faster than it reads would grow the framer by a read (64 KB) per pause.
        if (m_framer.buffered()) {
            processMessages();
            // Their responses go out before the read, which may find the peer's close (a client
            // that wrote its last request and shut its side): the stream takes nothing after it.
            if (m_writer.pendingMessages()) m_writer.flush();
        }
        if (!m_readPaused && !m_closing) {
            if (m_framer.readInPlace(*m_stream) < 0) return;  // closed: onClosed() follows
            processMessages();
        }
    }
    armHousekeeping();
}

void ServerConnection::onClosed() { closeConnection(); }

void ServerConnection::processMessages() {
    const uint8_t* p = nullptr;
    std::size_t n = 0;
    while (!m_closing) {
        if (mustPauseReading()) return;  // backpressure: the rest waits in the framer and the socket
        switch (m_framer.next(m_maxChunk, p, n)) {
        case MessageFramer::Result::NeedMore: return;
        case MessageFramer::Result::UnknownType: return fail(status::BadTcpMessageTypeInvalid, "unknown message type");
        case MessageFramer::Result::TooSmall: return fail(status::BadTcpMessageTypeInvalid, "MessageSize below the header size");
        case MessageFramer::Result::TooLarge:
            return fail(status::BadTcpMessageTooLarge, "chunk larger than the negotiated ReceiveBufferSize");
        case MessageFramer::Result::Message:
            if (!processMessage(p, n)) return;
            break;
        }
    }
}

bool ServerConnection::processMessage(const uint8_t* p, std::size_t n) {
    const TcpHeader h = readTcpHeader(p);
    if (!m_channel) {
        if (h.type != TcpMessageType::Hello) { fail(status::BadTcpMessageTypeInvalid, "the first message must be a Hello"); return false; }
        handleHello(p, n);
        return !m_closing;
    }
    if (h.type == TcpMessageType::Hello) { fail(status::BadTcpMessageTypeInvalid, "a second Hello"); return false; }
    const int64_t now = monotonicMs();
    const auto ev = m_channel->onChunk(p, n, now);
    if (h.type == TcpMessageType::OpenSecureChannel)  // AuditOpenSecureChannelEventType (events/AuditEvents.h)
        auditOpenSecureChannel(m_server.audit(), m_channelId, *m_channel,
                               ev.kind == ServerSecureChannel::Event::Kind::Fatal ? (ev.detail.isBad() ? ev.detail : ev.error)
                                                                                  : StatusCode(status::Good));
    switch (ev.kind) {
    case ServerSecureChannel::Event::Kind::None: return true;
    case ServerSecureChannel::Event::Kind::Fatal:
        // The ERR may hide the cause (Bad_SecurityChecksFailed); the log names it.
        qCInfo(lcChannel, "channel %u from %s closed: %s (%s)", m_channelId,
               qPrintable(m_peerAddress), ev.detail.name().c_str(), ev.reason.c_str());
        fail(ev.error, ev.reason);
        return false;
    case ServerSecureChannel::Event::Kind::Close: closeConnection(); return false;
    case ServerSecureChannel::Event::Kind::Request:
    {
        RequestContext ctx{m_server, *m_channel, m_sessions, *m_snapshot, m_link, m_peerAddress, m_channelId,
                           nullptr, now, ev.requestId};
        dispatchRequest(ctx, ev.typeId, ev.body, ev.bodySize);
        if (ctx.sessionActivated) handshakeDone();
        return !m_closing;
    }
    }
    return true;
}

void ServerConnection::handleHello(const uint8_t* p, std::size_t n) {
    if (ChunkType(p[3]) != ChunkType::Final) return fail(status::BadTcpMessageTypeInvalid, "Hello must have chunk type F");
    const auto hello = decodeHello(p + kTcpHeaderSize, n - kTcpHeaderSize);
    if (!hello) {
        // An EndpointUrl over 4096 bytes is the one malformed Hello with a code of its own.
        if (n >= 32) {
            int32_t urlLen;
            std::memcpy(&urlLen, p + 28, 4);
            if (urlLen > int32_t(kMaxEndpointUrlLength)) return fail(status::BadTcpEndpointUrlInvalid, "EndpointUrl longer than 4096 bytes");
        }
        return fail(status::BadDecodingError, "malformed Hello");
    }
    if (!helloBufferSizesValid(*hello)) return fail(status::BadTcpInternalError, "buffer sizes below 1024 bytes");
    if (!admitHello()) return;  // too many handshakes: ERR Bad_TcpServerTooBusy, nothing more is read
    disarmDeadline(m_helloDeadlineMs);
    reportReverse(ReverseHub::Outcome::Hello);  // a reverse connection: the next spare is dialled
    const AcknowledgeMessage ack = negotiateAcknowledge(*hello, m_server.config().transport);
    m_maxChunk = ack.receiveBufferSize;
    // The certificate and key as they are now (ServerIdentity.h): the channel keeps them for its life.
    SecureChannelConfig channelConfig = m_server.config().secureChannel;
    channelConfig.security = m_server.identity()->security;
    m_channel = &m_channelStorage.emplace(m_channelId, *hello, ack, std::move(channelConfig),
                                          [this](const uint8_t* d, std::size_t len) { send(d, len); });
    m_link->channel = m_channel;
    Buffer out;
    encodeAcknowledge(out, ack);
    send(out.data(), out.size());
}

void ServerConnection::fail(StatusCode error, const std::string& reason) {
    if (m_closing) return;
    Buffer out;
    encodeError(out, ErrorMessage{error, String(reason)});
    // What a batch gathered goes first, then the ERR. Closed at once, a socket with unread input
    // (a refused Hello) makes the kernel answer with RST, which can discard the ERR at the peer
    // before it is read: once the ERR is written, the sending side is shut (FIN after the ERR) and
    // the socket is closed when the peer closes its side, or after 2 s.
    // A refusal's pause (refuseBusy) ends here, not with a resume: the ERR's write, which the
    // kernel usually takes at once (noteWritten), must not count as one.
    m_readPaused = false;
    m_writer.send(out.data(), out.size());
    m_writer.flush();
    if (m_stream->shutdownWrite()) {
        m_closing = true;
        m_stream->setReading(true);  // also after a refusal: the peer's close ends the connection (onReadable drops the rest)
        scheduleDelete();
        return;
    }
    closeConnection();
}

void ServerConnection::closeConnection() {
    if (!m_closing) {
        m_closing = true;
        m_housekeeping->stop();
        m_housekeepingDueMs = kNever;
        m_writer.flush();                // the ERR, if any, goes out first
        m_stream->disconnectFromHost();
    }
    if (m_stream->state() == TcpStream::State::Unconnected) deleteLater();
    else scheduleDelete();
}

// Closing: the housekeeping timer (no other deadline counts any more) deletes the connection in
// 2 s should the peer never close its side. No Qt timer object of its own per closed connection.
void ServerConnection::scheduleDelete() {
    if (m_deleteScheduled) return;
    m_deleteScheduled = true;
    m_deleteDueMs = monotonicMs() + 2000;
    m_housekeepingDueMs = m_deleteDueMs;
    m_housekeeping->start(2000);
}

} // namespace ua
