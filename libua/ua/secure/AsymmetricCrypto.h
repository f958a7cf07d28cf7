// Asymmetric operations of the security policies (OPC 10000-7), on OpenSSL 3 EVP keys (RSA, and ECDSA
// for the ECC policies; their key agreement is in secure/EccCrypto.h). Used by the
// asymmetric (OpenSecureChannel) chunks of OPC 10000-6 6.7.2 and the signatures of CreateSession /
// ActivateSession (OPC 10000-4 5.6). No state beyond the key: one call per message, never one per block.
// The key's size is not checked against the policy's min/maxAsymmetricKeyBits here (the certificate
// checks do that). On a Bad status nothing is appended to out.
#pragma once

#include "ua/pki/KeyType.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/types/StatusCode.h"

#include <cstddef>
#include <cstdint>
#include <vector>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua::crypto {

// Size in bytes of the RSA modulus of key (= signature size = ciphertext block size); for an ECC key
// the size of one coordinate (32 for P-256, 48 for P-384).
std::size_t rsaKeyBytes(EVP_PKEY* key);
// The kind of key a policy's application instance certificates carry: RSA for None and the RSA
// policies, ECC on the policy's curve for the ECC ones (OPC 10000-12 7.8.4 certificate types).
KeyType certificateKeyType(const SecurityPolicy& policy);
// Whether key is of the policy's kind: RSA for the RSA policies, ECC on the policy's curve for the
// ECC ones (OPC 10000-6 6.8.1: one named curve per policy).
bool keyFitsPolicy(const SecurityPolicy& policy, EVP_PKEY* key);
// Bytes of an asymmetric signature by key: the modulus for RSA, r | s (2 x the coordinate) for ECDSA;
// 0 for policy None or a null key.
std::size_t asymmetricSignatureSize(const SecurityPolicy& policy, EVP_PKEY* key);

// Signature of data with privateKey by policy.asymmetricSignature, appended to out: for ECDSA r | s,
// each left-padded to the coordinate size (OPC 10000-7 ECDSA-SHA2-256 / -384, not DER).
// Returns Good, Bad_SecurityChecksFailed (OpenSSL failure, or a key not of the policy's kind:
// keyFitsPolicy) or Bad_SecurityPolicyRejected (policy None).
StatusCode asymmetricSign(const SecurityPolicy& policy, EVP_PKEY* privateKey, const uint8_t* data, std::size_t size,
                          std::vector<uint8_t>& out);
// True when signature is a valid signature of data by the private key of publicKey. False for policy
// None and for a key not of the policy's kind. RSA-PSS signatures must have the 32-byte salt; ECDSA
// signatures must be exactly r | s of the curve's size.
bool asymmetricVerify(const SecurityPolicy& policy, EVP_PKEY* publicKey, const uint8_t* data, std::size_t size,
                      const uint8_t* signature, std::size_t signatureSize);

// Plaintext bytes per encrypted block for publicKey: rsaKeyBytes - 11 (PKCS#1 v1.5), - 42 (OAEP SHA-1),
// - 66 (OAEP SHA-256). 0 for policy None or a key too small for the padding.
std::size_t asymmetricPlainBlockSize(const SecurityPolicy& policy, EVP_PKEY* publicKey);
// Encrypts data (any length; split into asymmetricPlainBlockSize blocks, each encrypted to
// rsaKeyBytes bytes) with publicKey by policy.asymmetricEncryption; appends to out (nothing for size 0).
// Returns Good, Bad_SecurityPolicyRejected (policy None) or Bad_SecurityChecksFailed.
StatusCode asymmetricEncrypt(const SecurityPolicy& policy, EVP_PKEY* publicKey, const uint8_t* data, std::size_t size,
                             std::vector<uint8_t>& out);
// Decrypts data (a multiple of rsaKeyBytes) with privateKey; appends the plaintext to out.
// Bad_SecurityChecksFailed when the size is not a multiple of the block or a block does not decrypt;
// Bad_SecurityPolicyRejected for policy None. With OpenSSL >= 3.2 a PKCS#1 v1.5 block with a bad padding
// decrypts (implicit rejection) to bytes the signature check of the chunk then refuses.
StatusCode asymmetricDecrypt(const SecurityPolicy& policy, EVP_PKEY* privateKey, const uint8_t* data, std::size_t size,
                             std::vector<uint8_t>& out);

// Cryptographically strong random bytes (RAND_bytes); empty if the generator fails.
std::vector<uint8_t> randomBytes(std::size_t n);
// Overwrites n bytes at p so that the compiler cannot drop the write (OPENSSL_cleanse).
void wipe(void* p, std::size_t n);

} // namespace ua::crypto
