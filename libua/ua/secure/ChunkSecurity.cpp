#include "ua/secure/ChunkSecurity.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/AsymmetricCrypto.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace ua {

namespace {

uint32_t readU32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
void writeU32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

// How one message is sealed: the SecurityHeader, the signature and the encryption block sizes.
struct SealPlan {
    const uint8_t* securityHeader;
    std::size_t securityHeaderSize;
    std::size_t signatureSize;  // 0: not signed
    bool encrypt;
    std::size_t plainBlock;   // plaintext bytes per encrypted block (1 when not encrypting)
    std::size_t cipherBlock;  // ciphertext bytes per block
    bool extraPadding;        // ExtraPaddingSize present (encrypting key over 2048 bits)
};

// Cuts body into chunks; sign(data, n, out) writes signatureSize bytes, encrypt(p, n, out) returns
// false on failure and replaces [p, p+n) of the chunk (which may grow) through the output buffer.
template <class Sign, class Encrypt>
StatusCode seal(Buffer& out, TcpMessageType type, ChunkType chunkType, uint32_t channelId, const SealPlan& plan,
                uint32_t requestId, const uint8_t* body, std::size_t size, const ChunkLimits& limits,
                SequenceCounter& sequence, Sign&& sign, Encrypt&& encrypt) {
    const std::size_t header = kMessageHeaderSize + plan.securityHeaderSize;
    const std::size_t overhead = kSequenceHeaderSize + plan.signatureSize + (plan.encrypt ? 1 + plan.extraPadding : 0);
    if (limits.chunkSize <= header) return status::BadInternalError;
    const std::size_t blocks = (limits.chunkSize - header) / plan.cipherBlock;
    const std::size_t capacity = blocks * plan.plainBlock;
    if (capacity <= overhead) return status::BadInternalError;
    const std::size_t maxBody = capacity - overhead;
    const std::size_t chunks = std::max<std::size_t>(1, (size + maxBody - 1) / maxBody);
    if (chunkType == ChunkType::Abort && chunks > 1) return status::BadEncodingLimitsExceeded;
    if ((limits.maxMessageSize && size > limits.maxMessageSize) || (limits.maxChunkCount && chunks > limits.maxChunkCount))
        return status::BadEncodingLimitsExceeded;

    const std::size_t start = out.size();
    std::size_t offset = 0;
    for (std::size_t i = 0; i < chunks; ++i) {
        const std::size_t part = std::min(maxBody, size - offset);
        std::size_t pad = 0;
        if (plan.encrypt) {
            const std::size_t fixed = overhead + part;
            pad = (plan.plainBlock - fixed % plan.plainBlock) % plan.plainBlock;
        }
        const std::size_t plainSize = overhead + part + pad;
        const std::size_t wireSize = plan.encrypt ? plainSize / plan.plainBlock * plan.cipherBlock : plainSize;
        const std::size_t chunkStart = out.size();
        uint8_t* c = out.grow(header + plainSize);
        const ChunkType ct = chunkType == ChunkType::Abort ? ChunkType::Abort
                             : i + 1 == chunks            ? ChunkType::Final
                                                          : ChunkType::Intermediate;
        writeTcpHeader(c, type, ct, uint32_t(header + wireSize));
        writeU32(c + 8, channelId);
        std::memcpy(c + kMessageHeaderSize, plan.securityHeader, plan.securityHeaderSize);
        uint8_t* q = c + header;
        writeU32(q, sequence.next());
        writeU32(q + 4, requestId);
        q += kSequenceHeaderSize;
        if (part) std::memcpy(q, body + offset, part);
        q += part;
        if (plan.encrypt) {
            const uint8_t low = uint8_t(pad & 0xff);
            *q++ = low;
            std::memset(q, low, pad);
            q += pad;
            if (plan.extraPadding) *q++ = uint8_t(pad >> 8);
        }
        if (plan.signatureSize && !sign(c, std::size_t(q - c), q)) {
            out.resize(start);
            return status::BadSecurityChecksFailed;
        }
        if (plan.encrypt && !encrypt(out, chunkStart + header, plainSize)) {
            out.resize(start);
            return status::BadSecurityChecksFailed;
        }
        offset += part;
    }
    return status::Good;
}

StatusCode unpad(const uint8_t* plain, std::size_t end, std::size_t bodyStart, bool extraPadding, std::size_t& bodyEnd) {
    // end: where the signature starts. From the end: [ExtraPaddingSize], the padding bytes (each the
    // low byte of the padding size), PaddingSize.
    if (end < bodyStart + 1 + extraPadding) return status::BadSecurityChecksFailed;
    std::size_t pad;
    std::size_t last = end;
    if (extraPadding) {
        pad = std::size_t(plain[end - 1]) << 8 | plain[end - 2];
        last = end - 1;
    } else {
        pad = plain[end - 1];
    }
    if (last < bodyStart + 1 + pad) return status::BadSecurityChecksFailed;
    const uint8_t low = uint8_t(pad & 0xff);
    for (std::size_t i = last - 1 - pad; i < last; ++i)
        if (plain[i] != low) return status::BadSecurityChecksFailed;
    bodyEnd = last - 1 - pad;
    return status::Good;
}

} // namespace

