#include "ua/secure/ServerSecureChannel.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"
#include "ua/secure/AsymmetricCrypto.h"

#include <algorithm>

namespace ua {

namespace {
constexpr std::size_t kSymmetricHeaderSize = kMessageHeaderSize + kSymmetricSecurityHeaderSize;

uint32_t readU32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
} // namespace

bool ServerChannelSecurity::allowsPolicy(SecurityPolicyId p) const {
    return std::any_of(offers.begin(), offers.end(), [p](const Offer& o) { return o.policy == p; });
}

bool ServerChannelSecurity::allows(SecurityPolicyId p, MessageSecurityMode m) const {
    return std::any_of(offers.begin(), offers.end(), [p, m](const Offer& o) { return o.policy == p && o.mode == m; });
}

namespace {
const ServerChannelSecurity::EccIdentity* eccIdentityOf(const ServerChannelSecurity& s, const SecurityPolicy& policy) {
    switch (policy.curve) {
    case EccCurve::NistP256:
        return &s.eccNistP256;
    case EccCurve::NistP384:
        return &s.eccNistP384;
    case EccCurve::None:
        break;
    }
    return nullptr;
}
} // namespace

const Certificate& ServerChannelSecurity::certificateFor(const SecurityPolicy& policy) const {
    const EccIdentity* ecc = eccIdentityOf(*this, policy);
    return ecc ? ecc->certificate : certificate;
}

const std::string& ServerChannelSecurity::certificateChainFor(const SecurityPolicy& policy) const {
    const EccIdentity* ecc = eccIdentityOf(*this, policy);
    return ecc ? ecc->certificateChain : certificateChain;
}

const PrivateKey& ServerChannelSecurity::privateKeyFor(const SecurityPolicy& policy) const {
    const EccIdentity* ecc = eccIdentityOf(*this, policy);
    return ecc ? ecc->privateKey : privateKey;
}

ServerSecureChannel::ServerSecureChannel(uint32_t channelId, const HelloMessage& hello, const AcknowledgeMessage& ack,
                                         const SecureChannelConfig& config, Sender send)
    : m_channelId(channelId), m_sendSequence(config.firstSequenceNumber), m_ack(ack), m_send(std::move(send)),
      m_hello(hello), m_config(config), m_policy(&ua::securityPolicy(SecurityPolicyId::None)) {}

ServerSecureChannel::~ServerSecureChannel() { clearAssembly(); }

void ServerSecureChannel::clearAssembly() {
    // A large reassembly buffer is given back (the budget counts what incomplete requests hold;
    // an idle channel should not keep megabytes of capacity).
    if (m_assembly.capacity() > (256u << 10)) m_assembly = Buffer();
    else m_assembly.clear();
    // The buffer, left out of what its connection keeps while a request was reassembled in it, can
    // now be given back by the connection's idle check (ServerConnection::releaseIdleBuffers).
    if (m_assembly.capacity()) m_ownBuffersUsed = true;
    if (m_assemblyReserved && m_config.chunkBudget) m_config.chunkBudget->release(m_assemblyReserved);
    m_assemblyReserved = 0;
}

std::size_t ServerSecureChannel::bufferCapacity() const {
    return m_assembly.capacity() + m_body.capacity() + m_out.capacity() + m_scratch.capacity();
}

std::size_t ServerSecureChannel::releaseIdleBuffers(std::size_t keep) {
    m_body.releaseAbove(keep);
    m_out.releaseAbove(keep);
    m_scratch.releaseAbove(keep);
    // A chunked request in progress (one being discarded appends nothing: its buffer is free).
    if ((m_assembling && !m_discarding) || m_assemblyReserved)
        return m_assembly.capacity() > keep ? m_assembly.capacity() : 0;
    m_assembly.releaseAbove(keep);
    return 0;
}

bool ServerSecureChannel::chunkedRequestExpired(int64_t nowMs) const {
    return m_assembling && m_config.chunkTimeoutMs && nowMs - m_assemblyStartMs > int64_t(m_config.chunkTimeoutMs);
}

namespace {

// What a refused client is told about its certificate (OPC 10000-4 5.6.2.3 Table 12, as clarified
// by OPC Mantis 8938): the problems it can act on (time, host name, URI, usage, revocation) pass
// through; anything that would tell what the trust list holds, or how the signature failed, is
// Bad_SecurityChecksFailed. The whole reason goes to the log and the audit event.
StatusCode clientMayKnow(StatusCode v) {
    switch (v.code) {
    case status::BadCertificateTimeInvalid.code:
    case status::BadCertificateIssuerTimeInvalid.code:
    case status::BadCertificateHostNameInvalid.code:
    case status::BadCertificateUriInvalid.code:
    case status::BadCertificateUseNotAllowed.code:
    case status::BadCertificateIssuerUseNotAllowed.code:
    case status::BadCertificateRevocationUnknown.code:
    case status::BadCertificateIssuerRevocationUnknown.code:
    case status::BadCertificateRevoked.code:
    case status::BadCertificateIssuerRevoked.code:
        return v;
    default:
        return status::BadSecurityChecksFailed;
    }
}

} // namespace

ServerSecureChannel::Event ServerSecureChannel::fatal(StatusCode s, std::string reason, StatusCode detail) {
    Event e;
    e.kind = Event::Kind::Fatal;
    e.error = s;
    e.detail = detail.isBad() ? detail : s;
    e.reason = std::move(reason);
    m_open = false;
    return e;
}

int64_t ServerSecureChannel::nextDeadlineMs() const {
    int64_t due = INT64_MAX;
    if (m_open) due = m_current.createdMs + int64_t(m_current.lifetimeMs) * 5 / 4 + 1;
    if (m_assembling && m_config.chunkTimeoutMs)
        due = std::min(due, m_assemblyStartMs + int64_t(m_config.chunkTimeoutMs) + 1);
    return due;
}

bool ServerSecureChannel::tokenExpired(int64_t nowMs) const {
    if (!m_open) return false;
    return nowMs > m_current.createdMs + int64_t(m_current.lifetimeMs) * 5 / 4;
}

std::string ServerSecureChannel::serverCertificateChain() const {
    if (m_policy->id == SecurityPolicyId::None || !m_config.security) return {};
    return m_config.security->certificateChainFor(*m_policy);
}

EVP_PKEY* ServerSecureChannel::serverPrivateKey() const {
    if (m_policy->id == SecurityPolicyId::None || !m_config.security) return nullptr;
    return m_config.security->privateKeyFor(*m_policy).get();
}

bool ServerSecureChannel::acceptSequence(uint32_t seq) {
    if (m_haveReceivedSequence && !sequenceNumberFollows(m_lastReceivedSequence, seq)) return false;
    m_lastReceivedSequence = seq;
    m_haveReceivedSequence = true;
    return true;
}

ServerSecureChannel::Event ServerSecureChannel::onChunk(const uint8_t* p, std::size_t n, int64_t nowMs) {
    const TcpHeader h = readTcpHeader(p);
    if (h.type == TcpMessageType::OpenSecureChannel) return handleOpen(p, n, nowMs);
    if (h.type != TcpMessageType::Message && h.type != TcpMessageType::CloseSecureChannel)
        return fatal(status::BadTcpMessageTypeInvalid, "unexpected message type after Hello");
    return handleSymmetric(p, n, nowMs);
}

ServerSecureChannel::Event ServerSecureChannel::handleSymmetric(const uint8_t* p, std::size_t n, int64_t nowMs) {
    const TcpHeader h = readTcpHeader(p);
    if (n < kSymmetricHeaderSize + kSequenceHeaderSize) return fatal(status::BadDecodingError, "chunk shorter than its headers");
    if (!m_open) return fatal(status::BadSecureChannelIdInvalid, "no SecureChannel is open");
    if (readU32(p + 8) != m_channelId) return fatal(status::BadSecureChannelIdInvalid, "wrong SecureChannelId");
    const uint32_t tokenId = readU32(p + 12);
    Token* token = nullptr;
    if (tokenId == m_current.id) {
        token = &m_current;
    } else if (tokenId == m_previous.id && m_previous.id != 0) {
        token = &m_previous;
    } else {
        return fatal(status::BadSecureChannelTokenUnknown, "unknown SecurityToken");
    }
    if (tokenExpired(nowMs)) return fatal(status::BadSecureChannelClosed, "the SecurityToken has expired");
    OpenedChunk opened;
    // SignAndEncrypt decrypts into m_scratch: the idle check is told when that made it grow.
    const bool decrypts = m_mode == MessageSecurityMode::SignAndEncrypt;
    const std::size_t scratchBefore = decrypts ? m_scratch.capacity() : 0;
    const StatusCode s = openSymmetric(p, n, SymmetricSecurity{m_mode, token->receiveKeys.get(), tokenId}, m_scratch, opened);
    if (decrypts && m_scratch.capacity() != scratchBefore) m_ownBuffersUsed = true;
    if (s.isBad()) return fatal(s, "the chunk's signature or padding is invalid");
    if (token == &m_current && m_previous.id != 0) {
        m_previous = Token();  // the client uses the renewed token: the old one ends (6.7.4)
        m_sendWithPrevious = false;
    }
    if (!acceptSequence(opened.sequenceNumber)) return fatal(status::BadSequenceNumberInvalid, "sequence number out of order");
    const uint32_t requestId = opened.requestId;

    if (h.type == TcpMessageType::CloseSecureChannel) {
        Event e;
        e.kind = Event::Kind::Close;
        m_open = false;
        return e;
    }
    const uint8_t* payload = opened.body;
    const std::size_t payloadSize = opened.bodySize;
    const auto chunk = ChunkType(h.chunkType);
    if (m_assembling && requestId != m_assemblyRequestId)
        return fatal(status::BadDecodingError, "chunks of two requests interleaved");

    if (chunk == ChunkType::Abort) {  // 6.7.3: the client gave up on this request (checked above)
        m_assembling = m_discarding = false;
        clearAssembly();
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
            m_assemblyStartMs = nowMs;
            clearAssembly();
        }
        ++m_assemblyChunks;
        const bool tooManyChunks = m_ack.maxChunkCount && m_assemblyChunks > m_ack.maxChunkCount;
        const bool tooBig = m_ack.maxMessageSize && m_assembly.size() + payloadSize > m_ack.maxMessageSize;
        if (!m_discarding && (tooManyChunks || tooBig)) {
            // Bad_RequestTooLarge: answer at once, drop the rest of this request's chunks.
            m_discarding = true;
            clearAssembly();
            sendServiceFault(requestId, 0, status::BadRequestTooLarge);
        }
        if (!m_discarding) {
            // The chunks held until the final one count against the server-wide budget.
            if (m_config.chunkBudget && chunk == ChunkType::Intermediate) {
                if (!m_config.chunkBudget->reserve(payloadSize)) {
                    clearAssembly();
                    m_assembling = false;
                    return fatal(status::BadTcpNotEnoughResources, "the memory for incomplete chunked requests is used up");
                }
                m_assemblyReserved += payloadSize;
            }
            m_assembly.append(payload, payloadSize);
            m_ownBuffersUsed = true;
        }
        if (chunk == ChunkType::Intermediate) return {};
        m_assembling = false;
        if (m_assemblyReserved && m_config.chunkBudget) {  // the request is whole: its bytes leave the budget
            m_config.chunkBudget->release(m_assemblyReserved);
            m_assemblyReserved = 0;
        }
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
    m_ownBuffersUsed = true;  // m_scratch, and m_body or m_out when the thread's are lent
    const TcpHeader h = readTcpHeader(p);
    if (ChunkType(h.chunkType) != ChunkType::Final) return fatal(status::BadTcpMessageTypeInvalid, "OpenSecureChannel must be one final chunk");
    const ServerChannelSecurity* sec = m_config.security.get();
    AsymmetricHeader ah;
    StatusCode s = parseAsymmetricHeader(p, n, sec ? sec->maxSenderCertificateSize : 0, ah);
    if (s.isBad()) return fatal(s, "malformed asymmetric security header");
    const uint32_t channelId = readU32(p + 8);
    const SecurityPolicy* policy = findSecurityPolicy(ah.policyUri);
    const bool offered = policy && (sec ? sec->allowsPolicy(policy->id) : policy->id == SecurityPolicyId::None);
    if (!offered) return fatal(status::BadSecurityPolicyRejected, "the SecurityPolicy is not offered by this server");
    if (m_open && policy != m_policy) return fatal(status::BadSecurityPolicyRejected, "a Renew must keep the SecurityPolicy");
    const bool secure = policy->id != SecurityPolicyId::None;

    Certificate clientLeaf;
    if (secure) {
        // 6.7.2.3 / 6.7.4: a SenderCertificate and a ReceiverCertificateThumbprint are required, the
        // thumbprint must name our certificate, and a Renew must come with the same certificate.
        if (ah.senderCertificate.empty() || ah.receiverThumbprint.empty())
            return fatal(status::BadSecurityChecksFailed, "OpenSecureChannel without SenderCertificate or thumbprint");
        const Certificate& ours = sec->certificateFor(*policy);
        if (ours.isNull() || sec->privateKeyFor(*policy).isNull())
            return fatal(status::BadSecurityPolicyRejected, "the server has no certificate for this SecurityPolicy");
        if (ah.receiverThumbprint != ours.thumbprint())
            return fatal(status::BadCertificateInvalid, "the ReceiverCertificateThumbprint does not name our certificate");
        if (m_open && ah.senderCertificate != m_clientChain)
            return fatal(status::BadSecurityChecksFailed, "a Renew must come with the certificate that opened the channel");
        const auto chain = Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(ah.senderCertificate.data()),
                                                     ah.senderCertificate.size());
        if (chain.empty()) return fatal(status::BadSecurityChecksFailed, "the SenderCertificate does not parse", status::BadCertificateInvalid);
        clientLeaf = chain.front();
        const int bits = clientLeaf.keyBits();
        // An RSA key for an RSA policy, an ECC key on the policy's curve for an ECC one; then its size.
        if (!crypto::keyFitsPolicy(*policy, clientLeaf.publicKey()))
            return fatal(status::BadSecurityChecksFailed, "the client key is not of the SecurityPolicy's kind",
                         status::BadCertificatePolicyCheckFailed);
        if (bits < int(policy->minAsymmetricKeyBits) || bits > int(policy->maxAsymmetricKeyBits))
            return fatal(status::BadSecurityChecksFailed, "the client key length does not fit the SecurityPolicy",
                         status::BadCertificatePolicyCheckFailed);
    }
    OpenedChunk opened;
    const AsymmetricSecurity openSecurity{policy, secure ? sec->privateKeyFor(*policy).get() : nullptr,
                                          secure ? clientLeaf.publicKey() : nullptr, {}, {}};
    s = openAsymmetric(p, n, ah.size, openSecurity, m_scratch, opened);
    if (s.isBad()) return fatal(status::BadSecurityChecksFailed, "the OpenSecureChannel does not decrypt or verify", s);
    if (secure && !m_open) {
        // Only now that the signature proves the sender holds the key: the trust decision.
        const StatusCode v = sec->validateCertificate ? sec->validateCertificate(std::string(ah.senderCertificate), *policy)
                                                      : StatusCode(status::BadCertificateUntrusted);
        if (v.isBad()) return fatal(clientMayKnow(v), "the client certificate was not accepted", v);
    }
    BinaryDecoder d(opened.body, opened.bodySize);
    NodeId typeId;
    decode(d, typeId);
    OpenSecureChannelRequest req;
    decode(d, req);
    if (!d.ok() || !d.atEnd() || !(typeId == NodeId(id::OpenSecureChannelRequest_Encoding_DefaultBinary)))
        return fatal(status::BadDecodingError, "malformed OpenSecureChannel request");
    if (!secure && req.securityMode != MessageSecurityMode::None)
        return fatal(status::BadSecurityModeRejected, "SecurityPolicy None needs MessageSecurityMode None");
    if (secure && req.securityMode != MessageSecurityMode::Sign && req.securityMode != MessageSecurityMode::SignAndEncrypt)
        return fatal(status::BadSecurityModeRejected, "a secure SecurityPolicy needs Sign or SignAndEncrypt");
    if (sec && !sec->allows(policy->id, req.securityMode))
        return fatal(status::BadSecurityModeRejected, "the MessageSecurityMode is not offered with this SecurityPolicy");
    if (m_open && req.securityMode != m_mode) return fatal(status::BadSecurityModeRejected, "a Renew must keep the MessageSecurityMode");
    if (secure && req.clientNonce.size() != policy->nonceLength)
        return fatal(status::BadNonceInvalid, "the ClientNonce does not have the SecurityPolicy's length");
    if (req.requestType == SecurityTokenRequestType::Issue) {
        if (m_open) return fatal(status::BadRequestTypeInvalid, "the SecureChannel is already open");
        if (channelId != 0 && channelId != m_channelId) return fatal(status::BadSecureChannelIdInvalid, "Issue with a foreign SecureChannelId");
    } else if (req.requestType == SecurityTokenRequestType::Renew) {
        if (!m_open) return fatal(status::BadRequestTypeInvalid, "Renew on a SecureChannel that is not open");
        if (channelId != m_channelId) return fatal(status::BadSecureChannelIdInvalid, "Renew with a wrong SecureChannelId");
    } else {
        return fatal(status::BadRequestTypeInvalid, "unknown SecurityTokenRequestType");
    }
    if (m_open && !acceptSequence(opened.sequenceNumber)) return fatal(status::BadSequenceNumberInvalid, "sequence number out of order");
    if (!m_open) {
        m_lastReceivedSequence = opened.sequenceNumber;
        m_haveReceivedSequence = true;
        m_policy = policy;
        m_mode = req.securityMode;
        m_clientCertificate = clientLeaf;
        m_clientChain = std::string(ah.senderCertificate);
    }

