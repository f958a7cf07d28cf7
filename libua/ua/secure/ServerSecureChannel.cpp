#include "ua/secure/ServerSecureChannel.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"
#include "ua/secure/SecurityPolicy.h"

#include <algorithm>

namespace ua {

namespace {
constexpr std::size_t kSymmetricHeaderSize = 8 + 4 + 4;  // message header, SecureChannelId, TokenId
constexpr std::size_t kSequenceHeaderSize = 8;           // SequenceNumber, RequestId
// 6.7.2.4: sequence numbers wrap after UInt32.max - 1024 to a value below 1024.
constexpr uint32_t kSequenceWrapLimit = 4294966271u;

uint32_t readU32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
} // namespace

ServerSecureChannel::ServerSecureChannel(uint32_t channelId, const HelloMessage& hello, const AcknowledgeMessage& ack,
                                         const SecureChannelConfig& config, Sender send)
    : m_channelId(channelId), m_hello(hello), m_ack(ack), m_config(config), m_send(std::move(send)) {}

ServerSecureChannel::Event ServerSecureChannel::fatal(StatusCode s, std::string reason) {
    Event e;
    e.kind = Event::Kind::Fatal;
    e.error = s;
    e.reason = std::move(reason);
    m_open = false;
    return e;
}

bool ServerSecureChannel::tokenExpired(int64_t nowMs) const {
    if (!m_open) return false;
    return nowMs > m_current.createdMs + int64_t(m_current.lifetimeMs) * 5 / 4;
}

uint32_t ServerSecureChannel::nextSequenceNumber() {
    const uint32_t s = m_sendSequence;
    m_sendSequence = s >= kSequenceWrapLimit ? 1 : s + 1;
    return s;
}

ServerSecureChannel::Event ServerSecureChannel::onChunk(const uint8_t* p, std::size_t n, int64_t nowMs) {
    const TcpHeader h = readTcpHeader(p);
    if (h.type == TcpMessageType::OpenSecureChannel) return handleOpen(p, n, nowMs);
    if (h.type != TcpMessageType::Message && h.type != TcpMessageType::CloseSecureChannel)
        return fatal(status::BadTcpMessageTypeInvalid, "unexpected message type after Hello");
    if (n < kSymmetricHeaderSize + kSequenceHeaderSize) return fatal(status::BadDecodingError, "chunk shorter than its headers");
    if (!m_open) return fatal(status::BadSecureChannelIdInvalid, "no SecureChannel is open");
    if (readU32(p + 8) != m_channelId) return fatal(status::BadSecureChannelIdInvalid, "wrong SecureChannelId");
    const uint32_t tokenId = readU32(p + 12);
    if (tokenId == m_current.id) {
        m_previous = Token();  // the client uses the renewed token: the old one ends (6.7.4)
    } else if (tokenId != m_previous.id || m_previous.id == 0) {
        return fatal(status::BadSecureChannelTokenUnknown, "unknown SecurityToken");
    }
    if (tokenExpired(nowMs)) return fatal(status::BadSecureChannelClosed, "the SecurityToken has expired");
    const uint32_t seq = readU32(p + 16);
    const uint32_t requestId = readU32(p + 20);
    if (m_haveReceivedSequence) {
        const bool next = seq == m_lastReceivedSequence + 1;
        const bool wrapped = m_lastReceivedSequence > kSequenceWrapLimit && seq < 1024;
        if (!next && !wrapped) return fatal(status::BadSequenceNumberInvalid, "sequence number out of order");
    }
    m_lastReceivedSequence = seq;
    m_haveReceivedSequence = true;

    if (h.type == TcpMessageType::CloseSecureChannel) {
        Event e;
        e.kind = Event::Kind::Close;
        m_open = false;
        return e;
    }
    const uint8_t* payload = p + kSymmetricHeaderSize + kSequenceHeaderSize;
    const std::size_t payloadSize = n - kSymmetricHeaderSize - kSequenceHeaderSize;
    const auto chunk = ChunkType(h.chunkType);
    if (m_assembling && requestId != m_assemblyRequestId)
        return fatal(status::BadDecodingError, "chunks of two requests interleaved");

    if (chunk == ChunkType::Abort) {  // 6.7.3: the client gave up on this request
        m_assembling = m_discarding = false;
        m_assembly.clear();
        return {};
    }
    if (chunk != ChunkType::Intermediate && chunk != ChunkType::Final)
        return fatal(status::BadTcpMessageTypeInvalid, "unknown chunk type");

    const bool single = !m_assembling && chunk == ChunkType::Final;
    if (!single) {
        if (!m_assembling) {
            m_assembling = true;
            m_discarding = false;
            m_assemblyRequestId = requestId;
            m_assemblyChunks = 0;
            m_assembly.clear();
        }
        ++m_assemblyChunks;
        const bool tooManyChunks = m_ack.maxChunkCount && m_assemblyChunks > m_ack.maxChunkCount;
        const bool tooBig = m_ack.maxMessageSize && m_assembly.size() + payloadSize > m_ack.maxMessageSize;
        if (!m_discarding && (tooManyChunks || tooBig)) {
            // Bad_RequestTooLarge: answer at once, drop the rest of this request's chunks.
            m_discarding = true;
            m_assembly.clear();
            sendServiceFault(requestId, 0, status::BadRequestTooLarge);
        }
        if (!m_discarding) m_assembly.append(payload, payloadSize);
        if (chunk == ChunkType::Intermediate) return {};
        m_assembling = false;
        if (m_discarding) { m_discarding = false; return {}; }
    } else if (m_ack.maxMessageSize && payloadSize > m_ack.maxMessageSize) {
        sendServiceFault(requestId, 0, status::BadRequestTooLarge);
        return {};
    }
    const uint8_t* body = single ? payload : m_assembly.data();
    const std::size_t bodySize = single ? payloadSize : m_assembly.size();
    BinaryDecoder d(body, bodySize);
    NodeId typeId;
    decode(d, typeId);
    if (!d.ok() || typeId.namespaceIndex() != 0 || !typeId.isNumeric()) {
        sendServiceFault(requestId, 0, status::BadDecodingError);
        return {};
    }
    Event e;
    e.kind = Event::Kind::Request;
    e.requestId = requestId;
    e.typeId = typeId.numeric();
    e.body = d.position();
    e.bodySize = d.remaining();
    return e;
}

ServerSecureChannel::Event ServerSecureChannel::handleOpen(const uint8_t* p, std::size_t n, int64_t nowMs) {
    const TcpHeader h = readTcpHeader(p);
    if (ChunkType(h.chunkType) != ChunkType::Final) return fatal(status::BadTcpMessageTypeInvalid, "OpenSecureChannel must be one final chunk");
    if (n < 12) return fatal(status::BadDecodingError, "OpenSecureChannel chunk too short");
    const uint32_t channelId = readU32(p + 8);
    BinaryDecoder d(p + 12, n - 12);
    String policyUri;
    ByteString senderCertificate, receiverThumbprint;
    decode(d, policyUri);
    decode(d, senderCertificate);
    decode(d, receiverThumbprint);
    const uint32_t seq = d.readPod<uint32_t>();
    const uint32_t requestId = d.readPod<uint32_t>();
    NodeId typeId;
    decode(d, typeId);
    OpenSecureChannelRequest req;
    decode(d, req);
    if (!d.ok() || !d.atEnd() || !(typeId == NodeId(id::OpenSecureChannelRequest_Encoding_DefaultBinary)))
        return fatal(status::BadDecodingError, "malformed OpenSecureChannel request");
    if (policyUri.view() != kSecurityPolicyNone) return fatal(status::BadSecurityPolicyRejected, "only SecurityPolicy None is supported");
    if (req.securityMode != MessageSecurityMode::None) return fatal(status::BadSecurityModeRejected, "SecurityPolicy None needs MessageSecurityMode None");
    if (req.requestType == SecurityTokenRequestType::Issue) {
        if (m_open) return fatal(status::BadRequestTypeInvalid, "the SecureChannel is already open");
        if (channelId != 0 && channelId != m_channelId) return fatal(status::BadSecureChannelIdInvalid, "Issue with a foreign SecureChannelId");
    } else if (req.requestType == SecurityTokenRequestType::Renew) {
        if (!m_open) return fatal(status::BadRequestTypeInvalid, "Renew on a SecureChannel that is not open");
        if (channelId != m_channelId) return fatal(status::BadSecureChannelIdInvalid, "Renew with a wrong SecureChannelId");
        if (m_haveReceivedSequence && seq != m_lastReceivedSequence + 1 &&
            !(m_lastReceivedSequence > kSequenceWrapLimit && seq < 1024))
            return fatal(status::BadSequenceNumberInvalid, "sequence number out of order");
    } else {
        return fatal(status::BadRequestTypeInvalid, "unknown SecurityTokenRequestType");
    }
    m_lastReceivedSequence = seq;
    m_haveReceivedSequence = true;

    if (m_open) m_previous = m_current;
    m_current.id = m_nextTokenId++;
    m_current.createdMs = nowMs;
    m_current.lifetimeMs = std::clamp(req.requestedLifetime, m_config.minTokenLifetimeMs, m_config.maxTokenLifetimeMs);
    m_open = true;

    OpenSecureChannelResponse resp;
    resp.responseHeader.timestamp = DateTime::now();
    resp.responseHeader.requestHandle = req.requestHeader.requestHandle;
    resp.serverProtocolVersion = 0;
    resp.securityToken.channelId = m_channelId;
    resp.securityToken.tokenId = m_current.id;
    resp.securityToken.createdAt = DateTime::now();
    resp.securityToken.revisedLifetime = m_current.lifetimeMs;
    resp.serverNonce = ByteString("");
    m_body.clear();
    BinaryEncoder e(m_body);
    encode(e, NodeId(OpenSecureChannelResponse::kBinaryEncodingId));
    encode(e, resp);
    sendBody(TcpMessageType::OpenSecureChannel, requestId);
    return {};
}

void ServerSecureChannel::sendServiceFault(uint32_t requestId, uint32_t requestHandle, StatusCode result) {
    ServiceFault f;
    f.responseHeader.timestamp = DateTime::now();
    f.responseHeader.requestHandle = requestHandle;
    f.responseHeader.serviceResult = result;
    sendResponse(requestId, f);
}

void ServerSecureChannel::sendAbort(uint32_t requestId, StatusCode error, const char* reason) {
    m_body.clear();
    BinaryEncoder e(m_body);
    encode(e, error);
    encode(e, String(reason));
    m_out.clear();
    const std::size_t total = kSymmetricHeaderSize + kSequenceHeaderSize + m_body.size();
    uint8_t* h = m_out.grow(total);
    writeTcpHeader(h, TcpMessageType::Message, ChunkType::Abort, uint32_t(total));
    const uint32_t words[4] = {m_channelId, m_current.id, nextSequenceNumber(), requestId};
    std::memcpy(h + 8, words, 16);
    std::memcpy(h + 24, m_body.data(), m_body.size());
    m_send(m_out.data(), m_out.size());
}

void ServerSecureChannel::sendBody(TcpMessageType type, uint32_t requestId) {
    // Security header: asymmetric for OPN (None: policy URI, null certificate, null thumbprint).
    uint8_t secHeader[64];
    std::size_t secSize = 4;
    if (type == TcpMessageType::OpenSecureChannel) {
        const std::string_view uri = kSecurityPolicyNone;
        const int32_t len = int32_t(uri.size()), nullLen = -1;
        std::memcpy(secHeader, &len, 4);
        std::memcpy(secHeader + 4, uri.data(), uri.size());
        std::memcpy(secHeader + 4 + uri.size(), &nullLen, 4);
        std::memcpy(secHeader + 8 + uri.size(), &nullLen, 4);
        secSize = 12 + uri.size();
    } else {
        std::memcpy(secHeader, &m_current.id, 4);
    }
    const std::size_t headerSize = 12 + secSize + kSequenceHeaderSize;
    const std::size_t maxPayload = m_ack.sendBufferSize - headerSize;
    const std::size_t bodySize = m_body.size();
    const std::size_t chunks = std::max<std::size_t>(1, (bodySize + maxPayload - 1) / maxPayload);
    if ((m_hello.maxMessageSize && bodySize > m_hello.maxMessageSize) ||
        (m_hello.maxChunkCount && chunks > m_hello.maxChunkCount)) {
        sendAbort(requestId, status::BadResponseTooLarge, "the response exceeds the client's MaxMessageSize or MaxChunkCount");
        return;
    }
    m_out.clear();
    m_out.reserve(bodySize + chunks * headerSize);
    std::size_t offset = 0;
    for (std::size_t i = 0; i < chunks; ++i) {
        const std::size_t part = std::min(maxPayload, bodySize - offset);
        const std::size_t total = headerSize + part;
        uint8_t* c = m_out.grow(total);
        writeTcpHeader(c, type, i + 1 == chunks ? ChunkType::Final : ChunkType::Intermediate, uint32_t(total));
        std::memcpy(c + 8, &m_channelId, 4);
        std::memcpy(c + 12, secHeader, secSize);
        const uint32_t seq[2] = {nextSequenceNumber(), requestId};
        std::memcpy(c + 12 + secSize, seq, 8);
        std::memcpy(c + headerSize, m_body.data() + offset, part);
        offset += part;
    }
    m_send(m_out.data(), m_out.size());
}

} // namespace ua
