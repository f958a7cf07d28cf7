#include "ua/pki/SigningRequest.h"

#include "ua/pki/X509Build.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>

#include <cctype>
#include <utility>
#include <vector>

namespace ua {

namespace {

std::string trimmed(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

// Whether ch occurs in text outside double quotes.
bool occursUnquoted(const std::string& text, char ch) {
    bool quoted = false;
    for (char c : text) {
        if (c == '"') quoted = !quoted;
        else if (c == ch && !quoted) return true;
    }
    return false;
}

// "K=V" parts split at sep outside double quotes; quotes removed from the value, which may hold
// '=' or the separator only when quoted.
bool splitName(const std::string& text, char sep, std::vector<std::pair<std::string, std::string>>* out) {
    std::string part;
    bool quoted = false;
    std::vector<std::string> parts;
    for (char ch : text) {
        if (ch == '"') quoted = !quoted;
        if (ch == sep && !quoted) {
            parts.push_back(part);
            part.clear();
        } else {
            part += ch;
        }
    }
    if (quoted) return false;
    parts.push_back(part);
    for (const std::string& p : parts) {
        const std::size_t eq = p.find('=');
        if (eq == std::string::npos) return false;
        std::string key = trimmed(p.substr(0, eq));
        std::string value = trimmed(p.substr(eq + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        else if (occursUnquoted(value, '=') || value.find('"') != std::string::npos) return false;
        if (key == "S") key = "ST";  // 7.6.4's name for the state
        if (key.empty() || value.empty()) return false;
        out->emplace_back(std::move(key), std::move(value));
    }
    return true;
}

x509build::NamePtr parseName(const std::string& text) {
    std::string t = trimmed(text);
    if (!t.empty() && t.front() == '/') t = t.substr(1);
    std::vector<std::pair<std::string, std::string>> fields;
    // OPC 10000-12 7.6.4 separates the fields with '/' ("CN=Server/O=Org/DC=host"); the RFC 4514
    // style with ',' is taken as well when no '/' separates.
    const char sep = occursUnquoted(t, '/') ? '/' : ',';
    if (t.empty() || !splitName(t, sep, &fields)) return nullptr;
    x509build::NamePtr name(X509_NAME_new());
    bool hasCn = false;
    for (const auto& [key, value] : fields) {
        const int nid = OBJ_txt2nid(key.c_str());
        if (nid == NID_undef || !x509build::addNameEntry(name.get(), key.c_str(), value)) {
            ERR_clear_error();
            return nullptr;
        }
        hasCn |= nid == NID_commonName;
    }
    if (!hasCn) return nullptr;
    return name;
}

template <class T, int (*I2d)(const T*, unsigned char**)>
std::string toDer(const T* object) {
    const int len = I2d(object, nullptr);
    if (len <= 0) return {};
    std::string der(static_cast<std::size_t>(len), '\0');
    auto* p = reinterpret_cast<unsigned char*>(der.data());
    I2d(object, &p);
    return der;
}

x509build::X509ReqPtr requestFromDer(const std::string& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    x509build::X509ReqPtr req(d2i_X509_REQ(nullptr, &p, static_cast<long>(der.size())));
    if (req && p != reinterpret_cast<const unsigned char*>(der.data()) + der.size()) req.reset();  // trailing bytes
    if (!req) ERR_clear_error();
    return req;
}

// The request's subjectAltName (new object; null when it has none).
GENERAL_NAMES* requestedAltNames(X509_REQ* req) {
    STACK_OF(X509_EXTENSION)* exts = X509_REQ_get_extensions(req);
    if (!exts) return nullptr;
    GENERAL_NAMES* names = nullptr;
    const int i = X509v3_get_ext_by_NID(exts, NID_subject_alt_name, -1);
    if (i >= 0) names = static_cast<GENERAL_NAMES*>(X509V3_EXT_d2i(sk_X509_EXTENSION_value(exts, i)));
    sk_X509_EXTENSION_pop_free(exts, X509_EXTENSION_free);
    return names;
}

Certificate signFailed(std::string* error, const std::string& what) {
    x509build::fail(error, what);
    return {};
}

std::string requestFailed(std::string* error, const std::string& what) {
    x509build::fail(error, what);
    return {};
}

} // namespace

std::string subjectNameDer(const std::string& text) {
    x509build::NamePtr name = parseName(text);
    return name ? toDer<X509_NAME, i2d_X509_NAME>(name.get()) : std::string();
}

std::string createSigningRequest(const PrivateKey& key, const Certificate& current, const std::string& subjectName,
                                 std::string* error) {
    if (key.isNull()) return requestFailed(error, "no private key");
    x509build::X509ReqPtr req(X509_REQ_new());
    if (!req || X509_REQ_set_version(req.get(), 0) != 1) return requestFailed(error, "cannot start the request");
    if (!subjectName.empty()) {
        x509build::NamePtr name = parseName(subjectName);
        if (!name) return requestFailed(error, "subject name \"" + subjectName + "\" is not a name such as CN=Server, O=Org");
        if (X509_REQ_set_subject_name(req.get(), name.get()) != 1) return requestFailed(error, "cannot set the subject");
    } else if (current.isNull() || X509_REQ_set_subject_name(req.get(), X509_get_subject_name(current.x509())) != 1) {
        return requestFailed(error, "subject name: none given and no current certificate");
    }
    if (X509_REQ_set_pubkey(req.get(), key.get()) != 1) return requestFailed(error, "cannot set the public key");
    if (!current.isNull()) {
        auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(current.x509(), NID_subject_alt_name, nullptr, nullptr));
        if (names) {
            STACK_OF(X509_EXTENSION)* exts = sk_X509_EXTENSION_new_null();
            X509_EXTENSION* ext = X509V3_EXT_i2d(NID_subject_alt_name, 0, names);
            GENERAL_NAMES_free(names);
            const bool ok = exts && ext && sk_X509_EXTENSION_push(exts, ext) > 0;
            if (!ok) X509_EXTENSION_free(ext);
            const bool added = ok && X509_REQ_add_extensions(req.get(), exts) == 1;
            sk_X509_EXTENSION_pop_free(exts, X509_EXTENSION_free);
            if (!added) return requestFailed(error, "cannot add the subjectAltName");
        }
    }
    // ECDSA over SHA-384 for a P-384 key (its certificate type's hash), SHA-256 otherwise.
    const EVP_MD* digest = key.type() == KeyType::EccNistP384 ? EVP_sha384() : EVP_sha256();
    if (X509_REQ_sign(req.get(), key.get(), digest) <= 0) return requestFailed(error, "cannot sign the request");
    return toDer<X509_REQ, i2d_X509_REQ>(req.get());
}

SigningRequestInfo parseSigningRequest(const std::string& der) {
    SigningRequestInfo info;
    x509build::X509ReqPtr req = requestFromDer(der);
    if (!req) return info;
    EVP_PKEY* key = X509_REQ_get0_pubkey(req.get());
    if (!key || X509_REQ_verify(req.get(), key) != 1) {
        ERR_clear_error();
        return info;
    }
    info.valid = true;
    info.keyBits = EVP_PKEY_get_bits(key);
    info.subjectName = x509build::nameText(X509_REQ_get_subject_name(req.get()));
    if (GENERAL_NAMES* names = requestedAltNames(req.get())) {
        for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
            const GENERAL_NAME* g = sk_GENERAL_NAME_value(names, i);
            if (g->type == GEN_URI) {
                const ASN1_IA5STRING* s = g->d.uniformResourceIdentifier;
                info.applicationUri.assign(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                                           static_cast<std::size_t>(ASN1_STRING_length(s)));
                break;
            }
        }
        GENERAL_NAMES_free(names);
    }
    return info;
}

Certificate signRequest(const std::string& requestDer, const Certificate& issuer, const PrivateKey& issuerKey,
                        int validityDays, std::string* error) {
    x509build::X509ReqPtr req = requestFromDer(requestDer);
    if (!req) return signFailed(error, "the signing request does not parse (PKCS#10 DER expected)");
    EVP_PKEY* subjectKey = X509_REQ_get0_pubkey(req.get());
    if (!subjectKey || X509_REQ_verify(req.get(), subjectKey) != 1) return signFailed(error, "the signing request's signature fails");
    if (issuer.isNull() || issuerKey.isNull()) return signFailed(error, "no CA certificate or key");
    if (!issuer.isCA()) return signFailed(error, "the issuer certificate is not a CA (basicConstraints CA:TRUE)");
    if (X509_check_private_key(issuer.x509(), issuerKey.get()) != 1) return signFailed(error, "the CA key does not match the CA certificate");
    if (validityDays <= 0) return signFailed(error, "validity must be at least one day");

    x509build::X509Ptr x(X509_new());
    if (!x || X509_set_version(x.get(), X509_VERSION_3) != 1 || !x509build::setRandomSerial(x.get()) ||
        !x509build::setValidity(x.get(), validityDays) ||
        X509_set_subject_name(x.get(), X509_REQ_get_subject_name(req.get())) != 1 ||
        X509_set_issuer_name(x.get(), X509_get_subject_name(issuer.x509())) != 1 ||
        X509_set_pubkey(x.get(), subjectKey) != 1)
        return signFailed(error, "cannot build the certificate");
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer.x509(), x.get(), req.get(), nullptr, 0);
    if (!x509build::addApplicationExtensions(x.get(), &ctx, false)) return signFailed(error, "cannot add the extensions");
    if (GENERAL_NAMES* names = requestedAltNames(req.get())) {
        const bool ok = X509_add1_ext_i2d(x.get(), NID_subject_alt_name, names, 0, X509V3_ADD_REPLACE) == 1;
        GENERAL_NAMES_free(names);
        if (!ok) return signFailed(error, "cannot copy the subjectAltName");
    }
    if (X509_sign(x.get(), issuerKey.get(), EVP_sha256()) <= 0) return signFailed(error, "cannot sign");
    Certificate c = Certificate::fromX509(x.get());
    if (c.isNull()) return signFailed(error, "cannot encode the certificate");
    return c;
}

} // namespace ua
