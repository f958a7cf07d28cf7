// The certificate store of an application (OPC 10000-12 7.3 layout, as other stacks use it):
//   <root>/own/certs      the application instance certificate (DER)
//   <root>/own/private    its private key (PEM, mode 0600)
//   <root>/trusted/certs  trusted application and CA certificates;  <root>/trusted/crl  their CRLs
//   <root>/issuers/certs  CA certificates used to build chains only; <root>/issuers/crl  their CRLs
//   <root>/rejected/certs certificates that failed validation as untrusted (copied there for review)
// Files are named "<CommonName> [<thumbprint hex>].der"; any .der/.pem/.crt file placed there by hand
// is read as well. The store re-reads the folders when their contents change (a user copying a file in
// is seen at the next validation). Thread-safe: validation may run on any I/O thread.
#pragma once

#include "ua/pki/Certificate.h"
#include "ua/pki/CertificateCreator.h"
#include "ua/pki/PrivateKey.h"
#include "ua/pki/TrustListContents.h"
#include "ua/types/StatusCode.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ua {

// What validation checks besides the chain (OPC 10000-4 6.1.3).
struct ValidationOptions {
    std::string expectedApplicationUri;  // non-empty: must equal the certificate's URI (Bad_CertificateUriInvalid)
    std::string expectedHostName;        // non-empty: must be one of its DNS/IP names (Bad_CertificateHostNameInvalid)
    int minKeyBits = 2048;               // smaller: Bad_CertificatePolicyCheckFailed
    int maxKeyBits = 4096;               // larger: Bad_CertificatePolicyCheckFailed
    bool allowSha1Signature = false;     // a SHA-1 signed certificate: Bad_CertificatePolicyCheckFailed
    // Whether the leaf is an application instance certificate that must allow signatures and key
    // encipherment (keyUsage digitalSignature + keyEncipherment/dataEncipherment, or
    // Bad_CertificateUseNotAllowed).
    bool checkKeyUsage = true;
    // Skip the trust list step (Bad_CertificateUntrusted) and nothing else: a server that trusts
    // all clients still refuses an expired, revoked or otherwise invalid certificate (6.1.3).
    bool waiveTrustList = false;
    // Drop what the steps Table 106 marks suppressible find (security policy, validity periods, host
    // name, URI, certificate usage, a missing CRL): a certificate passes when its structure, chain,
    // signatures, trust and revocation do (OPC 10000-12 7.10.5 asks this of UpdateCertificate).
    bool ignoreSuppressible = false;
    // Copy an untrusted leaf to rejected/ and tell the rejected callback (a peer's certificate); off
    // for a check of a certificate that is not a peer's.
    bool recordRejected = true;
};

class CertificateStore {
public:
    // Opens (and creates, with mode 0700 for own/private) the folders under rootDir.
    explicit CertificateStore(std::string rootDir);
    ~CertificateStore();

    const std::string& rootDir() const;

    // Loads the application instance certificate and key of request.keyType from own/; creates and
    // saves them when there are none (or when the certificate's ApplicationUri differs from
    // request.applicationUri, it has expired, or no key in own/private matches it). A new pair
    // replaces (deletes) the superseded certificate files of its key type and their keys of the same
    // base name. Pairs of the other key types are left alone: an application holds an RSA pair and
    // ECC pairs side by side (OPC 10000-12 7.8.4 certificate types), each loaded by its own call.
    // Returns false and sets *error when neither works.
    bool ensureOwnCertificate(const CertificateRequest& request, std::string* error = nullptr);
    // The pair of a key type (RSA unless said): null until ensureOwnCertificate loaded or made it.
    Certificate ownCertificate(KeyType type = KeyType::Rsa) const;
    PrivateKey ownPrivateKey(KeyType type = KeyType::Rsa) const;
    // The application instance certificate followed by its issuers as trusted/ and issuers/ hold
    // them (nearest first, up to a self-signed CA or one the folders lack; at most 8): the DER of a
    // SenderCertificate or ServerCertificate chain (OPC 10000-6 6.7.2.3).
    std::string ownCertificateChain(KeyType type = KeyType::Rsa) const;
    // Replaces the application instance certificate and key of the certificate's key type (OPC
    // 10000-12 7.10.5 UpdateCertificate, applied): writes the new pair into own/ (named as
    // fileBaseName), then deletes the other certificates of own/certs and keys of own/private of that
    // key type. False with *error when key is not certificate's key, it is of no key type OPC UA
    // uses, or a file cannot be written; the old pair stays then. A pending key (below) that is this
    // key is dropped.
    bool replaceOwnCertificate(const Certificate& certificate, const PrivateKey& key, std::string* error = nullptr);
    // The key of the last CreateSigningRequest that asked for a new key, one per key type (OPC
    // 10000-12 7.10.10: kept until a certificate for it is installed, across restarts):
    // own/pending/key.pem (RSA), key-ecc-nistp256.pem, key-ecc-nistp384.pem, mode 0600. False for a
    // key of no type OPC UA uses or a write failure.
    bool savePendingKey(const PrivateKey& key);
    PrivateKey pendingKey(KeyType type = KeyType::Rsa) const;  // null when there is none
    void clearPendingKey();  // of every type
    // OPC 10000-12 7.10.13 ResetToServerDefaults: the store as the folder defaultsDir (the same
    // layout) configures it. Its trusted/ and issuers/ (with their CRLs) replace ours; rejected/ is
    // emptied; our own/ is emptied and its own/ pairs (each certificate with the key that matches
    // it, one per key type) become ours; a key type it has no pair of gets a new self-signed pair at
    // the next ensureOwnCertificate;
    // the pending key goes. False with *error when defaultsDir is not a folder or a file cannot be
    // written.
    bool resetTo(const std::string& defaultsDir, std::string* error = nullptr);

