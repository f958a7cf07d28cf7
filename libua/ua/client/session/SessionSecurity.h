// The client's part of Session security (OPC 10000-4 5.6.2 CreateSession, 5.6.3 ActivateSession,
// 7.36 SignatureData, 7.41 UserIdentityToken): the server's signature to check, the client's
// signature to make, and the identity token with its encrypted secret or its signature. Pure
// functions over OpenSSL keys (secure/AsymmetricCrypto.h), no I/O.
#pragma once

#include "ua/client/common/UserIdentity.h"
#include "ua/encoding/generated/Types.h"
#include "ua/pki/Certificate.h"
#include "ua/pki/PrivateKey.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/types/StatusCode.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ua {

// The DER of the first certificate of a chain of concatenated DER certificates (OPC 10000-6 6.2.3);
// the bytes unchanged when they do not parse as a chain.
std::string leafCertificateDer(std::string_view chainDer);

// CreateSession (5.6.2): serverSignature must be the signature, by the private key of
// serverCertificate with policy's AsymmetricSignatureAlgorithm, of clientCertificate + clientNonce.
// clientCertificateChain is what the client sent; the leaf is signed (1.05), the whole chain is
// accepted too (older servers). An algorithm URI other than the policy's (empty is tolerated) fails.
// Good or Bad_ApplicationSignatureInvalid.
StatusCode verifyServerSignature(const SecurityPolicy& policy, const Certificate& serverCertificate,
                                 std::string_view clientCertificateChain, const ByteString& clientNonce,
                                 const SignatureData& serverSignature);

// ActivateSession (5.6.3) clientSignature, and the X509IdentityToken's userTokenSignature (7.41.5):
// the signature by key of serverCertificate (the leaf of CreateSession's serverCertificate) + the
// last serverNonce, with policy's AsymmetricSignatureAlgorithm; out.algorithm is its URI.
// Good, Bad_NonceInvalid (no nonce) or Bad_SecurityChecksFailed (the key does not sign).
StatusCode makeSignature(const SecurityPolicy& policy, const PrivateKey& key,
                         std::string_view serverCertificate, const ByteString& serverNonce,
                         SignatureData& out);

// The legacy encrypted token secret (7.41.2.2) before encryption: UInt32 length (little endian) of
// secret + serverNonce, then secret, then serverNonce.
std::vector<uint8_t> legacyTokenSecret(std::string_view secret, const ByteString& serverNonce);

// The keys of a password under an ECC token policy (OPC 10000-6 6.8.2): the server's latest
// EphemeralKey for it (X | Y, its signature checked by acceptUserTokenKey), or the status the server
// sent instead; the client application's key, which signs the EccEncryptedSecret.
struct EccTokenKeys {
    ByteString serverKey;
    StatusCode status = StatusCode(0x80130000u);  // Bad_SecurityChecksFailed: none received
    const PrivateKey* clientKey = nullptr;
};

// The EphemeralKey of a CreateSession / ActivateSession response's additionalHeader for policy
// (an ECC policy), signed by the key of serverCertificate (7.15). Good and key set; the Bad status
// the server sent instead of a key (key cleared); Bad_SecurityChecksFailed for a missing key or a
// signature that does not verify (key cleared).
StatusCode acceptUserTokenKey(const SecurityPolicy& policy, const Certificate& serverCertificate,
                              const ExtensionObject& additionalHeader, ByteString& key);

// The UserIdentityToken for ActivateSession (7.41): for tokenPolicy (the UserTokenPolicy chosen on the
// endpoint, whose policyId it carries) and its effective SecurityPolicy securityPolicy (the token
// policy's, or the endpoint's). serverCertificate: the server's leaf; serverNonce: the last one.
//  - Anonymous: AnonymousIdentityToken.
//  - UserName: the password in the legacy secret format, RSA-encrypted with the server's public key by
//    securityPolicy's AsymmetricEncryptionAlgorithm (encryptionAlgorithm = its URI); plain UTF-8 with
//    an empty encryptionAlgorithm when securityPolicy is None. Under an ECC securityPolicy: an
//    EccEncryptedSecret (7.40.2.5) sealed to ecc.serverKey, signed with *ecc.clientKey, its
//    Certificate left null (the server knows the client's), encryptionAlgorithm empty; without a
//    server key ecc.status.
//  - Certificate: X509IdentityToken with the user's certificate; userTokenSignature over
//    serverCertificate + serverNonce with the user's key (none when securityPolicy is None).
// Good, Bad_IdentityTokenInvalid (a user name, certificate or key missing), Bad_CertificateInvalid
// (no server certificate to encrypt for or sign over), Bad_NonceInvalid or Bad_SecurityChecksFailed.
StatusCode makeIdentityToken(const UserIdentity& identity, const UserTokenPolicy& tokenPolicy,
                             const SecurityPolicy& securityPolicy, const Certificate& serverCertificate,
                             const ByteString& serverNonce, ExtensionObject& token,
                             SignatureData& userTokenSignature, const EccTokenKeys& ecc = {});

} // namespace ua
