// The dispatcher's view of one request (runtime/ServiceDispatcher.cpp): the server, the connection
// the request came on and, for services that need one, the activated Session. Lives on the
// connection's thread for the duration of one request. No service handler sees it: the dispatcher
// builds each service set's own narrow context from it (ServiceContext, MethodContext,
// SessionServiceContext, DiscoveryContext, SubscriptionContext).
#pragma once

#include "ua/server/common/ChannelSessions.h"
#include "ua/server/common/Session.h"

#include <QString>

#include <cstdint>
#include <memory>

namespace ua {

class ServerParts;
class ServerSecureChannel;
class ThreadSnapshot;
struct ConnectionLink;

struct RequestContext {
    ServerParts& server;
    // The connection's (runtime/ServerConnection.h): its SecureChannel, its Sessions, the address
    // space snapshot of its thread, its link for responses sent later, its TCP peer.
    ServerSecureChannel& channel;
    ChannelSessions& channelSessions;
    ThreadSnapshot& snapshot;
    const std::shared_ptr<ConnectionLink>& link;
    const QString& peerAddress;
    uint32_t channelId;
    SessionPtr session;  // null for Discovery and CreateSession/ActivateSession before lookup
    int64_t nowMs;       // monotonic clock, ms
    uint32_t requestId = 0;  // of the SecureChannel message, for a response sent later
    // Set (from the service set's context) when a handler answers later (a parked Publish, a
    // service run on another thread): the dispatcher then sends nothing.
    bool deferred = false;
    // Set when ActivateSession succeeded: the connection's handshake is over (AdmissionConfig.h).
    bool sessionActivated = false;
};

} // namespace ua
