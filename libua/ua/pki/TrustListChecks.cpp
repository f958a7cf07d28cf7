#include "ua/pki/TrustListChecks.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ua {

namespace {

struct CrlFree {
    void operator()(X509_CRL* c) const { X509_CRL_free(c); }
};
using CrlPtr = std::unique_ptr<X509_CRL, CrlFree>;

CrlPtr parseCrl(const std::string& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    CrlPtr crl(d2i_X509_CRL(nullptr, &p, static_cast<long>(der.size())));
    if (crl && p != reinterpret_cast<const unsigned char*>(der.data()) + der.size()) crl.reset();
    return crl;
}

} // namespace

bool parsesAsCrl(const std::string& der) { return parseCrl(der) != nullptr; }

bool issuedBy(const Certificate& subject, const Certificate& issuer) {
    if (subject.isNull() || issuer.isNull()) return false;
    if (X509_check_issued(issuer.x509(), subject.x509()) != X509_V_OK) return false;
    return X509_verify(subject.x509(), issuer.publicKey()) == 1;
}

bool crlIssuedBy(const std::string& crlDer, const Certificate& ca) {
    const CrlPtr crl = parseCrl(crlDer);
    if (!crl || ca.isNull()) return false;
    return X509_NAME_cmp(X509_CRL_get_issuer(crl.get()), X509_get_subject_name(ca.x509())) == 0;
}

StatusCode checkTrustListCertificates(const TrustListContents& list) {
    std::vector<Certificate> all;
    for (const auto* l : {&list.trustedCertificates, &list.issuerCertificates})
        for (const std::string& der : *l) {
            all.push_back(Certificate::fromDer(der));
            if (all.back().isNull()) return status::BadCertificateInvalid;
        }
    std::unordered_multimap<unsigned long, const Certificate*> bySubject;
    for (const Certificate& c : all)
        bySubject.emplace(X509_subject_name_hash(c.x509()), &c);
    for (const Certificate& c : all) {
        if (X509_NAME_cmp(X509_get_issuer_name(c.x509()), X509_get_subject_name(c.x509())) == 0) {
            if (!issuedBy(c, c)) return status::BadCertificateInvalid;  // self-signed, and the signature fails
            continue;
        }
        bool found = false;
        const auto [from, to] = bySubject.equal_range(X509_issuer_name_hash(c.x509()));
        for (auto it = from; it != to && !found; ++it)
            found = issuedBy(c, *it->second);
        if (!found) return status::BadCertificateChainIncomplete;
    }
    return status::Good;
}

CrlSummary crlSummary(const std::string& crlDer) {
    CrlSummary s;
    const CrlPtr crl = parseCrl(crlDer);
    if (!crl) return s;
    s.valid = true;
    // As Certificate::subjectName() writes a name ("CN=..., O=...").
    if (BIO* bio = BIO_new(BIO_s_mem())) {
        const unsigned long flags = XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_FN_SN | XN_FLAG_DUMP_UNKNOWN_FIELDS | ASN1_STRFLGS_ESC_2253 |
                                    ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT;
        X509_NAME_print_ex(bio, X509_CRL_get_issuer(crl.get()), 0, flags);
        char* data = nullptr;
        const long len = BIO_get_mem_data(bio, &data);
        s.issuerName.assign(data, std::size_t(len > 0 ? len : 0));
        BIO_free(bio);
    }
    if (const ASN1_TIME* next = X509_CRL_get0_nextUpdate(crl.get())) {
        struct tm t {};
        if (ASN1_TIME_to_tm(next, &t) == 1) {
            const int64_t unix = int64_t(timegm(&t));
            s.nextUpdate = DateTime{DateTime::kUnixEpochTicks + unix * 10'000'000};
        }
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(crlDer.data(), crlDer.size(), md, &len, EVP_sha1(), nullptr);
    static const char digits[] = "0123456789ABCDEF";
    for (unsigned int i = 0; i < len; ++i)
        (s.thumbprintHex += digits[md[i] >> 4]) += digits[md[i] & 0xF];
    return s;
}

} // namespace ua
