// The files of the certificate store: listing, reading and writing the folders, and the trust lists
// built from them.
#include "ua/pki/CertificateStoreImpl.h"

#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace ua::pki_detail {

namespace {

bool endsWith(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    if (s.size() < n) return false;
    return std::equal(s.end() - static_cast<std::ptrdiff_t>(n), s.end(), suffix,
                      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

std::string crlToDer(X509_CRL* crl) {
    const int len = i2d_X509_CRL(crl, nullptr);
    if (len <= 0) return {};
    std::string der(static_cast<std::size_t>(len), '\0');
    auto* p = reinterpret_cast<unsigned char*>(der.data());
    i2d_X509_CRL(crl, &p);
    return der;
}

} // namespace

FolderStamps folderStamps(const std::string& root) {
    FolderStamps stamps{};
    for (std::size_t i = 0; i < kTrustFolders.size(); ++i) {
        struct stat st {};
        const std::string dir = root + "/" + kTrustFolders[i];
        stamps[i] = ::stat(dir.c_str(), &st) == 0
                        ? static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec
                        : -1;
    }
    return stamps;
}

std::vector<std::string> listFiles(const std::string& dir, std::initializer_list<const char*> suffixes) {
    std::vector<std::string> files;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return files;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name.empty() || name[0] == '.') continue;
        if (std::any_of(suffixes.begin(), suffixes.end(), [&](const char* s) { return endsWith(name, s); }))
            files.push_back(dir + "/" + name);
    }
    ::closedir(d);
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<Certificate> loadCertificates(const std::string& dir) {
    std::vector<Certificate> certs;
    for (const std::string& f : listFiles(dir, {".der", ".pem", ".crt", ".cer"})) {
        Certificate c = Certificate::load(f);
        if (!c.isNull() && std::find(certs.begin(), certs.end(), c) == certs.end())
            certs.push_back(std::move(c));
    }
    return certs;
}

std::vector<std::string> loadCrls(const std::string& dir) {
    std::vector<std::string> crls;
    for (const std::string& f : listFiles(dir, {".crl", ".der", ".pem"})) {
        const std::string bytes = readFile(f);
        X509_CRL* crl = nullptr;
        if (bytes.find("-----BEGIN") != std::string::npos) {
            BIO* bio = BIO_new_mem_buf(bytes.data(), static_cast<int>(bytes.size()));
            crl = bio ? PEM_read_bio_X509_CRL(bio, nullptr, nullptr, nullptr) : nullptr;
            BIO_free(bio);
        } else {
            const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
            crl = d2i_X509_CRL(nullptr, &p, static_cast<long>(bytes.size()));
        }
        if (!crl) continue;
        crls.push_back(crlToDer(crl));
        X509_CRL_free(crl);
    }
    return crls;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool writeFileAtomic(const std::string& path, const std::string& bytes) {
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    bool ok = true;
    while (ok && left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) {
            p += n;
            left -= static_cast<std::size_t>(n);
        }
    }
    ok = (::close(fd) == 0) && ok;
    if (ok) ok = ::rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) ::unlink(tmp.c_str());
    return ok;
}

std::string safeFileName(const std::string& name) {
    std::string r;
    for (unsigned char ch : name) {
        const bool bad = ch < 0x20 || ch == 0x7F || std::strchr("/\\:*?\"<>|", ch) != nullptr;
        r += bad ? '_' : static_cast<char>(ch);
    }
    if (r.size() > 64) r.resize(64); // keeps the whole name well below NAME_MAX
    while (!r.empty() && (r.front() == '.' || r.front() == ' '))
        r.erase(r.begin());
    return r.empty() ? std::string("certificate") : r;
}

std::string fileBaseName(const Certificate& c) {
    return safeFileName(c.commonName()) + " [" + c.thumbprintHex() + "]";
}

std::shared_ptr<const TrustLists> loadTrustLists(const std::string& root, const FolderStamps& stamps) {
    auto lists = std::make_shared<TrustLists>();
    lists->stamps = stamps;
    lists->trusted = loadCertificates(root + "/trusted/certs");
    lists->issuers = loadCertificates(root + "/issuers/certs");
    lists->store.reset(X509_STORE_new(), X509_STORE_free);
    X509_STORE* store = lists->store.get();
    for (const Certificate& c : lists->trusted) {
        lists->trustedThumbprints.insert(c.thumbprint());
        X509_STORE_add_cert(store, c.x509());
    }
    for (const Certificate& c : lists->issuers)
        X509_STORE_add_cert(store, c.x509());
    for (const char* dir : {"/trusted/crl", "/issuers/crl"}) {
        for (const std::string& der : loadCrls(root + dir)) {
            const auto* p = reinterpret_cast<const unsigned char*>(der.data());
            if (X509_CRL* crl = d2i_X509_CRL(nullptr, &p, static_cast<long>(der.size()))) {
                X509_STORE_add_crl(store, crl); // takes its own reference
                X509_CRL_free(crl);
            }
        }
    }
    return lists;
}

} // namespace ua::pki_detail
