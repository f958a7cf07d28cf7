// Certificate: parsing (DER, PEM, chains of concatenated DER) and the fields OPC UA reads from an
// application instance certificate (OPC 10000-6 6.2.2).
#include "ua/pki/Certificate.h"

#include "ua/pki/X509Build.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

#include <ctime>
#include <fstream>
#include <iterator>

namespace ua {

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string derOf(X509* x) {
    int len = i2d_X509(x, nullptr);
    if (len <= 0) return {};
    std::string der(static_cast<std::size_t>(len), '\0');
    auto* p = reinterpret_cast<unsigned char*>(der.data());
    i2d_X509(x, &p);
    return der;
}

std::string asn1ToUtf8(const ASN1_STRING* s) {
    unsigned char* utf8 = nullptr;
    int len = ASN1_STRING_to_UTF8(&utf8, s);
    if (len < 0) return {};
    std::string r(reinterpret_cast<char*>(utf8), static_cast<std::size_t>(len));
    OPENSSL_free(utf8);
    return r;
}

// Calls f(GENERAL_NAME*) for each subjectAltName entry.
template <typename F> void forEachAltName(X509* x, F f) {
    if (!x) return;
    auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(x, NID_subject_alt_name, nullptr, nullptr));
    if (!names) return;
    for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i)
        f(sk_GENERAL_NAME_value(names, i));
    GENERAL_NAMES_free(names);
}

DateTime toDateTime(const ASN1_TIME* t) {
    struct tm tm {};
    if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return DateTime::minValue();
    const int64_t secs = static_cast<int64_t>(timegm(&tm));
    if (secs <= (DateTime{0}.ticks - DateTime::kUnixEpochTicks) / 10000000) return DateTime::minValue();
    return DateTime::fromUnixMs(secs * 1000);
}

} // namespace

Certificate Certificate::fromDer(const uint8_t* data, std::size_t size) {
    if (!data || size == 0 || size > static_cast<std::size_t>(INT32_MAX)) return {};
    const unsigned char* p = data;
    X509* x = d2i_X509(nullptr, &p, static_cast<long>(size));
    if (!x) return {};
    if (static_cast<std::size_t>(p - data) != size) { // trailing bytes: not exactly one certificate
        X509_free(x);
        return {};
    }
    Certificate c;
    c.m_x509.reset(x, X509_free);
    c.m_der.assign(reinterpret_cast<const char*>(data), size);
    return c;
}

std::vector<Certificate> Certificate::chainFromDer(const uint8_t* data, std::size_t size) {
    std::vector<Certificate> chain;
    if (!data || size == 0 || size > static_cast<std::size_t>(INT32_MAX)) return {};
    const unsigned char* p = data;
    const unsigned char* end = data + size;
    while (p < end) {
        const unsigned char* start = p;
        X509* x = d2i_X509(nullptr, &p, static_cast<long>(end - p));
        if (!x || p <= start) {
            X509_free(x);
            return {};
        }
        Certificate c;
        c.m_x509.reset(x, X509_free);
        c.m_der.assign(reinterpret_cast<const char*>(start), static_cast<std::size_t>(p - start));
        chain.push_back(std::move(c));
    }
    return chain;
}

Certificate Certificate::fromPem(const std::string& pem) {
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    if (!bio) return {};
    X509* x = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!x) return {};
    Certificate c;
    c.m_x509.reset(x, X509_free);
    c.m_der = derOf(x);
    if (c.m_der.empty()) return {};
    return c;
}

Certificate Certificate::load(const std::string& path) {
    const std::string bytes = readFile(path);
    if (bytes.empty()) return {};
    if (bytes.find("-----BEGIN") != std::string::npos) return fromPem(bytes);
    return fromDer(bytes);
}

Certificate Certificate::fromX509(X509* x) {
    if (!x || X509_up_ref(x) != 1) return {};
    Certificate c;
    c.m_x509.reset(x, X509_free);
    c.m_der = derOf(x);
    if (c.m_der.empty()) return {};
    return c;
}