StatusCode sealSymmetric(Buffer& out, TcpMessageType type, ChunkType chunkType, uint32_t channelId,
                         const SymmetricSecurity& security, uint32_t requestId, const uint8_t* body, std::size_t size,
                         const ChunkLimits& limits, SequenceCounter& sequence) {
    uint8_t tokenId[4];
    writeU32(tokenId, security.tokenId);
    crypto::SymmetricKeys* keys = security.mode == MessageSecurityMode::None ? nullptr : security.keys;
    if (security.mode != MessageSecurityMode::None && !keys) return status::BadSecurityChecksFailed;
    SealPlan plan{tokenId, 4, keys ? keys->signatureSize() : 0, security.mode == MessageSecurityMode::SignAndEncrypt,
                  1, 1, false};
    if (plan.encrypt) plan.plainBlock = plan.cipherBlock = keys->blockSize();
    return seal(
        out, type, chunkType, channelId, plan, requestId, body, size, limits, sequence,
        [keys](const uint8_t* data, std::size_t n, uint8_t* sig) { return keys->sign(data, n, sig); },
        [keys](Buffer& b, std::size_t at, std::size_t n) { return keys->encrypt(b.data() + at, n); });
}

StatusCode sealAsymmetric(Buffer& out, uint32_t channelId, const AsymmetricSecurity& security, uint32_t requestId,
                          const uint8_t* body, std::size_t size, const ChunkLimits& limits, SequenceCounter& sequence) {
    const SecurityPolicy& policy = security.policy ? *security.policy : securityPolicy(SecurityPolicyId::None);
    const bool secure = policy.id != SecurityPolicyId::None;
    if (secure && (!security.localKey || !security.remoteKey)) return status::BadSecurityChecksFailed;
    // SecurityHeader: policy URI, SenderCertificate, ReceiverCertificateThumbprint (null when None).
    std::vector<uint8_t> sh;
    auto put = [&sh](std::string_view s, bool present) {
        const int32_t len = present ? int32_t(s.size()) : -1;
        const auto* l = reinterpret_cast<const uint8_t*>(&len);
        sh.insert(sh.end(), l, l + 4);
        if (present) sh.insert(sh.end(), s.begin(), s.end());
    };
    put(policy.uri, true);
    put(security.senderCertificate, secure);
    put(security.receiverCertificateThumbprint, secure);
    SealPlan plan{sh.data(), sh.size(), 0, secure, 1, 1, false};
    if (secure && policy.isEcc()) {
        // ECC (OPC 10000-6 6.8.1; OPC 30300 B.1): the OPN is signed (ECDSA r | s), never encrypted,
        // and so not padded; the keys that protect the rest come from the EphemeralKeys in its nonces.
        plan.encrypt = false;
        plan.signatureSize = crypto::asymmetricSignatureSize(policy, security.localKey);
        if (!plan.signatureSize || !crypto::keyFitsPolicy(policy, security.remoteKey)) return status::BadSecurityChecksFailed;
    } else if (secure) {
        plan.signatureSize = crypto::rsaKeyBytes(security.localKey);
        plan.cipherBlock = crypto::rsaKeyBytes(security.remoteKey);
        plan.plainBlock = crypto::asymmetricPlainBlockSize(policy, security.remoteKey);
        plan.extraPadding = plan.cipherBlock > 256;
        if (!plan.signatureSize || !plan.cipherBlock || !plan.plainBlock) return status::BadSecurityChecksFailed;
    }
    std::vector<uint8_t> tmp;
    return seal(
        out, TcpMessageType::OpenSecureChannel, ChunkType::Final, channelId, plan, requestId, body, size, limits,
        sequence,
        [&](const uint8_t* data, std::size_t n, uint8_t* sig) {
            tmp.clear();
            if (crypto::asymmetricSign(policy, security.localKey, data, n, tmp).isBad() || tmp.size() != plan.signatureSize)
                return false;
            std::memcpy(sig, tmp.data(), tmp.size());
            return true;
        },
        [&](Buffer& b, std::size_t at, std::size_t n) {
            tmp.clear();
            if (crypto::asymmetricEncrypt(policy, security.remoteKey, b.data() + at, n, tmp).isBad()) return false;
            b.resize(at);
            b.append(tmp.data(), tmp.size());
            return true;
        });
}

StatusCode parseAsymmetricHeader(const uint8_t* chunk, std::size_t size, std::size_t maxCertificateSize,
                                 AsymmetricHeader& header) {
    std::size_t at = kMessageHeaderSize;
    std::string_view* fields[3] = {&header.policyUri, &header.senderCertificate, &header.receiverThumbprint};
    for (int i = 0; i < 3; ++i) {
        if (size < at + 4) return status::BadDecodingError;
        const int32_t len = int32_t(readU32(chunk + at));
        at += 4;
        if (len < -1) return status::BadDecodingError;
        if (len <= 0) { *fields[i] = {}; continue; }
        if (std::size_t(len) > size - at) return status::BadDecodingError;
        if (i == 0 && len > 255) return status::BadSecurityPolicyRejected;
        if (i == 1 && maxCertificateSize && std::size_t(len) > maxCertificateSize) return status::BadCertificateInvalid;
        *fields[i] = std::string_view(reinterpret_cast<const char*>(chunk + at), std::size_t(len));
        at += std::size_t(len);
    }
    header.size = at - kMessageHeaderSize;
    return status::Good;
}

