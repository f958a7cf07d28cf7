// Key derivation (P_SHA1 / P_SHA256 through OpenSSL's TLS1-PRF KDF) and the per-token HMAC and AES-CBC
// contexts of the symmetric chunks. The contexts are set up once in derive(); a message only resets
// them (EVP_MAC_init without a key re-uses the key; EVP_CipherInit_ex2 with only an IV restarts CBC).
#include "ua/secure/SymmetricCrypto.h"

#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/OpenSslKdf.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <climits>

namespace ua::crypto {

namespace {

// Fetched once per process (the fetches are thread-safe; the objects are immutable and never freed).
EVP_KDF* tlsPrf() {
    static EVP_KDF* kdf = EVP_KDF_fetch(nullptr, OSSL_KDF_NAME_TLS1_PRF, nullptr);
    return kdf;
}
EVP_MAC* hmac() {
    static EVP_MAC* mac = EVP_MAC_fetch(nullptr, OSSL_MAC_NAME_HMAC, nullptr);
    return mac;
}
const EVP_CIPHER* aesCbc(std::size_t keyBytes) {
    static EVP_CIPHER* aes128 = EVP_CIPHER_fetch(nullptr, "AES-128-CBC", nullptr);
    static EVP_CIPHER* aes256 = EVP_CIPHER_fetch(nullptr, "AES-256-CBC", nullptr);
    return keyBytes == 16 ? aes128 : keyBytes == 32 ? aes256 : nullptr;
}

} // namespace

std::vector<uint8_t> deriveBytes(const SecurityPolicy& policy, const uint8_t* secret, std::size_t secretSize,
                                 const uint8_t* seed, std::size_t seedSize, std::size_t length) {
    const char* md = hashName(policy.keyDerivation);
    if (!md || policy.isEcc() || length == 0) return {};
    // TLS1-PRF with a digest other than MD5-SHA1 is the single P_hash of RFC 5246 5 over the
    // concatenation of its seeds; given no label, the seed is ours alone.
    const OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>(md), 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SECRET, const_cast<uint8_t*>(secret), secretSize),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SEED, const_cast<uint8_t*>(seed), seedSize),
        OSSL_PARAM_construct_end(),
    };
    return kdfDerive(tlsPrf(), params, length);
}

struct SymmetricKeys::Contexts {
    EVP_MAC_CTX* mac = nullptr;
    EVP_CIPHER_CTX* encrypt = nullptr;
    EVP_CIPHER_CTX* decrypt = nullptr;
    ~Contexts() {
        EVP_MAC_CTX_free(mac);
        EVP_CIPHER_CTX_free(encrypt);
        EVP_CIPHER_CTX_free(decrypt);
    }
};

std::size_t SymmetricKeys::keyMaterialLength(const SecurityPolicy& policy) {
    return std::size_t(policy.derivedSignatureKeyLength) + policy.symmetricEncryptionKeyLength +
           policy.symmetricBlockSize;
}

std::unique_ptr<SymmetricKeys> SymmetricKeys::derive(const SecurityPolicy& policy, const uint8_t* secret,
                                                     std::size_t secretSize, const uint8_t* seed,
                                                     std::size_t seedSize) {
    std::vector<uint8_t> bytes = deriveBytes(policy, secret, secretSize, seed, seedSize, keyMaterialLength(policy));
    if (bytes.empty()) return nullptr;
    auto keys = fromKeyMaterial(policy, bytes.data(), bytes.size());
    wipe(bytes.data(), bytes.size());
    return keys;
}

