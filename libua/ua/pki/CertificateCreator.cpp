// The self-signed application instance certificate of OPC 10000-6 6.2.2, built with OpenSSL 3.
#include "ua/pki/CertificateCreator.h"

#include "ua/pki/X509Build.h"

#include <openssl/evp.h>

namespace ua {

namespace {

Certificate creationFailed(std::string* error, const std::string& what) {
    x509build::fail(error, what);
    return {};
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
    x509build::NamesPtr names(sk_GENERAL_NAME_new_null());
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

} // namespace

Certificate createSelfSignedCertificate(const CertificateRequest& r, const PrivateKey& key,
                                        std::string* error) {
    if (key.isNull()) return creationFailed(error, "no private key");
    if (r.applicationUri.empty()) return creationFailed(error, "no applicationUri");
    x509build::X509Ptr x(X509_new());
    if (!x || X509_set_version(x.get(), X509_VERSION_3) != 1 || !x509build::setRandomSerial(x.get()))
        return creationFailed(error, "cannot start the certificate");

    // Valid from a day ago: a peer whose clock is behind ours still accepts it.
    if (!x509build::setValidity(x.get(), r.validityDays))
        return creationFailed(error, "cannot set the validity");

    X509_NAME* name = X509_get_subject_name(x.get());
    const std::string cn = r.applicationName.empty() ? r.applicationUri : r.applicationName;
    const std::string host = r.hostNames.empty() ? std::string() : r.hostNames.front();
    if (!x509build::addNameEntry(name, "CN", cn) || !x509build::addNameEntry(name, "O", r.organization) ||
        !x509build::addNameEntry(name, "DC", host) || X509_set_issuer_name(x.get(), name) != 1)
        return creationFailed(error, "cannot set the subject name");
    if (X509_set_pubkey(x.get(), key.get()) != 1) return creationFailed(error, "cannot set the public key");

    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, x.get(), x.get(), nullptr, nullptr, 0);
    const bool extensionsOk = x509build::addApplicationExtensions(x.get(), &ctx, true) &&
        addSubjectAltName(x.get(), r);
    if (!extensionsOk) return creationFailed(error, "cannot add the extensions");

    const KeyType type = key.type();
    if (type == KeyType::Other) return creationFailed(error, "the key is neither RSA nor ECC on P-256 or P-384");
    const EVP_MD* digest = type == KeyType::EccNistP384 ? EVP_sha384() : EVP_sha256();
    if (X509_sign(x.get(), key.get(), digest) <= 0) return creationFailed(error, "cannot sign");
    Certificate c = Certificate::fromX509(x.get());
    if (c.isNull()) creationFailed(error, "cannot encode the certificate");
    return c;
}

} // namespace ua
