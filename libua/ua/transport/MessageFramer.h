// Cuts whole UA-TCP messages (OPC 10000-6 7.1.2.2: 8-byte header, MessageSize included) out of a
// byte stream, for both ends of a connection. One reused buffer: consumed bytes are compacted away
// before new ones are appended, so steady traffic allocates nothing.
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/transport/TcpMessages.h"

#include "ua/transport/TcpStream.h"

#include <memory>

namespace ua {

class MessageFramer {
public:
    enum class Result {
        Message,      // p/n hold one whole message (valid until the next append())
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
        thread_local const std::unique_ptr<uint8_t[]> chunk(new uint8_t[kReadChunk]);
        const std::ptrdiff_t n = stream.read(chunk.get(), kReadChunk);
        if (n > 0) append(reinterpret_cast<const char*>(chunk.get()), std::size_t(n));
        return n;
    }

    // Appends n bytes read elsewhere.
    void append(const char* p, std::size_t n) {
        compact();
        m_buffer.append(p, n);
    }

    // The next whole message, if one has arrived.
    Result next(uint32_t maxSize, const uint8_t*& p, std::size_t& n) {
        if (m_buffer.size() - m_offset < kTcpHeaderSize) return Result::NeedMore;
        const uint8_t* at = m_buffer.data() + m_offset;
        const TcpHeader h = readTcpHeader(at);
        if (!isKnownMessageType(h.type)) return Result::UnknownType;
        if (h.messageSize < kTcpHeaderSize) return Result::TooSmall;
        if (h.messageSize > maxSize) return Result::TooLarge;
        if (m_buffer.size() - m_offset < h.messageSize) return Result::NeedMore;
        m_offset += h.messageSize;
        p = at;
        n = h.messageSize;
        return Result::Message;
    }

    // Bytes of storage held (for tests and diagnostics).
    std::size_t capacity() const { return m_buffer.capacity(); }
    // Gives the buffer back when it is above keep bytes and holds no unconsumed byte (no partial
    // message pending); true when it did. Every pointer next() returned becomes invalid.
    bool releaseIfIdle(std::size_t keep) {
        if (m_offset < m_buffer.size()) return false;
        m_offset = 0;
        m_buffer.clear();
        return m_buffer.releaseAbove(keep);
    }

private:
    void compact() {
        if (m_offset == 0) return;
        const std::size_t left = m_buffer.size() - m_offset;
        std::memmove(m_buffer.data(), m_buffer.data() + m_offset, left);
        m_buffer.resize(left);
        m_offset = 0;
    }

    Buffer m_buffer;
    std::size_t m_offset = 0;
};

} // namespace ua
