// ServerConnection's admission control and backpressure (AdmissionConfig.h,
// docs/Scalability.md), apart from its request path:
// - a connection beyond maxChannels, or a Hello beyond maxHandshakes, is answered ERR
//   Bad_TcpServerTooBusy (OPC 10000-6 7.1.5) before any OpenSecureChannel is read;
// - responses written but not yet taken by the kernel are counted (those a batch gathers too);
//   above maxQueuedResponses the connection stops reading (its framer and its stream: nothing is
//   read from the socket while paused, so the kernel's receive window closes on the peer), and
//   reads again at resumeQueuedResponses;
// - a connection without a complete Hello after helloTimeoutMs gets ERR Bad_Timeout (7.1.3);
// - a chunked request unfinished after chunkTimeoutMs closes the channel with ERR Bad_RequestTimeout.
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/common/Clock.h"
#include "ua/server/runtime/ServerParts.h"
#include "ua/server/runtime/ServerConnection.h"

#include <QLoggingCategory>

namespace ua {

namespace {
Q_LOGGING_CATEGORY(lcAdmission, "ua.server.admission", QtInfoMsg)
}

void ServerConnection::setUpAdmission() {
    m_writer.onWrittenDirectly([this](std::size_t n) { noteWritten(n); });
    m_responseEnds.resize(16);  // a power of two (noteSent masks with it); grows when more are queued
    if (m_server.channelCount > m_server.config().maxChannels) {
        // Every connection this server may hold is taken: answered at once (no delay), since
        // waiting would hold one more socket. Nothing is read before the refusal: a Hello that
        // arrives before the queued call runs would otherwise be acknowledged (seen with the
        // epoll loop, which dispatches a ready socket in the same pass as the posted events).
        m_readPaused = true;
        m_stream->setReading(false);
        QMetaObject::invokeMethod(this, [this] { refuseBusy("too many connections", 0); }, Qt::QueuedConnection);
        return;
    }
    // OPC 10000-6 7.1.3: no Hello in time (an idle socket, or one trickled a byte at a time) closes
    // the connection. A deadline of the connection's one timer until its Hello: nothing on the
    // request path.
    if (const uint32_t limit = m_server.admission().admission().helloTimeoutMs) {
        m_helloDeadlineMs = monotonicMs() + int64_t(limit);
        armHousekeeping();
    }
}

void ServerConnection::helloTimedOut() {
    if (m_reverse) {  // a spare the Client did not use: not counted among the slow peers
        reportReverse(ReverseHub::Outcome::TimedOut);
        return fail(status::BadTimeout, "no Hello within the reverse connection's Hello timeout");
    }
    AdmissionControl::bump(m_server.admission().counters().helloTimeouts);
    qCDebug(lcAdmission, "connection %u from %s closed: no Hello within %u ms", m_channelId, qPrintable(m_peerAddress),
            m_server.admission().admission().helloTimeoutMs);
    fail(status::BadTimeout, "no Hello within the server's Hello timeout");
}

void ServerConnection::handshakeTimedOut() {
    if (!m_inHandshake) return;
    // No Session activated in time: the slot goes to someone else, the channel stays.
    m_inHandshake = false;
    m_server.admission().endHandshake();
    AdmissionControl::bump(m_server.admission().counters().handshakeTimeouts);
}

bool ServerConnection::admitHello() {
    AdmissionControl& a = m_server.admission();
    if (!a.tryBeginHandshake()) {
        refuseBusy("too many handshakes in progress", a.admission().busyDelayMs);
        return false;
    }
    m_inHandshake = true;
    if (const uint32_t limit = a.admission().handshakeTimeoutMs) {
        m_handshakeDeadlineMs = monotonicMs() + int64_t(limit);
        armHousekeeping();
    }
    return true;
}

void ServerConnection::handshakeDone() {
    if (!m_inHandshake) return;
    m_inHandshake = false;
    m_server.admission().endHandshake();
    disarmDeadline(m_handshakeDeadlineMs);
}

void ServerConnection::refuseBusy(const char* reason, uint32_t delayMs) {
    if (m_closing) return;
    AdmissionControl::bump(m_server.admission().counters().busyChannels);
    qCDebug(lcAdmission, "connection %u from %s refused: %s", m_channelId, qPrintable(m_peerAddress), reason);
    m_readPaused = true;  // nothing more is read from a refused connection
    m_stream->setReading(false);
    if (delayMs == 0) {
        fail(status::BadTcpServerTooBusy, reason);
        return;
    }
    // A deadline of the housekeeping timer (onHousekeeping), not a Qt timer of its own: a connect
    // storm refuses thousands of connections a second.
    m_busyReason = reason;
    m_busyRefusalMs = monotonicMs() + int64_t(delayMs);
    armHousekeeping();
}

void ServerConnection::noteSent(std::size_t n) {
    // A ring of power-of-two size: a store and a mask per response, no allocation.
    m_bytesQueued += n;
    const std::size_t mask = m_responseEnds.size() - 1;
    if (m_ringCount == m_responseEnds.size()) {  // grows rarely: only past the pause threshold
        std::vector<uint64_t> bigger(m_responseEnds.size() * 2);
        for (std::size_t i = 0; i < m_ringCount; ++i) bigger[i] = m_responseEnds[(m_ringHead + i) & mask];
        m_responseEnds.swap(bigger);
        m_ringHead = 0;
    }
    m_responseEnds[(m_ringHead + m_ringCount) & (m_responseEnds.size() - 1)] = m_bytesQueued;
    ++m_ringCount;
}

void ServerConnection::onBytesWritten(std::size_t n) { noteWritten(n); }

void ServerConnection::noteWritten(std::size_t n) {
    m_bytesFlushed += n;
    while (m_ringCount && m_responseEnds[m_ringHead] <= m_bytesFlushed) {
        m_ringHead = (m_ringHead + 1) & (m_responseEnds.size() - 1);
        --m_ringCount;
    }
    if (m_readPaused && !m_closing && int(m_ringCount) <= m_server.admission().backpressure().resumeQueuedResponses)
        resumeReading();
}

bool ServerConnection::mustPauseReading() {
    if (m_readPaused) return true;
    const int max = m_server.admission().backpressure().maxQueuedResponses;
    if (max <= 0 || int(m_ringCount) <= max) return false;
    // Responses gathered for this batch's one write count as queued until written: write them now
    // (the batch's write comes early) and count again.
    if (m_writer.pendingMessages()) {
        m_writer.flush();
        if (int(m_ringCount) <= max) return false;
    }
    m_readPaused = true;
    // Nothing is read from the socket: the peer's writes meet a closed TCP window instead of our memory.
    m_stream->setReading(false);
    AdmissionControl::bump(m_server.admission().counters().readPauses);
    qCDebug(lcAdmission, "connection %u from %s stops reading: %zu responses queued", m_channelId, qPrintable(m_peerAddress),
            m_ringCount);
    return true;
}

void ServerConnection::resumeReading() {
    m_readPaused = false;
    if (std::exchange(m_checkOnResume, false)) {  // the onReadable() that follows arms the timer for it
        m_idleCheckMs = monotonicMs() + kIdleCheckMs;
        m_bytesQueuedAtCheck = m_bytesQueued;
    }
    AdmissionControl::bump(m_server.admission().counters().readResumes);
    m_stream->setReading(true);  // onReadable() follows: what waits in the framer is processed too
}

void ServerConnection::checkChunkTimeout(int64_t nowMs) {
    if (!m_channel || m_closing || !m_channel->chunkedRequestExpired(nowMs)) return;
    AdmissionControl::bump(m_server.admission().counters().chunkTimeouts);
    fail(status::BadRequestTimeout, "the final chunk of a chunked request did not come in time");
}

} // namespace ua
