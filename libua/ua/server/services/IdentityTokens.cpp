#include "ua/server/services/IdentityTokens.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/EccEncryptedSecret.h"
#include "ua/server/services/CertificateSignatures.h"
#include "ua/server/users/UserStore.h"

#include <cstring>

namespace ua {

namespace {

const UserTokenPolicy* findTokenPolicy(const EndpointDescription& e, const String& policyId,
                                       UserTokenType type) {
    for (const UserTokenPolicy& p : e.userIdentityTokens)
        if (p.policyId == policyId) return p.tokenType == type ? &p : nullptr;
    return nullptr;
}

bool offersAnonymous(const EndpointDescription& e) {
    for (const UserTokenPolicy& p : e.userIdentityTokens)
        if (p.tokenType == UserTokenType::Anonymous) return true;
    return false;
}

// The token's SecurityPolicy (7.41.2): the UserTokenPolicy's, or the channel's when empty.
const SecurityPolicy* tokenSecurityPolicy(const IdentityCheck& c, const UserTokenPolicy& p) {
    if (p.securityPolicyUri.isEmpty()) return &c.channelPolicy;
    return findSecurityPolicy(p.securityPolicyUri.view());
}

// The password of a legacy encrypted secret (7.41.2.2): UInt32 length (little endian) of what
// follows, the password, the server nonce.
StatusCode decryptPassword(const IdentityCheck& c, const SecurityPolicy& policy,
                           const UserNameIdentityToken& t, std::string& password) {
    if (t.encryptionAlgorithm.view() != policy.asymmetricEncryptionUri || !c.serverPrivateKey)
        return status::BadIdentityTokenInvalid;
    std::vector<uint8_t> plain;
    const StatusCode s = crypto::asymmetricDecrypt(policy, c.serverPrivateKey,
                                                   reinterpret_cast<const uint8_t*>(t.password.data()),
                                                   t.password.size(), plain);
    StatusCode result = status::BadIdentityTokenInvalid;
    const std::size_t nonce = c.serverNonce.size();
    if (s.isGood() && plain.size() >= 4) {
        const uint32_t length = uint32_t(plain[0]) | uint32_t(plain[1]) << 8 | uint32_t(plain[2]) << 16 |
                                uint32_t(plain[3]) << 24;
        if (length == plain.size() - 4 && length >= nonce && nonce > 0 &&
            std::memcmp(plain.data() + plain.size() - nonce, c.serverNonce.data(), nonce) == 0) {
            password.assign(reinterpret_cast<const char*>(plain.data()) + 4, length - nonce);
            result = status::Good;
        }
    }
    if (!plain.empty()) crypto::wipe(plain.data(), plain.size());
    return result;
}

// The password of an EccEncryptedSecret (7.40.2.5) sealed to the Session's EphemeralKey of policy.
StatusCode openEccPassword(const IdentityCheck& c, const SecurityPolicy& policy, const UserNameIdentityToken& t,
                           std::string& password) {
    if (!c.userTokenKey || c.userTokenKey->policy() != &policy || !c.clientPublicKey) return status::BadIdentityTokenInvalid;
    const auto* bytes = reinterpret_cast<const uint8_t*>(t.password.data());
    crypto::EccSecretHeader header;
    if (crypto::readEccSecretHeader(bytes, t.password.size(), header).isBad()) return status::BadIdentityTokenInvalid;
    // The signer is the client application (7.40.2.5: the Certificate may be left out then).
    if (!header.certificate.empty()) {
        const std::vector<Certificate> chain = Certificate::chainFromDer(
            reinterpret_cast<const uint8_t*>(header.certificate.data()), header.certificate.size());
        if (chain.empty() || chain.front().der() != c.clientCertificate) return status::BadIdentityTokenInvalid;
    }
    std::string nonce;
    if (crypto::openEccSecret(*c.userTokenKey, c.clientPublicKey, bytes, t.password.size(), nonce, password).isBad())
        return status::BadIdentityTokenInvalid;
    if (c.serverNonce.isEmpty() || nonce != c.serverNonce.view()) {
        if (!password.empty()) crypto::wipe(password.data(), password.size());
        password.clear();
        return status::BadIdentityTokenInvalid;
    }
    return status::Good;
}

StatusCode checkUserName(const IdentityCheck& c, const UserNameIdentityToken& t, SessionIdentity& out) {
    const UserTokenPolicy* p = findTokenPolicy(c.endpoint, t.policyId, UserTokenType::UserName);
    if (!p) return status::BadIdentityTokenInvalid;
    const SecurityPolicy* policy = tokenSecurityPolicy(c, *p);
    if (!policy) return status::BadIdentityTokenInvalid;
    std::string password;
    if (policy->id == SecurityPolicyId::None) {
        // A plain password: only where the channel encrypts it.
        if (c.channelMode != MessageSecurityMode::SignAndEncrypt || !t.encryptionAlgorithm.isEmpty())
            return status::BadIdentityTokenInvalid;
        password = t.password.str();
    } else if (StatusCode s = policy->isEcc() ? openEccPassword(c, *policy, t, password)
                                              : decryptPassword(c, *policy, t, password);
               s.isBad()) {
        return s;
    }
    const UserStore::Login login = c.users.authenticate(t.userName.view(), password, c.nowMs);
    if (!password.empty()) crypto::wipe(password.data(), password.size());
    if (login.status.isBad()) return login.status;
    out.tokenType = UserTokenType::UserName;
    out.clientUserId = t.userName.str();
    out.roles = login.roles;
    return status::Good;
}

StatusCode checkX509(const IdentityCheck& c, const X509IdentityToken& t, const SignatureData& signature,
                     SessionIdentity& out) {
    const UserTokenPolicy* p = findTokenPolicy(c.endpoint, t.policyId, UserTokenType::Certificate);
    if (!p) return status::BadIdentityTokenInvalid;
    const SecurityPolicy* policy = tokenSecurityPolicy(c, *p);
    if (!policy || policy->id == SecurityPolicyId::None) return status::BadIdentityTokenInvalid;
    const std::vector<Certificate> chain = Certificate::chainFromDer(
        reinterpret_cast<const uint8_t*>(t.certificateData.data()), t.certificateData.size());
    if (chain.empty()) return status::BadIdentityTokenInvalid;
    const Certificate& leaf = chain.front();
    if (!c.userCertificates) return status::BadIdentityTokenRejected;
    ValidationOptions options;
    options.minKeyBits = int(policy->minAsymmetricKeyBits);
    options.maxKeyBits = int(policy->maxAsymmetricKeyBits);
    options.allowSha1Signature = policy->minCertificateSignatureHash == HashAlgorithm::Sha1;
    options.checkKeyUsage = false; // a user certificate need not allow key encipherment
    if (c.userCertificates->validate(t.certificateData.str(), options).isBad())
        return status::BadIdentityTokenRejected;

    // 7.36: the algorithm of an ECC signature is null or empty, and ignored when set.
    if (!policy->isEcc() && signature.algorithm.view() != policy->asymmetricSignatureUri)
        return status::BadUserSignatureInvalid;
    // Over the server certificate's leaf + serverNonce, or the whole chain (5.7.3.2, 7.36).
    if (!verifyCertificateAndNonce(*policy, leaf.publicKey(), c.serverCertificate, c.serverNonce, signature.signature))
        return status::BadUserSignatureInvalid;

    const std::shared_ptr<const UserDatabase> db = c.users.snapshot();
    const UserRecord* user = db->findByThumbprint(leaf.thumbprintHex());
    out.tokenType = UserTokenType::Certificate;
    out.clientUserId = leaf.subjectName();
    out.roles = (user ? user->roles : kNoRoles) | roleBit(Role::AuthenticatedUser);
    return status::Good;
}

} // namespace

StatusCode checkIdentityToken(const IdentityCheck& c, const ExtensionObject& token,
                              const SignatureData& userTokenSignature, SessionIdentity& out) {
    const AnonymousIdentityToken* anonymous = token.get<AnonymousIdentityToken>();
    if (token.isNull() || anonymous) {
        if (!offersAnonymous(c.endpoint)) return status::BadIdentityTokenRejected;
        if (anonymous && !anonymous->policyId.isEmpty() &&
            !findTokenPolicy(c.endpoint, anonymous->policyId, UserTokenType::Anonymous))
            return status::BadIdentityTokenInvalid;
        out.tokenType = UserTokenType::Anonymous;
        out.clientUserId.clear();
        out.roles = c.users.snapshot()->anonymousRoles;
        return status::Good;
    }
    if (const auto* t = token.get<UserNameIdentityToken>()) return checkUserName(c, *t, out);
    if (const auto* t = token.get<X509IdentityToken>()) return checkX509(c, *t, userTokenSignature, out);
    return status::BadIdentityTokenInvalid;
}

} // namespace ua