StatusCode openSymmetric(const uint8_t* chunk, std::size_t n, const SymmetricSecurity& security, Buffer& scratch,
                         OpenedChunk& opened) {
    constexpr std::size_t header = kMessageHeaderSize + kSymmetricSecurityHeaderSize;
    if (n < header + kSequenceHeaderSize) return status::BadDecodingError;
    const uint8_t* plain = chunk;
    std::size_t end = n;
    if (security.mode != MessageSecurityMode::None) {
        crypto::SymmetricKeys* keys = security.keys;
        if (!keys) return status::BadSecurityChecksFailed;
        const std::size_t sig = keys->signatureSize();
        if (security.mode == MessageSecurityMode::SignAndEncrypt) {
            if ((n - header) % keys->blockSize()) return status::BadSecurityChecksFailed;
            scratch.clear();
            scratch.append(chunk, n);
            if (!keys->decrypt(scratch.data() + header, n - header)) return status::BadSecurityChecksFailed;
            plain = scratch.data();
        }
        if (n < header + kSequenceHeaderSize + sig) return status::BadSecurityChecksFailed;
        end = n - sig;
        if (!keys->verify(plain, end, plain + end)) return status::BadSecurityChecksFailed;
        if (security.mode == MessageSecurityMode::SignAndEncrypt) {
            std::size_t bodyEnd = 0;
            const StatusCode s = unpad(plain, end, header + kSequenceHeaderSize, false, bodyEnd);
            if (s.isBad()) return s;
            end = bodyEnd;
        }
    }
    opened.sequenceNumber = readU32(plain + header);
    opened.requestId = readU32(plain + header + 4);
    opened.body = plain + header + kSequenceHeaderSize;
    opened.bodySize = end - header - kSequenceHeaderSize;
    return status::Good;
}

StatusCode openAsymmetric(const uint8_t* chunk, std::size_t n, std::size_t securityHeaderSize,
                          const AsymmetricSecurity& security, Buffer& scratch, OpenedChunk& opened) {
    const std::size_t header = kMessageHeaderSize + securityHeaderSize;
    if (n < header + kSequenceHeaderSize) return status::BadDecodingError;
    const uint8_t* plain = chunk;
    std::size_t end = n;
    const SecurityPolicy* policy = security.policy;
    if (policy && policy->isEcc()) {
        // Signed only (see sealAsymmetric): the signature by the sender's certificate key ends the chunk.
        if (!security.remoteKey) return status::BadSecurityChecksFailed;
        const std::size_t sig = crypto::asymmetricSignatureSize(*policy, security.remoteKey);
        if (!sig || n < header + kSequenceHeaderSize + sig) return status::BadSecurityChecksFailed;
        end = n - sig;
        if (!crypto::asymmetricVerify(*policy, security.remoteKey, chunk, end, chunk + end, sig))
            return status::BadSecurityChecksFailed;
    } else if (policy && policy->id != SecurityPolicyId::None) {
        if (!security.localKey || !security.remoteKey) return status::BadSecurityChecksFailed;
        const std::size_t cipherBlock = crypto::rsaKeyBytes(security.localKey);
        if (!cipherBlock || (n - header) % cipherBlock) return status::BadSecurityChecksFailed;
        std::vector<uint8_t> decrypted;
        if (crypto::asymmetricDecrypt(*policy, security.localKey, chunk + header, n - header, decrypted).isBad())
            return status::BadSecurityChecksFailed;
        scratch.clear();
        scratch.append(chunk, header);
        scratch.append(decrypted.data(), decrypted.size());
        crypto::wipe(decrypted.data(), decrypted.size());
        plain = scratch.data();
        const std::size_t sig = crypto::rsaKeyBytes(security.remoteKey);
        if (scratch.size() < header + kSequenceHeaderSize + sig + 1) return status::BadSecurityChecksFailed;
        end = scratch.size() - sig;
        if (!crypto::asymmetricVerify(*policy, security.remoteKey, plain, end, plain + end, sig))
            return status::BadSecurityChecksFailed;
        std::size_t bodyEnd = 0;
        const StatusCode s = unpad(plain, end, header + kSequenceHeaderSize, cipherBlock > 256, bodyEnd);
        if (s.isBad()) return s;
        end = bodyEnd;
    }
    opened.sequenceNumber = readU32(plain + header);
    opened.requestId = readU32(plain + header + 4);
    opened.body = plain + header + kSequenceHeaderSize;
    opened.bodySize = end - header - kSequenceHeaderSize;
    return status::Good;
}

} // namespace ua
