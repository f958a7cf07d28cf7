// What a client meets of the server's security that push management can change while the server
// runs (OPC 10000-12 7.10.5 UpdateCertificate, applied by 7.10.9 ApplyChanges): the application
// instance certificate and key the SecureChannels use, and the EndpointDescriptions that carry the
// certificate (GetEndpoints, CreateSession). Published as one immutable snapshot: an I/O thread
// loads it once per OPN, CreateSession, ActivateSession or GetEndpoints and keeps what it loaded
// for that request; a channel keeps its security for its lifetime.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/secure/ServerSecureChannel.h"

#include <atomic>
#include <memory>
#include <vector>

namespace ua {

struct ServerIdentity {
    std::shared_ptr<const ServerChannelSecurity> security;  // null: SecurityPolicy None only
    std::vector<EndpointDescription> endpoints;
};

// Written by the Server's thread (start, ApplyChanges), read by every I/O thread.
using SharedServerIdentity = std::atomic<std::shared_ptr<const ServerIdentity>>;

} // namespace ua
