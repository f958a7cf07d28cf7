// CertificateStore: the folders, the application instance certificate and the management of the
// trust lists. Validation is in CertificateValidator.cpp.
#include "ua/pki/CertificateStore.h"

#include "ua/pki/CertificateCreator.h"
#include "ua/pki/CertificateStoreImpl.h"

#include <QHostInfo>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ua {

using namespace pki_detail;

namespace {

bool makeDirs(const std::string& dir, mode_t mode) {
    std::size_t pos = 0;
    do {
        pos = dir.find('/', pos + 1);
        const std::string part = dir.substr(0, pos);
        if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
    } while (pos != std::string::npos);
    return ::chmod(dir.c_str(), mode) == 0;
}

int64_t mtimeNs(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return 0;
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

std::string withoutSuffix(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    const std::size_t dot = path.rfind('.');
    return dot != std::string::npos && (slash == std::string::npos || dot > slash) ? path.substr(0, dot)
                                                                                   : path;
}

std::string baseName(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

// ---- Impl ----

std::shared_ptr<const TrustLists> CertificateStore::Impl::currentLists() {
    // Stamped before reading: a file added while the lists load changes the folder again afterwards.
    const FolderStamps stamps = folderStamps(root);
    std::lock_guard lock(listsMutex);
    if (!lists || listsDirty || lists->stamps != stamps) {
        lists = loadTrustLists(root, stamps);
        listsDirty = false;
    }
    return lists;
}

void CertificateStore::Impl::invalidateLists() {
    std::lock_guard lock(listsMutex);
    listsDirty = true;
}

bool CertificateStore::Impl::writeCertificate(const char* folder, const Certificate& c) {
    if (c.isNull()) return false;
    const std::string dir = path(folder);
    for (const std::string& f : listFiles(dir, {".der", ".pem", ".crt", ".cer"}))
        if (Certificate::load(f) == c) return true;
    return writeFileAtomic(dir + "/" + fileBaseName(c) + ".der", c.der());
}

bool CertificateStore::Impl::removeCertificate(const char* folder, const Certificate& c) {
    bool ok = true;
    for (const std::string& f : listFiles(path(folder), {".der", ".pem", ".crt", ".cer"}))
        if (Certificate::load(f) == c && ::unlink(f.c_str()) != 0) ok = false;
    return ok;
}

bool CertificateStore::Impl::writeCrl(const char* folder, const std::string& crlDer) {
    const auto* p = reinterpret_cast<const unsigned char*>(crlDer.data());
    X509_CRL* crl = d2i_X509_CRL(nullptr, &p, static_cast<long>(crlDer.size()));
    if (!crl) return false;
    const std::string dir = path(folder);
    // A newer CRL of the same issuer replaces the older ones (OpenSSL would pick either).
    for (const std::string& f : listFiles(dir, {".crl", ".der", ".pem"})) {
        const std::string bytes = readFile(f);
        const auto* q = reinterpret_cast<const unsigned char*>(bytes.data());
        X509_CRL* old = d2i_X509_CRL(nullptr, &q, static_cast<long>(bytes.size()));
        if (!old) continue;
        const bool sameIssuer = X509_NAME_cmp(X509_CRL_get_issuer(old), X509_CRL_get_issuer(crl)) == 0;
        const bool older =
            ASN1_TIME_compare(X509_CRL_get0_lastUpdate(old), X509_CRL_get0_lastUpdate(crl)) <= 0;
        if (sameIssuer && older) ::unlink(f.c_str());
        X509_CRL_free(old);
    }
    char cn[256] = {};
    X509_NAME_get_text_by_NID(X509_CRL_get_issuer(crl), NID_commonName, cn, sizeof cn);
    X509_CRL_free(crl);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(crlDer.data(), crlDer.size(), md, &len, EVP_sha1(), nullptr);
    static const char digits[] = "0123456789ABCDEF";
    std::string hex;
    for (unsigned int i = 0; i < len; ++i)
        (hex += digits[md[i] >> 4]) += digits[md[i] & 0xF];
    return writeFileAtomic(dir + "/" + safeFileName(cn) + " [" + hex + "].crl", crlDer);
}

bool CertificateStore::Impl::saveRejected(const Certificate& c) {
    std::lock_guard lock(rejectedMutex);
    const std::string dir = path("rejected/certs");
    // Written anew so that it counts as the newest when the folder is trimmed.
    removeCertificate("rejected/certs", c);
    const std::string file = dir + "/" + fileBaseName(c) + ".der";
    if (!writeFileAtomic(file, c.der())) return false;
    // The file system stamps files with a coarse clock (a tick of several ms): set a precise time so
    // that files rejected within one tick still trim oldest first.
    struct timespec now[2];
    ::clock_gettime(CLOCK_REALTIME, &now[0]);
    now[1] = now[0];
    ::utimensat(AT_FDCWD, file.c_str(), now, 0);
    std::vector<std::string> files = listFiles(dir, {".der", ".pem", ".crt", ".cer"});
    if (files.size() <= kMaxRejected) return true;
    std::vector<std::pair<int64_t, std::string>> byAge;
    for (std::string& f : files)
        byAge.emplace_back(mtimeNs(f), std::move(f));
    std::sort(byAge.begin(), byAge.end());
    for (std::size_t i = 0; i + kMaxRejected < byAge.size(); ++i)
        ::unlink(byAge[i].second.c_str());
    return true;
}

// ---- CertificateStore ----

CertificateStore::CertificateStore(std::string rootDir) : d(std::make_unique<Impl>()) {
    while (rootDir.size() > 1 && rootDir.back() == '/')
        rootDir.pop_back();
    d->root = std::move(rootDir);
    for (const char* sub :
         {"own/certs", "trusted/certs", "trusted/crl", "issuers/certs", "issuers/crl", "rejected/certs"})
        makeDirs(d->path(sub), 0755);
    makeDirs(d->path("own/private"), 0700);
}

CertificateStore::~CertificateStore() = default;

const std::string& CertificateStore::rootDir() const { return d->root; }

bool CertificateStore::ensureOwnCertificate(const CertificateRequest& request, std::string* error) {
    std::lock_guard lock(d->ownMutex);
    const std::string certDir = d->path("own/certs");
    const std::string keyDir = d->path("own/private");
    std::vector<std::string> keyFiles = listFiles(keyDir, {".pem", ".der", ".key"});
    std::vector<std::string> stale; // own certificates (and their keys) a new one supersedes
    const DateTime now = DateTime::now();
    for (const std::string& f : listFiles(certDir, {".der", ".pem", ".crt", ".cer"})) {
        Certificate c = Certificate::load(f);
        // Another key type's pair is neither ours here nor superseded by this one.
        if (!c.isNull() && c.keyType() != request.keyType) continue;
        if (c.isNull() || c.applicationUri() != request.applicationUri || c.notAfter() < now) {
            stale.push_back(f);
            continue;
        }
        // The key of the same base name first, then any key that matches.
        std::stable_partition(keyFiles.begin(), keyFiles.end(), [&](const std::string& k) {
            return baseName(withoutSuffix(k)) == baseName(withoutSuffix(f));
        });
        for (const std::string& k : keyFiles) {
            PrivateKey key = PrivateKey::load(k);
            const bool matches = !key.isNull() && X509_check_private_key(c.x509(), key.get()) == 1;
            ERR_clear_error(); // a key that does not match leaves an error on the queue
            if (matches) {
                d->ownOf(request.keyType) = {c, key};
                return true;
            }
        }
        stale.push_back(f);
    }

    CertificateRequest r = request;
    if (r.hostNames.empty()) r.hostNames.push_back(QHostInfo::localHostName().toStdString());
    if (r.applicationName.empty()) r.applicationName = r.applicationUri;
    PrivateKey key = r.keyType == KeyType::Rsa ? PrivateKey::generateRsa(r.keyBits) : PrivateKey::generateEc(r.keyType);
    if (key.isNull()) {
        if (error)
            *error = r.keyType == KeyType::Rsa ? "cannot generate an RSA key of " + std::to_string(r.keyBits) + " bits"
                                               : std::string("cannot generate an ECC key");
        return false;
    }
    Certificate cert = createSelfSignedCertificate(r, key, error);
    if (cert.isNull()) return false;
    const std::string base = fileBaseName(cert);
    if (!key.savePem(keyDir + "/" + base + ".pem") ||
        !writeFileAtomic(certDir + "/" + base + ".der", cert.der())) {
        if (error) *error = "cannot write the certificate or its key under " + d->path("own");
        return false;
    }
    // The superseded pairs go (their key file has the certificate's base name).
    for (const std::string& f : stale) {
        ::unlink(f.c_str());
        for (const std::string& k : keyFiles)
            if (baseName(withoutSuffix(k)) == baseName(withoutSuffix(f))) ::unlink(k.c_str());
    }
    d->ownOf(request.keyType) = {cert, key};
    return true;
}

Certificate CertificateStore::ownCertificate(KeyType type) const {
    std::lock_guard lock(d->ownMutex);
    return d->ownOf(type).certificate;
}

PrivateKey CertificateStore::ownPrivateKey(KeyType type) const {
    std::lock_guard lock(d->ownMutex);
    return d->ownOf(type).key;
}

void CertificateStore::setRejectedCallback(RejectedCallback callback) {
    std::lock_guard lock(d->callbackMutex);
    d->rejectedCallback = std::move(callback);
}

bool CertificateStore::addTrusted(const Certificate& c) {
    std::lock_guard lock(d->filesMutex);
    std::lock_guard rejectedLock(d->rejectedMutex);
    const bool ok = d->writeCertificate("trusted/certs", c) && d->removeCertificate("rejected/certs", c);
    d->invalidateLists();
    return ok;
}

bool CertificateStore::addIssuer(const Certificate& c) {
    std::lock_guard lock(d->filesMutex);
    const bool ok = d->writeCertificate("issuers/certs", c);
    d->invalidateLists();
    return ok;
}

bool CertificateStore::addTrustedCrl(const std::string& crlDer) {
    std::lock_guard lock(d->filesMutex);
    const bool ok = d->writeCrl("trusted/crl", crlDer);
    d->invalidateLists();
    return ok;
}

bool CertificateStore::addIssuerCrl(const std::string& crlDer) {
    std::lock_guard lock(d->filesMutex);
    const bool ok = d->writeCrl("issuers/crl", crlDer);
    d->invalidateLists();
    return ok;
}

bool CertificateStore::reject(const Certificate& c) {
    if (c.isNull()) return false;
    bool ok;
    {
        std::lock_guard lock(d->filesMutex);
        ok = d->removeCertificate("trusted/certs", c);
        d->invalidateLists();
    }
    return d->saveRejected(c) && ok;
}

bool CertificateStore::remove(const Certificate& c) {
    std::lock_guard lock(d->filesMutex);
    std::lock_guard rejectedLock(d->rejectedMutex);
    bool ok = true;
    for (const char* folder : {"trusted/certs", "issuers/certs", "rejected/certs"})
        ok = d->removeCertificate(folder, c) && ok;
    d->invalidateLists();
    return ok;
}

std::vector<Certificate> CertificateStore::trusted() const {
    return loadCertificates(d->path("trusted/certs"));
}
std::vector<Certificate> CertificateStore::issuers() const {
    return loadCertificates(d->path("issuers/certs"));
}
std::vector<Certificate> CertificateStore::rejected() const {
    return loadCertificates(d->path("rejected/certs"));
}

} // namespace ua
