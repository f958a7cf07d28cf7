// The kind of public key an application instance certificate carries (OPC 10000-12 7.8.4: the
// RsaSha256ApplicationCertificateType and the EccNistP256 / EccNistP384 ApplicationCertificateTypes).
#pragma once

#include <cstdint>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua {

enum class KeyType : uint8_t {
    Other,        // none, or a key of a kind OPC UA does not use (DSA, Ed25519, another curve)
    Rsa,
    EccNistP256,  // prime256v1 / secp256r1
    EccNistP384,  // secp384r1
};

// The kind of key; Other for a null key.
KeyType keyTypeOf(EVP_PKEY* key);

} // namespace ua
