// The key agreement of the ECC security policies (OPC 10000-6 6.8, newest 1.05 text; the policies
// ECC_nistP256 and ECC_nistP384 of OPC 10000-7): EphemeralKeys on the policy's named curve, ECDH of
// one side's EphemeralKey with the other side's public key, and the HKDF (IETF RFC 5869) that turns
// the shared secret into the SecureChannel's keys (6.8.1) or the keys of an EccEncryptedSecret
// (6.8.3). OpenSSL 3 EVP only (EVP_PKEY_derive, EVP_KDF "HKDF"). The signatures are in
// secure/AsymmetricCrypto.h (ECDSA). docs/Security.md "ECC" says which rule comes from which text.
#pragma once

#include "ua/secure/SecurityPolicy.h"
#include "ua/secure/SymmetricCrypto.h"
#include "ua/types/StatusCode.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua::crypto {

// One EphemeralKey (OPC 10000-4 3.1.5): a key pair made for one key agreement, on the curve of an ECC
// policy. Its public key travels as X | Y, each coordinate big-endian and left-padded to the curve's
// size (64 bytes for P-256, 96 for P-384; no 0x04 prefix): the ClientNonce / ServerNonce of an
// OpenSecureChannel, the publicKey of an EphemeralKeyType (Part 4 7.15), SenderPublicKey and
// ReceiverPublicKey of an EccEncryptedSecret. Immutable after generate(); any thread.
class EphemeralKey {
public:
    EphemeralKey() = default;  // null
    // A new key pair on policy.curve; null for a policy that is not ECC or when OpenSSL fails.
    static EphemeralKey generate(const SecurityPolicy& policy);

    bool isNull() const { return !m_key; }
    const SecurityPolicy* policy() const { return m_policy; }
    // X | Y, policy()->nonceLength bytes.
    const std::vector<uint8_t>& publicKey() const { return m_publicKey; }

    // ECDH of this key with the other side's public key (X | Y): the shared secret is the x
    // coordinate of the product (IETF RFC 8422 5.10; the curve's size in bytes), appended to secret.
    // Returns Good, or Bad_SecurityChecksFailed when peer is not exactly nonceLength bytes, is not a
    // point on the curve (or is the point at infinity), or OpenSSL fails; then nothing is appended.
    StatusCode sharedSecret(const uint8_t* peer, std::size_t size, std::vector<uint8_t>& secret) const;

private:
    std::shared_ptr<EVP_PKEY> m_key;
    const SecurityPolicy* m_policy = nullptr;
    std::vector<uint8_t> m_publicKey;
};

// HKDF of IETF RFC 5869 (extract, then expand) with the policy's keyDerivation hash (SHA-256 or
// SHA-384): length bytes from ikm, salt and info. Empty for a policy that is not ECC, length 0, a
// length over 255 hash blocks, or an OpenSSL failure.
std::vector<uint8_t> hkdf(const SecurityPolicy& policy, const uint8_t* ikm, std::size_t ikmSize, const uint8_t* salt,
                          std::size_t saltSize, const uint8_t* info, std::size_t infoSize, std::size_t length);

// A salt of OPC 10000-6 6.8.1 / 6.8.3: L (the bytes of keying material to derive, UInt16 little
// endian) | UTF8(label) | first | second. The labels are "opcua-client", "opcua-server" and
// "opcua-secret".
std::vector<uint8_t> eccSalt(uint16_t length, std::string_view label, const std::vector<uint8_t>& first,
                             const std::vector<uint8_t>& second);

// Which side sends with the keys (6.8.1 Table 67 and Table 68).
enum class EccKeySide : uint8_t { Client, Server };

// The SecureChannel keys of one direction (6.8.1): HKDF with IKM = the shared secret and Salt = Info =
//   ClientSalt = L | "opcua-client" | ClientNonce | ServerNonce   (the keys the Client sends with)
//   ServerSalt = L | "opcua-server" | ServerNonce | ClientNonce   (the keys the Server sends with)
// where L = SymmetricKeys::keyMaterialLength(policy), cut into SigningKey | EncryptingKey |
// InitializationVector. The nonces are the EphemeralKeys' public keys. nullptr for a policy that is
// not ECC, an empty secret or nonce, or an OpenSSL failure.
std::unique_ptr<SymmetricKeys> deriveEccChannelKeys(const SecurityPolicy& policy, const std::vector<uint8_t>& sharedSecret,
                                                    EccKeySide sender, const std::vector<uint8_t>& clientNonce,
                                                    const std::vector<uint8_t>& serverNonce);

} // namespace ua::crypto
