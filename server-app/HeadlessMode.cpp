#include "HeadlessMode.h"

#include "ServerLifecycle.h"
#include "SignalWatcher.h"

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

    bool shuttingDown = false;
    QObject::connect(&watcher, &SignalWatcher::received, &server, [&](int number) {
        if (shuttingDown) {
            std::printf("ua-server: %s again: stopping now\n", number == SIGINT ? "SIGINT" : "SIGTERM");
            std::fflush(stdout);
            server.stop();
            QCoreApplication::exit(0);
            return;
        }
        shuttingDown = true;
        std::printf("ua-server: %s: shutting down in %u s\n", number == SIGINT ? "SIGINT" : "SIGTERM",
                    settings.shutdownDelaySeconds);
        std::fflush(stdout);
        shutDownGracefully(server, settings.shutdownDelaySeconds, QStringLiteral("The server was asked to shut down"),
                           &server, [] {
                               std::printf("ua-server: shut down\n");
                               std::fflush(stdout);
                               QCoreApplication::exit(0);
                           });
    });
    return QCoreApplication::exec();
}

} // namespace ua::app
