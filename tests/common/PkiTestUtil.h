// A small certificate authority for the PKI tests, written with OpenSSL directly (not with the code
// under test): root and intermediate CAs, leaves with a chosen key, hash, key usage, validity and URI,
// and CRLs with or without revoked serial numbers.
#pragma once

#include "ua/pki/Certificate.h"
#include "ua/pki/PrivateKey.h"

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace pkitest {

struct CertSpec {
    std::string cn = "Test Leaf";
    std::string uri = "urn:test:leaf";
    std::vector<std::string> dns = {"testhost"};
    bool ca = false;
    const EVP_MD* md = nullptr; // null: SHA-256
    long notBeforeDays = -1;    // relative to now
    long notAfterDays = 365;
    // OpenSSL keyUsage text; empty: CA "keyCertSign,cRLSign", leaf "digitalSignature,nonRepudiation,
    // keyEncipherment,dataEncipherment" (+ keyCertSign when self-signed).
    std::string keyUsage;
};

inline CertSpec caSpec(const std::string& cn) {
    CertSpec s;
    s.cn = cn;
    s.uri.clear();
    s.dns.clear();
    s.ca = true;
    s.notAfterDays = 3650;
    return s;
}

inline void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("test CA: ") + what);
}

inline void addExt(X509* x, X509V3_CTX* ctx, int nid, const std::string& value) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value.c_str());
    check(ext && X509_add_ext(x, ext, -1) == 1, "extension");
    X509_EXTENSION_free(ext);
}

// Issues a certificate for subjectKey; self-signed when issuer is null.
inline ua::Certificate issue(const CertSpec& spec, const ua::PrivateKey& subjectKey,
                             const ua::Certificate& issuer = {}, const ua::PrivateKey& issuerKey = {}) {
    static long serial = 1000;
    X509* x = X509_new();
    check(X509_set_version(x, X509_VERSION_3) == 1, "version");
    ASN1_INTEGER_set(X509_get_serialNumber(x), ++serial);
    X509_gmtime_adj(X509_getm_notBefore(x), spec.notBeforeDays * 24 * 3600);
    X509_gmtime_adj(X509_getm_notAfter(x), spec.notAfterDays * 24 * 3600);
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(spec.cn.c_str()), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>("PKI Test"),
                               -1, -1, 0);
    const bool selfSigned = issuer.isNull();
    X509_set_issuer_name(x, selfSigned ? name : X509_get_subject_name(issuer.x509()));
    check(X509_set_pubkey(x, subjectKey.get()) == 1, "pubkey");

    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, selfSigned ? x : issuer.x509(), x, nullptr, nullptr, 0);
    addExt(x, &ctx, NID_basic_constraints, spec.ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
    std::string ku = spec.keyUsage;
    if (ku.empty())
        ku = spec.ca ? "keyCertSign,cRLSign"
                     : std::string("digitalSignature,nonRepudiation,keyEncipherment,dataEncipherment") +
                           (selfSigned ? ",keyCertSign" : "");
    addExt(x, &ctx, NID_key_usage, "critical," + ku);
    if (!spec.ca) addExt(x, &ctx, NID_ext_key_usage, "serverAuth,clientAuth");
    addExt(x, &ctx, NID_subject_key_identifier, "hash");
    addExt(x, &ctx, NID_authority_key_identifier, "keyid:always");
    std::string san;
    if (!spec.uri.empty()) san = "URI:" + spec.uri;
    for (const std::string& d : spec.dns)
        san += (san.empty() ? "DNS:" : ",DNS:") + d;
    if (!san.empty()) addExt(x, &ctx, NID_subject_alt_name, san);

    check(X509_sign(x, selfSigned ? subjectKey.get() : issuerKey.get(), spec.md ? spec.md : EVP_sha256()) > 0,
          "sign");
    ua::Certificate c = ua::Certificate::fromX509(x);
    X509_free(x);
    return c;
}

// A CRL of ca (DER), valid from a day ago for 30 days, listing the given certificates' serials.
inline std::string crl(const ua::Certificate& ca, const ua::PrivateKey& caKey,
                       const std::vector<ua::Certificate>& revoked = {}) {
    X509_CRL* c = X509_CRL_new();
    X509_CRL_set_version(c, X509_CRL_VERSION_2);
    X509_CRL_set_issuer_name(c, X509_get_subject_name(ca.x509()));
    ASN1_TIME* t = ASN1_TIME_new();
    X509_gmtime_adj(t, -24L * 3600);
    X509_CRL_set1_lastUpdate(c, t);
    X509_gmtime_adj(t, 30L * 24 * 3600);
    X509_CRL_set1_nextUpdate(c, t);
    for (const ua::Certificate& r : revoked) {
        X509_REVOKED* rev = X509_REVOKED_new();
        X509_REVOKED_set_serialNumber(rev, X509_get_serialNumber(r.x509()));
        X509_gmtime_adj(t, -3600);
        X509_REVOKED_set_revocationDate(rev, t);
        X509_CRL_add0_revoked(c, rev);
    }
    ASN1_TIME_free(t);
    X509_CRL_sort(c);
    check(X509_CRL_sign(c, caKey.get(), EVP_sha256()) > 0, "crl sign");
    const int len = i2d_X509_CRL(c, nullptr);
    std::string der(static_cast<std::size_t>(len), '\0');
    auto* p = reinterpret_cast<unsigned char*>(der.data());
    i2d_X509_CRL(c, &p);
    X509_CRL_free(c);
    return der;
}

// The DER with one byte of the signature (at the very end) flipped.
inline std::string tampered(const ua::Certificate& c) {
    std::string der = c.der();
    der.back() = static_cast<char>(der.back() ^ 0x01);
    return der;
}

} // namespace pkitest
