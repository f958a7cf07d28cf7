// ua-server: the OPC UA server with its administration window, or `--headless` (and without a
// display) on the console. See docs/ServerApp.md.
#include "HeadlessMode.h"
#include "ServerCommandLine.h"
#include "window/WindowMode.h"

#include "AllocatorPolicy.h"
#include "EventDispatcher.h"
#include "DemoExtension.h"

#include "ua/Version.h"

#include <QApplication>
#include <QCoreApplication>
#include <cstdio>

int main(int argc, char** argv) {
    ua::app::keepLargeBlocksOutOfTheHeap();  // before the first large block (AllocatorPolicy.h)
    QCoreApplication::setApplicationName(QStringLiteral("ua-server"));
    QCoreApplication::setApplicationVersion(QStringLiteral(UA_WORKBENCH_VERSION));
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    const auto commandLine = ua::app::ServerCommandLine::parse(arguments, ua::app::ServerCommandLine::currentEnvironment());
    switch (commandLine.action) {
    case ua::app::ServerCommandLine::Action::Help:
    case ua::app::ServerCommandLine::Action::Version:
        std::fputs(qPrintable(commandLine.message), stdout);
        return 0;
    case ua::app::ServerCommandLine::Action::Error:
        std::fprintf(stderr, "ua-server: %s\n", qPrintable(commandLine.message));
        return 2;
    case ua::app::ServerCommandLine::Action::Run:
        break;
    }
    ua::useDemoByDefault();  // its namespaces (server-app/demo/): ServerConfig::demoNamespace and friends
    ua::app::preferUnixEventDispatcher();
    if (commandLine.headless) {
        QCoreApplication app(argc, argv);
        return ua::app::runHeadless(commandLine);
    }
    QApplication app(argc, argv);
    return ua::app::runWindow(commandLine);
}
