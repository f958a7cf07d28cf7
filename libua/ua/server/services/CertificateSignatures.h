// Signatures over "certificate + nonce" in the Session services (OPC 10000-4 5.7.2.2, 5.7.3.2,
// 7.36): when the certificate is a chain, the data signed is the leaf only; a verifier accepts a
// signature over the whole chain too, for backward compatibility, when the leaf check fails.
#pragma once

#include "ua/secure/SecurityPolicy.h"
#include "ua/types/Strings.h"

#include <string>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua {

// The first certificate of a DER chain (leaf first); the input itself when it is one
// certificate or cannot be parsed.
std::string leafDerOf(const ByteString& chain);

// Whether signature is key's signature (policy's asymmetric algorithm) of the leaf of
// certificateChain + nonce, or else of the whole chain + nonce.
bool verifyCertificateAndNonce(const SecurityPolicy& policy, EVP_PKEY* key, const ByteString& certificateChain,
                               const ByteString& nonce, const ByteString& signature);

} // namespace ua