    Token token;
    token.id = m_nextTokenId++;
    token.createdMs = nowMs;
    token.lifetimeMs = std::clamp(req.requestedLifetime, m_config.minTokenLifetimeMs, m_config.maxTokenLifetimeMs);
    ByteString serverNonce("");
    if (secure && policy->isEcc()) {
        // 6.8.1: the ClientNonce is the client's EphemeralKey; ours goes back as the ServerNonce, and
        // the keys come from ECDH of the two and HKDF (new EphemeralKeys for each Issue and Renew).
        const crypto::EphemeralKey ephemeral = crypto::EphemeralKey::generate(*policy);
        if (ephemeral.isNull()) return fatal(status::BadSecurityChecksFailed, "cannot create an EphemeralKey");
        const std::vector<uint8_t> clientNonce(reinterpret_cast<const uint8_t*>(req.clientNonce.data()),
                                               reinterpret_cast<const uint8_t*>(req.clientNonce.data()) + req.clientNonce.size());
        std::vector<uint8_t> secret;
        if (ephemeral.sharedSecret(clientNonce.data(), clientNonce.size(), secret).isBad())
            return fatal(status::BadNonceInvalid, "the ClientNonce is not a public key on the SecurityPolicy's curve");
        const std::vector<uint8_t>& nonce = ephemeral.publicKey();
        serverNonce.assign(reinterpret_cast<const char*>(nonce.data()), nonce.size());
        token.sendKeys = crypto::deriveEccChannelKeys(*policy, secret, crypto::EccKeySide::Server, clientNonce, nonce);
        token.receiveKeys = crypto::deriveEccChannelKeys(*policy, secret, crypto::EccKeySide::Client, clientNonce, nonce);
        crypto::wipe(secret.data(), secret.size());
        if (!token.sendKeys || !token.receiveKeys) return fatal(status::BadSecurityChecksFailed, "key derivation failed");
    } else if (secure) {
        const auto nonce = crypto::randomBytes(policy->nonceLength);
        serverNonce.assign(reinterpret_cast<const char*>(nonce.data()), nonce.size());
        const auto* cn = reinterpret_cast<const uint8_t*>(req.clientNonce.data());
        const auto* sn = nonce.data();
        // 6.7.5: the server sends with P_SHA(clientNonce, serverNonce), the client with P_SHA(serverNonce, clientNonce).
        token.sendKeys = crypto::SymmetricKeys::derive(*policy, cn, req.clientNonce.size(), sn, nonce.size());
        token.receiveKeys = crypto::SymmetricKeys::derive(*policy, sn, nonce.size(), cn, req.clientNonce.size());
        if (!token.sendKeys || !token.receiveKeys) return fatal(status::BadSecurityChecksFailed, "key derivation failed");
    }
    const bool renew = m_open;
    if (renew) {
        m_previous = std::move(m_current);
        m_sendWithPrevious = true;  // 6.7.4: until the client uses the new token
    }
    m_current = std::move(token);
    m_open = true;

