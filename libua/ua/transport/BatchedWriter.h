// The sending side of one UA-TCP connection (either end): the messages produced while one batch
// of received bytes is processed are gathered in one reused buffer and written with one send()
// when the batch ends (guide/architecture.md: many responses ready at once go out in one write);
// a message sent outside a batch (a parked Publish answered by a timer, a request of the caller)
// is written at once.
//
// The stream (TcpStream.h) writes straight to the kernel what it takes at once and queues the
// rest in order. One thread: the connection's.
//
// A batch gathers into a buffer of the thread (ThreadBuffer.h), not of the connection: between
// batches nothing is gathered, so one buffer serves all the thread's connections and stays warm
// (at 10,000 connections a buffer of each connection's own is cold on every request). A message
// sent outside a batch goes to the stream without a copy.
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/encoding/ThreadBuffer.h"
#include "ua/transport/TcpStream.h"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace ua {

class BatchedWriter {
public:
    // Writes to stream, set before the first send() (see setStream()).
    explicit BatchedWriter(TcpStream* stream = nullptr) : m_stream(stream) {}
    ~BatchedWriter() { giveBackThreadBuffer(); }
    BatchedWriter(const BatchedWriter&) = delete;
    BatchedWriter& operator=(const BatchedWriter&) = delete;
    void setStream(TcpStream* stream) { m_stream = stream; }

    // Called with the bytes the kernel took at once on each write: the stream's onBytesWritten()
    // reports only what it queued, so together they account for every byte (backpressure).
    void onWrittenDirectly(std::function<void(std::size_t)> f) { m_writtenDirectly = std::move(f); }

    // Sends n bytes: after the current batch, or now when none is open.
    void send(const uint8_t* p, std::size_t n) {
        if (m_depth == 0 && m_active->empty() && m_stream) return write(p, n);
        m_active->append(p, n);
        ++m_messages;
        if (m_depth == 0) flush();
    }
    // Writes what is gathered (the buffer keeps its capacity); without a stream it stays gathered.
    void flush() {
        if (m_active->empty() || !m_stream) return;
        write(m_active->data(), m_active->size());
        m_active->clear();
        m_messages = 0;
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
        explicit Batch(BatchedWriter& w) : m_w(w) {
            if (m_w.m_depth++ == 0 && m_w.m_out.empty()) m_w.lendThreadBuffer();
        }
        ~Batch() {
            if (--m_w.m_depth == 0) {
                m_w.flush();
                m_w.giveBackThreadBuffer();
            }
        }
        Batch(const Batch&) = delete;
        Batch& operator=(const Batch&) = delete;

    private:
        BatchedWriter& m_w;
    };

private:
    struct BatchBuffer;  // the tag of the thread's buffer
    void write(const uint8_t* p, std::size_t n) {
        const std::size_t sent = m_stream->write(p, n);
        if (sent && m_writtenDirectly) m_writtenDirectly(sent);
    }
    void lendThreadBuffer() {
        if (Buffer* b = ThreadBuffer<BatchBuffer>::lend()) m_active = b;
    }
    // What a batch gathered without a stream to write it to stays gathered, in the writer's own.
    void giveBackThreadBuffer() {
        if (m_active == &m_out) return;
        m_out.append(m_active->data(), m_active->size());
        ThreadBuffer<BatchBuffer>::giveBack(m_active);
        m_active = &m_out;
    }

    TcpStream* m_stream;
    std::function<void(std::size_t)> m_writtenDirectly;
    Buffer m_out;                 // gathered outside a batch, or when the thread's buffer was lent
    Buffer* m_active = &m_out;    // where messages are gathered: m_out, or the thread's during a batch
    std::size_t m_messages = 0;
    int m_depth = 0;
};

} // namespace ua
