#include "ua/secure/ClientSecureChannel.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
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

ClientSecureChannel::ClientSecureChannel(const TransportLimits& ours, Sender send) : m_ours(ours), m_send(std::move(send)) {}

ClientSecureChannel::Event ClientSecureChannel::fatal(StatusCode s, std::string reason) {
    Event e;
    e.kind = Event::Kind::Fatal;
    e.error = s;
    e.reason = std::move(reason);
    m_open = false;
    m_failed = true;
    return e;
}

uint32_t ClientSecureChannel::nextSequenceNumber() {
    const uint32_t s = m_sendSequence;
    m_sendSequence = s >= kSequenceWrapLimit ? 1 : s + 1;
    return s;
}

bool ClientSecureChannel::acceptSequenceNumber(uint32_t seq) {
    if (m_haveReceivedSequence) {
        const bool next = seq == m_lastReceivedSequence + 1;
        const bool wrapped = m_lastReceivedSequence > kSequenceWrapLimit && seq < 1024;
        if (!next && !wrapped) return false;
    }
    m_lastReceivedSequence = seq;
    m_haveReceivedSequence = true;
    return true;
}

void ClientSecureChannel::sendHello(std::string_view endpointUrl) {
    HelloMessage h;
    h.protocolVersion = 0;
    h.receiveBufferSize = m_ours.receiveBufferSize;
    h.sendBufferSize = m_ours.sendBufferSize;
    h.maxMessageSize = m_ours.maxMessageSize;
    h.maxChunkCount = m_ours.maxChunkCount;
    h.endpointUrl = String(endpointUrl);
    m_out.clear();
    encodeHello(m_out, h);
    m_helloSent = true;
    m_send(m_out.data(), m_out.size());
}

void ClientSecureChannel::sendOpen(uint32_t requestId, SecurityTokenRequestType type, uint32_t requestedLifetimeMs,
                                   const RequestHeader& header) {
    if (!m_acknowledged || m_failed) return;
    OpenSecureChannelRequest req;
    req.requestHeader = header;
    req.clientProtocolVersion = 0;
    req.requestType = type;
    req.securityMode = MessageSecurityMode::None;
    req.clientNonce = ByteString("");
    req.requestedLifetime = requestedLifetimeMs;
    m_body.clear();
    BinaryEncoder e(m_body);
    encode(e, NodeId(OpenSecureChannelRequest::kBinaryEncodingId));
    encode(e, req);
    sendBody(TcpMessageType::OpenSecureChannel, requestId);
}

void ClientSecureChannel::sendClose(uint32_t requestId, const RequestHeader& header) {
    if (!m_open) return;
    CloseSecureChannelRequest req;
    req.requestHeader = header;
    m_body.clear();
    BinaryEncoder e(m_body);
    encode(e, NodeId(CloseSecureChannelRequest::kBinaryEncodingId));
    encode(e, req);
    sendBody(TcpMessageType::CloseSecureChannel, requestId);
    m_open = false;
}

StatusCode ClientSecureChannel::sendBody(TcpMessageType type, uint32_t requestId) {
    // Security header: asymmetric for OPN (None: policy URI, null certificate, null thumbprint),
    // else the TokenId.
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
        std::memcpy(secHeader, &m_token.tokenId, 4);
    }
    const std::size_t headerSize = 12 + secSize + kSequenceHeaderSize;
    if (m_sendChunkSize <= headerSize) return status::BadSecureChannelClosed;  // no Acknowledge yet
    const std::size_t maxPayload = m_sendChunkSize - headerSize;
    const std::size_t bodySize = m_body.size();
    const std::size_t chunks = std::max<std::size_t>(1, (bodySize + maxPayload - 1) / maxPayload);
    // 7.1.2.4: a request over the server's MaxMessageSize or MaxChunkCount is refused here, before
    // any chunk is sent, so no abort chunk is needed.
    uint32_t maxMessage = m_ack.maxMessageSize;
    if (m_maxRequestMessageSize && (!maxMessage || m_maxRequestMessageSize < maxMessage)) maxMessage = m_maxRequestMessageSize;
    if ((maxMessage && bodySize > maxMessage) || (m_ack.maxChunkCount && chunks > m_ack.maxChunkCount))
        return status::BadRequestTooLarge;
    const uint32_t channelId = m_token.channelId;
    m_out.clear();
    m_out.reserve(bodySize + chunks * headerSize);
    std::size_t offset = 0;
    for (std::size_t i = 0; i < chunks; ++i) {
        const std::size_t part = std::min(maxPayload, bodySize - offset);
        const std::size_t total = headerSize + part;
        uint8_t* c = m_out.grow(total);
        writeTcpHeader(c, type, i + 1 == chunks ? ChunkType::Final : ChunkType::Intermediate, uint32_t(total));
        std::memcpy(c + 8, &channelId, 4);
        std::memcpy(c + 12, secHeader, secSize);
        const uint32_t seq[2] = {nextSequenceNumber(), requestId};
        std::memcpy(c + 12 + secSize, seq, 8);
        std::memcpy(c + headerSize, m_body.data() + offset, part);
        offset += part;
    }
    m_send(m_out.data(), m_out.size());
    return status::Good;
}