EVP_PKEY* Certificate::publicKey() const { return m_x509 ? X509_get0_pubkey(m_x509.get()) : nullptr; }

std::string Certificate::thumbprint() const {
    if (!m_x509) return {};
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(m_der.data(), m_der.size(), md, &len, EVP_sha1(), nullptr) != 1) return {};
    return std::string(reinterpret_cast<char*>(md), len);
}

std::string Certificate::thumbprintHex() const {
    static const char digits[] = "0123456789ABCDEF";
    std::string r;
    for (unsigned char b : thumbprint()) {
        r += digits[b >> 4];
        r += digits[b & 0xF];
    }
    return r;
}

int Certificate::keyBits() const {
    EVP_PKEY* k = publicKey();
    return k ? EVP_PKEY_get_bits(k) : 0;
}

std::string Certificate::applicationUri() const {
    std::string uri;
    forEachAltName(m_x509.get(), [&](GENERAL_NAME* g) {
        if (g->type == GEN_URI && uri.empty()) uri = asn1ToUtf8(g->d.uniformResourceIdentifier);
    });
    return uri;
}

std::vector<std::string> Certificate::dnsNames() const {
    std::vector<std::string> names;
    forEachAltName(m_x509.get(), [&](GENERAL_NAME* g) {
        if (g->type == GEN_DNS) names.push_back(asn1ToUtf8(g->d.dNSName));
    });
    return names;
}

std::vector<std::string> Certificate::ipAddresses() const {
    std::vector<std::string> ips;
    forEachAltName(m_x509.get(), [&](GENERAL_NAME* g) {
        if (g->type != GEN_IPADD) return;
        const ASN1_OCTET_STRING* s = g->d.iPAddress;
        char text[INET6_ADDRSTRLEN] = {};
        const int len = ASN1_STRING_length(s);
        const int family = len == 4 ? AF_INET : len == 16 ? AF_INET6 : 0;
        if (family && inet_ntop(family, ASN1_STRING_get0_data(s), text, sizeof text)) ips.emplace_back(text);
    });
    return ips;
}

std::string Certificate::subjectName() const {
    return m_x509 ? x509build::nameText(X509_get_subject_name(m_x509.get())) : std::string();
}

std::string Certificate::issuerName() const {
    return m_x509 ? x509build::nameText(X509_get_issuer_name(m_x509.get())) : std::string();
}

std::string Certificate::commonName() const {
    if (!m_x509) return {};
    const X509_NAME* name = X509_get_subject_name(m_x509.get());
    const int i = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
    if (i < 0) return {};
    return asn1ToUtf8(X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i)));
}

DateTime Certificate::notBefore() const {
    return m_x509 ? toDateTime(X509_get0_notBefore(m_x509.get())) : DateTime::minValue();
}

DateTime Certificate::notAfter() const {
    return m_x509 ? toDateTime(X509_get0_notAfter(m_x509.get())) : DateTime::minValue();
}

bool Certificate::isSelfSigned() const {
    if (!m_x509) return false;
    X509* x = m_x509.get();
    if (X509_NAME_cmp(X509_get_subject_name(x), X509_get_issuer_name(x)) != 0) return false;
    EVP_PKEY* key = X509_get0_pubkey(x);
    return key && X509_verify(x, key) == 1;
}

bool Certificate::isCA() const { return m_x509 && (X509_get_extension_flags(m_x509.get()) & EXFLAG_CA) != 0; }

int Certificate::signatureHashBits() const {
    if (!m_x509) return 0;
    int mdNid = NID_undef;
    if (X509_get_signature_info(m_x509.get(), &mdNid, nullptr, nullptr, nullptr) != 1) return 0;
    switch (mdNid) {
    case NID_sha1:
        return 1;
    case NID_sha224:
        return 224;
    case NID_sha256:
        return 256;
    case NID_sha384:
        return 384;
    case NID_sha512:
        return 512;
    default:
        return 0;
    }
}

} // namespace ua
