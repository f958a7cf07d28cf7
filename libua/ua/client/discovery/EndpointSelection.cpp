#include "ua/client/discovery/EndpointSelection.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/Certificate.h"

#include <set>
#include <tuple>

namespace ua {

namespace {

bool isUaTcp(const EndpointDescription& e) {
    return e.transportProfileUri.isEmpty() || e.transportProfileUri.view() == kTransportProfileUaTcp;
}

// How strong a policy is, for "best available" (OPC 10000-7: the RSA-PSS / OAEP-SHA256 policies
// over Basic256Sha256 over the deprecated ones). The ECC policies come after the current RSA ones:
// they are used when asked for or when a server offers nothing better we speak, since only our own
// server has been seen to speak them (docs/Security.md "ECC security policies").
int policyRank(SecurityPolicyId id) {
    switch (id) {
    case SecurityPolicyId::None:
        return 0;
    case SecurityPolicyId::Basic128Rsa15:
        return 1;
    case SecurityPolicyId::Basic256:
        return 2;
    case SecurityPolicyId::EccNistP256:
        return 3;
    case SecurityPolicyId::EccNistP384:
        return 4;
    case SecurityPolicyId::Basic256Sha256:
        return 5;
    case SecurityPolicyId::Aes128Sha256RsaOaep:
        return 6;
    case SecurityPolicyId::Aes256Sha256RsaPss:
        return 7;
    }
    return 0;
}

int modeRank(MessageSecurityMode m) {
    switch (m) {
    case MessageSecurityMode::SignAndEncrypt:
        return 3;
    case MessageSecurityMode::Sign:
        return 2;
    case MessageSecurityMode::None:
        return 1;
    default:
        return 0;
    }
}

// The leaf of a DER chain (the chain itself when it does not parse).
std::string leafDer(const ByteString& chain) {
    if (chain.isEmpty()) return {};
    const auto certs =
        Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(chain.data()), chain.size());
    return certs.empty() ? chain.str() : certs.front().der();
}

} // namespace

const SecurityPolicy* tokenSecurityPolicy(const UserTokenPolicy& token, const EndpointDescription& endpoint) {
    return findSecurityPolicy(token.securityPolicyUri.isEmpty() ? endpoint.securityPolicyUri.view()
                                                                : token.securityPolicyUri.view());
}

EndpointChoice selectEndpoint(const Array<EndpointDescription>& endpoints, const EndpointWanted& wanted) {
    EndpointChoice best;
    best.status = status::BadSecurityPolicyRejected;
    std::tuple<int, int, int> bestRank{-1, -1, -1};
    bool policyMatched = false;
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
        const EndpointDescription& e = endpoints[i];
        if (!isUaTcp(e)) continue;
        const SecurityPolicy* policy = findSecurityPolicy(e.securityPolicyUri.view());
        if (!policy || (policy->deprecated && !wanted.allowDeprecated)) continue;
        const bool none = policy->id == SecurityPolicyId::None;
        // A policy and a mode that contradict each other describe no usable endpoint.
        if (none != (e.securityMode == MessageSecurityMode::None) || modeRank(e.securityMode) == 0) continue;
        if (!none && (!wanted.haveCertificate || e.serverCertificate.isEmpty())) continue;
        if (!wanted.securityPolicyUri.empty() && e.securityPolicyUri.view() != wanted.securityPolicyUri)
            continue;
        if (wanted.mode != MessageSecurityMode::Invalid && e.securityMode != wanted.mode) continue;
        policyMatched = true;

        // The token policy: of the wanted type, with a policy we speak; for a password on a channel
        // that does not encrypt, one that encrypts it comes first.
        std::size_t tokenIndex = e.userIdentityTokens.size();
        bool tokenEncrypts = false;
        const SecurityPolicy* tokenPolicy = nullptr;
        for (std::size_t t = 0; t < e.userIdentityTokens.size(); ++t) {
            const UserTokenPolicy& tp = e.userIdentityTokens[t];
            if (tp.tokenType != wanted.tokenType) continue;
            const SecurityPolicy* p = tokenSecurityPolicy(tp, e);
            if (!p || (p->deprecated && !wanted.allowDeprecated)) continue;
            // A secret under an ECC policy travels as an EccEncryptedSecret (OPC 10000-4 7.40.2.5) to
            // an EphemeralKey the server signs with the channel's certificate (OPC 10000-6 6.8.2): an
            // ECC token policy only on a channel of that same policy.
            if (p->isEcc() && tp.tokenType != UserTokenType::Anonymous && p != policy) continue;
            const bool encrypts = p->id != SecurityPolicyId::None;
            // A token that needs the server's certificate (an encrypted password, an X509 signature);
            // with the policy None neither is made (7.41.2.1).
            if (encrypts && e.serverCertificate.isEmpty()) continue;
            if (tokenIndex == e.userIdentityTokens.size() || (encrypts && !tokenEncrypts)) {
                tokenIndex = t;
                tokenEncrypts = encrypts;
                tokenPolicy = p;
            }
        }
        if (tokenIndex == e.userIdentityTokens.size()) continue;
        const std::tuple<int, int, int> rank{modeRank(e.securityMode), policyRank(policy->id),
                                             e.securityLevel};
        if (rank > bestRank) {
            bestRank = rank;
            best.status = status::Good;
            best.endpointIndex = i;
            best.tokenIndex = tokenIndex;
            best.channelPolicy = policy;
            best.tokenPolicy = tokenPolicy;
        }
    }
    if (best.status.isBad() && policyMatched) best.status = status::BadIdentityTokenRejected;
    return best;
}

StatusCode compareEndpoints(const Array<EndpointDescription>& fromGetEndpoints,
                            const Array<EndpointDescription>& fromCreateSession) {
    // A token policy's policyId is only a name (servers number them per endpoint and host name); what
    // matters for a downgrade is the token type and the policy protecting it.
    using TokenKey = std::pair<int, std::string>;
    using Key = std::tuple<std::string, std::string, int, int, std::set<TokenKey>>;
    auto keysOf = [](const Array<EndpointDescription>& list, std::set<Key>& keys,
                     std::set<std::pair<Key, std::string>>& certs) {
        for (const auto& e : list) {
            if (!isUaTcp(e)) continue;
            std::set<TokenKey> tokens;
            for (const auto& t : e.userIdentityTokens)
                tokens.emplace(int(t.tokenType), t.securityPolicyUri.str());
            Key k{e.server.applicationUri.str(), e.securityPolicyUri.str(), int(e.securityMode),
                  int(e.securityLevel), std::move(tokens)};
            if (!e.serverCertificate.isEmpty()) certs.emplace(k, leafDer(e.serverCertificate));
            keys.insert(std::move(k));
        }
    };
    std::set<Key> a, b;
    std::set<std::pair<Key, std::string>> certsA, certsB;
    keysOf(fromGetEndpoints, a, certsA);
    keysOf(fromCreateSession, b, certsB);
    if (b.empty() || a != b) return status::BadSecurityChecksFailed;
    // 1.05 recommends leaving certificates out of the CreateSession list; where both lists carry one
    // for an endpoint, it must be the same.
    for (const auto& [key, cert] : certsB) {
        bool anyA = false, same = false;
        for (auto it = certsA.lower_bound({key, std::string()}); it != certsA.end() && it->first == key;
             ++it) {
            anyA = true;
            same = same || it->second == cert;
        }
        if (anyA && !same) return status::BadSecurityChecksFailed;
    }
    return status::Good;
}

} // namespace ua
