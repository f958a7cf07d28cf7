// EphemeralKeys, ECDH and HKDF of the ECC policies on OpenSSL 3 (EVP_EC_gen, EVP_PKEY_fromdata,
// EVP_PKEY_derive, EVP_KDF "HKDF"). No arithmetic of our own: only the encodings of OPC 10000-6 6.8.
#include "ua/secure/EccCrypto.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/OpenSslKdf.h"

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

namespace ua::crypto {

namespace {

// OpenSSL's name of the policy's curve; nullptr for a policy that is not ECC.
const char* curveName(EccCurve curve) {
    switch (curve) {
    case EccCurve::NistP256:
        return "P-256";
    case EccCurve::NistP384:
        return "P-384";
    case EccCurve::None:
        break;
    }
    return nullptr;
}

struct PkeyCtxDelete {
    void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxDelete>;

// The other side's public key X | Y as an EVP_PKEY on the policy's curve; null when it is not a
// valid point of the curve.
std::shared_ptr<EVP_PKEY> peerKey(const SecurityPolicy& policy, const uint8_t* xy, std::size_t size) {
    const char* curve = curveName(policy.curve);
    if (!curve || !xy || size != policy.nonceLength) return {};
    std::vector<uint8_t> encoded(size + 1);
    encoded[0] = 0x04;  // SEC 1 uncompressed point: 04 | X | Y
    std::copy(xy, xy + size, encoded.begin() + 1);
    const OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, const_cast<char*>(curve), 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, encoded.data(), encoded.size()),
        OSSL_PARAM_construct_end(),
    };
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
    EVP_PKEY* key = nullptr;
    if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
        EVP_PKEY_fromdata(ctx.get(), &key, EVP_PKEY_PUBLIC_KEY, const_cast<OSSL_PARAM*>(params)) != 1)
        return {};
    std::shared_ptr<EVP_PKEY> peer(key, EVP_PKEY_free);
    // fromdata decodes the point; the full check also refuses the point at infinity and a point
    // outside the group of the curve's order.
    PkeyCtxPtr check(EVP_PKEY_CTX_new_from_pkey(nullptr, key, nullptr));
    if (!check || EVP_PKEY_public_check(check.get()) != 1) return {};
    return peer;
}

} // namespace

EphemeralKey EphemeralKey::generate(const SecurityPolicy& policy) {
    const char* curve = curveName(policy.curve);
    if (!curve) return {};
    EphemeralKey k;
    k.m_key.reset(EVP_EC_gen(curve), EVP_PKEY_free);
    if (!k.m_key) return {};
    // The encoded public key is 04 | X | Y (uncompressed is OpenSSL's default point format).
    std::vector<uint8_t> encoded(policy.nonceLength + 1);
    std::size_t length = 0;
    if (EVP_PKEY_get_octet_string_param(k.m_key.get(), OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, encoded.data(),
                                        encoded.size(), &length) != 1 ||
        length != encoded.size() || encoded[0] != 0x04)
        return {};
    k.m_publicKey.assign(encoded.begin() + 1, encoded.end());
    k.m_policy = &policy;
    return k;
}

StatusCode EphemeralKey::sharedSecret(const uint8_t* peer, std::size_t size, std::vector<uint8_t>& secret) const {
    if (!m_key || !m_policy) return status::BadSecurityChecksFailed;
    std::shared_ptr<EVP_PKEY> other = peerKey(*m_policy, peer, size);
    if (!other) return status::BadSecurityChecksFailed;
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, m_key.get(), nullptr));
    std::size_t length = 0;
    if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 || EVP_PKEY_derive_set_peer_ex(ctx.get(), other.get(), 1) != 1 ||
        EVP_PKEY_derive(ctx.get(), nullptr, &length) != 1 || length == 0)
        return status::BadSecurityChecksFailed;
    const std::size_t start = secret.size();
    secret.resize(start + length);
    // OpenSSL's ECDH writes the x coordinate left-padded to the field's size.
    if (EVP_PKEY_derive(ctx.get(), secret.data() + start, &length) != 1 || length != m_policy->nonceLength / 2) {
        wipe(secret.data() + start, secret.size() - start);
        secret.resize(start);
        return status::BadSecurityChecksFailed;
    }
    return status::Good;
}

std::vector<uint8_t> hkdf(const SecurityPolicy& policy, const uint8_t* ikm, std::size_t ikmSize, const uint8_t* salt,
                          std::size_t saltSize, const uint8_t* info, std::size_t infoSize, std::size_t length) {
    const char* md = hashName(policy.keyDerivation);
    if (!policy.isEcc() || !md || length == 0) return {};
    static EVP_KDF* kdf = EVP_KDF_fetch(nullptr, OSSL_KDF_NAME_HKDF, nullptr);  // immutable, never freed
    static const uint8_t kEmpty = 0;  // OSSL_PARAM wants a pointer even for no bytes
    const OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>(md), 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<uint8_t*>(ikm ? ikm : &kEmpty), ikmSize),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<uint8_t*>(salt ? salt : &kEmpty), saltSize),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<uint8_t*>(info ? info : &kEmpty), infoSize),
        OSSL_PARAM_construct_end(),
    };
    // EVP_KDF_derive refuses more than 255 blocks of the hash (RFC 5869 2.3).
    return kdfDerive(kdf, params, length);
}

std::vector<uint8_t> eccSalt(uint16_t length, std::string_view label, const std::vector<uint8_t>& first,
                             const std::vector<uint8_t>& second) {
    std::vector<uint8_t> salt;
    salt.reserve(2 + label.size() + first.size() + second.size());
    salt.push_back(uint8_t(length & 0xFF));
    salt.push_back(uint8_t(length >> 8));
    salt.insert(salt.end(), label.begin(), label.end());
    salt.insert(salt.end(), first.begin(), first.end());
    salt.insert(salt.end(), second.begin(), second.end());
    return salt;
}

std::unique_ptr<SymmetricKeys> deriveEccChannelKeys(const SecurityPolicy& policy, const std::vector<uint8_t>& sharedSecret,
                                                    EccKeySide sender, const std::vector<uint8_t>& clientNonce,
                                                    const std::vector<uint8_t>& serverNonce) {
    if (!policy.isEcc() || sharedSecret.empty() || clientNonce.empty() || serverNonce.empty()) return nullptr;
    const std::size_t length = SymmetricKeys::keyMaterialLength(policy);
    const std::vector<uint8_t> salt = sender == EccKeySide::Client
        ? eccSalt(uint16_t(length), "opcua-client", clientNonce, serverNonce)
        : eccSalt(uint16_t(length), "opcua-server", serverNonce, clientNonce);
    std::vector<uint8_t> material =
        hkdf(policy, sharedSecret.data(), sharedSecret.size(), salt.data(), salt.size(), salt.data(), salt.size(), length);
    if (material.empty()) return nullptr;
    auto keys = SymmetricKeys::fromKeyMaterial(policy, material.data(), material.size());
    wipe(material.data(), material.size());
    return keys;
}

} // namespace ua::crypto
