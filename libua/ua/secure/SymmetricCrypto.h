// Symmetric operations of the security policies (OPC 10000-7) for the MSG and CLO chunks of
// OPC 10000-6 6.7.2, with the key derivation of OPC 10000-6 6.7.5. One SymmetricKeys object per
// direction per SecurityToken holds its OpenSSL contexts (EVP_MAC_CTX, EVP_CIPHER_CTX) for the
// token's lifetime: no context is created per message.
#pragma once

#include "ua/secure/SecurityPolicy.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ua::crypto {

// P_SHA1 / P_SHA256 (the TLS 1.2 P_hash of RFC 5246 5, by policy.keyDerivation) of secret and
// seed, length bytes long; the RSA policies only (empty for an ECC policy: secure/EccCrypto.h). Implemented with OpenSSL's EVP_KDF, not by hand (TLS1-PRF with the policy's
// digest and no label). Empty for policy None, length 0, an empty seed (TLS1-PRF refuses it; SecureChannel
// nonces are never empty) or an OpenSSL failure.
std::vector<uint8_t> deriveBytes(const SecurityPolicy& policy, const uint8_t* secret, std::size_t secretSize,
                                 const uint8_t* seed, std::size_t seedSize, std::size_t length);

// The keys of one direction of one SecurityToken and the contexts that use them.
// 6.7.5: the keys a side uses to send are derived from P_SHA(remoteNonce, localNonce) and cut into
// SigningKey (derivedSignatureKeyLength), EncryptingKey (symmetricEncryptionKeyLength) and
// InitializationVector (symmetricBlockSize), in that order. The client sends with
// P_SHA(serverNonce, clientNonce); the server sends with P_SHA(clientNonce, serverNonce).
// Not thread-safe: the contexts are the object's (one thread per SecureChannel).
class SymmetricKeys {
public:
    // Derives the keys: secret is the nonce of the other side, seed the nonce of the side that sends
    // with these keys. nullptr for policy None or if OpenSSL fails. The object keeps &policy: pass an
    // entry of the table (securityPolicy(), findSecurityPolicy()), not a copy.
    static std::unique_ptr<SymmetricKeys> derive(const SecurityPolicy& policy, const uint8_t* secret, std::size_t secretSize,
                                                 const uint8_t* seed, std::size_t seedSize);
    // The keys from keying material already derived (the ECC policies' HKDF, secure/EccCrypto.h):
    // SigningKey | EncryptingKey | InitializationVector, exactly keyMaterialLength(policy) bytes
    // (nullptr otherwise). The caller wipes bytes.
    static std::unique_ptr<SymmetricKeys> fromKeyMaterial(const SecurityPolicy& policy, const uint8_t* bytes,
                                                          std::size_t size);
    // bytes of keying material one direction needs: derivedSignatureKeyLength +
    // symmetricEncryptionKeyLength + symmetricBlockSize (the L of OPC 10000-6 6.8.1).
    static std::size_t keyMaterialLength(const SecurityPolicy& policy);
    ~SymmetricKeys();  // wipes the keys
    SymmetricKeys(const SymmetricKeys&) = delete;
    SymmetricKeys& operator=(const SymmetricKeys&) = delete;

    const SecurityPolicy& policy() const { return *m_policy; }
    std::size_t signatureSize() const { return m_policy->symmetricSignatureSize; }
    std::size_t blockSize() const { return m_policy->symmetricBlockSize; }

    // HMAC (SHA-1, SHA-256 or SHA-384) of data, signatureSize() bytes written to out. False on an OpenSSL failure.
    bool sign(const uint8_t* data, std::size_t size, uint8_t* out);
    // Constant-time comparison of the HMAC of data with signature (signatureSize() bytes).
    bool verify(const uint8_t* data, std::size_t size, const uint8_t* signature);
    // AES-CBC with the derived IV, in place; size must be a multiple of blockSize(). False otherwise
    // or on an OpenSSL failure. Every call starts again from the derived IV (each MessageChunk is
    // encrypted on its own: OPC 10000-6 6.7.6 reuses the IV until the keys change).
    bool encrypt(uint8_t* data, std::size_t size);
    bool decrypt(uint8_t* data, std::size_t size);

    // The raw keys (for tests against other implementations).
    const std::vector<uint8_t>& signingKey() const { return m_signingKey; }
    const std::vector<uint8_t>& encryptingKey() const { return m_encryptingKey; }
    const std::vector<uint8_t>& initializationVector() const { return m_iv; }

private:
    SymmetricKeys() = default;
    struct Contexts;
    const SecurityPolicy* m_policy = nullptr;
    std::vector<uint8_t> m_signingKey, m_encryptingKey, m_iv;
    std::unique_ptr<Contexts> m_ctx;
};

} // namespace ua::crypto
