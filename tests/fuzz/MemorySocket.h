// MemorySocket: a QTcpSocket that carries bytes in memory instead of over the network, so the fuzz
// harnesses (and fuzz_capture) can feed a ServerConnection or a ClientConnection a byte stream of
// their own and see what it writes, deterministically and without a port.
//
// - It is connected from the start (a server's accepted socket), or after connectToHost() (the
//   client's: connected() follows from the event loop, whatever host and port).
// - feed(bytes) appends to what the owner can read and emits readyRead() at once.
// - What the owner writes is appended to written(); with a peer (link()), it is also fed to the
//   peer from the event loop, as the network would deliver it. bytesWritten() follows from the
//   event loop (the server's backpressure counts it).
// - disconnectFromHost()/close()/abort() make it Unconnected and emit disconnected() once; the peer
//   sees the remote close (disconnected()) from the event loop.
// No descriptor: socketDescriptor() is -1, so the connections read and write it through a
// QtSocketStream (libua/ua/transport/QtSocketStream.h), and its write() lands in writeData().
#pragma once

#include <QByteArray>
#include <algorithm>
#include <cstring>
#include <QHostAddress>
#include <QPointer>
#include <QTcpSocket>

namespace uafuzz {

class MemorySocket : public QTcpSocket {
public:
    explicit MemorySocket(bool connected, QObject* parent = nullptr) : QTcpSocket(parent) {
        if (connected) makeConnected();
    }

    // Bytes the owner can read from now on; readyRead() is emitted before this returns.
    void feed(const char* data, qint64 size) {
        if (state() != ConnectedState || size <= 0) return;
        m_in.append(data, size);
        emit readyRead();
    }
    void feed(const QByteArray& b) { feed(b.constData(), b.size()); }
    // The peer closes its side: disconnected() (as QTcpSocket reports a remote close).
    void remoteClose() {
        if (state() == UnconnectedState) return;
        setUnconnected();
    }

    // Everything the owner has written, in order.
    const QByteArray& written() const { return m_out; }
    // Also appends what the owner writes to *record (which must outlive the socket's writes).
    void setRecord(QByteArray* record) { m_record = record; }
    // Connects two sockets: what one writes the other reads (from the event loop).
    static void link(MemorySocket* a, MemorySocket* b) {
        a->m_peer = b;
        b->m_peer = a;
    }

    using QTcpSocket::connectToHost;
    void connectToHost(const QString&, quint16, OpenMode mode = ReadWrite, NetworkLayerProtocol = AnyIPProtocol) override {
        Q_UNUSED(mode);
        setSocketState(ConnectingState);
        QMetaObject::invokeMethod(this, [this] {
            if (state() != ConnectingState) return;
            makeConnected();
            emit connected();
        }, Qt::QueuedConnection);
    }
    void disconnectFromHost() override {
        if (state() == UnconnectedState) return;
        setUnconnected();
        if (MemorySocket* p = m_peer) {
            QPointer<MemorySocket> peer(p);
            QMetaObject::invokeMethod(p, [peer] { if (peer) peer->remoteClose(); }, Qt::QueuedConnection);
        }
    }
    void close() override {
        disconnectFromHost();
        QTcpSocket::close();
    }
    qint64 bytesAvailable() const override { return QIODevice::bytesAvailable() + m_in.size() - m_inOffset; }
    qint64 bytesToWrite() const override { return 0; }
    void setReadBufferSize(qint64) override {}
    bool waitForReadyRead(int = 30000) override { return false; }
    bool waitForBytesWritten(int = 30000) override { return false; }

protected:
    qint64 readData(char* data, qint64 maxSize) override {
        const qint64 n = std::min<qint64>(maxSize, m_in.size() - m_inOffset);
        if (n <= 0) return state() == ConnectedState ? 0 : -1;
        std::memcpy(data, m_in.constData() + m_inOffset, std::size_t(n));
        m_inOffset += n;
        if (m_inOffset == m_in.size()) {
            m_in.clear();
            m_inOffset = 0;
        }
        return n;
    }
    qint64 writeData(const char* data, qint64 size) override {
        if (state() != ConnectedState) return -1;
        m_out.append(data, size);
        if (m_record) m_record->append(data, size);
        if (m_peer) {
            QPointer<MemorySocket> peer(m_peer);
            QMetaObject::invokeMethod(m_peer, [peer, bytes = QByteArray(data, size)] { if (peer) peer->feed(bytes); },
                                      Qt::QueuedConnection);
        }
        QMetaObject::invokeMethod(this, [this, size] { emit bytesWritten(size); }, Qt::QueuedConnection);
        return size;
    }

private:
    void makeConnected() {
        setOpenMode(ReadWrite | Unbuffered);
        setSocketState(ConnectedState);
        setPeerAddress(QHostAddress(QHostAddress::LocalHost));
        setPeerPort(4840);
    }
    void setUnconnected() {
        setSocketState(UnconnectedState);
        emit stateChanged(UnconnectedState);
        emit disconnected();
    }

    QByteArray m_in;
    qint64 m_inOffset = 0;
    QByteArray m_out;
    QPointer<MemorySocket> m_peer;
    QByteArray* m_record = nullptr;
};

} // namespace uafuzz
