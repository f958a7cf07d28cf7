#include "ua/server/services/DiscoveryService.h"

#include "ua/server/Server.h"

namespace ua {

void handleFindServers(RequestContext& ctx, const FindServersRequest& req, FindServersResponse& resp) {
    const ApplicationDescription& self = ctx.server.applicationDescription();
    bool match = req.serverUris.empty();
    for (const auto& uri : req.serverUris) match = match || uri == self.applicationUri;
    resp.servers = Array<ApplicationDescription>::emptyArray();
    if (match) resp.servers.push_back(self);
}

void handleGetEndpoints(RequestContext& ctx, const GetEndpointsRequest& req, GetEndpointsResponse& resp) {
    resp.endpoints = Array<EndpointDescription>::emptyArray();
    for (const auto& e : ctx.server.endpoints()) {
        bool profileOk = req.profileUris.empty();
        for (const auto& p : req.profileUris) profileOk = profileOk || p == e.transportProfileUri;
        if (profileOk) resp.endpoints.push_back(e);
    }
}

} // namespace ua
