// What the key derivations of secure/ share on OpenSSL 3 (SymmetricCrypto.cpp's P_SHA,
// EccCrypto.cpp's HKDF, the HMAC contexts): the digest name of a policy's hash and one EVP_KDF
// derivation. Internal to secure/.
#pragma once

#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/SecurityPolicy.h"

#include <openssl/kdf.h>
#include <openssl/params.h>

#include <cstdint>
#include <vector>

namespace ua::crypto {

// "SHA1", "SHA256", "SHA384"; nullptr for HashAlgorithm::None.
inline const char* hashName(HashAlgorithm h) {
    switch (h) {
    case HashAlgorithm::Sha1:
        return "SHA1";
    case HashAlgorithm::Sha256:
        return "SHA256";
    case HashAlgorithm::Sha384:
        return "SHA384";
    case HashAlgorithm::None:
        break;
    }
    return nullptr;
}

// length bytes from kdf with params; empty (and nothing left in memory) when OpenSSL refuses.
inline std::vector<uint8_t> kdfDerive(EVP_KDF* kdf, const OSSL_PARAM* params, std::size_t length) {
    std::vector<uint8_t> out;
    EVP_KDF_CTX* ctx = kdf ? EVP_KDF_CTX_new(kdf) : nullptr;
    if (!ctx) return out;
    out.resize(length);
    if (EVP_KDF_derive(ctx, out.data(), length, params) != 1) {
        wipe(out.data(), out.size());
        out.clear();
    }
    EVP_KDF_CTX_free(ctx);
    return out;
}

} // namespace ua::crypto