ClientSecureChannel::Event ClientSecureChannel::onMessage(const uint8_t* p, std::size_t n, int64_t nowMs) {
    if (m_failed) return {};
    if (n < kTcpHeaderSize) return fatal(status::BadTcpMessageTypeInvalid, "message shorter than its header");
    const TcpHeader h = readTcpHeader(p);
    switch (h.type) {
    case TcpMessageType::Acknowledge: {
        if (!m_helloSent || m_acknowledged) return fatal(status::BadTcpMessageTypeInvalid, "unexpected Acknowledge");
        const auto ack = decodeAcknowledge(p + kTcpHeaderSize, n - kTcpHeaderSize);
        if (!ack) return fatal(status::BadDecodingError, "malformed Acknowledge");
        // 7.1.2.4: a ReceiveBufferSize below 1024 leaves no room for a chunk.
        if (ack->receiveBufferSize < 1024) return fatal(status::BadTcpInternalError, "Acknowledge with a ReceiveBufferSize below 1024");
        m_ack = *ack;
        m_sendChunkSize = std::min(m_ack.receiveBufferSize, m_ours.sendBufferSize);
        m_acknowledged = true;
        Event e;
        e.kind = Event::Kind::Acknowledged;
        return e;
    }
    case TcpMessageType::Error: {
        const auto err = decodeError(p + kTcpHeaderSize, n - kTcpHeaderSize);
        Event e;
        e.kind = Event::Kind::PeerError;
        e.error = err ? err->error : status::BadTcpInternalError;
        if (err && err->reason.size() <= kMaxReasonLength) e.reason = err->reason.str();  // 7.1.2.5: ignore longer ones
        m_open = false;
        m_failed = true;
        return e;
    }
    case TcpMessageType::OpenSecureChannel:
        if (!m_acknowledged) return fatal(status::BadTcpMessageTypeInvalid, "OpenSecureChannel before Acknowledge");
        return handleOpenResponse(p, n, nowMs);
    case TcpMessageType::Message: return handleSymmetric(p, n);
    default: return fatal(status::BadTcpMessageTypeInvalid, "unexpected message type from the server");
    }
}

ClientSecureChannel::Event ClientSecureChannel::handleOpenResponse(const uint8_t* p, std::size_t n, int64_t nowMs) {
    if (ChunkType(p[3]) != ChunkType::Final) return fatal(status::BadTcpMessageTypeInvalid, "OpenSecureChannel response in more than one chunk");
    if (n < 12) return fatal(status::BadDecodingError, "OpenSecureChannel response too short");
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
    if (!d.ok()) return fatal(status::BadDecodingError, "malformed OpenSecureChannel response headers");
    if (policyUri.view() != kSecurityPolicyNone) return fatal(status::BadSecurityPolicyRejected, "the server answered with another SecurityPolicy");
    if (!acceptSequenceNumber(seq)) return fatal(status::BadSequenceNumberInvalid, "sequence number out of order");
    Event e;
    e.kind = Event::Kind::Opened;
    e.requestId = requestId;
    if (typeId == NodeId(ServiceFault::kBinaryEncodingId)) {
        ServiceFault f;
        decode(d, f);
        e.error = d.ok() && f.responseHeader.serviceResult.isBad() ? f.responseHeader.serviceResult : status::BadDecodingError;
        return e;
    }
    OpenSecureChannelResponse resp;
    decode(d, resp);
    if (!d.ok() || !d.atEnd() || !(typeId == NodeId(OpenSecureChannelResponse::kBinaryEncodingId)))
        return fatal(status::BadDecodingError, "malformed OpenSecureChannel response");
    if (resp.responseHeader.serviceResult.isBad()) {
        e.error = resp.responseHeader.serviceResult;
        return e;
    }
    if (resp.securityToken.channelId != channelId || resp.securityToken.channelId == 0)
        return fatal(status::BadSecureChannelIdInvalid, "the SecurityToken names another SecureChannelId");
    if (m_open) {
        if (resp.securityToken.channelId != m_token.channelId)
            return fatal(status::BadSecureChannelIdInvalid, "a Renew changed the SecureChannelId");
        m_previousTokenId = m_token.tokenId;  // responses may still use it (6.7.4)
    }
    m_token = resp.securityToken;
    m_tokenReceivedMs = nowMs;
    m_open = true;
    return e;
}

