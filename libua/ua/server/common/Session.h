// A Session (OPC 10000-4 5.6): created by CreateSession, bound to the SecureChannel that created it
// until ActivateSession; expires when no request arrives within its timeout.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/common/ServiceContext.h"
#include "ua/server/common/ServiceCounters.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ua {

class SessionSubscriptions;
namespace crypto {
class EphemeralKey;
}

struct Session {
    // What every request reads or writes of its Session comes first, in its first 48 bytes: with
    // thousands of Sessions it is cold when a request comes (docs/Benchmarks.md "Cold lines per
    // request").
    NodeId authenticationToken;  // secret (ns=0, a Guid of 16 random bytes), in every RequestHeader
    std::atomic<uint32_t> channelId{0};     // the SecureChannel it is bound to
    uint32_t scope = 0;          // a small number unique in the server, never 0: Node::sessionScope
    std::atomic<bool> activated{false};
    std::atomic<bool> closed{false};
    MessageSecurityMode securityMode = MessageSecurityMode::None;  // of the channel it is bound to
    std::atomic<int64_t> lastActivityMs{0}; // monotonic ms
    // The user (services/IdentityTokens.h), set by ActivateSession. Every request reads roles (a
    // users/Roles.h RoleSet) and permissions (its PermissionType bits on nodes without
    // RolePermissions) without a lock.
    std::atomic<uint32_t> roles{0};
    std::atomic<uint32_t> permissions{0};
    double timeoutMs = 0;        // revisedSessionTimeout
    NodeId sessionId;            // public id (ns=1, Guid)
    String sessionName;
    ApplicationDescription client;
    ByteString serverNonce;
    // Session security (OPC 10000-4 5.7.2, 5.7.3), set by CreateSession before the Session is known
    // to the client: the creating channel's client certificate (leaf DER; empty on a None channel)
    // and the serverCertificate CreateSession returned (signed over in ActivateSession).
    std::string clientCertificate;
    ByteString serverCertificate;
    // Serializes ActivateSession calls of this Session; guards serverNonce, userTokenType and
    // clientUserId after creation.
    mutable std::mutex activationMutex;
    UserTokenType userTokenType = UserTokenType::Anonymous;
    std::string clientUserId;  // user name / X509 subject; empty for anonymous
    // The EphemeralKey last returned in a CreateSession / ActivateSession response's additionalHeader
    // (OPC 10000-6 6.8.2): the key the next user token secret of an ECC token policy is sealed to.
    // Null when the client asked for none; dropped by every successful activation. Under
    // activationMutex.
    std::shared_ptr<const crypto::EphemeralKey> userTokenKey;
    // Diagnostics (OPC 10000-5 12.11 SessionDiagnosticsDataType, 12.13
    // SessionSecurityDiagnosticsDataType). Set by CreateSession and ActivateSession under
    // activationMutex; ServerDiagnostics reads them under it.
    String endpointUrl;                  // CreateSession's endpointUrl
    uint32_t maxResponseMessageSize = 0; // CreateSession's, bytes (0: no limit)
    DateTime createdAt;                  // clientConnectionTime
    Array<String> localeIds = Array<String>::emptyArray();  // the last ActivateSession's
    String securityPolicyUri;
    QString peerAddress;                 // "host:port" of the channel's TCP peer
    std::vector<std::string> clientUserIdHistory;  // every user that activated it, oldest first
    // Request counters of the services served with this Session (ServiceCounters.h): written by
    // the I/O thread serving it, read from any thread.
    SessionCounters counters;
    // Browse ContinuationPoints and registered nodes; used only by the thread serving the Session.
    SessionViewState view;
    // Its Subscriptions and parked Publish requests, created on first use and homed on one I/O
    // thread (server/subscriptions/SessionSubscriptions.h); null until then.
    std::atomic<std::shared_ptr<SessionSubscriptions>> subscriptions;

    void touch(int64_t nowMs) { lastActivityMs.store(nowMs, std::memory_order_relaxed); }
    // NaN: expired; 1e15 ms and more (infinity): never (SessionManager::nextCheckMs agrees).
    bool expired(int64_t nowMs) const {
        if (timeoutMs != timeoutMs) return true;
        if (timeoutMs >= 1e15) return false;
        return nowMs - lastActivityMs.load(std::memory_order_relaxed) > int64_t(timeoutMs);
    }
};

using SessionPtr = std::shared_ptr<Session>;

} // namespace ua
