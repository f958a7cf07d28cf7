// The EphemeralKeys of a Session under an ECC policy (OPC 10000-6 6.8.2 UserIdentityToken Encryption,
// OPC 10000-4 7.1 AdditionalParametersType and 7.15 EphemeralKeyType; newest 1.05 text): the client
// names the policy of its user token in the additionalHeader of the CreateSession and ActivateSession
// requests, and the server answers in the additionalHeader of the response with an EphemeralKey of
// that policy, signed with its application instance certificate, or a StatusCode when it cannot.
// The client then encrypts the token's secret to the latest key it got (secure/EccEncryptedSecret.h).
//
//   request  additionalHeader: AdditionalParametersType { "ECDHPolicyUri": String }
//   response additionalHeader: AdditionalParametersType { "ECDHPolicyUri": String,
//                                                         "ECDHKey": EphemeralKeyType or StatusCode }
// EphemeralKeyType.signature: the owner's signature (the policy's ECDSA, r | s) of publicKey.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/secure/EccCrypto.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/types/StatusCode.h"

#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua {

inline constexpr std::string_view kEcdhPolicyUriKey = "ECDHPolicyUri";  // 6.8.2 Table 70
inline constexpr std::string_view kEcdhKeyKey = "ECDHKey";

// A request's additionalHeader that asks for an EphemeralKey of policyUri.
ExtensionObject ecdhKeyRequest(std::string_view policyUri);
// The ECDHPolicyUri a request's additionalHeader names (namespace 0 key); null when none, or when the
// header is not an AdditionalParametersType or the value is not a String.
String requestedEcdhPolicy(const ExtensionObject& additionalHeader);

// A response's additionalHeader with the key, or with status instead of it.
ExtensionObject ecdhKeyResponse(std::string_view policyUri, const EphemeralKeyType& key);
ExtensionObject ecdhKeyRefusal(std::string_view policyUri, StatusCode status);
// The EphemeralKeyType of a response's additionalHeader for policyUri. Good; the Bad status the server
// sent instead of a key; Bad_SecurityPolicyRejected when the header names another ECDHPolicyUri;
// Bad_SecurityChecksFailed when there is no header, no key or no policy in it.
StatusCode ecdhKeyOf(const ExtensionObject& additionalHeader, std::string_view policyUri, EphemeralKeyType& key);

// The EphemeralKeyType of key, signed with privateKey (the owner's certificate key) by policy.
// Good or Bad_SecurityChecksFailed (a null key, a private key not of the policy's curve).
StatusCode signEphemeralKey(const SecurityPolicy& policy, EVP_PKEY* privateKey, const crypto::EphemeralKey& key,
                            EphemeralKeyType& out);
// True when key.signature is publicKey's signature of key.publicKey by policy and key.publicKey has
// the policy's length (the curve check comes with ECDH).
bool verifyEphemeralKey(const SecurityPolicy& policy, EVP_PKEY* publicKey, const EphemeralKeyType& key);

} // namespace ua
