// RSA signatures and encryption of the security policies on OpenSSL 3 EVP (one EVP_PKEY_CTX or
// EVP_MD_CTX per call; the blocks of one message share it).
#include "ua/secure/AsymmetricCrypto.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <climits>
#include <memory>

namespace ua::crypto {

namespace {

struct PkeyCtxFree {
    void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
struct MdCtxFree {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

const char* signatureDigest(AsymmetricSignature s) {
    switch (s) {
    case AsymmetricSignature::RsaPkcs15Sha1:
        return "SHA1";
    case AsymmetricSignature::RsaPkcs15Sha256:
    case AsymmetricSignature::RsaPssSha256:
        return "SHA256";
    case AsymmetricSignature::None:
        break;
    }
    return nullptr;
}

// Sets the padding of a DigestSign/DigestVerify context: PKCS#1 v1.5, or PSS with MGF1 SHA-256 and a
// 32-byte salt (OPC 10000-7 AsymmetricSignatureAlgorithm_RSA-PSS-SHA2-256).
bool setSignaturePadding(EVP_PKEY_CTX* pctx, AsymmetricSignature s) {
    if (s != AsymmetricSignature::RsaPssSha256)
        return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0;
    return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) > 0 &&
           EVP_PKEY_CTX_set_rsa_mgf1_md_name(pctx, "SHA256", nullptr) > 0 &&
           EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, 32) > 0;
}

// Sets the padding of an encrypt/decrypt context; for OAEP the label hash and the MGF1 hash are the
// same (SHA-1 for RSA-OAEP-SHA1, SHA-256 for RSA-OAEP-SHA2-256).
bool setEncryptionPadding(EVP_PKEY_CTX* pctx, AsymmetricEncryption e) {
    switch (e) {
    case AsymmetricEncryption::RsaPkcs15:
        return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0;
    case AsymmetricEncryption::RsaOaepSha1:
    case AsymmetricEncryption::RsaOaepSha256: {
        const char* md = e == AsymmetricEncryption::RsaOaepSha1 ? "SHA1" : "SHA256";
        return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_OAEP_PADDING) > 0 &&
               EVP_PKEY_CTX_set_rsa_oaep_md_name(pctx, md, nullptr) > 0 &&
               EVP_PKEY_CTX_set_rsa_mgf1_md_name(pctx, md, nullptr) > 0;
    }
    case AsymmetricEncryption::None:
        break;
    }
    return false;
}

// Padding overhead per block in bytes: 11 for PKCS#1 v1.5, 2 * hashLength + 2 for OAEP.
std::size_t encryptionOverhead(AsymmetricEncryption e) {
    switch (e) {
    case AsymmetricEncryption::RsaPkcs15:
        return 11;
    case AsymmetricEncryption::RsaOaepSha1:
        return 42;
    case AsymmetricEncryption::RsaOaepSha256:
        return 66;
    case AsymmetricEncryption::None:
        break;
    }
    return 0;
}

} // namespace

std::size_t rsaKeyBytes(EVP_PKEY* key) {
    if (!key) return 0;
    int bits = EVP_PKEY_get_bits(key);
    return bits > 0 ? (std::size_t(bits) + 7) / 8 : 0;
}

StatusCode asymmetricSign(const SecurityPolicy& policy, EVP_PKEY* privateKey, const uint8_t* data,
                          std::size_t size, std::vector<uint8_t>& out) {
    const char* md = signatureDigest(policy.asymmetricSignature);
    if (!md) return status::BadSecurityPolicyRejected;
    MdCtx ctx(EVP_MD_CTX_new());
    EVP_PKEY_CTX* pctx = nullptr; // owned by ctx
    if (!ctx || !privateKey ||
        EVP_DigestSignInit_ex(ctx.get(), &pctx, md, nullptr, nullptr, privateKey, nullptr) <= 0 ||
        !setSignaturePadding(pctx, policy.asymmetricSignature))
        return status::BadSecurityChecksFailed;
    std::size_t length = rsaKeyBytes(privateKey); // the signature is as long as the modulus
    const std::size_t start = out.size();
    out.resize(start + length);
    if (EVP_DigestSign(ctx.get(), out.data() + start, &length, data, size) <= 0) {
        out.resize(start);
        return status::BadSecurityChecksFailed;
    }
    out.resize(start + length);
    return status::Good;
}

