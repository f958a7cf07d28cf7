// RSA and ECDSA signatures and RSA encryption of the security policies on OpenSSL 3 EVP (one
// EVP_PKEY_CTX or EVP_MD_CTX per call; the blocks of one message share it).
#include "ua/secure/AsymmetricCrypto.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
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
    case AsymmetricSignature::EcdsaSha256:
        return "SHA256";
    case AsymmetricSignature::EcdsaSha384:
        return "SHA384";
    case AsymmetricSignature::None:
        break;
    }
    return nullptr;
}

bool isEcdsa(AsymmetricSignature s) {
    return s == AsymmetricSignature::EcdsaSha256 || s == AsymmetricSignature::EcdsaSha384;
}

struct EcdsaSigFree {
    void operator()(ECDSA_SIG* s) const { ECDSA_SIG_free(s); }
};
using EcdsaSig = std::unique_ptr<ECDSA_SIG, EcdsaSigFree>;

// The DER ECDSA-Sig-Value OpenSSL makes, as the r | s OPC UA sends (each of half bytes, big-endian,
// left-padded with zeros). False when der does not parse or r or s does not fit.
bool ecdsaDerToRaw(const uint8_t* der, std::size_t size, std::size_t half, uint8_t* out) {
    const unsigned char* p = der;
    EcdsaSig sig(d2i_ECDSA_SIG(nullptr, &p, long(size)));
    if (!sig) return false;
    const BIGNUM* r = nullptr;
    const BIGNUM* s = nullptr;
    ECDSA_SIG_get0(sig.get(), &r, &s);
    return BN_bn2binpad(r, out, int(half)) == int(half) && BN_bn2binpad(s, out + half, int(half)) == int(half);
}

// r | s as DER for EVP_DigestVerify; empty when the halves do not make a signature.
std::vector<uint8_t> ecdsaRawToDer(const uint8_t* raw, std::size_t half) {
    EcdsaSig sig(ECDSA_SIG_new());
    BIGNUM* r = BN_bin2bn(raw, int(half), nullptr);
    BIGNUM* s = BN_bin2bn(raw + half, int(half), nullptr);
    if (!sig || !r || !s || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
        BN_free(r);
        BN_free(s);
        return {};
    }
    const int length = i2d_ECDSA_SIG(sig.get(), nullptr);
    if (length <= 0) return {};
    std::vector<uint8_t> der(std::size_t(length), 0);
    unsigned char* p = der.data();
    if (i2d_ECDSA_SIG(sig.get(), &p) != length) return {};
    return der;
}

// Sets the padding of a DigestSign/DigestVerify context: PKCS#1 v1.5, or PSS with MGF1 SHA-256 and a
// 32-byte salt (OPC 10000-7 AsymmetricSignatureAlgorithm_RSA-PSS-SHA2-256).
bool setSignaturePadding(EVP_PKEY_CTX* pctx, AsymmetricSignature s) {
    if (isEcdsa(s)) return true;
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

KeyType certificateKeyType(const SecurityPolicy& policy) {
    switch (policy.curve) {
    case EccCurve::NistP256:
        return KeyType::EccNistP256;
    case EccCurve::NistP384:
        return KeyType::EccNistP384;
    case EccCurve::None:
        break;
    }
    return KeyType::Rsa;
}

bool keyFitsPolicy(const SecurityPolicy& policy, EVP_PKEY* key) {
    return key && keyTypeOf(key) == certificateKeyType(policy);
}

std::size_t asymmetricSignatureSize(const SecurityPolicy& policy, EVP_PKEY* key) {
    if (!key || policy.asymmetricSignature == AsymmetricSignature::None) return 0;
    return isEcdsa(policy.asymmetricSignature) ? 2 * rsaKeyBytes(key) : rsaKeyBytes(key);
}

StatusCode asymmetricSign(const SecurityPolicy& policy, EVP_PKEY* privateKey, const uint8_t* data,
                          std::size_t size, std::vector<uint8_t>& out) {
    const char* md = signatureDigest(policy.asymmetricSignature);
    if (!md) return status::BadSecurityPolicyRejected;
    if (!keyFitsPolicy(policy, privateKey)) return status::BadSecurityChecksFailed;
    MdCtx ctx(EVP_MD_CTX_new());
    EVP_PKEY_CTX* pctx = nullptr; // owned by ctx
    if (!ctx || EVP_DigestSignInit_ex(ctx.get(), &pctx, md, nullptr, nullptr, privateKey, nullptr) <= 0 ||
        !setSignaturePadding(pctx, policy.asymmetricSignature))
        return status::BadSecurityChecksFailed;
    const std::size_t start = out.size();
    if (isEcdsa(policy.asymmetricSignature)) {
        // OpenSSL writes the DER form; the wire carries r | s.
        std::size_t derLength = 0;
        if (EVP_DigestSign(ctx.get(), nullptr, &derLength, data, size) <= 0) return status::BadSecurityChecksFailed;
        std::vector<uint8_t> der(derLength);
        if (EVP_DigestSign(ctx.get(), der.data(), &derLength, data, size) <= 0) return status::BadSecurityChecksFailed;
        const std::size_t half = rsaKeyBytes(privateKey);
        out.resize(start + 2 * half);
        if (!ecdsaDerToRaw(der.data(), derLength, half, out.data() + start)) {
            out.resize(start);
            return status::BadSecurityChecksFailed;
        }
        return status::Good;
    }
    std::size_t length = rsaKeyBytes(privateKey); // the signature is as long as the modulus
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
    if (!md || !keyFitsPolicy(policy, publicKey)) return false;
    std::vector<uint8_t> der;
    if (isEcdsa(policy.asymmetricSignature)) {
        // Exactly r | s of the curve's size: a DER signature or one of another length is refused.
        const std::size_t half = rsaKeyBytes(publicKey);
        if (!signature || signatureSize != 2 * half) return false;
        der = ecdsaRawToDer(signature, half);
        if (der.empty()) return false;
        signature = der.data();
        signatureSize = der.size();
    }
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
