// The self-signed application instance certificate of OPC 10000-6 6.2.2, built with OpenSSL 3.
#include "ua/pki/CertificateCreator.h"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

namespace ua {

namespace {

template <typename T, void (*F)(T*)> struct Deleter {
    void operator()(T* p) const { F(p); }
};
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using NamesPtr = std::unique_ptr<GENERAL_NAMES, Deleter<GENERAL_NAMES, GENERAL_NAMES_free>>;

Certificate fail(std::string* error, const std::string& what) {
    if (error) {
        char buf[256] = {};
        const unsigned long e = ERR_get_error();
        if (e) ERR_error_string_n(e, buf, sizeof buf);
        *error = what + (e ? std::string(": ") + buf : std::string());
    }
    ERR_clear_error();
    return {};
}

// 16 random bytes, the first with its top bit clear (positive) and its next bit set (no leading zero
// byte, so the DER INTEGER keeps all 16 bytes).
bool setRandomSerial(X509* x) {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) return false;
    bytes[0] = static_cast<unsigned char>((bytes[0] & 0x7F) | 0x40);
    BnPtr bn(BN_bin2bn(bytes, sizeof bytes, nullptr));
    return bn && BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(x)) != nullptr;
}

bool addNameEntry(X509_NAME* name, const char* field, const std::string& value) {
    if (value.empty()) return true;
    return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                      reinterpret_cast<const unsigned char*>(value.data()),
                                      static_cast<int>(value.size()), -1, 0) == 1;
}

GENERAL_NAME* makeName(int type, const std::string& value) {
    ASN1_IA5STRING* s = ASN1_IA5STRING_new();
    GENERAL_NAME* g = GENERAL_NAME_new();
    if (!s || !g || ASN1_STRING_set(s, value.data(), static_cast<int>(value.size())) != 1) {
        ASN1_IA5STRING_free(s);
        GENERAL_NAME_free(g);
        return nullptr;
    }
    GENERAL_NAME_set0_value(g, type, s);
    return g;
}

// subjectAltName: URI:<applicationUri>, then each host as IP:<address> when it parses as one, else DNS.
// Built as GENERAL_NAMES (not the config string) so a URI with commas or colons stays intact.
bool addSubjectAltName(X509* x, const CertificateRequest& r) {
    NamesPtr names(sk_GENERAL_NAME_new_null());
    if (!names) return false;
    auto push = [&](GENERAL_NAME* g) {
        if (!g) return false;
        if (sk_GENERAL_NAME_push(names.get(), g) <= 0) {
            GENERAL_NAME_free(g);
            return false;
        }
        return true;
    };
    if (!push(makeName(GEN_URI, r.applicationUri))) return false;
    for (const std::string& host : r.hostNames) {
        if (host.empty()) continue;
        if (ASN1_OCTET_STRING* ip = a2i_IPADDRESS(host.c_str())) {
            GENERAL_NAME* g = GENERAL_NAME_new();
            if (!g) {
                ASN1_OCTET_STRING_free(ip);
                return false;
            }
            GENERAL_NAME_set0_value(g, GEN_IPADD, ip);
            if (!push(g)) return false;
        } else if (!push(makeName(GEN_DNS, host))) {
            return false;
        }
    }
    return X509_add1_ext_i2d(x, NID_subject_alt_name, names.get(), 0, X509V3_ADD_REPLACE) == 1;
}

bool addExtension(X509* x, X509V3_CTX* ctx, int nid, const char* value) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value);
    if (!ext) return false;
    const bool ok = X509_add_ext(x, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

} // namespace

Certificate createSelfSignedCertificate(const CertificateRequest& r, const PrivateKey& key,
                                        std::string* error) {
    if (key.isNull()) return fail(error, "no private key");
    if (r.applicationUri.empty()) return fail(error, "no applicationUri");
    X509Ptr x(X509_new());
    if (!x || X509_set_version(x.get(), X509_VERSION_3) != 1 || !setRandomSerial(x.get()))
        return fail(error, "cannot start the certificate");

    // Valid from a day ago: a peer whose clock is behind ours still accepts it.
    if (!X509_gmtime_adj(X509_getm_notBefore(x.get()), -24L * 3600) ||
        !X509_time_adj_ex(X509_getm_notAfter(x.get()), r.validityDays, 0, nullptr))
        return fail(error, "cannot set the validity");

    X509_NAME* name = X509_get_subject_name(x.get());
    const std::string cn = r.applicationName.empty() ? r.applicationUri : r.applicationName;
    const std::string host = r.hostNames.empty() ? std::string() : r.hostNames.front();
    if (!addNameEntry(name, "CN", cn) || !addNameEntry(name, "O", r.organization) ||
        !addNameEntry(name, "DC", host) || X509_set_issuer_name(x.get(), name) != 1)
        return fail(error, "cannot set the subject name");
    if (X509_set_pubkey(x.get(), key.get()) != 1) return fail(error, "cannot set the public key");

    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, x.get(), x.get(), nullptr, nullptr, 0);
    // subjectKeyIdentifier first: authorityKeyIdentifier copies it from the (self) issuer.
    const bool extensionsOk =
        addExtension(x.get(), &ctx, NID_basic_constraints, "critical,CA:FALSE") &&
        addExtension(
            x.get(), &ctx, NID_key_usage,
            "critical,digitalSignature,nonRepudiation,keyEncipherment,dataEncipherment,keyCertSign") &&
        addExtension(x.get(), &ctx, NID_ext_key_usage, "serverAuth,clientAuth") &&
        addExtension(x.get(), &ctx, NID_subject_key_identifier, "hash") &&
        addExtension(x.get(), &ctx, NID_authority_key_identifier, "keyid:always") &&
        addSubjectAltName(x.get(), r);
    if (!extensionsOk) return fail(error, "cannot add the extensions");

    if (X509_sign(x.get(), key.get(), EVP_sha256()) <= 0) return fail(error, "cannot sign");
    Certificate c = Certificate::fromX509(x.get());
    if (c.isNull()) fail(error, "cannot encode the certificate");
    return c;
}

} // namespace ua
