#include "ua/pki/X509Build.h"

#include <openssl/evp.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/rand.h>

namespace ua::x509build {

std::string nameText(const X509_NAME* name) {
    if (!name) return {};
    BIO* bio = BIO_new(BIO_s_mem());
    const unsigned long flags = XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_FN_SN | XN_FLAG_DUMP_UNKNOWN_FIELDS | ASN1_STRFLGS_ESC_2253 |
                                ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT;
    X509_NAME_print_ex(bio, name, 0, flags);
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    std::string r(data, static_cast<std::size_t>(len > 0 ? len : 0));
    BIO_free(bio);
    return r;
}

bool fail(std::string* error, const std::string& what) {
    if (error) {
        char buf[256] = {};
        const unsigned long e = ERR_get_error();
        if (e) ERR_error_string_n(e, buf, sizeof buf);
        *error = what + (e ? std::string(": ") + buf : std::string());
    }
    ERR_clear_error();
    return false;
}

bool setRandomSerial(X509* x) {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) return false;
    bytes[0] = static_cast<unsigned char>((bytes[0] & 0x7F) | 0x40);
    BnPtr bn(BN_bin2bn(bytes, sizeof bytes, nullptr));
    return bn && BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(x)) != nullptr;
}

bool addNameEntry(X509_NAME* name, const char* field, const std::string& value) {
    if (value.empty()) return true;
    return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(value.data()),
                                      static_cast<int>(value.size()), -1, 0) == 1;
}

bool addExtension(X509* x, X509V3_CTX* ctx, int nid, const char* value) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value);
    if (!ext) return false;
    const bool ok = X509_add_ext(x, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

bool setValidity(X509* x, int days) {
    return X509_gmtime_adj(X509_getm_notBefore(x), -24L * 3600) &&
           X509_time_adj_ex(X509_getm_notAfter(x), days, 0, nullptr);
}

bool addApplicationExtensions(X509* x, X509V3_CTX* ctx, bool selfSigned) {
    // An ECC key signs and agrees on EphemeralKeys but encrypts nothing: no keyEncipherment or
    // dataEncipherment (docs/Security.md "ECC").
    const bool ecc = EVP_PKEY_is_a(X509_get0_pubkey(x), "EC");
    const char* keyUsage = ecc ? (selfSigned ? "critical,digitalSignature,nonRepudiation,keyCertSign"
                                             : "critical,digitalSignature,nonRepudiation")
                               : (selfSigned ? "critical,digitalSignature,nonRepudiation,keyEncipherment,dataEncipherment,keyCertSign"
                                             : "critical,digitalSignature,nonRepudiation,keyEncipherment,dataEncipherment");
    // subjectKeyIdentifier before authorityKeyIdentifier: a self-signed one copies it from itself.
    return addExtension(x, ctx, NID_basic_constraints, "critical,CA:FALSE") &&
           addExtension(x, ctx, NID_key_usage, keyUsage) &&
           addExtension(x, ctx, NID_ext_key_usage, "serverAuth,clientAuth") &&
           addExtension(x, ctx, NID_subject_key_identifier, "hash") &&
           addExtension(x, ctx, NID_authority_key_identifier, "keyid:always");
}

} // namespace ua::x509build
