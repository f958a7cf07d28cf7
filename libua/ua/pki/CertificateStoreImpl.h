// Internals of CertificateStore shared by its .cpp files (not part of the public API).
#pragma once

#include "ua/pki/CertificateStore.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <vector>

typedef struct x509_store_st X509_STORE;

namespace ua::pki_detail {

// The folders whose changes the trust lists follow, in the order of TrustLists::stamps.
inline constexpr std::array<const char*, 4> kTrustFolders = {"trusted/certs", "trusted/crl", "issuers/certs",
                                                             "issuers/crl"};
// Modification time of each trust folder in ns (-1 when it is missing).
using FolderStamps = std::array<int64_t, kTrustFolders.size()>;

// The trust lists as read from the folders at one moment. Immutable once built and shared by the
// validations running at that time (X509_STORE lookups lock internally); a change of the folders
// builds a new one.
struct TrustLists {
    FolderStamps stamps{};
    std::vector<Certificate> trusted;
    std::vector<Certificate> issuers;
    std::set<std::string> trustedThumbprints;
    // Every certificate of trusted/ and issuers/ and every CRL, for chain building and revocation;
    // whether a chain is trusted is decided from trustedThumbprints.
    std::shared_ptr<X509_STORE> store;
};

FolderStamps folderStamps(const std::string& root);
std::shared_ptr<const TrustLists> loadTrustLists(const std::string& root, const FolderStamps& stamps);

// The OPC UA status of chain (leaf first) against lists; see CertificateStore::validate.
StatusCode validateChain(const TrustLists& lists, const std::vector<Certificate>& chain,
                         const ValidationOptions& o, std::string* reason = nullptr);

// Files of a store folder.
std::vector<std::string> listFiles(const std::string& dir, std::initializer_list<const char*> suffixes);
std::vector<Certificate> loadCertificates(const std::string& dir);
std::vector<std::string> loadCrls(const std::string& dir); // DER of each CRL (DER or PEM files)
std::string readFile(const std::string& path);
bool writeFileAtomic(const std::string& path, const std::string& bytes);
// "<CommonName> [<thumbprint hex>]" with characters unsafe in file names replaced by '_'.
std::string fileBaseName(const Certificate& c);
std::string safeFileName(const std::string& name);

} // namespace ua::pki_detail

namespace ua {

struct CertificateStore::Impl {
    std::string root;

    mutable std::mutex ownMutex;
    // The own pairs by key type (KeyType's value): RSA, and ECC on P-256 and P-384 beside it.
    struct OwnPair {
        Certificate certificate;
        PrivateKey key;
    };
    OwnPair own[4];
    OwnPair& ownOf(KeyType type) { return own[std::size_t(type)]; }

    std::mutex callbackMutex;
    RejectedCallback rejectedCallback;

    std::mutex listsMutex;
    std::shared_ptr<const pki_detail::TrustLists> lists;
    bool listsDirty = true;

    std::mutex filesMutex; // serialises the writers of the folders (rejected/ excepted)
    // rejected/: saveRejected runs on the I/O threads while they validate, so it never waits behind
    // a long write of the trust folders (replaceTrustList). Taken after filesMutex, never before.
    std::mutex rejectedMutex;

    std::string path(const char* sub) const { return root + "/" + sub; }
    // The trust lists, re-read when a folder changed (one stat per folder) or the store wrote to it.
    std::shared_ptr<const pki_detail::TrustLists> currentLists();
    void invalidateLists();
    // Writes c into a folder as "<CN> [<thumbprint>].der" (no-op when it is there already).
    bool writeCertificate(const char* folder, const Certificate& c);
    // Deletes every file of the folder that holds c; false on an I/O failure.
    bool removeCertificate(const char* folder, const Certificate& c);
    bool writeCrl(const char* folder, const std::string& crlDer);
    // Copies an untrusted leaf to rejected/certs and keeps that folder at kMaxRejected files.
    bool saveRejected(const Certificate& c);
    static constexpr std::size_t kMaxRejected = 100;
};

} // namespace ua