    // Validates a certificate chain as received (concatenated DER, leaf first) by
    // OPC 10000-4 6.1.3 / Table 106. When several problems apply, the earliest step of the table wins
    // (within a step, the certificate nearest the leaf): structure (Bad_CertificateInvalid), chain
    // building from the chain itself, issuers/ and trusted/ (Bad_CertificateChainIncomplete),
    // signatures (Bad_CertificateInvalid), security policy: key length (minKeyBits for each, maxKeyBits
    // for the leaf) and signature hash (Bad_CertificatePolicyCheckFailed), trust list
    // (Bad_CertificateUntrusted: neither the leaf nor a CA of its chain is in trusted/), validity period
    // of each (Bad_CertificateTimeInvalid for the leaf, Bad_CertificateIssuerTimeInvalid for a CA), host
    // name (Bad_CertificateHostNameInvalid), URI (Bad_CertificateUriInvalid), key usage
    // (Bad_CertificateUseNotAllowed for the leaf, Bad_CertificateIssuerUseNotAllowed for a CA),
    // revocation: each CA of the chain must have a CRL in trusted/crl or issuers/crl; a missing (or
    // expired) one gives Bad_CertificateRevocationUnknown when it is the leaf's issuer's (the leaf's
    // status is unknown) and Bad_CertificateIssuerRevocationUnknown when it is a CA's issuer's; a
    // listed certificate gives Bad_CertificateRevoked (the leaf) / Bad_CertificateIssuerRevoked (a CA).
    // A self-signed certificate (a self-signed leaf, the root CA) needs no CRL of its own; with
    // checkKeyUsage, a self-signed leaf must include keyCertSign (OPC 10000-6 6.2.2;
    // Bad_CertificateUseNotAllowed).
    // Returns Good when the certificate is trusted. An untrusted leaf (Bad_CertificateUntrusted) is
    // copied to rejected/certs (at most 100 files, the oldest go) and reported to the rejected callback.
    // reason (when given) is set to the failed step's name and what is wrong, for a log line
    // ("Certificate Usage: ..."); empty on Good.
    StatusCode validate(const std::string& chainDer, const ValidationOptions& options = {},
                        std::string* reason = nullptr);

    // Called (on the validating thread) with a leaf that validation rejected as untrusted.
    using RejectedCallback = std::function<void(const Certificate& certificate, StatusCode reason)>;
    void setRejectedCallback(RejectedCallback callback);

    // Store management (for the windows and tests). Each returns false on an I/O failure.
    bool addTrusted(const Certificate& c);     // writes trusted/certs, removes it from rejected/
    bool addIssuer(const Certificate& c);      // writes issuers/certs
    bool addTrustedCrl(const std::string& crlDer);  // trusted/crl
    bool addIssuerCrl(const std::string& crlDer);   // issuers/crl
    bool reject(const Certificate& c);         // writes rejected/certs, removes it from trusted/
    bool remove(const Certificate& c);         // from trusted/, issuers/ and rejected/
    std::vector<Certificate> trusted() const;
    std::vector<Certificate> issuers() const;
    std::vector<Certificate> rejected() const;

    // The whole trust list as it is in the folders now (OPC 10000-12 7.8.2.8; each list in file
    // name order, a file that does not parse left out).
    TrustListContents trustList() const;
    // Replaces the lists that masks (TrustListMask bits) names with those of contents and keeps the
    // others: files of such a folder that contents does not hold are deleted, the new ones written
    // ("<CN> [<thumbprint>].der" / ".crl"), certificates of trusted/certs also leave rejected/.
    // Each entry must parse (a certificate, a CRL): nothing is changed and false returned otherwise,
    // as on an I/O failure (*error says which entry or file).
    bool replaceTrustList(const TrustListContents& contents, uint32_t masks, std::string* error = nullptr);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace ua
