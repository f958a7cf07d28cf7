// The security of MessageChunks (OPC 10000-6 6.7.2): how a message body is cut into chunks, padded,
// signed and encrypted, and how a received chunk is decrypted, verified and unpadded. Shared by the
// client and the server side of a SecureChannel (ServerSecureChannel, ClientSecureChannel), for the
// symmetric chunks (MSG, CLO: the SecurityToken's keys) and the asymmetric ones (OPN: the
// application instance certificates' RSA keys).
//
// Layout of a chunk (6.7.2.1): MessageHeader (12 bytes: type, chunk type, size, SecureChannelId),
// SecurityHeader (asymmetric: policy URI, SenderCertificate, ReceiverCertificateThumbprint;
// symmetric: TokenId), then the part that is encrypted in SignAndEncrypt: SequenceHeader (8 bytes),
// body, PaddingSize, Padding, ExtraPaddingSize (only when the encrypting key is over 2048 bits),
// Signature. Sign mode has no padding and encrypts nothing; None has neither signature nor padding.
// An asymmetric chunk is always signed and encrypted when the policy is not None (6.7.4), except
// with an ECC policy: signed only, no padding (6.8.1; OPC 30300 Annex B.1).
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/encoding/generated/Types.h"
#include "ua/secure/SymmetricCrypto.h"
#include "ua/transport/TcpMessages.h"

#include <cstdint>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua {

inline constexpr std::size_t kMessageHeaderSize = 12;   // type, chunk type, size, SecureChannelId
inline constexpr std::size_t kSequenceHeaderSize = 8;   // SequenceNumber, RequestId
inline constexpr std::size_t kSymmetricSecurityHeaderSize = 4;  // TokenId
// 6.7.2.4: a sequence number does not wrap around until it is greater than UInt32.max - 1024; the
// first number after the wrap is below 1024.
inline constexpr uint32_t kSequenceWrapLimit = 4294966271u;

// The outgoing sequence numbers of one SecureChannel side (6.7.2.4): after the first number above
// kSequenceWrapLimit comes 1.
class SequenceCounter {
public:
    explicit SequenceCounter(uint32_t first = 1) : m_next(first) {}
    uint32_t next() {
        const uint32_t s = m_next;
        m_next = s > kSequenceWrapLimit ? 1 : s + 1;
        return s;
    }
    uint32_t peek() const { return m_next; }

private:
    uint32_t m_next;
};

// True when received is the sequence number that may follow last (last + 1, or a wrap from above
// kSequenceWrapLimit to a value below 1024).
inline bool sequenceNumberFollows(uint32_t last, uint32_t received) {
    return received == last + 1 || (last > kSequenceWrapLimit && received < 1024);
}

// Size limits for the chunks of one message, from the peer's Hello or Acknowledge.
struct ChunkLimits {
    uint32_t chunkSize = 8192;    // bytes: the largest chunk (the peer's ReceiveBufferSize)
    uint32_t maxMessageSize = 0;  // bytes of body: 0 = no limit
    uint32_t maxChunkCount = 0;   // 0 = no limit
};

// The keys of a symmetric chunk: keys null for MessageSecurityMode None.
struct SymmetricSecurity {
    MessageSecurityMode mode = MessageSecurityMode::None;
    crypto::SymmetricKeys* keys = nullptr;
    uint32_t tokenId = 0;
};

// The keys of an asymmetric (OPN) chunk. For sealing, localKey signs and remoteKey encrypts; for
// opening, localKey decrypts and remoteKey verifies. Both null for SecurityPolicy None. With an ECC
// policy nothing is encrypted: remoteKey only verifies (opening) and must be of the policy's curve.
struct AsymmetricSecurity {
    const SecurityPolicy* policy = nullptr;
    EVP_PKEY* localKey = nullptr;
    EVP_PKEY* remoteKey = nullptr;
    std::string_view senderCertificate;            // DER, leaf + chain (sealing)
    std::string_view receiverCertificateThumbprint;  // SHA-1 of the receiver's leaf (sealing)
};

// Appends the chunks of one message to out. body: the encoded message (type id + fields).
// chunkType is Final for a normal message (intermediate chunks get 'C'), or Abort for an abort chunk
// (6.7.3, one chunk). Returns Good; Bad_EncodingLimitsExceeded when the body needs more chunks or
// bytes than limits allow (nothing is appended); Bad_SecurityChecksFailed when OpenSSL fails;
// Bad_InternalError when chunkSize leaves no room for a body.
StatusCode sealSymmetric(Buffer& out, TcpMessageType type, ChunkType chunkType, uint32_t channelId,
                         const SymmetricSecurity& security, uint32_t requestId, const uint8_t* body, std::size_t size,
                         const ChunkLimits& limits, SequenceCounter& sequence);
StatusCode sealAsymmetric(Buffer& out, uint32_t channelId, const AsymmetricSecurity& security, uint32_t requestId,
                          const uint8_t* body, std::size_t size, const ChunkLimits& limits, SequenceCounter& sequence);

// A received chunk after opening: its sequence header and body (padding and signature removed).
struct OpenedChunk {
    uint32_t sequenceNumber = 0;
    uint32_t requestId = 0;
    const uint8_t* body = nullptr;  // valid until the scratch buffer is reused
    std::size_t bodySize = 0;
};

// The parsed asymmetric SecurityHeader of an OPN chunk (6.7.2.3); views into the chunk.
struct AsymmetricHeader {
    std::string_view policyUri;
    std::string_view senderCertificate;    // empty when null
    std::string_view receiverThumbprint;   // empty when null
    std::size_t size = 0;                  // bytes of the SecurityHeader
};
// Parses the SecurityHeader that follows the 12-byte MessageHeader. Bad_DecodingError when a length
// is negative (other than -1) or runs past the chunk; Bad_SecurityPolicyRejected for a URI over
// 255 bytes. maxCertificateSize: MaxSenderCertificateSize (bytes, 0 = no limit;
// Bad_CertificateInvalid over it).
StatusCode parseAsymmetricHeader(const uint8_t* chunk, std::size_t size, std::size_t maxCertificateSize,
                                 AsymmetricHeader& header);

// Decrypts (into scratch) and verifies a symmetric chunk of n bytes, the whole chunk including its
// 12-byte MessageHeader and TokenId. Returns Good, Bad_SecurityChecksFailed (wrong signature, bad
// padding, size not a multiple of the block: the channel must be closed) or Bad_DecodingError
// (shorter than its headers).
StatusCode openSymmetric(const uint8_t* chunk, std::size_t n, const SymmetricSecurity& security, Buffer& scratch,
                         OpenedChunk& opened);
// The same for an OPN chunk whose SecurityHeader (headerSize bytes) was parsed by
// parseAsymmetricHeader.
StatusCode openAsymmetric(const uint8_t* chunk, std::size_t n, std::size_t securityHeaderSize,
                          const AsymmetricSecurity& security, Buffer& scratch, OpenedChunk& opened);

} // namespace ua
