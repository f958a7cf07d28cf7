// The EccEncryptedSecret on OpenSSL 3 EVP (ECDH and HKDF from secure/EccCrypto.h, ECDSA from
// secure/AsymmetricCrypto.h, AES-CBC here with EVP_Cipher*): only the layout is ours.
#include "ua/secure/EccEncryptedSecret.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/AsymmetricCrypto.h"

#include <openssl/evp.h>

#include <cstring>
#include <memory>

namespace ua::crypto {

namespace {

constexpr uint8_t kEncodingMask = 1;                     // 7.40.2.3: always 1
constexpr std::size_t kMaxField = 0xFFFF;                // bytes: our bound on a nonce or a secret
constexpr std::string_view kSecretLabel = "opcua-secret";  // OPC 10000-6 6.8.3

const StatusCode kRefused = status::BadSecurityChecksFailed;

// 6.8.3: EncryptingKey | InitializationVector from the shared secret and the two public keys.
struct SecretKeys {
    std::vector<uint8_t> key, iv;
    ~SecretKeys() {
        if (!key.empty()) wipe(key.data(), key.size());
        if (!iv.empty()) wipe(iv.data(), iv.size());
    }
};

bool deriveSecretKeys(const SecurityPolicy& policy, std::vector<uint8_t>& shared, const std::vector<uint8_t>& sender,
                      const std::vector<uint8_t>& receiver, SecretKeys& out) {
    const std::size_t keyLength = policy.symmetricEncryptionKeyLength;
    const std::size_t ivLength = policy.symmetricBlockSize;
    const std::vector<uint8_t> salt = eccSalt(uint16_t(keyLength + ivLength), kSecretLabel, sender, receiver);
    std::vector<uint8_t> material =
        hkdf(policy, shared.data(), shared.size(), salt.data(), salt.size(), salt.data(), salt.size(), keyLength + ivLength);
    wipe(shared.data(), shared.size());
    if (material.size() != keyLength + ivLength) return false;
    out.key.assign(material.begin(), material.begin() + std::ptrdiff_t(keyLength));
    out.iv.assign(material.begin() + std::ptrdiff_t(keyLength), material.end());
    wipe(material.data(), material.size());
    return true;
}

// AES-CBC of the policy's key size without padding, in place; size a multiple of the block.
bool aesCbc(const SecretKeys& k, bool encrypt, uint8_t* data, std::size_t size) {
    const EVP_CIPHER* cipher = k.key.size() == 16 ? EVP_aes_128_cbc() : k.key.size() == 32 ? EVP_aes_256_cbc() : nullptr;
    if (!cipher || size == 0 || size % 16 != 0 || size > std::size_t(INT32_MAX)) return false;
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int n = 0, tail = 0;
    return ctx && EVP_CipherInit_ex(ctx.get(), cipher, nullptr, k.key.data(), k.iv.data(), encrypt ? 1 : 0) == 1 &&
           EVP_CIPHER_CTX_set_padding(ctx.get(), 0) == 1 && EVP_CipherUpdate(ctx.get(), data, &n, data, int(size)) == 1 &&
           std::size_t(n) == size && EVP_CipherFinal_ex(ctx.get(), data + n, &tail) == 1 && tail == 0;
}

// 6.8.3: the padding that fills the payload's blocks, with at least one block of padding + secret.
std::size_t payloadPadding(std::size_t nonce, std::size_t secret, std::size_t block) {
    const std::size_t data = 4 + nonce + 4 + secret + 2;
    std::size_t padding = data % block == 0 ? 0 : block - data % block;
    if (padding + secret < block) padding += block;
    return padding;
}

// A ByteString field (Int32 length, the bytes) written from the bytes as they are: no copy of a
// secret left behind in a temporary.
void writeByteString(BinaryEncoder& e, const void* data, std::size_t size) {
    e.writePod<int32_t>(int32_t(size));
    e.writeBytes(data, size);
}

// The header fields and where the payload starts; false when the bytes are not an EccEncryptedSecret.
struct Parsed {
    EccSecretHeader header;
    std::size_t payloadOffset = 0;
};

bool parse(const uint8_t* data, std::size_t size, Parsed& out) {
    if (!data) return false;
    BinaryDecoder d(data, size);
    NodeId typeId;
    decode(d, typeId);
    const uint8_t mask = d.readPod<uint8_t>();
    const int32_t length = d.readPod<int32_t>();
    if (!d.ok() || !(typeId == NodeId(0, id::EccEncryptedSecret)) || mask != kEncodingMask || length < 0 ||
        std::size_t(length) != d.remaining())
        return false;
    String policyUri;
    ByteString certificate, senderKey, receiverKey;
    decode(d, policyUri);
    decode(d, certificate);
    decode(d, out.header.signingTime);
    const uint16_t keyDataLength = d.readPod<uint16_t>();
    const std::size_t keyDataStart = d.ok() ? size - d.remaining() : 0;
    decode(d, senderKey);
    decode(d, receiverKey);
    if (!d.ok() || size - d.remaining() - keyDataStart != keyDataLength) return false;
    out.header.securityPolicyUri = policyUri.str();
    out.header.certificate = certificate.str();
    out.header.senderPublicKey.assign(senderKey.data(), senderKey.data() + senderKey.size());
    out.header.receiverPublicKey.assign(receiverKey.data(), receiverKey.data() + receiverKey.size());
    out.payloadOffset = size - d.remaining();
    return true;
}

} // namespace

StatusCode sealEccSecret(const EccSecretToSeal& in, std::vector<uint8_t>& out) {
    if (!in.policy || !in.policy->isEcc() || !in.signingKey || !keyFitsPolicy(*in.policy, in.signingKey)) return kRefused;
    if (in.nonce.size() > kMaxField || in.secret.size() > kMaxField) return status::BadEncodingLimitsExceeded;
    const SecurityPolicy& policy = *in.policy;
    const EphemeralKey own = EphemeralKey::generate(policy);
    if (own.isNull()) return kRefused;
    std::vector<uint8_t> shared;
    if (own.sharedSecret(in.receiverPublicKey.data(), in.receiverPublicKey.size(), shared).isBad()) return kRefused;
    SecretKeys keys;
    if (!deriveSecretKeys(policy, shared, own.publicKey(), in.receiverPublicKey, keys)) return kRefused;

    Buffer buffer;
    BinaryEncoder e(buffer);
    encode(e, NodeId(0, id::EccEncryptedSecret));
    e.writePod<uint8_t>(kEncodingMask);
    const std::size_t lengthAt = e.reserveLength();
    encode(e, String(policy.uri));
    encode(e, in.certificate.empty() ? ByteString() : ByteString(in.certificate));
    encode(e, in.signingTime);
    e.writePod<uint16_t>(uint16_t(8 + own.publicKey().size() + in.receiverPublicKey.size()));
    writeByteString(e, own.publicKey().data(), own.publicKey().size());
    writeByteString(e, in.receiverPublicKey.data(), in.receiverPublicKey.size());
    const std::size_t payloadAt = buffer.size();
    writeByteString(e, in.nonce.data(), in.nonce.size());
    writeByteString(e, in.secret.data(), in.secret.size());
    const std::size_t padding = payloadPadding(in.nonce.size(), in.secret.size(), policy.symmetricBlockSize);
    for (std::size_t i = 0; i < padding; ++i) e.writePod<uint8_t>(uint8_t(padding & 0xFF));
    e.writePod<uint16_t>(uint16_t(padding));
    const std::size_t signatureSize = asymmetricSignatureSize(policy, in.signingKey);
    if (!e.ok()) {
        wipe(buffer.data(), buffer.size());
        return e.status();
    }
    // Length counts the Signature too, which comes after the bytes it signs.
    const int32_t length = int32_t(buffer.size() - lengthAt - 4 + signatureSize);
    std::memcpy(buffer.data() + lengthAt, &length, 4);
    const bool encrypted = aesCbc(keys, true, buffer.data() + payloadAt, buffer.size() - payloadAt);
    std::vector<uint8_t> signature;
    if (!encrypted || asymmetricSign(policy, in.signingKey, buffer.data(), buffer.size(), signature).isBad() ||
        signature.size() != signatureSize) {
        wipe(buffer.data(), buffer.size());
        return kRefused;
    }
    out.assign(buffer.data(), buffer.data() + buffer.size());
    out.insert(out.end(), signature.begin(), signature.end());
    return status::Good;
}

StatusCode readEccSecretHeader(const uint8_t* data, std::size_t size, EccSecretHeader& out) {
    Parsed p;
    if (!parse(data, size, p)) return kRefused;
    out = std::move(p.header);
    return status::Good;
}

StatusCode openEccSecret(const EphemeralKey& receiverKey, EVP_PKEY* senderPublicKey, const uint8_t* data, std::size_t size,
                         std::string& nonce, std::string& secret) {
    const SecurityPolicy* policy = receiverKey.policy();
    Parsed p;
    if (receiverKey.isNull() || !policy || !senderPublicKey || !parse(data, size, p)) return kRefused;
    if (p.header.securityPolicyUri != policy->uri || p.header.receiverPublicKey != receiverKey.publicKey())
        return kRefused;
    // The Signature first, over everything before it (7.40.2.3: before anything is decrypted).
    const std::size_t signatureSize = asymmetricSignatureSize(*policy, senderPublicKey);
    if (signatureSize == 0 || size < p.payloadOffset + signatureSize) return kRefused;
    const std::size_t signedSize = size - signatureSize;
    if (!asymmetricVerify(*policy, senderPublicKey, data, signedSize, data + signedSize, signatureSize)) return kRefused;
    const std::size_t payloadSize = signedSize - p.payloadOffset;
    if (payloadSize == 0 || payloadSize % policy->symmetricBlockSize != 0) return kRefused;

    std::vector<uint8_t> shared;
    if (receiverKey.sharedSecret(p.header.senderPublicKey.data(), p.header.senderPublicKey.size(), shared).isBad())
        return kRefused;
    SecretKeys keys;
    if (!deriveSecretKeys(*policy, shared, p.header.senderPublicKey, receiverKey.publicKey(), keys)) return kRefused;
    std::vector<uint8_t> payload(data + p.payloadOffset, data + signedSize);
    StatusCode result = kRefused;
    if (aesCbc(keys, false, payload.data(), payload.size()) && payload.size() >= 2) {
        const std::size_t padding = std::size_t(payload[payload.size() - 2]) | std::size_t(payload[payload.size() - 1]) << 8;
        if (padding + 2 <= payload.size()) {
            const std::size_t fieldsEnd = payload.size() - 2 - padding;
            bool padded = true;
            for (std::size_t i = fieldsEnd; i < fieldsEnd + padding; ++i) padded = padded && payload[i] == uint8_t(padding & 0xFF);
            BinaryDecoder d(payload.data(), fieldsEnd);
            ByteString n, s;
            decode(d, n);
            decode(d, s);
            if (padded && d.ok() && d.atEnd()) {
                nonce = n.str();
                secret = s.str();
                result = status::Good;
            }
            if (!s.isEmpty()) wipe(const_cast<char*>(s.data()), s.size());
        }
    }
    wipe(payload.data(), payload.size());
    return result;
}

} // namespace ua::crypto
