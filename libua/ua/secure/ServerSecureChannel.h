// The server side of one SecureChannel (OPC 10000-6 6.7): OpenSecureChannel Issue and Renew with
// the asymmetric security of the policy the client chose (RSA, or an ECC policy's EphemeralKeys and
// ECDSA, 6.8.1), SecurityTokens with their lifetime and
// their symmetric keys, sequence numbers, chunk reassembly and the chunking of responses (the chunk
// security itself is in ChunkSecurity.h). Transport-agnostic: it takes whole MessageChunks (header
// included, as the UA-TCP framer delivers them) and hands the bytes it sends to a callback, so tests
// can drive it without sockets. Owned and used by one thread (the connection's).
#pragma once

#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/Buffer.h"
#include "ua/encoding/ThreadBuffer.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/Certificate.h"
#include "ua/pki/PrivateKey.h"
#include "ua/secure/ChunkBudget.h"
#include "ua/secure/ChunkSecurity.h"
#include "ua/secure/EccCrypto.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/transport/TcpMessages.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ua {

// Tags of the thread's buffers a channel encodes and seals responses in (ThreadBuffer.h).
struct ResponseBodyBuffer;
struct SealedChunksBuffer;

// What a server offers: the (policy, mode) pairs of its endpoints, its certificate and key, and how
// it validates a client's certificate. Shared by all channels; immutable once the server runs.
struct ServerChannelSecurity {
    struct Offer {
        SecurityPolicyId policy;
        MessageSecurityMode mode;
    };
    std::vector<Offer> offers;       // the endpoints' policies and modes (None/None for an open endpoint)
    Certificate certificate;         // the application instance certificate (RSA)
    std::string certificateChain;    // DER of the certificate followed by its issuers (SenderCertificate)
    PrivateKey privateKey;
    // The ECC application instance certificates beside the RSA one (OPC 10000-12 7.8.4: one per
    // certificate type), for the endpoints of the ECC policies; null when the server has none.
    struct EccIdentity {
        Certificate certificate;
        std::string certificateChain;
        PrivateKey privateKey;
    };
    EccIdentity eccNistP256;
    EccIdentity eccNistP384;
    // Validates a client certificate chain (DER, leaf first) for a policy (OPC 10000-4 6.1.3);
    // Good or the Bad_Certificate... status. Called on the connection's thread.
    std::function<StatusCode(const std::string& chainDer, const SecurityPolicy& policy)> validateCertificate;
    uint32_t maxSenderCertificateSize = 32768;  // bytes (6.7.2.3); larger: Bad_CertificateInvalid

    bool allowsPolicy(SecurityPolicyId p) const;
    bool allows(SecurityPolicyId p, MessageSecurityMode m) const;
    // What a channel of policy sends and signs with: the ECC identity of its curve for an ECC policy,
    // the RSA certificate for the others (the endpoint's serverCertificate is the same one).
    const Certificate& certificateFor(const SecurityPolicy& policy) const;
    const std::string& certificateChainFor(const SecurityPolicy& policy) const;
    const PrivateKey& privateKeyFor(const SecurityPolicy& policy) const;
};

struct SecureChannelConfig {
    uint32_t minTokenLifetimeMs = 10'000;      // revisedLifetime is clamped into [min, max]
    uint32_t maxTokenLifetimeMs = 3'600'000;
    uint32_t firstSequenceNumber = 1;          // of what the server sends (tests start near the wrap)
    std::shared_ptr<const ServerChannelSecurity> security;  // null: SecurityPolicy None only
    // The server-wide budget of incomplete chunked requests (null: none). A chunk that would go
    // over it is Fatal with Bad_TcpNotEnoughResources (OPC 10000-6 7.1.5).
    std::shared_ptr<ChunkBudget> chunkBudget;
    // A chunked request unfinished this long after its first chunk (ms; 0: no limit): see
    // chunkedRequestExpired().
    uint32_t chunkTimeoutMs = 0;
};

