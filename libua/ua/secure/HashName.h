// OpenSSL's name of a security policy's hash (EVP_MD / EVP_MAC / EVP_KDF digest parameter), shared by
// the key derivations and the HMAC contexts (SymmetricCrypto.cpp, EccCrypto.cpp). Internal to secure/.
#pragma once

#include "ua/secure/SecurityPolicy.h"

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

} // namespace ua::crypto
