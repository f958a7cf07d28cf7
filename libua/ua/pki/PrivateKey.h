// The private key (OpenSSL EVP_PKEY: RSA, or ECC on NIST P-256 / P-384) of an application instance
// certificate. Shares its EVP_PKEY; OpenSSL frees (and clears) the key material when the last
// reference goes.
#pragma once

#include "ua/pki/KeyType.h"

#include <memory>
#include <string>

typedef struct evp_pkey_st EVP_PKEY;

namespace ua {

class Certificate;

class PrivateKey {
public:
    PrivateKey() = default;  // null
    static PrivateKey fromPem(const std::string& pem, const std::string& password = {});
    static PrivateKey fromDer(const std::string& der);
    // Reads a PEM or DER key file (PKCS#8 or traditional RSA); null on failure.
    static PrivateKey load(const std::string& path, const std::string& password = {});
    static PrivateKey generateRsa(int bits);
    // A new ECC key on the curve of type (EccNistP256 or EccNistP384); null for another type.
    static PrivateKey generateEc(KeyType type);
    static PrivateKey fromEvp(EVP_PKEY* key);  // takes a reference (EVP_PKEY_up_ref)
    // The key of a PKCS#12 (PFX) file (DER) with this password (empty: none); null when it does not
    // parse, the password is wrong or it holds no key.
    static PrivateKey fromPkcs12(const std::string& der, const std::string& password = {});

    bool isNull() const { return !m_key; }
    EVP_PKEY* get() const { return m_key.get(); }
    int bits() const;
    KeyType type() const { return keyTypeOf(m_key.get()); }
    // Whether this is the private key of certificate's public key.
    bool matches(const Certificate& certificate) const;
    // Writes an unencrypted PKCS#8 PEM file readable by the owner only (mode 0600, set before the
    // key is written). False on failure.
    bool savePem(const std::string& path) const;

private:
    std::shared_ptr<EVP_PKEY> m_key;
};

} // namespace ua
