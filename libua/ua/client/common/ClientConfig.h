// Configuration of a Client (libua/ua/client/Client.h): transport limits, timeouts, the Session it
// asks for, security (certificate store, endpoint choice, user identity, trust), keep-alive and
// reconnect. Every duration is in milliseconds.
#pragma once

#include "ua/client/common/UserIdentity.h"
#include "ua/encoding/generated/Types.h"
#include "ua/transport/TcpMessages.h"

#include <QString>
#include <cstdint>

namespace ua {

class ReverseListener;

// Exponential backoff with jitter between reconnect attempts: attempt n (0-based) waits
// min(maxDelayMs, initialDelayMs * multiplier^n), scaled by a random factor in [1 - jitter, 1 + jitter].
struct ReconnectPolicy {
    uint32_t initialDelayMs = 500;
    uint32_t maxDelayMs = 30'000;
    double multiplier = 2.0;
    double jitter = 0.2;   // 0..1
    int maxAttempts = 0;   // 0: retry until disconnectFromServer()
};

struct ClientConfig {
    // What the Hello offers (OPC 10000-6 7.1.2.3): buffer sizes (bytes, at least 8192), the largest
    // response we accept (bytes, 0 = no limit) and its chunk count (0 = no limit).
    TransportLimits transport;
    // TCP connect + Hello/Acknowledge + OpenSecureChannel; past it the connect fails with Bad_Timeout.
    // With a reverseListener, the wait for the Server's connection counts too.
    uint32_t connectTimeoutMs = 10'000;
    // Reverse Connect (OPC 10000-6 7.1.3; client/channel/ReverseListener.h). When set, each
    // connection of this Client is one a Server opened to this listener with a ReverseHello that
    // names the URL given to connectToServer() (compared by host, port and path) and, when not
    // empty, reverseServerUri as its ServerUri; nothing is dialled. The Hello then carries the
    // ReverseHello's EndpointUrl. The listener must outlive the Client.
    ReverseListener* reverseListener = nullptr;
    QString reverseServerUri;
    // Default timeout of a service call (Bad_Timeout past it); also sent as the RequestHeader's
    // timeoutHint (OPC 10000-4 7.32).
    uint32_t requestTimeoutMs = 10'000;
    // The SecurityToken lifetime asked for in OpenSecureChannel; the client renews at 75 % of the
    // server's revisedLifetime (OPC 10000-6 6.7.4).
    uint32_t requestedTokenLifetimeMs = 3'600'000;
    // CreateSession (OPC 10000-4 5.6.2).
    double requestedSessionTimeoutMs = 60'000;
    QString sessionName = QStringLiteral("UA Workbench Client");
    QString applicationUri = QStringLiteral("urn:ua-workbench:client");
    QString productUri = QStringLiteral("urn:ua-workbench:client");
    QString applicationName = QStringLiteral("UA Workbench Client");

    // --- Security (OPC 10000-4 5.4.4, 5.6.2, 5.6.3, 6.1.3; docs/Client.md "Security") ---------------
    // The client's certificate store (own/, trusted/, issuers/, rejected/; see pki/CertificateStore.h).
    // Its application instance certificate is created there on first use (RSA 2048, SHA-256,
    // subjectAltName URI = applicationUri and the host's name). Empty: no store and no certificate,
    // so only SecurityPolicy None endpoints can be used (and no token needing the server's certificate).
    QString pkiDir;
    // The endpoint wanted (OPC 10000-4 7.14): a SecurityPolicy URI (ua/secure/SecurityPolicy.h, e.g.
    // kSecurityPolicyBasic256Sha256) and a MessageSecurityMode. Empty / MessageSecurityMode::Invalid:
    // the best one the server offers and the client can use (SignAndEncrypt over Sign over None, then
    // the stronger policy, then the higher securityLevel). No endpoint matches: the connect fails
    // with Bad_SecurityPolicyRejected; no matching endpoint accepts the identity's token type:
    // Bad_IdentityTokenRejected.
    QString securityPolicyUri;
    MessageSecurityMode securityMode = MessageSecurityMode::Invalid;
    // Basic128Rsa15 and Basic256 (deprecated, OPC 10000-7) only when true, for the channel and for
    // identity tokens.
    bool allowDeprecatedPolicies = false;
    // The user of the Session (ActivateSession).
    UserIdentity identity;
    // Asked about a server certificate that is not trusted (see UserIdentity.h). Unset: Reject.
    TrustCallback trustCallback;
    // Keep-alive: a Read of Server.ServerStatus.State (i=2259) every keepAliveIntervalMs while a
    // Session is active (0: off). No answer within keepAliveTimeoutMs counts as a lost connection.
    uint32_t keepAliveIntervalMs = 5'000;
    uint32_t keepAliveTimeoutMs = 5'000;
    // On a lost connection: reopen the SecureChannel and reactivate the same Session, with the
    // delays of `reconnect`.
    bool autoReconnect = true;
    ReconnectPolicy reconnect;
    // connectToServer() retries when the server answers ERR Bad_TcpServerTooBusy (to the discovery
    // channel's or the secure channel's Hello), createSession() when CreateSession answers
    // Bad_ServerTooBusy, and the same Session is activated again when ActivateSession does; each
    // retry waits the delays of `reconnect` (exponential, with jitter: 0.5, 1, 2, ... 30 s). The
    // retries are bounded by time: none starts busyRetryTimeMs (ms) or more after connectToServer()
    // / createSession() was called (0: no retry); and by count when busyRetries >= 0 (-1: no bound
    // on the count). Past the bound the busy status reaches the caller. A server that admits a few
    // dozen establishments at a time serves 1,000 clients storming it within the 5 minutes.
    uint32_t busyRetryTimeMs = 300'000;
    int busyRetries = -1;
    // Publish requests kept outstanding while a subscription exists (OPC 10000-4 5.14.5): 0 =
    // subscriptions + 1, at least 2 and at most 10; n = n. Never more than the server accepted
    // before answering Bad_TooManyPublishRequests. A subscription whose publishing cycle fills
    // several NotificationMessages needs that many to receive them without a round trip each.
    uint32_t publishRequests = 0;
};

} // namespace ua
