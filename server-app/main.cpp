// ua-server: the OPC UA server. `--headless` runs it without a window (the window comes with the
// server-app issue; until then the server always runs headless).
#include "ua/Version.h"
#include "ua/server/Server.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>
#include <algorithm>
#include <cstdio>
#include <csignal>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ua-server"));
    QCoreApplication::setApplicationVersion(QStringLiteral(UA_WORKBENCH_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("UA Workbench OPC UA server"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({QStringLiteral("headless"), QStringLiteral("Run without a window.")});
    parser.addOption({QStringLiteral("port"), QStringLiteral("TCP port (default 4840; 0 = any free port)."), QStringLiteral("port"), QStringLiteral("4840")});
    parser.addOption({QStringLiteral("host"), QStringLiteral("Host name in the endpoint URL."), QStringLiteral("host")});
    parser.addOption({QStringLiteral("threads"), QStringLiteral("I/O threads (default: one per core)."), QStringLiteral("n"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("pki"), QStringLiteral("Certificate store folder (own/, trusted/, issuers/, rejected/); "
                                                            "default: the application data folder's pki/."),
                      QStringLiteral("dir")});
    parser.addOption({QStringLiteral("secure"), QStringLiteral("Offer no None endpoint and no anonymous login.")});
    parser.addOption({QStringLiteral("demo-events-ms"),
                      QStringLiteral("Period of the demo events raised by the Server object (ms; 0 = none)."),
                      QStringLiteral("ms"), QStringLiteral("1000")});
    parser.process(app);

    ua::ServerConfig config;
    config.port = quint16(parser.value(QStringLiteral("port")).toUInt());
    config.hostName = parser.value(QStringLiteral("host"));
    config.ioThreads = parser.value(QStringLiteral("threads")).toInt();
    config.demoEventsMs = parser.value(QStringLiteral("demo-events-ms")).toUInt();
    config.security.pkiDir = parser.isSet(QStringLiteral("pki"))
                                 ? parser.value(QStringLiteral("pki"))
                                 : QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/pki");
    if (parser.isSet(QStringLiteral("secure"))) {
        config.security.applySecureProfile();
    } else {
        // The workbench's demo configuration: anonymous Sessions may write the demo variables.
        config.security.users.anonymousRoles |= ua::roleBit(ua::Role::Operator);
    }
    ua::Server server(config);
    if (!server.start()) {
        std::fprintf(stderr, "ua-server: cannot start on port %u: %s\n", config.port, qPrintable(server.errorString()));
        return 1;
    }
    std::printf("ua-server %s listening on %s (port %u)\n", UA_WORKBENCH_VERSION, qPrintable(server.endpointUrl()), server.port());
    for (const auto& e : server.endpoints())
        std::printf("  endpoint %s %s\n", e.securityPolicyUri.str().c_str(), ua::toString(e.securityMode));
    const bool none = std::any_of(server.endpoints().begin(), server.endpoints().end(), [](const auto& e) {
        return e.securityMode == ua::MessageSecurityMode::None;
    });
    if (none || config.security.allowAnonymous)
        std::printf("  WARNING: demo configuration: %s%s%s offered; --secure removes both\n", none ? "SecurityPolicy None" : "",
                    none && config.security.allowAnonymous ? " and " : "",
                    config.security.allowAnonymous ? "anonymous login (with the Operator Role: it may write)" : "");
    std::fflush(stdout);
    std::signal(SIGINT, [](int) { QCoreApplication::quit(); });
    std::signal(SIGTERM, [](int) { QCoreApplication::quit(); });
    return app.exec();
}
