// The sending side of one UA-TCP connection (either end): the messages produced while one batch
// of received bytes is processed are gathered in one reused buffer and written with one send()
// when the batch ends (guide/architecture.md: many responses ready at once go out in one write);
// a message sent outside a batch (a parked Publish answered by a timer, a request of the caller)
// is written at once.
//
// The stream (TcpStream.h) writes straight to the kernel what it takes at once and queues the
// rest in order. One thread: the connection's.
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/transport/TcpStream.h"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace ua {

class BatchedWriter {
public:
    // Writes to stream, set before the first send() (see setStream()).
    explicit BatchedWriter(TcpStream* stream = nullptr) : m_stream(stream) {}
    void setStream(TcpStream* stream) { m_stream = stream; }

    // Called with the bytes the kernel took at once on each write: the stream's onBytesWritten()
    // reports only what it queued, so together they account for every byte (backpressure).
    void onWrittenDirectly(std::function<void(std::size_t)> f) { m_writtenDirectly = std::move(f); }

    // Sends n bytes: after the current batch, or now when none is open.
    void send(const uint8_t* p, std::size_t n) {
        m_out.append(p, n);
        ++m_messages;
        if (m_depth == 0) flush();
    }
    // Writes what is gathered (the buffer keeps its capacity); without a stream it stays gathered.
    void flush() {
        if (m_out.empty() || !m_stream) return;
        const std::size_t sent = m_stream->write(m_out.data(), m_out.size());
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
    TcpStream* m_stream;
    std::function<void(std::size_t)> m_writtenDirectly;
    Buffer m_out;
    std::size_t m_messages = 0;
    int m_depth = 0;
};

} // namespace ua
