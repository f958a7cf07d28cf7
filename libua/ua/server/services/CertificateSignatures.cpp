#include "ua/server/services/CertificateSignatures.h"

#include "ua/pki/Certificate.h"
#include "ua/secure/AsymmetricCrypto.h"

#include <cstring>
#include <vector>

namespace ua {

namespace {

bool verifyOver(const SecurityPolicy& policy, EVP_PKEY* key, std::string_view certificate, const ByteString& nonce,
                const ByteString& signature) {
    std::vector<uint8_t> data(certificate.size() + nonce.size());
    if (!certificate.empty()) std::memcpy(data.data(), certificate.data(), certificate.size());
    if (!nonce.isEmpty()) std::memcpy(data.data() + certificate.size(), nonce.data(), nonce.size());
    return crypto::asymmetricVerify(policy, key, data.data(), data.size(),
                                    reinterpret_cast<const uint8_t*>(signature.data()), signature.size());
}

} // namespace

std::string leafDerOf(const ByteString& chain) {
    const std::vector<Certificate> certs =
        Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(chain.data()), chain.size());
    return certs.empty() ? chain.str() : certs.front().der();
}

bool verifyCertificateAndNonce(const SecurityPolicy& policy, EVP_PKEY* key, const ByteString& certificateChain,
                               const ByteString& nonce, const ByteString& signature) {
    const std::string leaf = leafDerOf(certificateChain);
    if (verifyOver(policy, key, leaf, nonce, signature)) return true;
    return leaf.size() != certificateChain.size() && verifyOver(policy, key, certificateChain.view(), nonce, signature);
}

} // namespace ua
