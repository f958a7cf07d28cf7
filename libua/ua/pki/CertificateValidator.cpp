// Certificate validation by OPC 10000-4 6.1.3 (Table 106). OpenSSL builds the chain and checks its
// signatures, validity periods, CA constraints and CRLs; every problem it reports is collected (the
// verify callback never stops it) and mapped to the step of Table 106 it belongs to, next to the
// checks OpenSSL does not know (trust list, security policy, host name, URI, key usage). The result is
// the problem of the earliest step; within a step the one nearest the leaf:
//   1 structure          Bad_CertificateInvalid (parse errors, an unknown critical extension)
//   2 build chain        Bad_CertificateChainIncomplete
//   3 signature          Bad_CertificateInvalid
//   4 security policy    Bad_CertificatePolicyCheckFailed (key length, signature hash)
//   5 trust list         Bad_CertificateUntrusted
//   6 validity period    Bad_CertificateTimeInvalid (leaf) / Bad_CertificateIssuerTimeInvalid (a CA)
//   7 host name          Bad_CertificateHostNameInvalid
//   8 URI                Bad_CertificateUriInvalid
//   9 certificate usage  Bad_CertificateUseNotAllowed (leaf) / Bad_CertificateIssuerUseNotAllowed
//  10 find revocation    Bad_CertificateRevocationUnknown: the leaf's issuer has no (valid) CRL /
//     list               Bad_CertificateIssuerRevocationUnknown: a CA's issuer has none
//  11 revocation check   Bad_CertificateRevoked (leaf listed) / Bad_CertificateIssuerRevoked (a CA listed)
// A self-signed certificate (a self-signed leaf, the root CA) needs no CRL of its own.
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStoreImpl.h"

#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

#include <QDateTime>