    OpenSecureChannelResponse resp;
    resp.responseHeader.timestamp = DateTime::now();
    resp.responseHeader.requestHandle = req.requestHeader.requestHandle;
    resp.serverProtocolVersion = 0;
    resp.securityToken.channelId = m_channelId;
    resp.securityToken.tokenId = m_current.id;
    resp.securityToken.createdAt = DateTime::now();
    resp.securityToken.revisedLifetime = m_current.lifetimeMs;
    resp.serverNonce = serverNonce;
    const LentBuffer<ResponseBodyBuffer> body(m_body);
    BinaryEncoder e(*body);
    encode(e, NodeId(OpenSecureChannelResponse::kBinaryEncodingId));
    encode(e, resp);
    const std::string thumbprint = secure ? m_clientCertificate.thumbprint() : std::string();
    const AsymmetricSecurity sealSecurity{policy, secure ? sec->privateKeyFor(*policy).get() : nullptr,
                                          secure ? m_clientCertificate.publicKey() : nullptr,
                                          secure ? std::string_view(sec->certificateChainFor(*policy)) : std::string_view(),
                                          thumbprint};
    const LentBuffer<SealedChunksBuffer> out(m_out);
    const ChunkLimits limits{m_ack.sendBufferSize, m_hello.maxMessageSize, m_hello.maxChunkCount};
    s = sealAsymmetric(*out, m_channelId, sealSecurity, opened.requestId,
                       body->data(), body->size(), limits, m_sendSequence);
    if (s.isBad()) return fatal(status::BadSecurityChecksFailed, "the OpenSecureChannel response could not be secured", s);
    m_send(out->data(), out->size());
    return {};
}

