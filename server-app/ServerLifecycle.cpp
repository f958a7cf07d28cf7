#include "ServerLifecycle.h"

#include "ua/Version.h"

#include <algorithm>

namespace ua::app {

void printEndpoints(const Server& server, std::FILE* out) {
    const ServerConfig& config = server.config();
    std::fprintf(out, "ua-server %s listening on %s (port %u)\n", UA_WORKBENCH_VERSION, qPrintable(server.endpointUrl()),
                 server.port());
    for (const auto& e : server.endpoints())
        std::fprintf(out, "  endpoint %s %s\n", e.securityPolicyUri.str().c_str(), ua::enumName(e.securityMode));
    const std::vector<EndpointDescription> endpoints = server.endpoints();
    const bool none = std::any_of(endpoints.begin(), endpoints.end(),
                                  [](const auto& e) { return e.securityMode == MessageSecurityMode::None; });
    const bool anonymous = config.security.allowAnonymous;
    const bool anonymousWrites = anonymous && (config.security.users.anonymousRoles & roleBit(Role::Operator));
    if (none || anonymous)
        std::fprintf(out, "  WARNING: demo configuration: %s%s%s offered; --secure removes both\n", none ? "SecurityPolicy None" : "",
                     none && anonymous ? " and " : "",
                     !anonymous ? "" : anonymousWrites ? "anonymous login (with the Operator Role: it may write)" : "anonymous login");
    std::fflush(out);
}

void shutDownGracefully(Server& server, uint32_t seconds, const QString& reason, QObject* context, std::function<void()> done) {
    if (server.isShuttingDown()) return;
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(&server, &Server::shutdownFinished, context, [&server, connection, done = std::move(done)] {
        QObject::disconnect(*connection);
        server.stop(); // the I/O threads, which shutdown() leaves running
        done();
    });
    server.shutdown(seconds, reason);
}

} // namespace ua::app
