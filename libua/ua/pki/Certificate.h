// An X.509 v3 certificate (DER) as OPC UA uses it: application instance certificates
// (OPC 10000-4 6.1, OPC 10000-6 6.2.2) and certificate chains sent as concatenated DER blobs
// (OPC 10000-6 6.2.3, the SenderCertificate of 6.7.2.3). A value type that shares its X509.
#pragma once

#include "ua/pki/KeyType.h"
#include "ua/types/DateTime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

typedef struct x509_st X509;
typedef struct evp_pkey_st EVP_PKEY;

namespace ua {

class Certificate {
public:
    Certificate() = default;  // null
    // Parses one DER certificate; a null Certificate when the bytes are not exactly one certificate.
    static Certificate fromDer(const uint8_t* data, std::size_t size);
    static Certificate fromDer(const std::string& der) { return fromDer(reinterpret_cast<const uint8_t*>(der.data()), der.size()); }
    // Parses a chain of concatenated DER certificates (leaf first). Empty on any malformed one.
    static std::vector<Certificate> chainFromDer(const uint8_t* data, std::size_t size);
    static Certificate fromPem(const std::string& pem);
    // Reads a .der or .pem file; null on failure.
    static Certificate load(const std::string& path);
    // Takes a reference to x (X509_up_ref).
    static Certificate fromX509(X509* x);

    bool isNull() const { return !m_x509; }
    X509* x509() const { return m_x509.get(); }
    // The public key (owned by the certificate; valid while it lives).
    EVP_PKEY* publicKey() const;
    const std::string& der() const { return m_der; }
    // SHA-1 of the DER bytes: the ReceiverCertificateThumbprint of OPC 10000-6 6.7.2.3 (20 bytes).
    std::string thumbprint() const;
    std::string thumbprintHex() const;  // upper-case hex, the file name used in the store
    int keyBits() const;
    KeyType keyType() const { return keyTypeOf(publicKey()); }
    // The ApplicationUri: the URI entry of subjectAltName (empty if none).
    std::string applicationUri() const;
    std::vector<std::string> dnsNames() const;     // subjectAltName DNS entries
    std::vector<std::string> ipAddresses() const;  // subjectAltName IP entries, dotted/colon text
    std::string subjectName() const;  // one-line text, e.g. "CN=UA Workbench Server, O=..."
    std::string issuerName() const;
    std::string commonName() const;
    DateTime notBefore() const;
    DateTime notAfter() const;
    bool isSelfSigned() const;   // issuer == subject and the signature verifies with its own key
    bool isCA() const;           // basicConstraints cA=TRUE
    // The hash of the certificate's signature algorithm: 1 = SHA-1, 256 = SHA-256, 384, 512; 0 other/MD5.
    int signatureHashBits() const;

    friend bool operator==(const Certificate& a, const Certificate& b) { return a.m_der == b.m_der; }

private:
    std::shared_ptr<X509> m_x509;
    std::string m_der;
};

} // namespace ua
