// The application instance certificate's side of CertificateStore that push management changes
// (OPC 10000-12 7.10.5 UpdateCertificate, 7.10.10 CreateSigningRequest): the chain sent to peers,
// a new certificate and key, the pending key of a signing request.
#include "ua/pki/CertificateStore.h"

#include "ua/pki/CertificateStoreImpl.h"
#include "ua/pki/TrustListChecks.h"

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace ua {

using namespace pki_detail;

namespace {

constexpr int kMaxChainDepth = 8;

// One pending key per key type; the RSA one keeps the name it always had.
std::string pendingKeyPath(const std::string& root, KeyType type) {
    switch (type) {
    case KeyType::EccNistP256:
        return root + "/own/pending/key-ecc-nistp256.pem";
    case KeyType::EccNistP384:
        return root + "/own/pending/key-ecc-nistp384.pem";
    case KeyType::Rsa:
    case KeyType::Other:
        break;
    }
    return root + "/own/pending/key.pem";
}

constexpr KeyType kPendingTypes[] = {KeyType::Rsa, KeyType::EccNistP256, KeyType::EccNistP384};

} // namespace

std::string CertificateStore::ownCertificateChain(KeyType type) const {
    const Certificate own = ownCertificate(type);
    if (own.isNull()) return {};
    std::string chain = own.der();
    std::vector<Certificate> cas = trusted();
    const std::vector<Certificate> more = issuers();
    cas.insert(cas.end(), more.begin(), more.end());
    Certificate at = own;
    for (int depth = 0; depth < kMaxChainDepth && !at.isSelfSigned(); ++depth) {
        const Certificate* next = nullptr;
        for (const Certificate& ca : cas)
            if (ca.isCA() && !(ca == at) && issuedBy(at, ca)) {
                next = &ca;
                break;
            }
        if (!next) break;
        chain += next->der();
        at = *next;
    }
    return chain;
}

bool CertificateStore::replaceOwnCertificate(const Certificate& certificate, const PrivateKey& key, std::string* error) {
    if (certificate.isNull() || !key.matches(certificate)) {
        if (error) *error = "the private key is not the certificate's";
        return false;
    }
    const KeyType type = certificate.keyType();
    if (type == KeyType::Other) {
        if (error) *error = "the key is neither RSA nor ECC on P-256 or P-384";
        return false;
    }
    std::lock_guard lock(d->ownMutex);
    const std::string certDir = d->path("own/certs");
    const std::string keyDir = d->path("own/private");
    const std::string base = fileBaseName(certificate);
    const std::string certFile = certDir + "/" + base + ".der";
    const std::string keyFile = keyDir + "/" + base + ".pem";
    if (!key.savePem(keyFile) || !writeFileAtomic(certFile, certificate.der())) {
        ::unlink(keyFile.c_str());
        if (error) *error = "cannot write the certificate or its key under " + d->path("own");
        return false;
    }
    // The superseded pairs of this key type go; the pairs of the other types stay.
    for (const std::string& f : listFiles(certDir, {".der", ".pem", ".crt", ".cer"}))
        if (f != certFile && Certificate::load(f).keyType() == type) ::unlink(f.c_str());
    for (const std::string& f : listFiles(keyDir, {".pem", ".der", ".key"}))
        if (f != keyFile && PrivateKey::load(f).type() == type) ::unlink(f.c_str());
    d->ownOf(type) = {certificate, key};
    const PrivateKey pending = PrivateKey::load(pendingKeyPath(d->root, type));
    if (!pending.isNull() && pending.matches(certificate)) ::unlink(pendingKeyPath(d->root, type).c_str());
    return true;
}

bool CertificateStore::savePendingKey(const PrivateKey& key) {
    std::lock_guard lock(d->ownMutex);
    const std::string dir = d->path("own/pending");
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return false;
    return key.type() != KeyType::Other && key.savePem(pendingKeyPath(d->root, key.type()));
}

PrivateKey CertificateStore::pendingKey(KeyType type) const {
    std::lock_guard lock(d->ownMutex);
    return PrivateKey::load(pendingKeyPath(d->root, type));
}

void CertificateStore::clearPendingKey() {
    std::lock_guard lock(d->ownMutex);
    for (const KeyType type : kPendingTypes) ::unlink(pendingKeyPath(d->root, type).c_str());
}

bool CertificateStore::resetTo(const std::string& defaultsDir, std::string* error) {
    struct stat st {};
    if (::stat(defaultsDir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (error) *error = defaultsDir + " is not a folder";
        return false;
    }
    CertificateStore defaults(defaultsDir);
    {
        // rejected/ emptied first and on its own: remove() would take a default certificate that is
        // also there out of trusted/ again.
        std::lock_guard lock(d->filesMutex);
        std::lock_guard rejectedLock(d->rejectedMutex);
        for (const std::string& f : listFiles(d->path("rejected/certs"), {".der", ".pem", ".crt", ".cer"}))
            ::unlink(f.c_str());
        d->invalidateLists();
    }
    if (!replaceTrustList(defaults.trustList(), kTrustListAll, error)) return false;
    // Our own/ goes; the defaults' own pairs (a certificate with the key that matches it, at most one
    // per key type) become ours.
    clearPendingKey();
    {
        std::lock_guard lock(d->ownMutex);
        for (const char* sub : {"own/certs", "own/private"})
            for (const std::string& f : listFiles(d->path(sub), {".der", ".pem", ".crt", ".cer", ".key"}))
                ::unlink(f.c_str());
        for (auto& pair : d->own)
            pair = {};  // none until replaced below or made by the next ensureOwnCertificate
    }
    bool installed[4] = {};
    for (const std::string& f : listFiles(defaultsDir + "/own/certs", {".der", ".pem", ".crt", ".cer"})) {
        const Certificate c = Certificate::load(f);
        if (c.isNull() || c.keyType() == KeyType::Other || installed[std::size_t(c.keyType())]) continue;
        for (const std::string& k : listFiles(defaultsDir + "/own/private", {".pem", ".der", ".key"})) {
            const PrivateKey key = PrivateKey::load(k);
            if (key.isNull() || !key.matches(c)) continue;
            if (!replaceOwnCertificate(c, key, error)) return false;
            installed[std::size_t(c.keyType())] = true;
            break;
        }
    }
    return true;
}

} // namespace ua