bool asymmetricVerify(const SecurityPolicy& policy, EVP_PKEY* publicKey, const uint8_t* data,
                      std::size_t size, const uint8_t* signature, std::size_t signatureSize) {
    const char* md = signatureDigest(policy.asymmetricSignature);
    if (!md || !publicKey) return false;
    MdCtx ctx(EVP_MD_CTX_new());
    EVP_PKEY_CTX* pctx = nullptr;
    if (!ctx || EVP_DigestVerifyInit_ex(ctx.get(), &pctx, md, nullptr, nullptr, publicKey, nullptr) <= 0 ||
        !setSignaturePadding(pctx, policy.asymmetricSignature))
        return false;
    return EVP_DigestVerify(ctx.get(), signature, signatureSize, data, size) == 1;
}

std::size_t asymmetricPlainBlockSize(const SecurityPolicy& policy, EVP_PKEY* publicKey) {
    const std::size_t overhead = encryptionOverhead(policy.asymmetricEncryption);
    const std::size_t keyBytes = rsaKeyBytes(publicKey);
    return overhead != 0 && keyBytes > overhead ? keyBytes - overhead : 0;
}

StatusCode asymmetricEncrypt(const SecurityPolicy& policy, EVP_PKEY* publicKey, const uint8_t* data,
                             std::size_t size, std::vector<uint8_t>& out) {
    if (policy.asymmetricEncryption == AsymmetricEncryption::None) return status::BadSecurityPolicyRejected;
    const std::size_t plainBlock = asymmetricPlainBlockSize(policy, publicKey);
    const std::size_t keyBytes = rsaKeyBytes(publicKey);
    if (plainBlock == 0) return status::BadSecurityChecksFailed;
    PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, publicKey, nullptr));
    if (!ctx || EVP_PKEY_encrypt_init(ctx.get()) <= 0 ||
        !setEncryptionPadding(ctx.get(), policy.asymmetricEncryption))
        return status::BadSecurityChecksFailed;
    const std::size_t blocks = (size + plainBlock - 1) / plainBlock;
    const std::size_t start = out.size();
    out.resize(start + blocks * keyBytes);
    for (std::size_t i = 0; i < blocks; ++i) {
        const std::size_t offset = i * plainBlock;
        const std::size_t n = std::min(plainBlock, size - offset);
        std::size_t written = keyBytes;
        if (EVP_PKEY_encrypt(ctx.get(), out.data() + start + i * keyBytes, &written, data + offset, n) <= 0 ||
            written != keyBytes) {
            out.resize(start);
            return status::BadSecurityChecksFailed;
        }
    }
    return status::Good;
}

StatusCode asymmetricDecrypt(const SecurityPolicy& policy, EVP_PKEY* privateKey, const uint8_t* data,
                             std::size_t size, std::vector<uint8_t>& out) {
    if (policy.asymmetricEncryption == AsymmetricEncryption::None) return status::BadSecurityPolicyRejected;
    const std::size_t keyBytes = rsaKeyBytes(privateKey);
    if (keyBytes == 0 || size % keyBytes != 0) return status::BadSecurityChecksFailed;
    PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, privateKey, nullptr));
    if (!ctx || EVP_PKEY_decrypt_init(ctx.get()) <= 0 ||
        !setEncryptionPadding(ctx.get(), policy.asymmetricEncryption))
        return status::BadSecurityChecksFailed;
    const std::size_t start = out.size();
    out.resize(start + size); // a block's plaintext is shorter than the block
    std::size_t used = start;
    for (std::size_t offset = 0; offset < size; offset += keyBytes) {
        std::size_t written = keyBytes;
        if (EVP_PKEY_decrypt(ctx.get(), out.data() + used, &written, data + offset, keyBytes) <= 0) {
            wipe(out.data() + start, out.size() - start);
            out.resize(start);
            return status::BadSecurityChecksFailed;
        }
        used += written;
    }
    out.resize(used);
    return status::Good;
}

std::vector<uint8_t> randomBytes(std::size_t n) {
    std::vector<uint8_t> bytes(n);
    if (n > std::size_t(INT_MAX) || (n != 0 && RAND_bytes(bytes.data(), int(n)) != 1)) bytes.clear();
    return bytes;
}

void wipe(void* p, std::size_t n) {
    if (p && n) OPENSSL_cleanse(p, n);
}

} // namespace ua::crypto
