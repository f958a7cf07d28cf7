// The SecurityPolicy table, from the profiles of OPC 10000-7 (Security Policy Basic128Rsa15, Basic256,
// Basic256Sha256, Aes128-Sha256-RsaOaep, Aes256-Sha256-RsaPss, ECC-nistP256, ECC-nistP384 and their
// *_Limits conformance units).
#include "ua/secure/SecurityPolicy.h"

#include <array>

namespace ua {

namespace {

constexpr const char* kRsaSha1 = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
constexpr const char* kRsaSha256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
constexpr const char* kRsaPssSha256 = "http://opcfoundation.org/UA/security/rsa-pss-sha2-256";
constexpr const char* kRsa15 = "http://www.w3.org/2001/04/xmlenc#rsa-1_5";
constexpr const char* kRsaOaep = "http://www.w3.org/2001/04/xmlenc#rsa-oaep";
constexpr const char* kRsaOaepSha256 = "http://opcfoundation.org/UA/security/rsa-oaep-sha2-256";

using AS = AsymmetricSignature;
using AE = AsymmetricEncryption;
using H = HashAlgorithm;
using C = EccCurve;

// Sizes in bytes except the asymmetric key limits (bits). The order of the entries is SecurityPolicyId's.
constexpr std::array<SecurityPolicy, 8> kPolicies{{
    {SecurityPolicyId::None, kSecurityPolicyNone, false, AS::None, AE::None, H::None, H::None, 0, 0, 0, 0, 0,
     0, 0, H::None, "", "", C::None},
    // Deprecated in 1.04: RSA PKCS#1 v1.5 encryption and SHA-1. Nonces of 16 bytes; keys 1024-2048 bits.
    {SecurityPolicyId::Basic128Rsa15, kSecurityPolicyBasic128Rsa15, true, AS::RsaPkcs15Sha1, AE::RsaPkcs15,
     H::Sha1, H::Sha1, 20, 16, 16, 16, 16, 1024, 2048, H::Sha1, kRsaSha1, kRsa15, C::None},
    // Deprecated in 1.04. DerivedSignatureKeyLength 192 bits; keys 1024-2048 bits (not 4096: that is the
    // WS-SecurityPolicy Basic256 suite, not the OPC UA profile).
    {SecurityPolicyId::Basic256, kSecurityPolicyBasic256, true, AS::RsaPkcs15Sha1, AE::RsaOaepSha1, H::Sha1,
     H::Sha1, 20, 24, 32, 16, 32, 1024, 2048, H::Sha1, kRsaSha1, kRsaOaep, C::None},
    {SecurityPolicyId::Basic256Sha256, kSecurityPolicyBasic256Sha256, false, AS::RsaPkcs15Sha256,
     AE::RsaOaepSha1, H::Sha256, H::Sha256, 32, 32, 32, 16, 32, 2048, 4096, H::Sha256, kRsaSha256, kRsaOaep,
     C::None},
    {SecurityPolicyId::Aes128Sha256RsaOaep, kSecurityPolicyAes128Sha256RsaOaep, false, AS::RsaPkcs15Sha256,
     AE::RsaOaepSha1, H::Sha256, H::Sha256, 32, 32, 16, 16, 32, 2048, 4096, H::Sha256, kRsaSha256, kRsaOaep,
     C::None},
    {SecurityPolicyId::Aes256Sha256RsaPss, kSecurityPolicyAes256Sha256RsaPss, false, AS::RsaPssSha256,
     AE::RsaOaepSha256, H::Sha256, H::Sha256, 32, 32, 32, 16, 32, 2048, 4096, H::Sha256, kRsaPssSha256,
     kRsaOaepSha256, C::None},
    // ECC (OPC 10000-6 6.8): no asymmetric encryption (the OpenSecureChannel messages are signed, and
    // the keys come from ECDH of EphemeralKeys whose public keys are the nonces), ECDSA signatures with
    // an empty SignatureData.algorithm. nistP256: AES-128-CBC, HMAC-SHA2-256 with a 256-bit key,
    // HKDF-SHA2-256, 64-byte nonces (X | Y of P-256).
    {SecurityPolicyId::EccNistP256, kSecurityPolicyEccNistP256, false, AS::EcdsaSha256, AE::None, H::Sha256,
     H::Sha256, 32, 32, 16, 16, 64, 256, 256, H::Sha256, "", "", C::NistP256},
    // nistP384: AES-256-CBC, HMAC-SHA2-384 with a 384-bit key, HKDF-SHA2-384, 96-byte nonces.
    {SecurityPolicyId::EccNistP384, kSecurityPolicyEccNistP384, false, AS::EcdsaSha384, AE::None, H::Sha384,
     H::Sha384, 48, 48, 32, 16, 96, 384, 384, H::Sha256, "", "", C::NistP384},
}};

constexpr bool idsMatchIndices() {
    for (std::size_t i = 0; i < kPolicies.size(); ++i)
        if (std::size_t(kPolicies[i].id) != i) return false;
    return true;
}
static_assert(idsMatchIndices(), "kPolicies must be in the order of SecurityPolicyId");

} // namespace

const SecurityPolicy* findSecurityPolicy(std::string_view uri) {
    for (const SecurityPolicy& p : kPolicies)
        if (p.uri == uri) return &p;
    return nullptr;
}

// id is one of the enumerators (never mapped to None silently: that would drop the security).
const SecurityPolicy& securityPolicy(SecurityPolicyId id) { return kPolicies.at(std::size_t(id)); }

} // namespace ua
