// Cuts whole UA-TCP messages (OPC 10000-6 7.1.2.2: 8-byte header, MessageSize included) out of a
// byte stream, for both ends of a connection. One reused buffer: consumed bytes are compacted away
// before new ones are appended, so steady traffic allocates nothing.
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/transport/TcpMessages.h"

#include <QIODevice>

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

    // Appends every byte the device has ready.
    void append(QIODevice& device) {
        const qint64 avail = device.bytesAvailable();
        if (avail <= 0) return;
        if (m_offset > 0) {
            const std::size_t left = m_buffer.size() - m_offset;
            std::memmove(m_buffer.data(), m_buffer.data() + m_offset, left);
            m_buffer.resize(left);
            m_offset = 0;
        }
        const std::size_t old = m_buffer.size();
        m_buffer.resize(old + std::size_t(avail));
        const qint64 got = device.read(reinterpret_cast<char*>(m_buffer.data() + old), avail);
        m_buffer.resize(old + std::size_t(std::max<qint64>(got, 0)));
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

private:
    Buffer m_buffer;
    std::size_t m_offset = 0;
};

} // namespace ua
