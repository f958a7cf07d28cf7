#include "ua/client/session/SessionSecurity.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/EccEncryptedSecret.h"
#include "ua/secure/EccSessionKeys.h"

#include <cstring>

namespace ua {

namespace {

const uint8_t* bytes(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// a + b in one buffer: the data a signature covers.
std::vector<uint8_t> concat(std::string_view a, std::string_view b) {
    std::vector<uint8_t> out(a.size() + b.size());
    if (!a.empty()) std::memcpy(out.data(), a.data(), a.size());
    if (!b.empty()) std::memcpy(out.data() + a.size(), b.data(), b.size());
    return out;
}

bool verifyOver(const SecurityPolicy& policy, EVP_PKEY* key, std::string_view certificate,
                const ByteString& nonce, const ByteString& signature) {
    const auto data = concat(certificate, nonce.view());
    return crypto::asymmetricVerify(policy, key, data.data(), data.size(), bytes(signature.view()),
                                    signature.size());
}

} // namespace

std::string leafCertificateDer(std::string_view chainDer) {
    if (chainDer.empty()) return {};
    const auto chain = Certificate::chainFromDer(bytes(chainDer), chainDer.size());
    return chain.empty() ? std::string(chainDer) : chain.front().der();
}

StatusCode verifyServerSignature(const SecurityPolicy& policy, const Certificate& serverCertificate,
                                 std::string_view clientCertificateChain, const ByteString& clientNonce,
                                 const SignatureData& serverSignature) {
    if (serverCertificate.isNull() || serverSignature.signature.isEmpty())
        return status::BadApplicationSignatureInvalid;
    if (!serverSignature.algorithm.isEmpty() &&
        serverSignature.algorithm.view() != policy.asymmetricSignatureUri)
        return status::BadApplicationSignatureInvalid;
    EVP_PKEY* key = serverCertificate.publicKey();
    const std::string leaf = leafCertificateDer(clientCertificateChain);
    if (verifyOver(policy, key, leaf, clientNonce, serverSignature.signature)) return status::Good;
    if (leaf.size() != clientCertificateChain.size() &&
        verifyOver(policy, key, clientCertificateChain, clientNonce, serverSignature.signature))
        return status::Good;
    return status::BadApplicationSignatureInvalid;
}

StatusCode makeSignature(const SecurityPolicy& policy, const PrivateKey& key,
                         std::string_view serverCertificate, const ByteString& serverNonce,
                         SignatureData& out) {
    if (serverNonce.isEmpty()) return status::BadNonceInvalid;
    if (key.isNull()) return status::BadSecurityChecksFailed;
    const auto data = concat(serverCertificate, serverNonce.view());
    std::vector<uint8_t> signature;
    const StatusCode s = crypto::asymmetricSign(policy, key.get(), data.data(), data.size(), signature);
    if (s.isBad()) return s;
    out.algorithm = String(policy.asymmetricSignatureUri);
    out.signature = ByteString(reinterpret_cast<const char*>(signature.data()), signature.size());
    return status::Good;
}

std::vector<uint8_t> legacyTokenSecret(std::string_view secret, const ByteString& serverNonce) {
    const uint32_t length = uint32_t(secret.size() + serverNonce.size());
    std::vector<uint8_t> out(4 + length);
    for (int i = 0; i < 4; ++i)
        out[i] = uint8_t(length >> (8 * i));
    if (!secret.empty()) std::memcpy(out.data() + 4, secret.data(), secret.size());
    if (!serverNonce.isEmpty())
        std::memcpy(out.data() + 4 + secret.size(), serverNonce.data(), serverNonce.size());
    return out;
}

namespace {

// 7.40.2.5: the password as an EccEncryptedSecret to the server's EphemeralKey.
StatusCode eccPassword(const SecurityPolicy& policy, const EccTokenKeys& ecc, std::string_view password,
                       const ByteString& serverNonce, ByteString& out) {
    if (ecc.serverKey.isEmpty()) return ecc.status.isBad() ? ecc.status : StatusCode(status::BadSecurityChecksFailed);
    if (!ecc.clientKey || ecc.clientKey->isNull()) return status::BadIdentityTokenInvalid;
    if (serverNonce.isEmpty()) return status::BadNonceInvalid;
    crypto::EccSecretToSeal in;
    in.policy = &policy;
    in.signingKey = ecc.clientKey->get();
    in.receiverPublicKey.assign(ecc.serverKey.data(), ecc.serverKey.data() + ecc.serverKey.size());
    in.nonce = serverNonce.view();
    in.secret = password;
    in.signingTime = DateTime::now();
    std::vector<uint8_t> sealed;
    const StatusCode s = crypto::sealEccSecret(in, sealed);
    if (s.isBad()) return s;
    out = ByteString(reinterpret_cast<const char*>(sealed.data()), sealed.size());
    return status::Good;
}

} // namespace

StatusCode acceptUserTokenKey(const SecurityPolicy& policy, const Certificate& serverCertificate,
                              const ExtensionObject& additionalHeader, ByteString& key) {
    key = ByteString();
    EphemeralKeyType received;
    const StatusCode s = ecdhKeyOf(additionalHeader, policy.uri, received);
    if (s.isBad()) return s;
    if (serverCertificate.isNull() || !verifyEphemeralKey(policy, serverCertificate.publicKey(), received))
        return status::BadSecurityChecksFailed;
    key = received.publicKey;
    return status::Good;
}

StatusCode makeIdentityToken(const UserIdentity& identity, const UserTokenPolicy& tokenPolicy,
                             const SecurityPolicy& securityPolicy, const Certificate& serverCertificate,
                             const ByteString& serverNonce, ExtensionObject& token,
                             SignatureData& userTokenSignature, const EccTokenKeys& ecc) {
    userTokenSignature = SignatureData();
    const bool secured = securityPolicy.id != SecurityPolicyId::None;
    switch (identity.kind) {
    case UserIdentity::Kind::Anonymous: {
        AnonymousIdentityToken t;
        t.policyId = tokenPolicy.policyId;
        token = ExtensionObject::make(std::move(t));
        return status::Good;
    }
    case UserIdentity::Kind::UserName: {
        if (identity.userName.isEmpty()) return status::BadIdentityTokenInvalid;
        UserNameIdentityToken t;
        t.policyId = tokenPolicy.policyId;
        t.userName = String::fromQString(identity.userName);
        QByteArray password = identity.password.toUtf8();
        if (!secured) {
            t.password = ByteString(password.constData(), std::size_t(password.size()));
        } else if (securityPolicy.isEcc()) {
            const StatusCode s = eccPassword(securityPolicy, ecc, std::string_view(password.constData(), std::size_t(password.size())),
                                             serverNonce, t.password);
            crypto::wipe(password.data(), std::size_t(password.size()));
            if (s.isBad()) return s;
        } else {
            if (serverCertificate.isNull()) return status::BadCertificateInvalid;
            if (serverNonce.isEmpty()) return status::BadNonceInvalid;
            auto secret = legacyTokenSecret(
                std::string_view(password.constData(), std::size_t(password.size())), serverNonce);
            std::vector<uint8_t> encrypted;
            const StatusCode s = crypto::asymmetricEncrypt(securityPolicy, serverCertificate.publicKey(),
                                                           secret.data(), secret.size(), encrypted);
            crypto::wipe(secret.data(), secret.size());
            if (s.isBad()) {
                crypto::wipe(password.data(), std::size_t(password.size()));
                return s;
            }
            t.password = ByteString(reinterpret_cast<const char*>(encrypted.data()), encrypted.size());
            t.encryptionAlgorithm = String(securityPolicy.asymmetricEncryptionUri);
        }
        crypto::wipe(password.data(), std::size_t(password.size()));
        token = ExtensionObject::make(std::move(t));
        return status::Good;
    }
    case UserIdentity::Kind::Certificate: {
        if (identity.certificate.isNull() || identity.key.isNull()) return status::BadIdentityTokenInvalid;
        X509IdentityToken t;
        t.policyId = tokenPolicy.policyId;
        t.certificateData = ByteString(identity.certificate.der());
        if (secured) {
            if (serverCertificate.isNull()) return status::BadCertificateInvalid;
            const StatusCode s = makeSignature(securityPolicy, identity.key, serverCertificate.der(),
                                               serverNonce, userTokenSignature);
            if (s.isBad()) return s;
        }
        token = ExtensionObject::make(std::move(t));
        return status::Good;
    }
    }
    return status::BadIdentityTokenInvalid;
}

} // namespace ua
