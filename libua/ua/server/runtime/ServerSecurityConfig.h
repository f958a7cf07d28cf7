// The security configuration of a Server: its certificate store, the SecurityPolicy/SecurityMode
// pairs of its endpoints (OPC 10000-7 policies, OPC 10000-4 7.14 MessageSecurityMode), and the user
// identity tokens it accepts (OPC 10000-4 7.41 UserTokenPolicy).
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/users/UserStore.h"

#include <QString>
#include <vector>

namespace ua {

struct EndpointSecurity {
    SecurityPolicyId policy;
    MessageSecurityMode mode;
};

struct ServerSecurityConfig {
    // The certificate store's root (pki/own, pki/trusted, ... see pki/CertificateStore.h). Empty: no
    // PKI, and only the None endpoint is offered whatever `endpoints` says.
    QString pkiDir;
    // The endpoints offered, in the order GetEndpoints returns them. The default offers None (the
    // workbench's demo configuration; see secureProfile()) and the three current policies in Sign
    // and SignAndEncrypt.
    std::vector<EndpointSecurity> endpoints = {
        {SecurityPolicyId::None, MessageSecurityMode::None},
        {SecurityPolicyId::Basic256Sha256, MessageSecurityMode::Sign},
        {SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt},
        {SecurityPolicyId::Aes128Sha256RsaOaep, MessageSecurityMode::Sign},
        {SecurityPolicyId::Aes128Sha256RsaOaep, MessageSecurityMode::SignAndEncrypt},
        {SecurityPolicyId::Aes256Sha256RsaPss, MessageSecurityMode::Sign},
        {SecurityPolicyId::Aes256Sha256RsaPss, MessageSecurityMode::SignAndEncrypt},
    };
    // Basic128Rsa15 and Basic256 are deprecated (OPC 10000-7): endpoints with them are dropped
    // unless this is set.
    bool allowDeprecatedPolicies = false;
    // User identity tokens accepted (OPC 10000-4 7.41).
    bool allowAnonymous = true;
    bool allowUserName = true;
    bool allowX509 = true;
    // The certificate's key length (bits) when it is created on first start.
    int keyBits = 2048;
    // The validity (days) of a certificate created on first start.
    int certificateValidityDays = 365 * 5;
    // The server warns (log category ua.server.security, and certificateExpiresInDays() for the
    // window) when its own certificate expires within this many days.
    int expiryWarningDays = 30;
    // Accepts every client certificate that validation rejects only as untrusted (tests, labs).
    bool trustAllClients = false;
    // The users, their Roles, the lockout after failed logins and the Roles of anonymous Sessions
    // (users/UserStore.h); Server::userStore() holds the live copy.
    UserDatabase users;
    // The trust list of X509 user certificates (X509IdentityToken), kept apart from the application
    // trust list: a CertificateStore rooted here (trusted/certs, issuers/certs, their crl/ and
    // rejected/certs; its own/ stays unused). Empty: "<pkiDir>/users". Without PKI no X509 token is
    // accepted.
    QString userPkiDir;

    // The `--secure` profile: no None endpoint and no anonymous login.
    void applySecureProfile() {
        std::erase_if(endpoints, [](const EndpointSecurity& e) { return e.policy == SecurityPolicyId::None; });
        allowAnonymous = false;
    }
};

} // namespace ua
