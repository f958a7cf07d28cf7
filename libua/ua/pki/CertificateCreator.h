// Creation of a self-signed application instance certificate (OPC 10000-6 6.2.2) with OpenSSL.
#pragma once

#include "ua/pki/Certificate.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/PrivateKey.h"

#include <string>

namespace ua {

// Signs a new X.509 v3 certificate for key with SHA-256, as CertificateRequest describes: subject
// CN=applicationName, O=organization, DC=<first host name>; a random positive 16-byte serial number;
// valid from a day ago (clock skew between peers) for request.validityDays. Null with *error set on
// failure. request.hostNames must not be empty here (the store fills in the local host's name).
Certificate createSelfSignedCertificate(const CertificateRequest& request, const PrivateKey& key,
                                        std::string* error = nullptr);

} // namespace ua
