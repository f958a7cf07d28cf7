#include "ua/transport/QtSocketStream.h"

#include <QTcpSocket>
#include <sys/socket.h>

namespace ua {

QtSocketStream::QtSocketStream(QTcpSocket* socket, Handler& handler, QObject* parent)
    : TcpStream(parent), m_socket(socket), m_handler(handler) {
    m_socket->setParent(this);
    connect(m_socket, &QTcpSocket::readyRead, this, [this] {
        if (m_reading) m_handler.onReadable();
    });
    connect(m_socket, &QTcpSocket::bytesWritten, this, [this](qint64 n) { m_handler.onBytesWritten(std::size_t(n)); });
    connect(m_socket, &QTcpSocket::disconnected, this, &QtSocketStream::reportClosed);
    connect(m_socket, &QTcpSocket::errorOccurred, this, &QtSocketStream::reportClosed);
}

std::ptrdiff_t QtSocketStream::read(uint8_t* p, std::size_t max) {
    const qint64 n = m_socket->read(reinterpret_cast<char*>(p), qint64(max));
    if (n > 0) {
        // readyRead announces new bytes only. What this read left is announced again from the
        // event loop, as TcpStream::Handler::onReadable() promises (DescriptorStream's notifier
        // is level-triggered): a feed of more than a read would otherwise wait for the next one.
        if (m_socket->bytesAvailable() > 0) announceLater();
        return std::ptrdiff_t(n);
    }
    if (n < 0 || m_socket->state() == QAbstractSocket::UnconnectedState) {
        reportClosed();
        return -1;
    }
    return 0;
}

std::size_t QtSocketStream::write(const uint8_t* p, std::size_t n) {
    if (n) m_socket->write(reinterpret_cast<const char*>(p), qint64(n));
    return 0;
}

std::size_t QtSocketStream::bytesToWrite() const { return std::size_t(m_socket->bytesToWrite()); }

void QtSocketStream::setReading(bool on) {
    if (on == m_reading) return;
    m_reading = on;
    if (!on) {
        // QTcpSocket reads from the kernel into its own buffer whether or not we read: bounded,
        // it stops, and the peer's writes meet a closed TCP window.
        m_savedReadBufferSize = m_socket->readBufferSize();
        m_socket->setReadBufferSize(1);
        return;
    }
    m_socket->setReadBufferSize(m_savedReadBufferSize);
    // What waits in the socket's buffer is not announced again by readyRead, and what the handler
    // kept unprocessed is its own: it is asked once more.
    announceLater();
}

void QtSocketStream::announceLater() {
    if (m_announcePending) return;
    m_announcePending = true;
    QMetaObject::invokeMethod(this, [this] {
        m_announcePending = false;
        if (m_reading) m_handler.onReadable();
    }, Qt::QueuedConnection);
}

bool QtSocketStream::shutdownWrite() {
    m_socket->flush();
    const qintptr fd = m_socket->socketDescriptor();
    return fd >= 0 && m_socket->bytesToWrite() == 0 && ::shutdown(int(fd), SHUT_WR) == 0;
}

void QtSocketStream::disconnectFromHost() {
    m_socket->flush();
    m_socket->disconnectFromHost();
}

void QtSocketStream::abort() {
    m_closedReported = true;  // no onClosed()
    m_socket->abort();
}

TcpStream::State QtSocketStream::state() const {
    switch (m_socket->state()) {
    case QAbstractSocket::UnconnectedState: return State::Unconnected;
    case QAbstractSocket::ClosingState: return State::Closing;
    default: return State::Connected;
    }
}

void QtSocketStream::reportClosed() {
    if (m_closedReported) return;
    m_closedReported = true;
    QMetaObject::invokeMethod(this, [this] { m_handler.onClosed(); }, Qt::QueuedConnection);
}

} // namespace ua
