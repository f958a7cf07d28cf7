// Discovery service set (OPC 10000-4 5.4): FindServers and GetEndpoints. No Session needed.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/RequestContext.h"

namespace ua {

// 5.4.2 FindServers: this server's ApplicationDescription when serverUris is empty or names it.
void handleFindServers(RequestContext& ctx, const FindServersRequest& req, FindServersResponse& resp);
// 5.4.4 GetEndpoints: the server's endpoints, filtered by profileUris (only UA-TCP binary is offered).
void handleGetEndpoints(RequestContext& ctx, const GetEndpointsRequest& req, GetEndpointsResponse& resp);

} // namespace ua
