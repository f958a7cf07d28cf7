// Checks on the entries of a trust list (OPC 10000-12 7.8.2: what AddCertificate, RemoveCertificate
// and CloseAndUpdate need to know about certificates and CRLs besides Part 4 validation).
#pragma once

#include "ua/pki/Certificate.h"
#include "ua/pki/TrustListContents.h"
#include "ua/types/StatusCode.h"

#include <string>

namespace ua {

// Whether der is exactly one DER-encoded X.509 CRL.
bool parsesAsCrl(const std::string& der);
// Whether subject names issuer as its issuer and its signature verifies with issuer's key (a
// self-signed certificate is issued by itself).
bool issuedBy(const Certificate& subject, const Certificate& issuer);
// Whether the CRL (DER) was issued by ca: its issuer name is ca's subject name.
bool crlIssuedBy(const std::string& crlDer, const Certificate& ca);

// What a trust list view shows of a CRL: its issuer (one-line text, as Certificate::subjectName),
// its nextUpdate (MinValue when absent) and the SHA-1 of its DER (upper-case hex).
struct CrlSummary {
    bool valid = false;  // false: der is not one CRL (the rest empty)
    std::string issuerName;
    DateTime nextUpdate;
    std::string thumbprintHex;
};
CrlSummary crlSummary(const std::string& crlDer);

// The structure and signature steps of OPC 10000-4 6.1.3 (those Part 12 7.8.2.5 does not let a
// server suppress) for every certificate of a new trust list's trusted and issuer certificates:
// Bad_CertificateInvalid when one does not parse or its signature does not verify (self-signed: with
// its own key), Bad_CertificateChainIncomplete when one is issued by a CA the list does not hold.
// Good otherwise. Linear in the list (issuers looked up by subject name hash).
StatusCode checkTrustListCertificates(const TrustListContents& list);

} // namespace ua