SymmetricSecurity ServerSecureChannel::sendSecurity() const {
    const Token& t = m_sendWithPrevious && m_previous.id ? m_previous : m_current;
    return SymmetricSecurity{m_mode, t.sendKeys.get(), t.id};
}

void ServerSecureChannel::sendServiceFault(uint32_t requestId, uint32_t requestHandle, StatusCode result) {
    ServiceFault f;
    f.responseHeader.timestamp = DateTime::now();
    f.responseHeader.requestHandle = requestHandle;
    f.responseHeader.serviceResult = result;
    sendResponse(requestId, f);
}

void ServerSecureChannel::sendAbort(uint32_t requestId, StatusCode error, const char* reason) {
    m_ownBuffersUsed = true;
    m_body.clear();
    BinaryEncoder e(m_body);
    encode(e, error);
    encode(e, String(reason));
    const LentBuffer<SealedChunksBuffer> out(m_out);
    const ChunkLimits limits{m_ack.sendBufferSize, 0, 0};
    if (sealSymmetric(*out, TcpMessageType::Message, ChunkType::Abort, m_channelId, sendSecurity(), requestId,
                      m_body.data(), m_body.size(), limits, m_sendSequence)
            .isGood())
        m_send(out->data(), out->size());
}

// The chunks are sealed into a buffer of the thread (ThreadBuffer.h) and handed to the sender,
// which copies them into the connection's batch of responses (itself the thread's buffer).
StatusCode ServerSecureChannel::sendBody(uint32_t requestId, const Buffer& body) {
    const LentBuffer<SealedChunksBuffer> out(m_out);
    if (&*out == &m_out) m_ownBuffersUsed = true;
    const ChunkLimits limits{m_ack.sendBufferSize, m_hello.maxMessageSize, m_hello.maxChunkCount};
    const StatusCode s = sealSymmetric(*out, TcpMessageType::Message, ChunkType::Final, m_channelId, sendSecurity(),
                                       requestId, body.data(), body.size(), limits, m_sendSequence);
    if (s == StatusCode(status::BadEncodingLimitsExceeded)) return status::BadResponseTooLarge;
    if (s.isBad()) return s;
    m_send(out->data(), out->size());
    return status::Good;
}

} // namespace ua
