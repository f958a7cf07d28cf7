// Creation of a self-signed application instance certificate (OPC 10000-6 6.2.2) with OpenSSL.
#pragma once

#include "ua/pki/Certificate.h"
#include "ua/pki/PrivateKey.h"

#include <string>
#include <vector>

namespace ua {

// What a new application instance certificate carries (OPC 10000-6 6.2.2): an RSA key of keyBits
// with a SHA-256 signature, or an ECC key (keyType EccNistP256 with ECDSA-SHA256, EccNistP384 with
// ECDSA-SHA384), subjectAltName URI = applicationUri and DNS = each of hostNames (IP addresses
// as IP entries), keyUsage digitalSignature, nonRepudiation, keyEncipherment, dataEncipherment
// (and keyCertSign, as self-signed), extendedKeyUsage serverAuth + clientAuth, basicConstraints
// cA=FALSE, subjectKeyIdentifier and authorityKeyIdentifier.
struct CertificateRequest {
    std::string applicationUri;
    std::string applicationName;  // CN
    std::string organization = "UA Workbench";
    std::vector<std::string> hostNames;  // empty: the host's name (QHostInfo::localHostName())
    KeyType keyType = KeyType::Rsa;
    int keyBits = 2048;  // RSA only
    int validityDays = 365 * 5;
};

// Signs a new X.509 v3 certificate for key (RSA: SHA-256; ECC: the curve's hash, SHA-256 for P-256
// and SHA-384 for P-384; request.keyType is not read here, the key says it), as CertificateRequest
// describes: subject
// CN=applicationName, O=organization, DC=<first host name>; a random positive 16-byte serial number;
// valid from a day ago (clock skew between peers) for request.validityDays. Null with *error set on
// failure. request.hostNames must not be empty here (the store fills in the local host's name).
Certificate createSelfSignedCertificate(const CertificateRequest& request, const PrivateKey& key,
                                        std::string* error = nullptr);

} // namespace ua
