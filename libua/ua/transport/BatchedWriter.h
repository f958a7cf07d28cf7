// The sending side of one UA-TCP connection (either end): the messages produced while one batch
// of received bytes is processed are gathered in one reused buffer and written with one send()
// when the batch ends (guide/architecture.md: many responses ready at once go out in one write);
// a message sent outside a batch (a parked Publish answered by a timer, a request of the caller)
// is written at once.
//
// The write goes straight to the socket's descriptor while QTcpSocket holds nothing unsent: a
// buffered QTcpSocket (the only kind QTcpServer hands out) would copy every write into a newly
// allocated chunk and send it one event-loop turn later. What the kernel does not take at once is
// handed to QTcpSocket::write(), and from then on everything goes through it until it has drained,
// so the byte order is kept; QTcpSocket also reports the errors (a reset peer) as before.
// One thread: the connection's.
#pragma once

#include "ua/encoding/Buffer.h"

#include <QTcpSocket>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <sys/socket.h>

namespace ua {

class BatchedWriter {
public:
    explicit BatchedWriter(QTcpSocket* socket) : m_socket(socket) {}

    // Called with the bytes each direct send() put into the kernel: QTcpSocket's bytesWritten()
    // reports only what went through it, so together they account for every byte (backpressure).
    void onWrittenDirectly(std::function<void(std::size_t)> f) { m_writtenDirectly = std::move(f); }

    // Sends n bytes: after the current batch, or now when none is open.
    void send(const uint8_t* p, std::size_t n) {
        m_out.append(p, n);
        ++m_messages;
        if (m_depth == 0) flush();
    }
    // Writes what is gathered (the buffer keeps its capacity).
    void flush() {
        if (m_out.empty()) return;
        std::size_t sent = 0;
        const qintptr fd = m_socket->socketDescriptor();
        if (fd >= 0 && m_socket->state() == QAbstractSocket::ConnectedState && m_socket->bytesToWrite() == 0) {
            const ssize_t n = ::send(int(fd), m_out.data(), m_out.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0) sent = std::size_t(n);  // an error: QTcpSocket meets it again below and reports it
        }
        if (sent < m_out.size())
            m_socket->write(reinterpret_cast<const char*>(m_out.data() + sent), qint64(m_out.size() - sent));
        m_out.clear();
        m_messages = 0;
        if (sent && m_writtenDirectly) m_writtenDirectly(sent);
    }
    // Messages gathered and not yet written.
    std::size_t pendingMessages() const { return m_messages; }

    // Bytes of storage held (for tests and diagnostics).
    std::size_t capacity() const { return m_out.capacity(); }
    // Gives the buffer back when it is above keep bytes, outside a batch and with nothing gathered;
    // true when it did.
    bool releaseIfIdle(std::size_t keep) { return m_depth == 0 && m_out.empty() && m_out.releaseAbove(keep); }

    // Opens a batch for its scope; the outermost one flushes when it ends.
    class Batch {
    public:
        explicit Batch(BatchedWriter& w) : m_w(w) { ++m_w.m_depth; }
        ~Batch() {
            if (--m_w.m_depth == 0) m_w.flush();
        }
        Batch(const Batch&) = delete;
        Batch& operator=(const Batch&) = delete;

    private:
        BatchedWriter& m_w;
    };

private:
    QTcpSocket* m_socket;
    std::function<void(std::size_t)> m_writtenDirectly;
    Buffer m_out;
    std::size_t m_messages = 0;
    int m_depth = 0;
};

} // namespace ua
