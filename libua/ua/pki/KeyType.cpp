// keyTypeOf: the key's algorithm and, for EC keys, its named curve (OpenSSL 3 provider parameters).
#include "ua/pki/KeyType.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <cstring>

namespace ua {

KeyType keyTypeOf(EVP_PKEY* key) {
    if (!key) return KeyType::Other;
    if (EVP_PKEY_is_a(key, "RSA")) return KeyType::Rsa;
    if (!EVP_PKEY_is_a(key, "EC")) return KeyType::Other;
    char group[64] = {};
    std::size_t length = 0;
    if (EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &length) != 1)
        return KeyType::Other;
    // OpenSSL names P-256 "prime256v1" and P-384 "secp384r1"; the NIST names are accepted too.
    if (!std::strcmp(group, "prime256v1") || !std::strcmp(group, "P-256") || !std::strcmp(group, "secp256r1"))
        return KeyType::EccNistP256;
    if (!std::strcmp(group, "secp384r1") || !std::strcmp(group, "P-384")) return KeyType::EccNistP384;
    return KeyType::Other;
}

} // namespace ua
