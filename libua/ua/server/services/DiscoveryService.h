// Discovery service set (OPC 10000-4 5.4): FindServers and GetEndpoints. No Session needed.
#pragma once

#include "ua/encoding/generated/Types.h"

#include <vector>

namespace ua {

// What the Discovery services use, built by the dispatcher for one request.
struct DiscoveryContext {
    const ApplicationDescription& application;       // this server's
    const std::vector<EndpointDescription>& endpoints;
};

// 5.4.2 FindServers: this server's ApplicationDescription when serverUris is empty or names it.
void handleFindServers(const DiscoveryContext& ctx, const FindServersRequest& req, FindServersResponse& resp);
// 5.4.4 GetEndpoints: the server's endpoints, filtered by profileUris (only UA-TCP binary is offered).
void handleGetEndpoints(const DiscoveryContext& ctx, const GetEndpointsRequest& req, GetEndpointsResponse& resp);

} // namespace ua