class ServerSecureChannel {
public:
    // What one received chunk produced.
    struct Event {
        enum class Kind {
            None,     // an intermediate chunk, an abort chunk, or an OPN answered here
            Request,  // a complete service request: requestId, typeId, body
            Close,    // CloseSecureChannel: close the connection without a reply
            Fatal,    // protocol or security violation: send an ERR with error/reason, then close
        } kind = Kind::None;
        uint32_t requestId = 0;
        uint32_t typeId = 0;            // the request's DefaultBinary encoding id (ns 0)
        const uint8_t* body = nullptr;  // the encoded request after its type id; valid until the next onChunk
        std::size_t bodySize = 0;
        StatusCode error;               // what the ERR carries (Bad_SecurityChecksFailed hides details)
        StatusCode detail;              // the precise cause for the log (e.g. Bad_CertificateUntrusted)
        std::string reason;
    };
    using Sender = std::function<void(const uint8_t* data, std::size_t size)>;

    ServerSecureChannel(uint32_t channelId, const HelloMessage& hello, const AcknowledgeMessage& ack,
                        const SecureChannelConfig& config, Sender send);
    ~ServerSecureChannel();

    // Processes one chunk (its 8-byte header included). nowMs: a monotonic clock in ms.
    Event onChunk(const uint8_t* chunk, std::size_t size, int64_t nowMs);

    // Encodes and sends a response (any generated response type) for requestId, in as many
    // chunks as the client's ReceiveBufferSize needs. A response over the client's MaxMessageSize
    // or MaxChunkCount is replaced by an abort chunk with Bad_ResponseTooLarge (6.7.3).
    // The body is encoded into a buffer of the thread, not of the channel (ThreadBuffer.h).
    template <class T>
    void sendResponse(uint32_t requestId, const T& response) {
        StatusCode s;
        const char* reason = "the response could not be encoded";
        {  // the thread's buffer goes back before an abort, which encodes into the channel's own
            const LentBuffer<ResponseBodyBuffer> body(m_body);
            if (&*body == &m_body) m_ownBuffersUsed = true;
            BinaryEncoder e(*body);
            encode(e, NodeId(T::kBinaryEncodingId));
            encode(e, response);
            if (e.ok()) {
                s = sendBody(requestId, *body);
                reason = s == StatusCode(status::BadResponseTooLarge)
                             ? "the response exceeds the client's MaxMessageSize or MaxChunkCount"
                             : "the response could not be secured";
            } else {
                s = e.status();
            }
        }
        if (s.isBad()) sendAbort(requestId, s, reason);
    }
    // A ServiceFault (OPC 10000-4 7.33) for a request that failed as a whole.
    void sendServiceFault(uint32_t requestId, uint32_t requestHandle, StatusCode result);
    // An abort chunk (6.7.3) for requestId.
    void sendAbort(uint32_t requestId, StatusCode error, const char* reason);

