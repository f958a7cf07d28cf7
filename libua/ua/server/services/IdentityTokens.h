// The user identity tokens of ActivateSession (OPC 10000-4 5.7.3, 7.41 UserIdentityToken, 7.42
// UserTokenPolicy): which user a Session runs as and with which Roles (users/Roles.h).
//
// Checks, in this order, with the status each failure returns:
// - Anonymous (a null token or an AnonymousIdentityToken): Bad_IdentityTokenRejected when the
//   endpoint offers no anonymous UserTokenPolicy. An AnonymousIdentityToken with an empty policyId is
//   accepted. Roles: UserDatabase::anonymousRoles.
// - Any other token: its policyId must name a UserTokenPolicy of the endpoint with the token's
//   type (Bad_IdentityTokenInvalid); IssuedIdentityToken and undecodable tokens:
//   Bad_IdentityTokenInvalid. The token's SecurityPolicy is the UserTokenPolicy's securityPolicyUri,
//   or the channel's when that is empty (7.41.2).
// - UserNameIdentityToken: with a token SecurityPolicy other than None, encryptionAlgorithm must be
//   that policy's asymmetricEncryptionUri and the password is decrypted with the server's private key
//   in the legacy secret format (7.41.2.2: UInt32 length, password, the last serverNonce; the nonce
//   must be that Session's current serverNonce); any mismatch: Bad_IdentityTokenInvalid. With the
//   None token policy a plain password is accepted only on a SignAndEncrypt channel
//   (Bad_IdentityTokenInvalid otherwise). With an ECC token SecurityPolicy the password is an
//   EccEncryptedSecret (7.40.2.5, secure/EccEncryptedSecret.h; encryptionAlgorithm is not read):
//   sealed to the Session's userTokenKey of that policy, signed by the channel's client certificate
//   key, its Certificate field empty or that certificate, its Nonce the Session's serverNonce; any
//   mismatch: Bad_IdentityTokenInvalid. Then UserStore::authenticate: Bad_UserAccessDenied for an
//   unknown user, a wrong password or a locked-out user. Roles: the user's + AuthenticatedUser.
// - X509IdentityToken: the token SecurityPolicy must not be None (Bad_IdentityTokenInvalid); the
//   certificate (DER, leaf first) must validate against the user certificate store (a separate
//   trust list, see ServerSecurityConfig::userPkiDir): Bad_IdentityTokenRejected otherwise; the
//   userTokenSignature must carry the policy's asymmetricSignatureUri and verify over
//   serverCertificate + serverNonce with the certificate's key: Bad_UserSignatureInvalid otherwise.
//   Roles: those of the user whose certificateThumbprint is the certificate's, + AuthenticatedUser.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/users/Roles.h"

#include <cstdint>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua {

class CertificateStore;
class UserStore;

// Who a Session runs as.
struct SessionIdentity {
    UserTokenType tokenType = UserTokenType::Anonymous;
    // The ClientUserId of OPC 10000-5 SessionSecurityDiagnostics: the user name, the X509 subject,
    // empty for anonymous.
    std::string clientUserId;
    RoleSet roles = kNoRoles;

    bool sameUser(const SessionIdentity& o) const {
        return tokenType == o.tokenType && clientUserId == o.clientUserId;
    }
};

// What the check needs to know of the Session and its channel.
namespace crypto {
class EphemeralKey;
}

struct IdentityCheck {
    const EndpointDescription& endpoint; // the endpoint matching the channel's policy and mode
    const SecurityPolicy& channelPolicy;
    MessageSecurityMode channelMode;
    EVP_PKEY* serverPrivateKey;          // null without PKI (then every secret is refused)
    const ByteString& serverCertificate; // as CreateSession returned it
    const ByteString& serverNonce;       // the last one returned to the client
    UserStore& users;
    CertificateStore* userCertificates; // null: X509IdentityTokens are rejected
    int64_t nowMs;                      // monotonic clock, ms (lockout)
    // ECC token policies (6.8.2): the Session's latest EphemeralKey (null: none was asked for), the
    // channel's client certificate (leaf DER) and its public key (null on a None channel).
    const crypto::EphemeralKey* userTokenKey = nullptr;
    std::string_view clientCertificate = {};
    EVP_PKEY* clientPublicKey = nullptr;
};

StatusCode checkIdentityToken(const IdentityCheck& check, const ExtensionObject& token,
                              const SignatureData& userTokenSignature, SessionIdentity& out);

} // namespace ua
