// Discovery (OPC 10000-4 5.4): FindServers (5.4.2) and GetEndpoints (5.4.4) on a SecureChannel with
// SecurityPolicy None and no Session, as a client does before it chooses an endpoint (OPC 10000-4
// 5.4.1, OPC 10000-12). See ua::Client::discover.
#pragma once

#include "ua/client/common/ServiceResult.h"
#include "ua/encoding/generated/Types.h"

#include <functional>

namespace ua {

struct DiscoveryResult {
    // Good, or the first failure: a connect failure (Bad_TcpEndpointUrlInvalid, Bad_ConnectionRejected,
    // Bad_Timeout, an ERR's code), or GetEndpoints' service result. A FindServers failure alone
    // (e.g. Bad_ServiceUnsupported from a server without it) leaves status Good and sets
    // findServersStatus.
    StatusCode status;
    // FindServers' own result; the connect failure when it could not be sent.
    StatusCode findServersStatus;
    Array<ApplicationDescription> servers;   // FindServers with no filter
    Array<EndpointDescription> endpoints;    // GetEndpoints for the URL as typed
};
using DiscoveryCallback = std::function<void(const DiscoveryResult&)>;

} // namespace ua
