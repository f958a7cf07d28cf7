// Security policies (OPC 10000-7 6.x, the SecurityPolicy profiles): the algorithms and sizes of each
// policy as one constant description. The operations themselves are in secure/AsymmetricCrypto.h and
// secure/SymmetricCrypto.h (OpenSSL 3 EVP only).
#pragma once

#include <cstdint>
#include <string_view>

namespace ua {

inline constexpr const char* kSecurityPolicyNone = "http://opcfoundation.org/UA/SecurityPolicy#None";
inline constexpr const char* kSecurityPolicyBasic128Rsa15 = "http://opcfoundation.org/UA/SecurityPolicy#Basic128Rsa15";
inline constexpr const char* kSecurityPolicyBasic256 = "http://opcfoundation.org/UA/SecurityPolicy#Basic256";
inline constexpr const char* kSecurityPolicyBasic256Sha256 = "http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256";
inline constexpr const char* kSecurityPolicyAes128Sha256RsaOaep = "http://opcfoundation.org/UA/SecurityPolicy#Aes128_Sha256_RsaOaep";
inline constexpr const char* kSecurityPolicyAes256Sha256RsaPss = "http://opcfoundation.org/UA/SecurityPolicy#Aes256_Sha256_RsaPss";
inline constexpr const char* kSecurityPolicyEccNistP256 = "http://opcfoundation.org/UA/SecurityPolicy#ECC_nistP256";
inline constexpr const char* kSecurityPolicyEccNistP384 = "http://opcfoundation.org/UA/SecurityPolicy#ECC_nistP384";

enum class SecurityPolicyId : uint8_t {
    None,
    Basic128Rsa15,
    Basic256,
    Basic256Sha256,
    Aes128Sha256RsaOaep,
    Aes256Sha256RsaPss,
    EccNistP256,
    EccNistP384,
};

// Asymmetric signature: RSA PKCS#1 v1.5 with SHA-1 / SHA-256, RSA-PSS with SHA-256 (MGF1 SHA-256,
// salt length 32 bytes), or ECDSA with SHA-256 / SHA-384 (the signature on the wire is r | s, each
// as long as the curve's coordinates: OPC 10000-7 AsymmetricSignatureAlgorithm_ECDSA-SHA2-*).
enum class AsymmetricSignature : uint8_t { None, RsaPkcs15Sha1, RsaPkcs15Sha256, RsaPssSha256, EcdsaSha256, EcdsaSha384 };
// Asymmetric encryption: RSA PKCS#1 v1.5, RSA-OAEP with SHA-1 (MGF1 SHA-1), RSA-OAEP with SHA-256.
enum class AsymmetricEncryption : uint8_t { None, RsaPkcs15, RsaOaepSha1, RsaOaepSha256 };
// Symmetric signature HMAC-SHA1 / HMAC-SHA256 / HMAC-SHA384; symmetric encryption is AES-CBC (no
// padding: the SecureChannel pads, OPC 10000-6 6.7.2.5). Key derivation P_SHA1 / P_SHA256 (OPC
// 10000-6 6.7.6) for the RSA policies, HKDF with SHA-256 / SHA-384 for the ECC ones (6.8.1).
enum class HashAlgorithm : uint8_t { None, Sha1, Sha256, Sha384 };
// The named curve of an ECC policy (its EphemeralKeys and its certificates' keys, OPC 10000-6 6.8.1);
// None for the RSA policies.
enum class EccCurve : uint8_t { None, NistP256, NistP384 };

struct SecurityPolicy {
    SecurityPolicyId id;
    std::string_view uri;
    bool deprecated;                         // Basic128Rsa15, Basic256: only with an explicit opt-in
    AsymmetricSignature asymmetricSignature;
    AsymmetricEncryption asymmetricEncryption;
    HashAlgorithm symmetricSignature;        // HMAC hash
    HashAlgorithm keyDerivation;             // P_SHA hash, or the HKDF hash when curve is not None
    uint32_t symmetricSignatureSize;         // bytes: HMAC output (20 or 32)
    uint32_t derivedSignatureKeyLength;      // bytes: HMAC key (16, 24 or 32)
    uint32_t symmetricEncryptionKeyLength;   // bytes: AES key (16 or 32)
    uint32_t symmetricBlockSize;             // bytes: AES block and IV (16)
    // bytes: SecureChannel nonces (16 or 32; for ECC the EphemeralKey's public key X | Y: 64 or 96)
    uint32_t nonceLength;
    uint32_t minAsymmetricKeyBits;           // RSA modulus, or the ECC curve's size
    uint32_t maxAsymmetricKeyBits;
    // The signature hash a certificate of this policy may carry at the weakest: Sha1 allows SHA-1
    // and SHA-256 signed certificates; Sha256 refuses SHA-1 (Bad_CertificatePolicyCheckFailed).
    HashAlgorithm minCertificateSignatureHash;
    // URI of the asymmetric signature algorithm, as SignatureData.algorithm carries it
    // (CreateSession serverSignature, ActivateSession clientSignature, X509 userTokenSignature).
    // Empty for the ECC policies (OPC 10000-4 7.36: null or empty, and ignored when received).
    std::string_view asymmetricSignatureUri;
    // URI of the asymmetric encryption algorithm, as UserNameIdentityToken.encryptionAlgorithm carries
    // it. Empty for the ECC policies, which encrypt no message asymmetrically.
    std::string_view asymmetricEncryptionUri;
    // The curve of an ECC policy; None for RSA and None.
    EccCurve curve;

    bool isEcc() const { return curve != EccCurve::None; }
};

// The description of a policy by its URI; nullptr for an unknown URI.
const SecurityPolicy* findSecurityPolicy(std::string_view uri);
const SecurityPolicy& securityPolicy(SecurityPolicyId id);

} // namespace ua
