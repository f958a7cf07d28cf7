#include "ua/transport/TcpMessages.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"

#include <algorithm>

namespace ua {

void writeTcpHeader(uint8_t* p, TcpMessageType type, ChunkType chunk, uint32_t size) {
    const uint32_t t = uint32_t(type);
    p[0] = uint8_t(t);
    p[1] = uint8_t(t >> 8);
    p[2] = uint8_t(t >> 16);
    p[3] = uint8_t(chunk);
    std::memcpy(p + 4, &size, 4);
}

bool isKnownMessageType(TcpMessageType t) {
    switch (t) {
    case TcpMessageType::Hello:
    case TcpMessageType::Acknowledge:
    case TcpMessageType::Error:
    case TcpMessageType::ReverseHello:
    case TcpMessageType::OpenSecureChannel:
    case TcpMessageType::CloseSecureChannel:
    case TcpMessageType::Message: return true;
    }
    return false;
}

namespace {
template <class F>
void encodeMessage(Buffer& out, TcpMessageType type, F&& body) {
    const std::size_t start = out.size();
    out.grow(kTcpHeaderSize);
    BinaryEncoder e(out);
    body(e);
    writeTcpHeader(out.data() + start, type, ChunkType::Final, uint32_t(out.size() - start));
}
} // namespace

void encodeHello(Buffer& out, const HelloMessage& m) {
    encodeMessage(out, TcpMessageType::Hello, [&](BinaryEncoder& e) {
        encode(e, m.protocolVersion);
        encode(e, m.receiveBufferSize);
        encode(e, m.sendBufferSize);
        encode(e, m.maxMessageSize);
        encode(e, m.maxChunkCount);
        encode(e, m.endpointUrl);
    });
}

void encodeAcknowledge(Buffer& out, const AcknowledgeMessage& m) {
    encodeMessage(out, TcpMessageType::Acknowledge, [&](BinaryEncoder& e) {
        encode(e, m.protocolVersion);
        encode(e, m.receiveBufferSize);
        encode(e, m.sendBufferSize);
        encode(e, m.maxMessageSize);
        encode(e, m.maxChunkCount);
    });
}

void encodeError(Buffer& out, const ErrorMessage& m) {
    encodeMessage(out, TcpMessageType::Error, [&](BinaryEncoder& e) {
        encode(e, m.error);
        String reason = m.reason;
        if (reason.size() > kMaxReasonLength) reason = String(reason.view().substr(0, kMaxReasonLength));
        encode(e, reason);
    });
}

std::optional<HelloMessage> decodeHello(const uint8_t* body, std::size_t n) {
    EncodingLimits l;
    l.maxStringLength = int32_t(kMaxEndpointUrlLength);
    BinaryDecoder d(body, n, l);
    HelloMessage m;
    decode(d, m.protocolVersion);
    decode(d, m.receiveBufferSize);
    decode(d, m.sendBufferSize);
    decode(d, m.maxMessageSize);
    decode(d, m.maxChunkCount);
    decode(d, m.endpointUrl);
    if (!d.ok() || !d.atEnd()) return std::nullopt;
    return m;
}

std::optional<AcknowledgeMessage> decodeAcknowledge(const uint8_t* body, std::size_t n) {
    BinaryDecoder d(body, n);
    AcknowledgeMessage m;
    decode(d, m.protocolVersion);
    decode(d, m.receiveBufferSize);
    decode(d, m.sendBufferSize);
    decode(d, m.maxMessageSize);
    decode(d, m.maxChunkCount);
    if (!d.ok() || !d.atEnd()) return std::nullopt;
    return m;
}

std::optional<ErrorMessage> decodeError(const uint8_t* body, std::size_t n) {
    BinaryDecoder d(body, n);
    ErrorMessage m;
    decode(d, m.error);
    decode(d, m.reason);
    if (!d.ok() || !d.atEnd()) return std::nullopt;
    return m;
}

bool helloBufferSizesValid(const HelloMessage& h) {
    return h.receiveBufferSize >= 1024 && h.sendBufferSize >= 1024;
}

static uint32_t revise(uint32_t ours, uint32_t peers) {
    const uint32_t floor = peers >= 8192 ? 8192 : 1024;
    return std::min(peers, std::max(ours, floor));
}

AcknowledgeMessage negotiateAcknowledge(const HelloMessage& hello, const TransportLimits& ours) {
    AcknowledgeMessage a;
    a.protocolVersion = 0;
    a.receiveBufferSize = revise(ours.receiveBufferSize, hello.sendBufferSize);
    a.sendBufferSize = revise(ours.sendBufferSize, hello.receiveBufferSize);
    a.maxMessageSize = ours.maxMessageSize;
    a.maxChunkCount = ours.maxChunkCount;
    return a;
}

} // namespace ua
