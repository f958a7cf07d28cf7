#include "HeadlessMode.h"

#include "ServerLifecycle.h"
#include "SignalWatcher.h"

#include "ua/server/users/AuditLog.h"

#include <QCoreApplication>
#include <csignal>

namespace ua::app {

int runHeadless(const ServerCommandLine& commandLine) {
    const ServerSettings& settings = commandLine.settings;
    Server server(settings.toServerConfig());
    SignalWatcher watcher;
    if (!server.start()) {
        std::fprintf(stderr, "ua-server: cannot start on port %u: %s\n", settings.port, qPrintable(server.errorString()));
        return 1;
    }
    printEndpoints(server, stdout);
    // The audit lines of headless mode (ua/server/users/AuditLog.h): nobody but the configuration
    // and the signals acts here.
    qCInfo(lcAudit, "headless: started the server on %s (configuration %s)", qPrintable(server.endpointUrl()),
           qPrintable(commandLine.configPath));

    bool shuttingDown = false;
    QObject::connect(&watcher, &SignalWatcher::received, &server, [&](int number) {
        if (shuttingDown) {
            std::printf("ua-server: %s again: stopping now\n", number == SIGINT ? "SIGINT" : "SIGTERM");
            std::fflush(stdout);
            qCInfo(lcAudit, "headless: %s again: stopped the server at once", number == SIGINT ? "SIGINT" : "SIGTERM");
            server.stop();
            QCoreApplication::exit(0);
            return;
        }
        shuttingDown = true;
        std::printf("ua-server: %s: shutting down in %u s\n", number == SIGINT ? "SIGINT" : "SIGTERM",
                    settings.shutdownDelaySeconds);
        std::fflush(stdout);
        qCInfo(lcAudit, "headless: %s: stopping the server: ServerState Shutdown for %u s, then its %d Session(s) are closed",
               number == SIGINT ? "SIGINT" : "SIGTERM", settings.shutdownDelaySeconds, server.sessions().count());
        shutDownGracefully(server, settings.shutdownDelaySeconds, QStringLiteral("The server was asked to shut down"),
                           &server, [] {
                               qCInfo(lcAudit, "headless: stopped the server");
                               std::printf("ua-server: shut down\n");
                               std::fflush(stdout);
                               QCoreApplication::exit(0);
                           });
    });
    return QCoreApplication::exec();
}

} // namespace ua::app
