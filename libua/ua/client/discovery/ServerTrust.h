// The client's check of the server's application instance certificate before it opens a secure
// SecureChannel or encrypts a secret for it (OPC 10000-4 6.1.3; 5.4.4: "Clients shall validate the
// Server Certificate and ensure it is trusted"), with the user's trust decision for an untrusted one.
#pragma once

#include "ua/client/common/UserIdentity.h"
#include "ua/pki/Certificate.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/SecurityPolicy.h"

#include <QString>
#include <string>
#include <string_view>

namespace ua {

struct ServerCertificateExpectations {
    std::string applicationUri; // the EndpointDescription's server.applicationUri
    QString hostName;           // the host of the URL the user typed (a name or an address)
    const SecurityPolicy* policy =
        nullptr; // key length and signature hash limits; nullptr: the store's defaults
};

// Validates chainDer (the EndpointDescription's serverCertificate: leaf first) with store, expecting
// the URI and host name of `expected` (Bad_CertificateUriInvalid, Bad_CertificateHostNameInvalid) and
// the policy's key and hash limits (Bad_CertificatePolicyCheckFailed). When the store answers
// Bad_CertificateUntrusted, trust is asked (no callback: Reject):
//   Reject           -> Bad_CertificateUntrusted
//   TrustPermanently -> the leaf is added to trusted/ and validated again (every check)
//   AcceptOnce       -> the checks that validation would have made after the trust list are made here:
//                       validity period (Bad_CertificateTimeInvalid), key length and hash, host name, URI.
// Returns Good when the certificate may be used, or the failure.
StatusCode checkServerCertificate(CertificateStore& store, std::string_view chainDer,
                                  const ServerCertificateExpectations& expected, const TrustCallback& trust);

// The checks AcceptOnce makes (exposed for tests): Good or the first failure, in the order above.
StatusCode checkAcceptedCertificate(const Certificate& leaf, const ServerCertificateExpectations& expected);

// Whether host (a DNS name, compared without case, or an IPv4/IPv6 address) is one of the certificate's
// subjectAltName DNS or IP entries.
bool certificateNamesHost(const Certificate& certificate, const QString& host);

} // namespace ua
