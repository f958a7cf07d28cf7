// Session service set (OPC 10000-4 5.7): CreateSession, ActivateSession, CloseSession and Cancel,
// with the session security of 5.7.2 / 5.7.3 on signed channels and the user identity tokens of
// IdentityTokens.h.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/common/ChannelSessions.h"
#include "ua/server/common/Session.h"

#include <QString>

#include <atomic>
#include <vector>

namespace ua {

class CertificateStore;
class ServerSecureChannel;
class SessionManager;
class UserStore;
struct ServerChannelSecurity;

// What the Session services use, built by the dispatcher for one request on the connection's
// thread. The parts of CloseSession, ActivateSession and Cancel that concern Subscriptions and
// the audit events are the dispatcher's (it runs them around these handlers): this service set
// uses neither the subscription engine nor the events.
struct SessionServiceContext {
    SessionManager& sessions;             // the server's
    ChannelSessions& channelSessions;     // the connection's
    const ServerSecureChannel& channel;   // the request's SecureChannel
    uint32_t channelId;
    const QString& peerAddress;           // "host:port" of the connection's TCP peer
    int64_t nowMs;                        // monotonic clock, ms
    SessionPtr session;                   // CloseSession: the Session to close
    // ServerConfig's: the revisedSessionTimeout bounds (ms), maxRequestMessageSize (bytes).
    double minSessionTimeoutMs;
    double maxSessionTimeoutMs;
    uint32_t maxRequestMessageSize;
    const std::vector<EndpointDescription>& endpoints;
    const ServerChannelSecurity* channelSecurity;  // the server's certificate and key (may be null)
    UserStore& users;
    CertificateStore* userCertificates;   // null: X509IdentityTokens are rejected
    std::atomic<uint64_t>& busySessions;  // AdmissionControl's counter of Bad_ServerTooBusy answers
    bool shuttingDown;                    // ServerState Shutdown: no new Session
    // ActivateSession stored a new user, roles and permissions in the Session: its Subscriptions
    // sample with them from now on (subscriptions/SubscriptionService.h sessionAccessChanged).
    // Called with the Session's activationMutex held.
    void (*accessChanged)(Session&) = nullptr;
};

// 5.7.2 requestedSessionTimeout (ms) → revisedSessionTimeout: clamped into [minMs, maxMs]; 0, a
// negative value, -infinity and NaN become minMs (the server's shortest, as 0 always did),
// +infinity and anything above maxMs become maxMs. Always a finite number.
double reviseSessionTimeout(double requestedMs, double minMs, double maxMs);

// 5.7.2: a Session bound to this channel; Bad_TooManySessions when the limit is reached;
// Bad_Shutdown while the server shuts down (Server::shutdown(), ServerState Shutdown).
// On a Sign / SignAndEncrypt channel: the leaf of clientCertificate must be the channel's client
// certificate (Bad_CertificateInvalid), its ApplicationUri must be clientDescription.applicationUri
// (Bad_CertificateUriInvalid), clientNonce must have 32 to 128 bytes (Bad_NonceInvalid); the
// response carries serverSignature: the channel policy's asymmetric signature of clientCertificate +
// clientNonce with the server's key (algorithm = SecurityPolicy::asymmetricSignatureUri).
// serverCertificate is the server's chain (also on None channels when the server has one, for
// encrypting user token secrets); serverNonce has 32 random bytes.
void handleCreateSession(SessionServiceContext& ctx, const CreateSessionRequest& req, CreateSessionResponse& resp);
// 5.7.3, in this order: the first activation must come on the creating channel
// (Bad_SessionIdInvalid); a later one may move the Session to another channel opened with the same
// client certificate (Bad_SecurityChecksFailed otherwise). On a signed channel clientSignature must
// verify over serverCertificate + the last serverNonce with the client certificate's key and carry
// the policy's asymmetricSignatureUri (Bad_ApplicationSignatureInvalid). Then the identity token
// (IdentityTokens.h: Bad_IdentityTokenInvalid, Bad_IdentityTokenRejected, Bad_UserAccessDenied,
// Bad_UserSignatureInvalid); on a new channel the user must be the same
// (Bad_IdentityChangeNotSupported). Success records the user and Roles in the Session and returns
// a new serverNonce; a failure leaves the Session as it was (not closed, same serverNonce).
void handleActivateSession(SessionServiceContext& ctx, const ActivateSessionRequest& req, ActivateSessionResponse& resp);
// 5.6.4 CloseSession (ctx.session is the Session to close). Its Subscriptions, with
// deleteSubscriptions, are deleted by the dispatcher first (subscriptions/SubscriptionService.h).
void handleCloseSession(SessionServiceContext& ctx, const CloseSessionRequest& req, CloseSessionResponse& resp);
// 5.6.5 Cancel is served by the subscription engine: subscriptions/SubscriptionService.h handleCancel.

} // namespace ua
