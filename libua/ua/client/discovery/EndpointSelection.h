// The client's choice among the server's EndpointDescriptions (OPC 10000-4 5.4.4 GetEndpoints, 7.14,
// 7.41 UserTokenPolicy) and the downgrade check of the CreateSession response's serverEndpoints
// (OPC 10000-4 5.6.2). Pure functions, no I/O.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/types/StatusCode.h"

#include <cstddef>
#include <string>

namespace ua {

inline constexpr const char* kTransportProfileUaTcp =
    "http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary";

struct EndpointWanted {
    std::string securityPolicyUri;                           // empty: the best available
    MessageSecurityMode mode = MessageSecurityMode::Invalid; // Invalid: the best available
    UserTokenType tokenType = UserTokenType::Anonymous;
    bool haveCertificate = false; // the client has its own certificate: secure endpoints are usable
    bool allowDeprecated = false; // Basic128Rsa15 / Basic256 for the channel and for tokens
};

struct EndpointChoice {
    // Good; Bad_SecurityPolicyRejected: no endpoint (UA-TCP, a policy we speak) has the wanted policy
    // and mode; Bad_IdentityTokenRejected: those that have do not accept the wanted token type.
    StatusCode status;
    std::size_t endpointIndex = 0;
    std::size_t tokenIndex = 0; // into the endpoint's userIdentityTokens
    const SecurityPolicy* channelPolicy = nullptr;
    // The policy that protects the token's secret or signs it (7.41.2.1): the UserTokenPolicy's
    // securityPolicyUri, or the endpoint's when that is empty.
    const SecurityPolicy* tokenPolicy = nullptr;
};

// Picks the endpoint: among UA-TCP endpoints whose policy this stack speaks (deprecated ones only when
// allowed; secure ones only with a certificate) and that match the wanted policy and mode, those with a
// UserTokenPolicy of the wanted type; the best of them by mode (SignAndEncrypt > Sign > None), then
// policy strength, then securityLevel. Among several token policies of the type, one that encrypts a
// password is preferred when the channel does not.
EndpointChoice selectEndpoint(const Array<EndpointDescription>& endpoints, const EndpointWanted& wanted);

// The SecurityPolicy of a UserTokenPolicy on an endpoint (7.41.2.1): its securityPolicyUri, or the
// endpoint's when empty. nullptr when the URI is unknown.
const SecurityPolicy* tokenSecurityPolicy(const UserTokenPolicy& token, const EndpointDescription& endpoint);

// The downgrade guard of OPC 10000-4 5.6.2 (serverEndpoints): the UA-TCP endpoints of the CreateSession
// response must describe the same set as those of GetEndpoints, compared by server.applicationUri,
// securityPolicyUri, securityMode, securityLevel, the user token policies (tokenType and
// securityPolicyUri; policyIds are names a server may number per host name) and, where both carry one, the
// server certificate (leaf). endpointUrl is not compared: servers advertise their own host names, which the
// client does not follow (docs/Client.md). Good, or Bad_SecurityChecksFailed (also for an empty list in the
// response).
StatusCode compareEndpoints(const Array<EndpointDescription>& fromGetEndpoints,
                            const Array<EndpointDescription>& fromCreateSession);

} // namespace ua