    uint32_t channelId() const { return m_channelId; }
    bool isOpen() const { return m_open; }
    // True when the current SecurityToken has expired (its lifetime plus 25 %) without renewal.
    bool tokenExpired(int64_t nowMs) const;
    // True when a chunked request has waited for its final chunk longer than chunkTimeoutMs: the
    // connection answers ERR Bad_RequestTimeout and closes (the client cannot send anything else on
    // the channel before that request's last chunk, 6.7.2).
    bool chunkedRequestExpired(int64_t nowMs) const;
    // The earliest time (ms, the clock of nowMs) after which tokenExpired() or
    // chunkedRequestExpired() can become true without another message; INT64_MAX when neither can
    // (not open, and no chunked request waiting). The connection arms its one timer for it.
    int64_t nextDeadlineMs() const;
    // Bytes of storage held by the channel's reused buffers (reassembly, response body, chunks,
    // decrypted chunks): for tests and diagnostics.
    std::size_t bufferCapacity() const;
    // True when one of those buffers was written since the last call (a chunked request, a
    // decrypted chunk, an OpenSecureChannel, an abort, a response while the thread's buffers were
    // lent): only then can bufferCapacity() have grown. Reads only the channel's first cache line.
    bool takeOwnBuffersUsed() { return std::exchange(m_ownBuffersUsed, false); }
    // Gives back the reused buffers above keep bytes (one large message grew them; an idle channel
    // needs none), but for the reassembly buffer while a chunked request is incomplete. Between
    // chunks only: a body that onChunk() returned becomes invalid. Not for the request path.
    // Returns the capacity of the reassembly buffer when it is in use and above keep (it could not
    // be given back), else 0.
    std::size_t releaseIdleBuffers(std::size_t keep);
    // The client's limits for what we send.
    const HelloMessage& hello() const { return m_hello; }
    // The security the client chose (valid once open).
    const SecurityPolicy& securityPolicy() const { return *m_policy; }
    MessageSecurityMode securityMode() const { return m_mode; }
    // The client's application instance certificate (leaf; null for None) and its chain as sent.
    const Certificate& clientCertificate() const { return m_clientCertificate; }
    const std::string& clientCertificateChain() const { return m_clientChain; }
    // The server's certificate chain sent in the OPN (empty for None): the RSA one, or the ECC one of
    // the channel's curve.
    std::string serverCertificateChain() const;
    // The server's private key of that certificate (null for None): CreateSession signs with it.
    EVP_PKEY* serverPrivateKey() const;
    // The server's certificate and key this channel was made with (null: None only), also before
    // the OpenSecureChannel.
    const ServerChannelSecurity* security() const { return m_config.security.get(); }

private:
    struct Token {
        uint32_t id = 0;
        int64_t createdMs = 0;
        uint32_t lifetimeMs = 0;
        std::unique_ptr<crypto::SymmetricKeys> sendKeys;     // what the server sends with
        std::unique_ptr<crypto::SymmetricKeys> receiveKeys;  // what the client sends with
    };
    Event fatal(StatusCode s, std::string reason, StatusCode detail = {});
    Event handleOpen(const uint8_t* p, std::size_t n, int64_t nowMs);
    Event handleSymmetric(const uint8_t* p, std::size_t n, int64_t nowMs);
    void clearAssembly();
    // Seals body and sends it; Bad_ResponseTooLarge or the sealing's error when nothing was sent.
    StatusCode sendBody(uint32_t requestId, const Buffer& body);
    SymmetricSecurity sendSecurity() const;
    bool acceptSequence(uint32_t seq);

    // What every request reads or writes comes first, together: at thousands of connections each
    // request finds its channel cold, so the fewer cache lines these fields span the better
    // (docs/Benchmarks.md "Cold lines per request").
    uint32_t m_channelId;
    bool m_open = false;
    bool m_sendWithPrevious = false;  // after a Renew, until the client uses the new token
    bool m_haveReceivedSequence = false;
    bool m_assembling = false;
    bool m_ownBuffersUsed = false;  // takeOwnBuffersUsed()
    MessageSecurityMode m_mode = MessageSecurityMode::None;
    uint32_t m_lastReceivedSequence = 0;
    SequenceCounter m_sendSequence;
    bool m_discarding = false;  // a too-large request whose remaining chunks are dropped
    AcknowledgeMessage m_ack;
    Token m_current;
    Token m_previous;            // still accepted until the client uses m_current (6.7.4)
    Buffer m_body;     // the encoded response body when the thread's buffer is lent (and the OPN's)
    Buffer m_out;      // the chunks to send, likewise
    Buffer m_scratch;  // decrypted chunks, reused
    Sender m_send;
    HelloMessage m_hello;
    // Set up once, or used by a chunked request only.
    SecureChannelConfig m_config;
    const SecurityPolicy* m_policy;
    Certificate m_clientCertificate;
    std::string m_clientChain;
    uint32_t m_nextTokenId = 1;
    // Reassembly of a multi-chunk request.
    Buffer m_assembly;
    uint32_t m_assemblyRequestId = 0;
    uint32_t m_assemblyChunks = 0;
    uint64_t m_assemblyReserved = 0;  // bytes of m_config.chunkBudget held by m_assembly
    int64_t m_assemblyStartMs = 0;
};

} // namespace ua
