#include "ua/transport/DescriptorStream.h"

#include "ua/transport/DirectSocketNotifier.h"

#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ua {

int duplicateDescriptor(qintptr socketDescriptor) {
    return socketDescriptor >= 0 ? ::fcntl(int(socketDescriptor), F_DUPFD_CLOEXEC, 0) : -1;
}

namespace {
bool wouldBlock(int e) { return e == EAGAIN || e == EWOULDBLOCK || e == EINTR; }
} // namespace

DescriptorStream::DescriptorStream(int fd, Handler& handler, QObject* parent)
    : TcpStream(parent), m_fd(fd), m_handler(handler) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0 && !(flags & O_NONBLOCK)) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // fails harmlessly on a non-TCP socket
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
        m_peerAddress.setAddress(reinterpret_cast<const sockaddr*>(&addr));
        if (addr.ss_family == AF_INET) m_peerPort = ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
        else if (addr.ss_family == AF_INET6) m_peerPort = ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
    }
    m_readNotifier = new DirectSocketNotifier(fd, QSocketNotifier::Read, &DescriptorStream::onReadableNotified, this, this);
    m_writeNotifier = new DirectSocketNotifier(fd, QSocketNotifier::Write, &DescriptorStream::onWritableNotified, this, this);
    m_writeNotifier->setEnabled(false);
}

DescriptorStream::~DescriptorStream() {
    if (m_fd >= 0) ::close(m_fd);
}

QHostAddress DescriptorStream::peerAddress() const { return m_peerAddress; }
quint16 DescriptorStream::peerPort() const { return m_peerPort; }

std::ptrdiff_t DescriptorStream::read(uint8_t* p, std::size_t max) {
    if (m_state == State::Unconnected) return -1;
    const ssize_t r = ::recv(m_fd, p, max, 0);
    if (r > 0) return r;
    if (r < 0 && wouldBlock(errno)) return 0;
    // 0: the peer closed its side (what we still owe it goes out first); < 0: reset or failed.
    if (r == 0 && bytesToWrite() > 0) {
        disconnectFromHost();
    } else {
        closeNow();
        reportClosed();
    }
    return -1;
}

std::size_t DescriptorStream::write(const uint8_t* p, std::size_t n) {
    if (m_state != State::Connected || n == 0) return 0;
    std::size_t sent = 0;
    if (bytesToWrite() == 0) {
        const ssize_t r = ::send(m_fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r >= 0) {
            sent = std::size_t(r);
        } else if (!wouldBlock(errno)) {  // reset by the peer, or the descriptor failed
            closeNow();
            reportClosed();
            return 0;
        }
    }
    if (sent < n) {
        m_queued.append(p + sent, n - sent);
        m_writeNotifier->setEnabled(true);
    }
    return sent;
}

void DescriptorStream::onWritable() {
    if (m_state == State::Unconnected) return;
    const std::size_t left = bytesToWrite();
    if (left) {
        const ssize_t r = ::send(m_fd, m_queued.data() + m_queuedOffset, left, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r < 0 && !wouldBlock(errno)) {
            closeNow();
            reportClosed();
            return;
        }
        if (r > 0) {
            m_queuedOffset += std::size_t(r);
            if (m_queuedOffset == m_queued.size()) {
                m_queued.clear();
                m_queuedOffset = 0;
            }
            m_handler.onBytesWritten(std::size_t(r));
            if (m_state == State::Unconnected) return;  // the handler aborted
        }
    }
    if (bytesToWrite() == 0) {
        m_writeNotifier->setEnabled(false);
        if (m_closeWhenDrained) {
            closeNow();
            reportClosed();
        }
    }
}

void DescriptorStream::setReading(bool on) {
    m_reading = on;
    if (m_state != State::Connected) return;
    m_readNotifier->setEnabled(on);
    // Bytes that arrived while paused are announced again by the notifier; what the handler kept
    // unprocessed is its own, so it is asked once more from the event loop.
    if (on) QMetaObject::invokeMethod(this, [this] {
        if (m_state == State::Connected && m_reading) m_handler.onReadable();
    }, Qt::QueuedConnection);
}

bool DescriptorStream::shutdownWrite() {
    return m_state == State::Connected && bytesToWrite() == 0 && ::shutdown(m_fd, SHUT_WR) == 0;
}

void DescriptorStream::disconnectFromHost() {
    if (m_state == State::Unconnected) return;
    if (bytesToWrite() == 0) {
        closeNow();
        reportClosed();
        return;
    }
    m_state = State::Closing;
    m_closeWhenDrained = true;
    m_readNotifier->setEnabled(false);
}

void DescriptorStream::abort() {
    m_closedReported = true;  // no onClosed()
    closeNow();
}

void DescriptorStream::closeNow() {
    if (m_state == State::Unconnected) return;
    m_state = State::Unconnected;
    m_readNotifier->setEnabled(false);
    m_writeNotifier->setEnabled(false);
    ::close(m_fd);
    m_fd = -1;
    m_queued.clear();
    m_queuedOffset = 0;
}

void DescriptorStream::reportClosed() {
    if (m_closedReported) return;
    m_closedReported = true;
    QMetaObject::invokeMethod(this, [this] { m_handler.onClosed(); }, Qt::QueuedConnection);
}

} // namespace ua
