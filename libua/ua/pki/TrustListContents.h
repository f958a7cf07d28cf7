// The contents of an application's trust list as OPC 10000-12 7.8.2.8 TrustListDataType carries
// them: the DER of each trusted certificate and CRL and of each issuer (CA) certificate and CRL,
// and the bits of 7.8.2.9 TrustListMasks that say which of the four lists a transfer holds.
// CertificateStore::trustList() reads them from the store's folders; replaceTrustList() writes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ua {

// OPC 10000-12 7.8.2.9 TrustListMasks.
enum TrustListMask : uint32_t {
    kTrustListNone = 0,
    kTrustedCertificates = 1,
    kTrustedCrls = 2,
    kIssuerCertificates = 4,
    kIssuerCrls = 8,
    kTrustListAll = 15,
};

struct TrustListContents {
    std::vector<std::string> trustedCertificates;  // DER, trusted/certs
    std::vector<std::string> trustedCrls;          // DER, trusted/crl
    std::vector<std::string> issuerCertificates;   // DER, issuers/certs
    std::vector<std::string> issuerCrls;           // DER, issuers/crl
    friend bool operator==(const TrustListContents&, const TrustListContents&) = default;
};

} // namespace ua
