// The EccEncryptedSecret (OPC 10000-4 7.40.2.3 EncryptedSecret Format and 7.40.2.5 EccEncryptedSecret;
// the keys and the padding of OPC 10000-6 6.8.3; newest 1.05 text): a secret (the password of a
// UserNameIdentityToken, the tokenData of an IssuedIdentityToken) encrypted with keys from ECDH of the
// sender's and the receiver's EphemeralKeys and signed with the sender's certificate key (ECDSA).
//
// Layout (UA Binary, 7.40.2.3 Table 183 and 7.40.2.5):
//   TypeId             NodeId      i=17546, the EccEncryptedSecret DataType
//   EncodingMask       Byte        1
//   Length             Int32       bytes after this field, through the end of the Signature
//   SecurityPolicyUri  String      the ECC policy of the keys and algorithms
//   Certificate        ByteString  the sender's certificate (chain); may be null when the receiver
//                                  knows it (a user token: the client's application certificate)
//   SigningTime        DateTime
//   KeyDataLength      UInt16      bytes of KeyData (not encrypted for ECC)
//   KeyData            SenderPublicKey ByteString | ReceiverPublicKey ByteString (X | Y each)
//   -- the payload, encrypted with the policy's AES-CBC:
//   Nonce              ByteString  the last serverNonce of the Session (a user token)
//   Secret             ByteString
//   PayloadPadding     Byte[n]     each byte the low byte of n
//   PayloadPaddingSize UInt16      n (6.8.3: the payload fills whole blocks and the padding plus the
//                                  secret is at least one block)
//   -- then:
//   Signature          Byte[*]     ECDSA r | s by the Certificate's key over everything before it
//
// Keys (6.8.3): the shared secret of ECDH; SecretSalt = L | "opcua-secret" | SenderPublicKey |
// ReceiverPublicKey with L = EncryptionKeyLength + InitializationVectorLength; HKDF with Salt = Info
// = SecretSalt; EncryptingKey then InitializationVector. docs/Security.md "ECC" lists the choices made.
#pragma once

#include "ua/secure/EccCrypto.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/types/DateTime.h"
#include "ua/types/StatusCode.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua::crypto {

// What the sender puts in.
struct EccSecretToSeal {
    const SecurityPolicy* policy = nullptr;  // an ECC policy
    EVP_PKEY* signingKey = nullptr;          // the private key of certificate (of the policy's curve)
    std::string_view certificate;            // DER (chain), or empty
    std::vector<uint8_t> receiverPublicKey;  // the receiver's EphemeralKey, X | Y
    std::string_view nonce;                  // the last serverNonce
    std::string_view secret;
    DateTime signingTime;
};

// Makes the EccEncryptedSecret with a new EphemeralKey of the sender; the bytes replace out.
// Good, or Bad_SecurityChecksFailed (not an ECC policy, a receiver key that is not a point of the
// curve, a key not of the policy's curve, an OpenSSL failure) or Bad_EncodingLimitsExceeded (a secret
// or nonce over 65,535 bytes).
StatusCode sealEccSecret(const EccSecretToSeal& in, std::vector<uint8_t>& out);

// The unencrypted part, as read from the bytes.
struct EccSecretHeader {
    std::string securityPolicyUri;
    std::string certificate;  // empty when the sender left it null
    DateTime signingTime;
    std::vector<uint8_t> senderPublicKey, receiverPublicKey;
};

// Reads the header of an EccEncryptedSecret (to pick the key to verify it with). Good or
// Bad_SecurityChecksFailed when the bytes are not one (another TypeId, EncodingMask not 1, a Length
// that is not the rest of the bytes, a KeyDataLength that is not the KeyData's).
StatusCode readEccSecretHeader(const uint8_t* data, std::size_t size, EccSecretHeader& out);

// Opens an EccEncryptedSecret sent to receiverKey, in the order of 7.40.2.3: the header (as
// readEccSecretHeader), its SecurityPolicyUri must be receiverKey's policy and its ReceiverPublicKey
// receiverKey's public key; the Signature must verify with senderPublicKey (the certificate's key);
// then ECDH, decryption, the padding (size and every byte) and the payload's fields filling it
// exactly. nonce and secret receive the payload's fields. Every failure is Bad_SecurityChecksFailed;
// the decrypted bytes are wiped.
StatusCode openEccSecret(const EphemeralKey& receiverKey, EVP_PKEY* senderPublicKey, const uint8_t* data, std::size_t size,
                         std::string& nonce, std::string& secret);

} // namespace ua::crypto
