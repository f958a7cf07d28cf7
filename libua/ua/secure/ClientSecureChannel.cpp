#include "ua/secure/ClientSecureChannel.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/SecurityPolicy.h"

#include <algorithm>

namespace ua {

namespace {
// Keeps text in the channel's slot and returns a view of it (Event::reason, valid until the next
// message).
std::string_view keep(std::string& slot, std::string text) {
    slot = std::move(text);
    return slot;
}

constexpr std::size_t kSymmetricHeaderSize = kMessageHeaderSize + kSymmetricSecurityHeaderSize;

uint32_t readU32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
} // namespace

ClientSecureChannel::ClientSecureChannel(const TransportLimits& ours, Sender send, ClientChannelSecurity security)
    : m_ours(ours), m_send(std::move(send)), m_security(std::move(security)),
      m_policy(&ua::securityPolicy(m_security.policy)), m_sendSequence(m_security.firstSequenceNumber) {}

ClientSecureChannel::~ClientSecureChannel() = default;

ClientSecureChannel::Event ClientSecureChannel::fatal(StatusCode s, std::string reason) {
    Event e;
    e.kind = Event::Kind::Fatal;
    e.error = s;
    e.reason = keep(m_reason, std::move(reason));
    m_open = false;
    m_failed = true;
    return e;
}

bool ClientSecureChannel::acceptSequenceNumber(uint32_t seq) {
    if (m_haveReceivedSequence && !sequenceNumberFollows(m_lastReceivedSequence, seq)) return false;
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
    req.securityMode = m_security.mode;
    if (m_policy->id == SecurityPolicyId::None) {
        m_clientNonce = ByteString("");
    } else if (m_policy->isEcc()) {
        // 6.8.1: a new EphemeralKey for each Issue and Renew; its public key is the ClientNonce.
        m_ephemeral = crypto::EphemeralKey::generate(*m_policy);
        const std::vector<uint8_t>& key = m_ephemeral.publicKey();
        m_clientNonce.assign(reinterpret_cast<const char*>(key.data()), key.size());
    } else {
        const auto nonce = crypto::randomBytes(m_policy->nonceLength);
        m_clientNonce.assign(reinterpret_cast<const char*>(nonce.data()), nonce.size());
    }
    req.clientNonce = m_clientNonce;
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
    if (m_sendChunkSize == 0) return status::BadSecureChannelClosed;  // no Acknowledge yet
    // 7.1.2.4: a request over the server's MaxMessageSize or MaxChunkCount is refused here, before
    // any chunk is sent, so no abort chunk is needed.
    uint32_t maxMessage = m_ack.maxMessageSize;
    if (m_maxRequestMessageSize && (!maxMessage || m_maxRequestMessageSize < maxMessage)) maxMessage = m_maxRequestMessageSize;
    const ChunkLimits limits{m_sendChunkSize, maxMessage, m_ack.maxChunkCount};
    m_out.clear();
    StatusCode s;
    if (type == TcpMessageType::OpenSecureChannel) {
        const bool secure = m_policy->id != SecurityPolicyId::None;
        const std::string thumbprint = secure ? m_security.serverCertificate.thumbprint() : std::string();
        if (secure && (m_security.clientKey.isNull() || m_security.serverCertificate.isNull()))
            return status::BadSecurityChecksFailed;
        const AsymmetricSecurity sec{m_policy, secure ? m_security.clientKey.get() : nullptr,
                                     secure ? m_security.serverCertificate.publicKey() : nullptr,
                                     secure ? std::string_view(m_security.clientCertificateChain) : std::string_view(),
                                     thumbprint};
        s = sealAsymmetric(m_out, m_token.channelId, sec, requestId, m_body.data(), m_body.size(), limits, m_sendSequence);
    } else {
        const SymmetricSecurity sec{m_security.mode, m_sendKeys.get(), m_token.tokenId};
        s = sealSymmetric(m_out, type, ChunkType::Final, m_token.channelId, sec, requestId, m_body.data(), m_body.size(),
                          limits, m_sendSequence);
    }
    if (s == StatusCode(status::BadEncodingLimitsExceeded)) return status::BadRequestTooLarge;
    if (s.isBad()) return s;
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
        if (err && err->reason.size() <= kMaxReasonLength) e.reason = keep(m_reason, err->reason.str());  // 7.1.2.5: ignore longer ones
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
    AsymmetricHeader ah;
    StatusCode s = parseAsymmetricHeader(p, n, 0, ah);
    if (s.isBad()) return fatal(s, "malformed OpenSecureChannel security header");
    const uint32_t channelId = readU32(p + 8);
    if (ah.policyUri != m_policy->uri) return fatal(status::BadSecurityPolicyRejected, "the server answered with another SecurityPolicy");
    const bool secure = m_policy->id != SecurityPolicyId::None;
    if (secure) {
        // The server must sign with the certificate we encrypted for, and name ours (6.7.2.3).
        const auto chain = Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(ah.senderCertificate.data()),
                                                     ah.senderCertificate.size());
        if (chain.empty() || !(chain.front() == m_security.serverCertificate))
            return fatal(status::BadCertificateInvalid, "the OpenSecureChannel response comes with another server certificate");
        const auto ours = Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(m_security.clientCertificateChain.data()),
                                                    m_security.clientCertificateChain.size());
        if (ours.empty() || ah.receiverThumbprint != ours.front().thumbprint())
            return fatal(status::BadCertificateInvalid, "the OpenSecureChannel response is not for our certificate");
    }
    OpenedChunk opened;
    const AsymmetricSecurity sec{m_policy, secure ? m_security.clientKey.get() : nullptr,
                                 secure ? m_security.serverCertificate.publicKey() : nullptr, {}, {}};
    s = openAsymmetric(p, n, ah.size, sec, m_scratch, opened);
    if (s.isBad()) return fatal(s, "the OpenSecureChannel response does not decrypt or verify");
    if (!acceptSequenceNumber(opened.sequenceNumber)) return fatal(status::BadSequenceNumberInvalid, "sequence number out of order");
    BinaryDecoder d(opened.body, opened.bodySize);
    NodeId typeId;
    decode(d, typeId);
    if (!d.ok()) return fatal(status::BadDecodingError, "malformed OpenSecureChannel response headers");
    Event e;
    e.kind = Event::Kind::Opened;
    e.requestId = opened.requestId;
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
    if (m_open && resp.securityToken.channelId != m_token.channelId)
        return fatal(status::BadSecureChannelIdInvalid, "a Renew changed the SecureChannelId");
    std::unique_ptr<crypto::SymmetricKeys> sendKeys, receiveKeys;
    if (secure) {
        if (resp.serverNonce.size() != m_policy->nonceLength)
            return fatal(status::BadNonceInvalid, "the ServerNonce does not have the SecurityPolicy's length");
        const auto* cn = reinterpret_cast<const uint8_t*>(m_clientNonce.data());
        const auto* sn = reinterpret_cast<const uint8_t*>(resp.serverNonce.data());
        if (m_policy->isEcc()) {
            // 6.8.1: ECDH of our EphemeralKey with the server's (the ServerNonce), then HKDF.
            std::vector<uint8_t> secret;
            if (m_ephemeral.isNull() || m_ephemeral.sharedSecret(sn, resp.serverNonce.size(), secret).isBad())
                return fatal(status::BadNonceInvalid, "the ServerNonce is not a public key on the SecurityPolicy's curve");
            const std::vector<uint8_t> clientNonce(cn, cn + m_clientNonce.size());
            const std::vector<uint8_t> serverNonce(sn, sn + resp.serverNonce.size());
            sendKeys = crypto::deriveEccChannelKeys(*m_policy, secret, crypto::EccKeySide::Client, clientNonce, serverNonce);
            receiveKeys = crypto::deriveEccChannelKeys(*m_policy, secret, crypto::EccKeySide::Server, clientNonce, serverNonce);
            crypto::wipe(secret.data(), secret.size());
        } else {
            // 6.7.5: the client sends with P_SHA(serverNonce, clientNonce), the server with P_SHA(clientNonce, serverNonce).
            sendKeys = crypto::SymmetricKeys::derive(*m_policy, sn, resp.serverNonce.size(), cn, m_clientNonce.size());
            receiveKeys = crypto::SymmetricKeys::derive(*m_policy, cn, m_clientNonce.size(), sn, resp.serverNonce.size());
        }
        if (!sendKeys || !receiveKeys) return fatal(status::BadSecurityChecksFailed, "key derivation failed");
    }
    if (m_open) {
        m_previousTokenId = m_token.tokenId;  // responses may still use it (6.7.4)
        m_previousReceiveKeys = std::move(m_receiveKeys);
    }
    m_sendKeys = std::move(sendKeys);  // requests use the new token at once
    m_receiveKeys = std::move(receiveKeys);
    m_serverNonce = resp.serverNonce;
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
    crypto::SymmetricKeys* keys = nullptr;
    if (tokenId == m_token.tokenId) {
        keys = m_receiveKeys.get();
    } else if (tokenId == m_previousTokenId && m_previousTokenId != 0) {
        keys = m_previousReceiveKeys.get();
    } else {
        return fatal(status::BadSecureChannelTokenUnknown, "unknown SecurityToken");
    }
    OpenedChunk opened;
    const StatusCode s = openSymmetric(p, n, SymmetricSecurity{m_security.mode, keys, tokenId}, m_scratch, opened);
    if (s.isBad()) return fatal(s, "the chunk's signature or padding is invalid");
    if (tokenId == m_token.tokenId && m_previousTokenId != 0) {
        m_previousTokenId = 0;  // the server uses the new token: the old one ends
        m_previousReceiveKeys.reset();
    }
    if (!acceptSequenceNumber(opened.sequenceNumber)) return fatal(status::BadSequenceNumberInvalid, "sequence number out of order");
    const uint32_t requestId = opened.requestId;
    const uint8_t* payload = opened.body;
    const std::size_t payloadSize = opened.bodySize;

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
        if (d.ok() && reason.size() <= kMaxReasonLength) e.reason = keep(m_reason, reason.str());
        return e;
    }
    if (chunk != ChunkType::Intermediate && chunk != ChunkType::Final)
        return fatal(status::BadTcpMessageTypeInvalid, "unknown chunk type");

    // "MessageChunks belonging to the same Message shall be sent sequentially" (OPC 10000-6 6.7.2):
    // a chunk of another response while one is reassembled is a broken or hostile server. Keeping
    // both would let it make us hold up to MaxMessageSize for every RequestId it names.
    if (!m_assemblies.empty() && m_assemblies.begin()->first != requestId)
        return fatal(status::BadDecodingError, "chunks of two responses interleaved");
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
    // The type id: every response type's is a namespace 0 numeric NodeId in the Four-Byte form
    // (OPC 10000-6 5.2.2.9: 0x01, namespace byte, UInt16 id), read here without decoding a NodeId;
    // any other form goes through the decoder.
    e.kind = Event::Kind::Response;
    if (bodySize >= 4 && body[0] == 0x01 && body[1] == 0) {
        e.typeId = uint32_t(body[2]) | uint32_t(body[3]) << 8;
        e.body = body + 4;
        e.bodySize = bodySize - 4;
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
    e.typeId = typeId.numeric();
    e.body = d.position();
    e.bodySize = d.remaining();
    return e;
}

} // namespace ua