std::unique_ptr<SymmetricKeys> SymmetricKeys::fromKeyMaterial(const SecurityPolicy& policy, const uint8_t* bytes,
                                                              std::size_t size) {
    const char* md = hashName(policy.symmetricSignature);
    const EVP_CIPHER* cipher = aesCbc(policy.symmetricEncryptionKeyLength);
    const std::size_t signingLength = policy.derivedSignatureKeyLength;
    const std::size_t encryptingLength = policy.symmetricEncryptionKeyLength;
    const std::size_t ivLength = policy.symmetricBlockSize;
    if (!md || !cipher || !hmac() || ivLength != std::size_t(EVP_CIPHER_get_iv_length(cipher)) || !bytes ||
        size != keyMaterialLength(policy))
        return nullptr;

    std::unique_ptr<SymmetricKeys> keys(new SymmetricKeys()); // the constructor is private
    keys->m_policy = &policy;
    const uint8_t* p = bytes;
    keys->m_signingKey.assign(p, p + signingLength);
    keys->m_encryptingKey.assign(p + signingLength, p + signingLength + encryptingLength);
    keys->m_iv.assign(p + signingLength + encryptingLength, p + size);

    keys->m_ctx = std::make_unique<Contexts>();
    Contexts& c = *keys->m_ctx;
    c.mac = EVP_MAC_CTX_new(hmac());
    c.encrypt = EVP_CIPHER_CTX_new();
    c.decrypt = EVP_CIPHER_CTX_new();
    const OSSL_PARAM macParams[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>(md), 0),
        OSSL_PARAM_construct_end(),
    };
    const uint8_t* key = keys->m_encryptingKey.data();
    const uint8_t* iv = keys->m_iv.data();
    if (!c.mac || !c.encrypt || !c.decrypt ||
        EVP_MAC_init(c.mac, keys->m_signingKey.data(), keys->m_signingKey.size(), macParams) != 1 ||
        EVP_CipherInit_ex2(c.encrypt, cipher, key, iv, 1, nullptr) != 1 ||
        EVP_CipherInit_ex2(c.decrypt, cipher, key, iv, 0, nullptr) != 1 ||
        EVP_CIPHER_CTX_set_padding(c.encrypt, 0) != 1 || EVP_CIPHER_CTX_set_padding(c.decrypt, 0) != 1)
        return nullptr; // the destructor wipes the keys
    return keys;
}

SymmetricKeys::~SymmetricKeys() {
    wipe(m_signingKey.data(), m_signingKey.size());
    wipe(m_encryptingKey.data(), m_encryptingKey.size());
    wipe(m_iv.data(), m_iv.size());
    // m_ctx frees the contexts; EVP_MAC_CTX_free and EVP_CIPHER_CTX_free cleanse their key copies.
}

bool SymmetricKeys::sign(const uint8_t* data, std::size_t size, uint8_t* out) {
    // A null key restarts HMAC with the key given in derive() (OpenSSL 3 HMAC provider).
    EVP_MAC_CTX* mac = m_ctx->mac;
    std::size_t length = 0;
    return EVP_MAC_init(mac, nullptr, 0, nullptr) == 1 && EVP_MAC_update(mac, data, size) == 1 &&
           EVP_MAC_final(mac, out, &length, signatureSize()) == 1 && length == signatureSize();
}

bool SymmetricKeys::verify(const uint8_t* data, std::size_t size, const uint8_t* signature) {
    uint8_t expected[EVP_MAX_MD_SIZE];
    if (signatureSize() > sizeof expected || !sign(data, size, expected)) return false;
    const bool equal = CRYPTO_memcmp(expected, signature, signatureSize()) == 0;
    wipe(expected, sizeof expected);
    return equal;
}

namespace {

// One CBC pass over data in place, starting from iv (every chunk starts from the token's derived IV:
// OPC 10000-6 6.7.6, "the InitializationVector can be calculated once with the keys and reused").
bool cbc(EVP_CIPHER_CTX* ctx, const std::vector<uint8_t>& iv, uint8_t* data, std::size_t size,
         std::size_t block) {
    if (block == 0 || size % block != 0 || size > std::size_t(INT_MAX)) return false;
    if (EVP_CipherInit_ex2(ctx, nullptr, nullptr, iv.data(), -1, nullptr) != 1) return false;
    int written = 0;
    if (size != 0 &&
        (EVP_CipherUpdate(ctx, data, &written, data, int(size)) != 1 || std::size_t(written) != size))
        return false;
    uint8_t tail[EVP_MAX_BLOCK_LENGTH];
    int tailLength = 0;
    return EVP_CipherFinal_ex(ctx, tail, &tailLength) == 1 && tailLength == 0;
}

} // namespace

bool SymmetricKeys::encrypt(uint8_t* data, std::size_t size) {
    return cbc(m_ctx->encrypt, m_iv, data, size, blockSize());
}

bool SymmetricKeys::decrypt(uint8_t* data, std::size_t size) {
    return cbc(m_ctx->decrypt, m_iv, data, size, blockSize());
}

} // namespace ua::crypto
