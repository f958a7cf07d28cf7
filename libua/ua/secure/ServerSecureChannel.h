// The server side of one SecureChannel (OPC 10000-6 6.7, SecurityPolicy None): OpenSecureChannel
// issue and renew, SecurityTokens with their lifetime, sequence numbers, chunk reassembly and the
// chunking of responses. Transport-agnostic: it takes whole MessageChunks (header included, as the
// UA-TCP framer delivers them) and hands the bytes it sends to a callback, so tests can drive it
// without sockets. Owned and used by one thread (the connection's).
#pragma once

#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/Buffer.h"
#include "ua/transport/TcpMessages.h"

#include <functional>
#include <string>

namespace ua {

struct SecureChannelConfig {
    uint32_t minTokenLifetimeMs = 10'000;      // revisedLifetime is clamped into [min, max]
    uint32_t maxTokenLifetimeMs = 3'600'000;
};

class ServerSecureChannel {
public:
    // What one received chunk produced.
    struct Event {
        enum class Kind {
            None,     // an intermediate chunk, an abort chunk, or an OPN answered here
            Request,  // a complete service request: requestId, typeId, body
            Close,    // CloseSecureChannel: close the connection without a reply
            Fatal,    // protocol violation: send an ERR with error/reason, then close
        } kind = Kind::None;
        uint32_t requestId = 0;
        uint32_t typeId = 0;            // the request's DefaultBinary encoding id (ns 0)
        const uint8_t* body = nullptr;  // the encoded request after its type id; valid until the next onChunk
        std::size_t bodySize = 0;
        StatusCode error;
        std::string reason;
    };
    using Sender = std::function<void(const uint8_t* data, std::size_t size)>;

    ServerSecureChannel(uint32_t channelId, const HelloMessage& hello, const AcknowledgeMessage& ack,
                        const SecureChannelConfig& config, Sender send);

    // Processes one chunk (its 8-byte header included). nowMs: a monotonic clock in ms.
    Event onChunk(const uint8_t* chunk, std::size_t size, int64_t nowMs);

    // Encodes and sends a response (any generated response type) for requestId, in as many
    // chunks as the client's ReceiveBufferSize needs. A response over the client's MaxMessageSize
    // or MaxChunkCount is replaced by an abort chunk with Bad_ResponseTooLarge (6.7.3).
    template <class T>
    void sendResponse(uint32_t requestId, const T& response) {
        m_body.clear();
        BinaryEncoder e(m_body);
        encode(e, NodeId(T::kBinaryEncodingId));
        encode(e, response);
        if (!e.ok()) { sendAbort(requestId, e.status(), "the response could not be encoded"); return; }
        sendBody(TcpMessageType::Message, requestId);
    }
    // A ServiceFault (OPC 10000-4 7.33) for a request that failed as a whole.
    void sendServiceFault(uint32_t requestId, uint32_t requestHandle, StatusCode result);
    // An abort chunk (6.7.3) for requestId.
    void sendAbort(uint32_t requestId, StatusCode error, const char* reason);

    uint32_t channelId() const { return m_channelId; }
    bool isOpen() const { return m_open; }
    // True when the current SecurityToken has expired (its lifetime plus 25 %) without renewal.
    bool tokenExpired(int64_t nowMs) const;
    // The client's limits for what we send.
    const HelloMessage& hello() const { return m_hello; }

private:
    struct Token {
        uint32_t id = 0;
        int64_t createdMs = 0;
        uint32_t lifetimeMs = 0;
    };
    Event fatal(StatusCode s, std::string reason);
    Event handleOpen(const uint8_t* p, std::size_t n, int64_t nowMs);
    void sendBody(TcpMessageType type, uint32_t requestId);
    uint32_t nextSequenceNumber();

    uint32_t m_channelId;
    HelloMessage m_hello;
    AcknowledgeMessage m_ack;
    SecureChannelConfig m_config;
    Sender m_send;
    bool m_open = false;
    Token m_current;
    Token m_previous;  // still accepted until the client uses m_current (6.7.4)
    uint32_t m_nextTokenId = 1;
    uint32_t m_sendSequence = 1;
    uint32_t m_lastReceivedSequence = 0;
    bool m_haveReceivedSequence = false;
    // Reassembly of a multi-chunk request.
    Buffer m_assembly;
    uint32_t m_assemblyRequestId = 0;
    uint32_t m_assemblyChunks = 0;
    bool m_assembling = false;
    bool m_discarding = false;  // a too-large request whose remaining chunks are dropped
    Buffer m_body;  // the encoded response body, reused
    Buffer m_out;   // the chunks to send, reused
};

} // namespace ua
