// The client side of one UA-TCP connection and its SecureChannel (OPC 10000-6 7.1 and 6.7): the
// Hello/Acknowledge exchange with the server's revised limits (7.1.2.4), OpenSecureChannel Issue and
// Renew (6.7.4) with the asymmetric security of the chosen policy (RSA, or an ECC policy's
// EphemeralKeys and ECDSA, 6.8.1), the symmetric keys of each SecurityToken (6.7.5), CloseSecureChannel, sequence numbers (6.7.2.4), the chunking of requests and
// the reassembly of responses (6.7.2, 6.7.3); the chunk security itself is in ChunkSecurity.h.
//
// Transport-agnostic like ServerSecureChannel: it takes whole UA-TCP messages (header included, as a
// framer cuts them from the byte stream) and hands the bytes it sends to a callback, so tests drive
// it without sockets. Owned and used by one thread. It knows nothing of pending requests or
// timeouts: the caller matches responses to requests by requestId.
#pragma once

#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/Buffer.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"
#include "ua/pki/Certificate.h"
#include "ua/pki/PrivateKey.h"
#include "ua/secure/ChunkSecurity.h"
#include "ua/secure/EccCrypto.h"
#include "ua/transport/TcpMessages.h"

#include <functional>
#include <memory>
#include <map>
#include <string>
#include <string_view>

namespace ua {

// The security a client asks for: the endpoint's policy and mode, its own certificate and key, and
// the server certificate from the EndpointDescription (already validated by the caller). For an ECC
// policy both certificates carry ECC keys on the policy's curve (OPC 10000-6 6.8.1).
struct ClientChannelSecurity {
    SecurityPolicyId policy = SecurityPolicyId::None;
    MessageSecurityMode mode = MessageSecurityMode::None;
    std::string clientCertificateChain;  // DER: our certificate followed by its issuers
    PrivateKey clientKey;
    Certificate serverCertificate;       // the server's leaf
    uint32_t firstSequenceNumber = 1;    // of what we send (tests start near the wrap)
};

class ClientSecureChannel {
public:
    // What one received message produced.
    struct Event {
        enum class Kind {
            None,          // an intermediate chunk (more to come), or nothing for the caller
            Acknowledged,  // the ACK arrived: acknowledge() holds the server's limits; send OPN next
            Opened,        // an OPN response (Issue or Renew); error is Bad when the server refused
            Response,      // a complete response for requestId: typeId, body
            Aborted,       // requestId failed: an abort chunk from the server (6.7.3), or a response
                           // over our MaxMessageSize/MaxChunkCount (Bad_ResponseTooLarge)
            PeerError,     // an ERR from the server (7.1.2.5): error, reason; the connection is over
            Fatal,         // the server broke the protocol: error, reason; close the connection
        } kind = Kind::None;
        uint32_t requestId = 0;
        uint32_t typeId = 0;            // the response's DefaultBinary encoding id (ns 0)
        const uint8_t* body = nullptr;  // the encoded response after its type id; valid until the next onMessage
        std::size_t bodySize = 0;
        StatusCode error;
        // Why (Fatal, PeerError, Aborted): valid until the next onMessage. A view, so that an Event
        // is trivially copied (one is returned per response; a std::string was moved each time).
        std::string_view reason;
    };
    using Sender = std::function<void(const uint8_t* data, std::size_t size)>;

    // ours: what we offer in the Hello (buffer sizes in bytes; maxMessageSize / maxChunkCount are the
    // limits of responses we accept, 0 = none).
    ClientSecureChannel(const TransportLimits& ours, Sender send, ClientChannelSecurity security = {});
    ~ClientSecureChannel();

    // Sends the Hello (7.1.2.3) with the EndpointUrl the user asked for.
    void sendHello(std::string_view endpointUrl);

    // Sends an OpenSecureChannel request (Issue first, then Renew on the open channel).
    // requestedLifetimeMs: the SecurityToken lifetime asked for (ms).
    void sendOpen(uint32_t requestId, SecurityTokenRequestType type, uint32_t requestedLifetimeMs, const RequestHeader& header);

