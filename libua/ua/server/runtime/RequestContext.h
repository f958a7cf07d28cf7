// What a service handler gets besides its request: the server, the connection the request came on
// and, for services that need one, the activated Session. Lives on the connection's thread for the
// duration of one request.
#pragma once

#include "ua/server/Session.h"

#include <cstdint>

namespace ua {

class Server;
class ServerConnection;

struct RequestContext {
    Server& server;
    ServerConnection& connection;
    uint32_t channelId;
    SessionPtr session;  // null for Discovery and CreateSession/ActivateSession before lookup
    int64_t nowMs;       // monotonic clock, ms
    uint32_t requestId = 0;  // of the SecureChannel message, for a response sent later
    // Set by a handler that answers later (a parked Publish, a service run on another thread):
    // the dispatcher then sends nothing.
    bool deferred = false;
};

} // namespace ua
