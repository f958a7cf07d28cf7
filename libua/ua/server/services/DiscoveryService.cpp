#include "ua/server/services/DiscoveryService.h"

namespace ua {

void handleFindServers(const DiscoveryContext& ctx, const FindServersRequest& req, FindServersResponse& resp) {
    const ApplicationDescription& self = ctx.application;
    bool match = req.serverUris.empty();
    for (const auto& uri : req.serverUris) match = match || uri == self.applicationUri;
    resp.servers = Array<ApplicationDescription>::emptyArray();
    if (match) resp.servers.push_back(self);
}

void handleGetEndpoints(const DiscoveryContext& ctx, const GetEndpointsRequest& req, GetEndpointsResponse& resp) {
    resp.endpoints = Array<EndpointDescription>::emptyArray();
    for (const auto& e : ctx.endpoints) {
        bool profileOk = req.profileUris.empty();
        for (const auto& p : req.profileUris) profileOk = profileOk || p == e.transportProfileUri;
        if (profileOk) resp.endpoints.push_back(e);
    }
}

} // namespace ua
