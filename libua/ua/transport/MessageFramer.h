// Cuts whole UA-TCP messages (OPC 10000-6 7.1.2.2: 8-byte header, MessageSize included) out of a
// byte stream, for both ends of a connection. One reused buffer: consumed bytes are compacted away
// before new ones are appended, so steady traffic allocates nothing.
//
// Bytes are read through one buffer per thread. readInPlace() cuts the messages of a read straight
// out of that buffer when no partial message waits (the usual case: a request arrives whole), and
// only what is left when reading stops (a partial message, or messages held back while reading is
// paused) is copied into the framer's own buffer, by keepRest(). At thousands of connections that
// spares each request the copy into a buffer of its connection, which is cold (docs/Benchmarks.md
// "Cold lines per request").
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/transport/TcpMessages.h"

#include "ua/transport/TcpStream.h"

#include <memory>

namespace ua {

class MessageFramer {
public:
    MessageFramer() = default;
    MessageFramer(const MessageFramer&) = delete;
    MessageFramer& operator=(const MessageFramer&) = delete;
    ~MessageFramer() {
        if (viewOwner() == this) viewOwner() = nullptr;
    }

    enum class Result {
        Message,      // p/n hold one whole message (valid until the next read, append() or keepRest())
        NeedMore,     // wait for more bytes
        UnknownType,  // a MessageType that is not HEL/ACK/ERR/RHE/OPN/MSG/CLO
        TooSmall,     // MessageSize below the 8-byte header
        TooLarge,     // MessageSize above maxSize (the ReceiveBufferSize we announced)
    };

    // Bytes read from a stream at most at once (kReadChunk): through one buffer per thread, so
    // that the framer's own buffer grows only to the largest message, not to the largest read.
    static constexpr std::size_t kReadChunk = 65536;

    // Reads once from stream and appends what came; returns what stream.read() returned (bytes, 0
    // for none now, -1 for a closed stream).
    std::ptrdiff_t readFrom(TcpStream& stream) {
        uint8_t* chunk = threadChunk();
        const std::ptrdiff_t n = stream.read(chunk, kReadChunk);
        if (n > 0) append(reinterpret_cast<const char*>(chunk), std::size_t(n));
        return n;
    }

    // Like readFrom(), but when nothing waits in the framer the bytes stay in the thread's buffer
    // and next() cuts them there. Call it inside a KeepRest guard, which ends before the caller
    // returns to the event loop: the guard copies what is left into the framer's own buffer, and
    // the messages next() returned are valid until then. Until the outermost guard ends, any other
    // readInPlace() on the thread (from a handler that runs a nested event loop, which libua's I/O
    // threads never do) copies into its framer's own buffer instead, so it cannot overwrite them.
    std::ptrdiff_t readInPlace(TcpStream& stream) {
        keepRest();  // before the read overwrites the thread's buffer
        if (viewOwner()) return readFrom(stream);  // nested: the thread's buffer is in use
        uint8_t* chunk = inPlaceChunk();
        const std::ptrdiff_t n = stream.read(chunk, kReadChunk);
        if (n <= 0) return n;
        if (m_offset < m_buffer.size()) {  // after a partial message: in order, behind it
            append(reinterpret_cast<const char*>(chunk), std::size_t(n));
        } else {
            m_view = chunk;
            m_viewSize = uint32_t(n);  // at most kReadChunk
            m_viewOffset = 0;
            viewOwner() = this;
        }
        return n;
    }
    // Copies what readInPlace() left unconsumed in the thread's buffer into the framer's own.
    // (The message being processed stays where it is: the thread's buffer is this framer's until
    // its outermost KeepRest ends.)
    void keepRest() {
        if (!m_view) return;
        const uint8_t* rest = m_view + m_viewOffset;
        const std::size_t left = m_viewSize - m_viewOffset;
        m_view = nullptr;
        if (left) append(reinterpret_cast<const char*>(rest), left);
    }
    // The scope of one readInPlace() and the processing of its messages: calls keepRest() when it
    // ends, and the outermost one gives the thread's buffer back.
    class KeepRest {
    public:
        explicit KeepRest(MessageFramer& f) : m_f(f) { ++m_f.m_scopes; }
        ~KeepRest() {
            m_f.keepRest();
            if (--m_f.m_scopes == 0 && viewOwner() == &m_f) viewOwner() = nullptr;
        }
        KeepRest(const KeepRest&) = delete;
        KeepRest& operator=(const KeepRest&) = delete;

