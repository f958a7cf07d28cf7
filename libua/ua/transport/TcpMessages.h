// OPC UA Connection Protocol (UACP) messages of OPC 10000-6 7.1.2: the 8-byte message header and
// the Hello, Acknowledge and Error messages, plus the buffer-size negotiation of 7.1.2.4.
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/types/StatusCode.h"
#include "ua/types/Strings.h"

#include <cstdint>
#include <cstring>
#include <optional>

namespace ua {

// The 3-byte message types of 7.1.2.2 and 6.7.2.2, as the little-endian UInt32 of the first
// four header bytes without the chunk type.
enum class TcpMessageType : uint32_t {
    Hello = 'H' | 'E' << 8 | 'L' << 16,
    Acknowledge = 'A' | 'C' << 8 | 'K' << 16,
    Error = 'E' | 'R' << 8 | 'R' << 16,
    ReverseHello = 'R' | 'H' << 8 | 'E' << 16,
    OpenSecureChannel = 'O' | 'P' << 8 | 'N' << 16,
    CloseSecureChannel = 'C' | 'L' << 8 | 'O' << 16,
    Message = 'M' | 'S' << 8 | 'G' << 16,
};

// IsFinal of 6.7.2.2: 'C' intermediate chunk, 'F' final chunk, 'A' abort.
enum class ChunkType : uint8_t { Intermediate = 'C', Final = 'F', Abort = 'A' };

inline constexpr std::size_t kTcpHeaderSize = 8;
inline constexpr uint32_t kMaxEndpointUrlLength = 4096;  // 7.1.2.3
inline constexpr uint32_t kMaxReasonLength = 4096;       // 7.1.2.5

struct TcpHeader {
    TcpMessageType type;
    uint8_t chunkType;  // raw byte; see ChunkType
    uint32_t messageSize;  // bytes, including this 8-byte header
};
// Reads the header from at least 8 bytes. Inline: it is read for every message on both sides, and
// a call assembling the struct on the stack cost a store-forwarding stall each time (3 % of the
// CPU of either side at read-1 10x100, perf).
inline TcpHeader readTcpHeader(const uint8_t* p) {
    TcpHeader h;
    h.type = TcpMessageType(uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16);
    h.chunkType = p[3];
    std::memcpy(&h.messageSize, p + 4, 4);
    return h;
}
// Writes a header at p (8 bytes).
void writeTcpHeader(uint8_t* p, TcpMessageType type, ChunkType chunk, uint32_t size);
bool isKnownMessageType(TcpMessageType t);

// Hello (7.1.2.3); sizes in bytes, 0 = no limit for maxMessageSize / maxChunkCount.
struct HelloMessage {
    uint32_t protocolVersion = 0;
    uint32_t receiveBufferSize = 65535;
    uint32_t sendBufferSize = 65535;
    uint32_t maxMessageSize = 0;
    uint32_t maxChunkCount = 0;
    String endpointUrl;
};

// Acknowledge (7.1.2.4).
struct AcknowledgeMessage {
    uint32_t protocolVersion = 0;
    uint32_t receiveBufferSize = 65535;
    uint32_t sendBufferSize = 65535;
    uint32_t maxMessageSize = 0;
    uint32_t maxChunkCount = 0;
};

// Error (7.1.2.5).
struct ErrorMessage {
    StatusCode error;
    String reason;
};

// Complete messages, header included, appended to out.
void encodeHello(Buffer& out, const HelloMessage& m);
void encodeAcknowledge(Buffer& out, const AcknowledgeMessage& m);
void encodeError(Buffer& out, const ErrorMessage& m);
// Decodes the body (after the 8-byte header); nullopt when malformed or trailing bytes remain.
std::optional<HelloMessage> decodeHello(const uint8_t* body, std::size_t n);
std::optional<AcknowledgeMessage> decodeAcknowledge(const uint8_t* body, std::size_t n);
std::optional<ErrorMessage> decodeError(const uint8_t* body, std::size_t n);

// What one side of a connection offers before the Hello/Acknowledge exchange.
struct TransportLimits {
    uint32_t receiveBufferSize = 65535;  // largest chunk we accept
    uint32_t sendBufferSize = 65535;     // largest chunk we send
    uint32_t maxMessageSize = 16 * 1024 * 1024;  // largest message body we accept (0: none)
    uint32_t maxChunkCount = 0;          // most chunks per message we accept (0: no limit)
};

// The server's answer to a Hello by 7.1.2.4: ReceiveBufferSize <= the Hello's SendBufferSize and
// SendBufferSize <= the Hello's ReceiveBufferSize, each at least 8192 when the Hello's value is at
// least 8192, else at least 1024. Bad_TcpInternalError... is not produced here: callers check
// helloBufferSizesValid() first.
AcknowledgeMessage negotiateAcknowledge(const HelloMessage& hello, const TransportLimits& ours);
// False when a Hello's buffer sizes are below the 1024 bytes any peer must accept.
bool helloBufferSizesValid(const HelloMessage& hello);

} // namespace ua