    // Encodes a request (any generated request type) and sends it in as many chunks as the server's
    // ReceiveBufferSize needs. Returns Good, Bad_RequestTooLarge (over the server's MaxMessageSize,
    // MaxChunkCount or maxRequestMessageSize: nothing is sent, 7.1.2.4), Bad_EncodingError /
    // Bad_EncodingLimitsExceeded, or Bad_SecureChannelClosed when the channel is not open.
    template <class T>
    StatusCode sendRequest(uint32_t requestId, const T& request) {
        if (!m_open) return status::BadSecureChannelClosed;
        m_body.clear();
        BinaryEncoder e(m_body);
        encode(e, NodeId(T::kBinaryEncodingId));
        encode(e, request);
        if (!e.ok()) return e.status();
        return sendBody(TcpMessageType::Message, requestId);
    }

    // Sends CloseSecureChannel (6.7.5); the server answers nothing, the caller closes the socket.
    void sendClose(uint32_t requestId, const RequestHeader& header);

    // Processes one whole UA-TCP message (its 8-byte header included). nowMs: a monotonic clock (ms),
    // used only for an OpenSecureChannel response (when its token arrived): 0 will do for the others.
    Event onMessage(const uint8_t* message, std::size_t size, int64_t nowMs);

    bool isAcknowledged() const { return m_acknowledged; }
    bool isOpen() const { return m_open; }
    // The server's Acknowledge (valid once isAcknowledged()).
    const AcknowledgeMessage& acknowledge() const { return m_ack; }
    // The largest chunk we send (bytes): the ACK's ReceiveBufferSize, capped by our SendBufferSize.
    uint32_t sendChunkSize() const { return m_sendChunkSize; }
    // The largest chunk we accept (bytes): our Hello's ReceiveBufferSize.
    uint32_t receiveChunkSize() const { return m_ours.receiveBufferSize; }
    // The CreateSession response's maxRequestMessageSize (bytes, 0 = none), applied besides the ACK's.
    void setMaxRequestMessageSize(uint32_t bytes) { m_maxRequestMessageSize = bytes; }
    uint32_t channelId() const { return m_token.channelId; }
    const ChannelSecurityToken& token() const { return m_token; }
    const SecurityPolicy& securityPolicy() const { return *m_policy; }
    MessageSecurityMode securityMode() const { return m_security.mode; }
    const ClientChannelSecurity& security() const { return m_security; }
    // The nonces of the last OpenSecureChannel exchange (empty for None).
    const ByteString& serverNonce() const { return m_serverNonce; }
    // When the current token should be renewed (monotonic ms): 75 % of its revised lifetime after
    // the OPN response arrived (6.7.4). Meaningful once open.
    int64_t renewAtMs() const { return m_tokenReceivedMs + int64_t(m_token.revisedLifetime) * 3 / 4; }

private:
    Event fatal(StatusCode s, std::string reason);
    Event handleOpenResponse(const uint8_t* p, std::size_t n, int64_t nowMs);
    Event handleSymmetric(const uint8_t* p, std::size_t n);
    bool acceptSequenceNumber(uint32_t seq);
    StatusCode sendBody(TcpMessageType type, uint32_t requestId);

    struct Assembly {
        Buffer data;
        uint32_t chunks = 0;
        bool discarding = false;  // over our limits: its remaining chunks are dropped
    };

    TransportLimits m_ours;
    Sender m_send;
    AcknowledgeMessage m_ack;
    uint32_t m_sendChunkSize = 0;
    uint32_t m_maxRequestMessageSize = 0;
    bool m_helloSent = false;
    bool m_acknowledged = false;
    bool m_open = false;
    bool m_failed = false;
    ClientChannelSecurity m_security;
    const SecurityPolicy* m_policy;
    ChannelSecurityToken m_token;       // the current token
    uint32_t m_previousTokenId = 0;     // still accepted on responses after a Renew
    std::unique_ptr<crypto::SymmetricKeys> m_sendKeys, m_receiveKeys, m_previousReceiveKeys;
    ByteString m_clientNonce;           // of the OPN request in flight
    crypto::EphemeralKey m_ephemeral;   // ECC: the EphemeralKey whose public key is m_clientNonce
    ByteString m_serverNonce;
    int64_t m_tokenReceivedMs = 0;
    SequenceCounter m_sendSequence;
    uint32_t m_lastReceivedSequence = 0;
    bool m_haveReceivedSequence = false;
    std::map<uint32_t, Assembly> m_assemblies;  // by requestId: multi-chunk responses in progress
    Buffer m_body;  // the encoded request body, reused
    Buffer m_out;   // the chunks to send, reused
    Buffer m_completed;  // the last reassembled response, handed out by onMessage
    Buffer m_scratch;    // decrypted chunks, reused
    std::string m_reason;  // what the last Event's reason views
};

} // namespace ua