    private:
        MessageFramer& m_f;
    };

    // Appends n bytes read elsewhere (behind what readInPlace() left, which is kept first).
    void append(const char* p, std::size_t n) {
        keepRest();
        compact();
        m_buffer.append(p, n);
    }

    // The next whole message, if one has arrived.
    Result next(uint32_t maxSize, const uint8_t*& p, std::size_t& n) {
        if (m_view) return cut(m_view, m_viewSize, m_viewOffset, maxSize, p, n);
        return cut(m_buffer.data(), m_buffer.size(), m_offset, maxSize, p, n);
    }

    // True when bytes wait in the framer's own buffer (a partial message, or messages not yet cut).
    bool buffered() const { return m_offset < m_buffer.size(); }
    // Bytes of storage held (for tests and diagnostics).
    std::size_t capacity() const { return m_buffer.capacity(); }
    // Gives the buffer back when it is above keep bytes and holds no unconsumed byte (no partial
    // message pending); true when it did. Every pointer next() returned becomes invalid.
    bool releaseIfIdle(std::size_t keep) {
        if (m_view || m_offset < m_buffer.size()) return false;
        m_offset = 0;
        m_buffer.clear();
        return m_buffer.releaseAbove(keep);
    }

private:
    // readFrom()'s buffer, copied from at once, and readInPlace()'s, which holds messages until
    // keepRest(): two, so that a readFrom() on the same thread meanwhile (a test's client fed
    // synchronously by a server's write) cannot overwrite them.
    static uint8_t* threadChunk() {
        thread_local const std::unique_ptr<uint8_t[]> chunk(new uint8_t[kReadChunk]);
        return chunk.get();
    }
    static uint8_t* inPlaceChunk() {
        thread_local const std::unique_ptr<uint8_t[]> chunk(new uint8_t[kReadChunk]);
        return chunk.get();
    }
    // The framer whose messages are in inPlaceChunk() now, if any.
    static const MessageFramer*& viewOwner() {
        thread_local const MessageFramer* owner = nullptr;
        return owner;
    }
    template <class Offset>
    static Result cut(const uint8_t* data, std::size_t size, Offset& offset, uint32_t maxSize, const uint8_t*& p,
                      std::size_t& n) {
        if (size - offset < kTcpHeaderSize) return Result::NeedMore;
        const uint8_t* at = data + offset;
        const TcpHeader h = readTcpHeader(at);
        if (!isKnownMessageType(h.type)) return Result::UnknownType;
        if (h.messageSize < kTcpHeaderSize) return Result::TooSmall;
        if (h.messageSize > maxSize) return Result::TooLarge;
        if (size - offset < h.messageSize) return Result::NeedMore;
        offset += Offset(h.messageSize);
        p = at;
        n = h.messageSize;
        return Result::Message;
    }
    void compact() {
        if (m_offset == 0) return;
        const std::size_t left = m_buffer.size() - m_offset;
        std::memmove(m_buffer.data(), m_buffer.data() + m_offset, left);
        m_buffer.resize(left);
        m_offset = 0;
    }

    Buffer m_buffer;
    std::size_t m_offset = 0;
    const uint8_t* m_view = nullptr;  // readInPlace(): the thread's buffer, until keepRest()
    // 32 bits: a view is one read, at most kReadChunk bytes. (The framer is among the connection's
    // per-request fields: 56 bytes, not 64.)
    uint32_t m_viewSize = 0;
    uint32_t m_viewOffset = 0;
    int m_scopes = 0;  // KeepRest guards open
};

static_assert(MessageFramer::kReadChunk <= UINT32_MAX);

} // namespace ua