ClientSecureChannel::Event ClientSecureChannel::handleSymmetric(const uint8_t* p, std::size_t n) {
    if (!m_open) return fatal(status::BadSecureChannelIdInvalid, "a message before the SecureChannel is open");
    if (n < kSymmetricHeaderSize + kSequenceHeaderSize) return fatal(status::BadDecodingError, "chunk shorter than its headers");
    if (readU32(p + 8) != m_token.channelId) return fatal(status::BadSecureChannelIdInvalid, "wrong SecureChannelId");
    const uint32_t tokenId = readU32(p + 12);
    if (tokenId != m_token.tokenId && (tokenId != m_previousTokenId || m_previousTokenId == 0))
        return fatal(status::BadSecureChannelTokenUnknown, "unknown SecurityToken");
    if (!acceptSequenceNumber(readU32(p + 16))) return fatal(status::BadSequenceNumberInvalid, "sequence number out of order");
    const uint32_t requestId = readU32(p + 20);
    const uint8_t* payload = p + kSymmetricHeaderSize + kSequenceHeaderSize;
    const std::size_t payloadSize = n - kSymmetricHeaderSize - kSequenceHeaderSize;

    Event e;
    e.requestId = requestId;
    const auto chunk = ChunkType(p[3]);
    if (chunk == ChunkType::Abort) {  // 6.7.3: the server gave up on this response
        m_assemblies.erase(requestId);
        BinaryDecoder d(payload, payloadSize);
        StatusCode error;
        String reason;
        decode(d, error);
        decode(d, reason);
        e.kind = Event::Kind::Aborted;
        e.error = d.ok() && error.isBad() ? error : status::BadTcpInternalError;
        if (d.ok() && reason.size() <= kMaxReasonLength) e.reason = reason.str();
        return e;
    }
    if (chunk != ChunkType::Intermediate && chunk != ChunkType::Final)
        return fatal(status::BadTcpMessageTypeInvalid, "unknown chunk type");

    const uint8_t* body = payload;
    std::size_t bodySize = payloadSize;
    auto it = m_assemblies.find(requestId);
    if (chunk == ChunkType::Intermediate || it != m_assemblies.end()) {
        if (it == m_assemblies.end()) it = m_assemblies.emplace(requestId, Assembly()).first;
        Assembly& a = it->second;
        ++a.chunks;
        const bool tooManyChunks = m_ours.maxChunkCount && a.chunks > m_ours.maxChunkCount;
        const bool tooBig = m_ours.maxMessageSize && a.data.size() + payloadSize > m_ours.maxMessageSize;
        if (!a.discarding && (tooManyChunks || tooBig)) {
            // The server should have aborted it (7.1.2.3); fail the request now, drop the rest.
            a.discarding = true;
            a.data = Buffer();
            if (chunk == ChunkType::Final) m_assemblies.erase(it);
            e.kind = Event::Kind::Aborted;
            e.error = status::BadResponseTooLarge;
            e.reason = "the response exceeds our MaxMessageSize or MaxChunkCount";
            return e;
        }
        if (a.discarding) {
            if (chunk == ChunkType::Final) m_assemblies.erase(it);
            return {};
        }
        a.data.append(payload, payloadSize);
        if (chunk == ChunkType::Intermediate) return {};
        m_completed = std::move(a.data);
        m_assemblies.erase(it);
        body = m_completed.data();
        bodySize = m_completed.size();
    } else if (m_ours.maxMessageSize && payloadSize > m_ours.maxMessageSize) {
        e.kind = Event::Kind::Aborted;
        e.error = status::BadResponseTooLarge;
        e.reason = "the response exceeds our MaxMessageSize";
        return e;
    }
    BinaryDecoder d(body, bodySize);
    NodeId typeId;
    decode(d, typeId);
    if (!d.ok() || typeId.namespaceIndex() != 0 || !typeId.isNumeric()) {
        e.kind = Event::Kind::Aborted;
        e.error = status::BadDecodingError;
        e.reason = "the response's type id does not decode";
        return e;
    }
    e.kind = Event::Kind::Response;
    e.typeId = typeId.numeric();
    e.body = d.position();
    e.bodySize = d.remaining();
    return e;
}

} // namespace ua
