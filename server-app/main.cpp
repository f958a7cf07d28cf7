// ua-server: the OPC UA server. `--headless` runs it without a window (the window comes with the
// server-app issue; until then the server always runs headless).
#include "ua/Version.h"
#include "ua/server/Server.h"

#include <QCommandLineParser>
#include <QCoreApplication>
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
    parser.process(app);

    ua::ServerConfig config;
    config.port = quint16(parser.value(QStringLiteral("port")).toUInt());
    config.hostName = parser.value(QStringLiteral("host"));
    config.ioThreads = parser.value(QStringLiteral("threads")).toInt();
    ua::Server server(config);
    if (!server.start()) {
        std::fprintf(stderr, "ua-server: cannot listen on port %u: %s\n", config.port, qPrintable(server.errorString()));
        return 1;
    }
    std::printf("ua-server %s listening on %s (port %u)\n", UA_WORKBENCH_VERSION, qPrintable(server.endpointUrl()), server.port());
    std::fflush(stdout);
    std::signal(SIGINT, [](int) { QCoreApplication::quit(); });
    std::signal(SIGTERM, [](int) { QCoreApplication::quit(); });
    return app.exec();
}
