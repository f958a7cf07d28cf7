// PrivateKey: loading (PEM/DER, PKCS#8 or traditional), RSA generation and the owner-only PEM file.
#include "ua/pki/PrivateKey.h"

#include "ua/pki/Certificate.h"

#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <openssl/rsa.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace ua {

namespace {

constexpr long kMaxPkcs12Iterations = 1'000'000;

// Gives OpenSSL the password (never a terminal prompt); an empty password fails an encrypted key.
int passwordCallback(char* buf, int size, int /*rwflag*/, void* userdata) {
    const auto* password = static_cast<const std::string*>(userdata);
    if (!password || password->empty() || static_cast<int>(password->size()) > size) return 0;
    std::memcpy(buf, password->data(), password->size());
    return static_cast<int>(password->size());
}

PrivateKey wrap(EVP_PKEY* key) {
    if (!key) return {};
    PrivateKey k = PrivateKey::fromEvp(key);
    EVP_PKEY_free(key); // fromEvp took its own reference
    return k;
}

bool writeAll(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

PrivateKey PrivateKey::fromPem(const std::string& pem, const std::string& password) {
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    if (!bio) return {};
    EVP_PKEY* key =
        PEM_read_bio_PrivateKey(bio, nullptr, passwordCallback, const_cast<std::string*>(&password));
    BIO_free(bio);
    if (!key) ERR_clear_error();
    return wrap(key);
}

PrivateKey PrivateKey::fromDer(const std::string& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    EVP_PKEY* key = d2i_AutoPrivateKey(nullptr, &p, static_cast<long>(der.size()));
    if (!key) ERR_clear_error();
    return wrap(key);
}

PrivateKey PrivateKey::load(const std::string& path, const std::string& password) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.find("-----BEGIN") != std::string::npos) return fromPem(bytes, password);
    return fromDer(bytes);
}

PrivateKey PrivateKey::generateRsa(int bits) {
    if (bits < 512 || bits > 16384) return {};
    return wrap(EVP_RSA_gen(static_cast<unsigned int>(bits)));
}

PrivateKey PrivateKey::generateEc(KeyType type) {
    const char* curve = type == KeyType::EccNistP256 ? "P-256" : type == KeyType::EccNistP384 ? "P-384" : nullptr;
    if (!curve) return {};
    return wrap(EVP_EC_gen(curve));
}

PrivateKey PrivateKey::fromEvp(EVP_PKEY* key) {
    if (!key || EVP_PKEY_up_ref(key) != 1) return {};
    PrivateKey k;
    k.m_key.reset(key, EVP_PKEY_free);
    return k;
}

PrivateKey PrivateKey::fromPkcs12(const std::string& der, const std::string& password) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    PKCS12* p12 = d2i_PKCS12(nullptr, &p, static_cast<long>(der.size()));
    if (!p12) {
        ERR_clear_error();
        return {};
    }
    // A MAC iteration count far above what tools write (2048..600,000) would keep the parse busy for
    // minutes: refused.
    const ASN1_INTEGER* iterations = nullptr;
    PKCS12_get0_mac(nullptr, nullptr, nullptr, &iterations, p12);
    if (iterations && ASN1_INTEGER_get(iterations) > kMaxPkcs12Iterations) {
        PKCS12_free(p12);
        return {};
    }
    EVP_PKEY* key = nullptr;
    X509* cert = nullptr;
    const int ok = PKCS12_parse(p12, password.empty() ? nullptr : password.c_str(), &key, &cert, nullptr);
    PKCS12_free(p12);
    X509_free(cert);
    if (ok != 1) {
        EVP_PKEY_free(key);
        ERR_clear_error();
        return {};
    }
    return wrap(key);
}

bool PrivateKey::matches(const Certificate& certificate) const {
    if (!m_key || certificate.isNull()) return false;
    const bool ok = X509_check_private_key(certificate.x509(), m_key.get()) == 1;
    ERR_clear_error();  // a key that does not match leaves an error on the queue
    return ok;
}

int PrivateKey::bits() const { return m_key ? EVP_PKEY_get_bits(m_key.get()) : 0; }

bool PrivateKey::savePem(const std::string& path) const {
    if (!m_key) return false;
    BIO* bio = BIO_new(BIO_s_mem());
    if (!bio) return false;
    if (PEM_write_bio_PKCS8PrivateKey(bio, m_key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
        BIO_free(bio);
        return false;
    }
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    // A temporary file created 0600 (fchmod as well: umask or an older file never widen it), renamed
    // over the target so a reader never sees half a key.
    const std::string tmp = path + ".tmp";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, S_IRUSR | S_IWUSR);
    bool ok = fd >= 0 && ::fchmod(fd, S_IRUSR | S_IWUSR) == 0 && len > 0 &&
              writeAll(fd, data, static_cast<std::size_t>(len)) && ::fsync(fd) == 0;
    if (fd >= 0) ok = (::close(fd) == 0) && ok;
    OPENSSL_cleanse(data, static_cast<std::size_t>(len > 0 ? len : 0));
    BIO_free(bio);
    if (ok) ok = ::rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) ::unlink(tmp.c_str());
    return ok;
}

} // namespace ua