namespace ua {

namespace pki_detail {

namespace {

enum class Step {
    Structure,
    Chain,
    Signature,
    Policy,
    Trust,
    Validity,
    HostName,
    Uri,
    Usage,
    FindRevocation,
    Revocation
};

// Table 106's names of the steps, for the reason text.
const char* stepName(Step s) {
    switch (s) {
    case Step::Structure: return "Certificate Structure";
    case Step::Chain: return "Build Certificate Chain";
    case Step::Signature: return "Signature";
    case Step::Policy: return "Security Policy Check";
    case Step::Trust: return "Trust List Check";
    case Step::Validity: return "Validity Period";
    case Step::HostName: return "Host Name";
    case Step::Uri: return "URI";
    case Step::Usage: return "Certificate Usage";
    case Step::FindRevocation: return "Find Revocation List";
    case Step::Revocation: return "Revocation Check";
    }
    return "?";
}

struct Finding {
    Step step;
    int depth; // 0 = the leaf
    StatusCode status;
    std::string why;
    bool operator<(const Finding& o) const { return step != o.step ? step < o.step : depth < o.depth; }
};

struct VerifyError {
    int error;
    int depth;
};

int collectError(int ok, X509_STORE_CTX* ctx) {
    if (!ok) {
        auto* errors = static_cast<std::vector<VerifyError>*>(X509_STORE_CTX_get_app_data(ctx));
        errors->push_back({X509_STORE_CTX_get_error(ctx), X509_STORE_CTX_get_error_depth(ctx)});
    }
    return 1; // go on: every problem is collected and ranked afterwards
}

bool selfIssued(X509* x) { return X509_check_issued(x, x) == X509_V_OK; }

// Signed by its own key under its own name, whatever its keyUsage says (OpenSSL's check_issued
// refuses one whose keyUsage lacks keyCertSign).
bool signedByItself(X509* x) {
    return X509_NAME_cmp(X509_get_subject_name(x), X509_get_issuer_name(x)) == 0 &&
           X509_verify(x, X509_get0_pubkey(x)) == 1;
}

// The Table 106 step of an OpenSSL verification error at depth; nullopt for errors that are no
// problem here (trust is decided from trusted/, not by OpenSSL's notion of a trust anchor).
std::optional<Finding> mapVerifyError(int error, int depth, bool selfSigned) {
    namespace s = status;
    const bool leaf = depth == 0;
    switch (error) {
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_CERT_UNTRUSTED:
    case X509_V_ERR_CERT_REJECTED:
        return std::nullopt;
    case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION:
    case X509_V_ERR_INVALID_EXTENSION:
        return Finding{Step::Structure, depth, s::BadCertificateInvalid, {}};
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_CHAIN_TOO_LONG:
        return Finding{Step::Chain, depth, s::BadCertificateChainIncomplete, {}};
    case X509_V_ERR_CA_KEY_TOO_SMALL:
    case X509_V_ERR_EE_KEY_TOO_SMALL:
    case X509_V_ERR_CA_MD_TOO_WEAK:
        return Finding{Step::Policy, depth, s::BadCertificatePolicyCheckFailed, {}};
    case X509_V_ERR_CERT_NOT_YET_VALID:
    case X509_V_ERR_CERT_HAS_EXPIRED:
    case X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD:
    case X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD:
        return Finding{Step::Validity, depth,
                       leaf ? s::BadCertificateTimeInvalid : s::BadCertificateIssuerTimeInvalid, {}};
    case X509_V_ERR_INVALID_CA:
    case X509_V_ERR_PATH_LENGTH_EXCEEDED:
    case X509_V_ERR_KEYUSAGE_NO_CERTSIGN:
    case X509_V_ERR_INVALID_PURPOSE:
    case X509_V_ERR_INVALID_NON_CA:
        return Finding{Step::Usage, depth,
                       leaf ? s::BadCertificateUseNotAllowed : s::BadCertificateIssuerUseNotAllowed, {}};
    case X509_V_ERR_UNABLE_TO_GET_CRL:
    case X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER:
    case X509_V_ERR_CRL_NOT_YET_VALID:
    case X509_V_ERR_CRL_HAS_EXPIRED:
    case X509_V_ERR_CRL_SIGNATURE_FAILURE:
    case X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE:
    case X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD:
    case X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD:
    case X509_V_ERR_KEYUSAGE_NO_CRL_SIGN:
    case X509_V_ERR_DIFFERENT_CRL_SCOPE:
    case X509_V_ERR_CRL_PATH_VALIDATION_ERROR:
    case X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION:
        if (selfSigned) return std::nullopt; // nobody can revoke a self-signed certificate
        return Finding{Step::FindRevocation, depth,
                       leaf ? s::BadCertificateRevocationUnknown : s::BadCertificateIssuerRevocationUnknown, {}};
    case X509_V_ERR_CERT_REVOKED:
        return Finding{Step::Revocation, depth,
                       leaf ? s::BadCertificateRevoked : s::BadCertificateIssuerRevoked, {}};
    default: // signature failures and anything else that makes the chain unverifiable
        return Finding{Step::Signature, depth, s::BadCertificateInvalid, {}};
    }
}

bool equalsIgnoringCase(const std::string& a, const std::string& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

// Key usage of an application instance certificate (OPC 10000-6 6.2.2): it signs, and an RSA key
// also encrypts (an ECC key encrypts nothing: the ECC policies agree on keys with EphemeralKeys).
// No keyUsage / extendedKeyUsage extension means no restriction (RFC 5280 4.2.1.3, 4.2.1.12).
bool leafUsageAllowed(X509* x) {
    const uint32_t ku = X509_get_key_usage(x);
    if (ku != UINT32_MAX) {
        if (!(ku & KU_DIGITAL_SIGNATURE)) return false;
        const bool ecc = EVP_PKEY_is_a(X509_get0_pubkey(x), "EC");
        if (!ecc && !(ku & (KU_KEY_ENCIPHERMENT | KU_DATA_ENCIPHERMENT))) return false;
    }
    const uint32_t xku = X509_get_extended_key_usage(x);
    return xku == UINT32_MAX || (xku & (XKU_SSL_SERVER | XKU_SSL_CLIENT | XKU_ANYEKU)) != 0;
}

// The steps OPC 10000-4 6.1.3 Table 106 lets an application suppress.
bool suppressibleStep(Step step) {
    switch (step) {
    case Step::Policy:
    case Step::Validity:
    case Step::HostName:
    case Step::Uri:
    case Step::Usage:
    case Step::FindRevocation:
        return true;
    default:
        return false;
    }
}

bool outsideValidity(X509* x) {
    return X509_cmp_current_time(X509_get0_notBefore(x)) >= 0 ||
           X509_cmp_current_time(X509_get0_notAfter(x)) <= 0;
}

} // namespace

StatusCode validateChain(const TrustLists& lists, const std::vector<Certificate>& chain,
                         const ValidationOptions& o, std::string* reason) {
    namespace s = status;
    if (reason) reason->clear();
    if (chain.empty() || chain.front().isNull()) {
        if (reason) *reason = "Certificate Structure: not a DER certificate (chain)";
        return s::BadCertificateInvalid;
    }
    const Certificate& leaf = chain.front();

    // OpenSSL: chain building from the received chain, issuers/ and trusted/, signatures, times, CA
    // constraints and CRLs of every certificate (CRL_CHECK_ALL).
    std::vector<VerifyError> errors;
    STACK_OF(X509)* untrusted = sk_X509_new_null();
    for (std::size_t i = 1; i < chain.size(); ++i)
        sk_X509_push(untrusted, chain[i].x509());
    X509_STORE_CTX* ctx = X509_STORE_CTX_new();
    std::vector<Certificate> built;
    if (!ctx || !untrusted || X509_STORE_CTX_init(ctx, lists.store.get(), leaf.x509(), untrusted) != 1) {
        X509_STORE_CTX_free(ctx);
        sk_X509_free(untrusted);
        ERR_clear_error();
        return s::BadInternalError;
    }
    X509_STORE_CTX_set_flags(ctx, X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL |
                                      X509_V_FLAG_CHECK_SS_SIGNATURE);
    X509_STORE_CTX_set_app_data(ctx, &errors);
    X509_STORE_CTX_set_verify_cb(ctx, collectError);
    X509_verify_cert(ctx);
    if (STACK_OF(X509)* bc = X509_STORE_CTX_get0_chain(ctx)) {
        for (int i = 0; i < sk_X509_num(bc); ++i)
            built.push_back(Certificate::fromX509(sk_X509_value(bc, i)));
    }
    X509_STORE_CTX_free(ctx);
    sk_X509_free(untrusted); // the certificates belong to chain
    ERR_clear_error();
    if (built.empty()) built.push_back(leaf);

    std::vector<Finding> findings;
    // A leaf signed by itself but without keyCertSign: OpenSSL does not take it as self-signed and
    // looks for an issuer (and a CRL) in vain. It is self-signed; what is wrong is its usage.
    const bool selfSignedNoCertSign = !selfIssued(leaf.x509()) && signedByItself(leaf.x509());
    auto selfSignedAt = [&](int depth) {
        if (depth == 0 && selfSignedNoCertSign) return true;
        return depth >= 0 && depth < static_cast<int>(built.size()) && selfIssued(built[depth].x509());
    };
    for (const VerifyError& e : errors) {
        if (selfSignedNoCertSign && e.depth == 0 &&
            (e.error == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT || e.error == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY ||
             e.error == X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE))
            continue;
        if (auto f = mapVerifyError(e.error, e.depth, selfSignedAt(e.depth))) {
            f->why = X509_verify_cert_error_string(e.error);
            findings.push_back(*f);
        }
    }
    if (selfSignedNoCertSign && o.checkKeyUsage)
        findings.push_back({Step::Usage, 0, s::BadCertificateUseNotAllowed,
                            "a self-signed certificate without keyCertSign in its keyUsage (OPC 10000-6 6.2.2)"});

    for (int i = 0; i < static_cast<int>(built.size()); ++i) {
        X509* x = built[i].x509();
        const bool top = i + 1 == static_cast<int>(built.size());
        // Signatures: each certificate by its issuer's key, a self-signed top by its own. OpenSSL checks
        // these too (with CHECK_SS_SIGNATURE); done here as well so the step never depends on its flags.
        X509* issuer = !top ? built[i + 1].x509() : selfIssued(x) ? x : nullptr;
        if (issuer && X509_verify(x, X509_get0_pubkey(issuer)) != 1)
            findings.push_back({Step::Signature, i, s::BadCertificateInvalid, "its issuer's signature does not verify"});
        // Security policy: every key long enough, the leaf's not too long (CAs often use longer keys);
        // signature hashes but the root's (whose self-signature protects nothing).
        const int bits = built[i].keyBits();
        const int hash = built[i].signatureHashBits();
        const bool hashChecked = i == 0 || !selfIssued(x);
        if (bits < o.minKeyBits || (i == 0 && bits > o.maxKeyBits))
            findings.push_back({Step::Policy, i, s::BadCertificatePolicyCheckFailed,
                                std::to_string(bits) + "-bit key, the policy allows " + std::to_string(o.minKeyBits) +
                                    ".." + std::to_string(o.maxKeyBits)});
        else if (hashChecked && (hash == 0 || (hash == 1 && !o.allowSha1Signature)))
            findings.push_back({Step::Policy, i, s::BadCertificatePolicyCheckFailed,
                                hash == 1 ? "signed with SHA-1" : "signature hash not allowed"});
        if (outsideValidity(x))
            findings.push_back({Step::Validity, i,
                                i == 0 ? s::BadCertificateTimeInvalid : s::BadCertificateIssuerTimeInvalid,
                                "outside its validity period (" + built[i].notBefore().toQDateTime().toString(Qt::ISODate).toStdString() +
                                    " .. " + built[i].notAfter().toQDateTime().toString(Qt::ISODate).toStdString() + ")"});
    }
    ERR_clear_error();

    // Trust list: the leaf itself or one of the CAs its chain was built with is in trusted/.
    const bool trusted = std::any_of(built.begin(), built.end(), [&](const Certificate& c) {
        return lists.trustedThumbprints.count(c.thumbprint()) != 0;
    });
    if (!trusted && !o.waiveTrustList)
        findings.push_back({Step::Trust, 0, s::BadCertificateUntrusted, "neither it nor a CA of its chain is in trusted/"});

    if (!o.expectedHostName.empty()) {
        std::vector<std::string> names = leaf.dnsNames();
        const std::vector<std::string> ips = leaf.ipAddresses();
        names.insert(names.end(), ips.begin(), ips.end());
        if (std::none_of(names.begin(), names.end(),
                         [&](const std::string& n) { return equalsIgnoringCase(n, o.expectedHostName); }))
            findings.push_back({Step::HostName, 0, s::BadCertificateHostNameInvalid,
                                "\"" + o.expectedHostName + "\" is none of its DNS names and IP addresses"});
    }
    if (!o.expectedApplicationUri.empty() && leaf.applicationUri() != o.expectedApplicationUri)
        findings.push_back({Step::Uri, 0, s::BadCertificateUriInvalid,
                            "its URI " + leaf.applicationUri() + " is not " + o.expectedApplicationUri});
    if (o.checkKeyUsage && !leafUsageAllowed(leaf.x509()))
        findings.push_back({Step::Usage, 0, s::BadCertificateUseNotAllowed,
                            "its keyUsage lacks digitalSignature or key/data encipherment, or its extendedKeyUsage "
                            "serverAuth/clientAuth"});

    if (o.ignoreSuppressible)
        findings.erase(std::remove_if(findings.begin(), findings.end(), [](const Finding& f) { return suppressibleStep(f.step); }),
                       findings.end());
    if (findings.empty()) return s::Good;
    const Finding& first = *std::min_element(findings.begin(), findings.end());
    if (reason) {
        *reason = std::string(stepName(first.step)) + ": ";
        if (first.depth > 0) *reason += "the CA at depth " + std::to_string(first.depth) + ": ";
        *reason += first.why;
    }
    return first.status;
}

} // namespace pki_detail

StatusCode CertificateStore::validate(const std::string& chainDer, const ValidationOptions& options, std::string* reason) {
    const std::vector<Certificate> chain =
        Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(chainDer.data()), chainDer.size());
    if (chain.empty()) {
        if (reason) *reason = "Certificate Structure: not a DER certificate (chain)";
        return status::BadCertificateInvalid;
    }
    const StatusCode result = pki_detail::validateChain(*d->currentLists(), chain, options, reason);
    if (result == status::BadCertificateUntrusted && options.recordRejected) {
        d->saveRejected(chain.front());
        RejectedCallback callback;
        {
            std::lock_guard lock(d->callbackMutex);
            callback = d->rejectedCallback;
        }
        if (callback) callback(chain.front(), result);
    }
    return result;
}

} // namespace ua
