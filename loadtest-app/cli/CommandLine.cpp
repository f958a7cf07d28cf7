#include "cli/CommandLine.h"

#include "cli/CliContext.h"
#include "cli/CliOptions.h"
#include "cli/CliOutput.h"
#include "cli/Commands.h"
#include "ua/Version.h"

#include "CommandInvocation.h"

#include <QCoreApplication>
#include <QLoggingCategory>

namespace ua::loadtest {

bool isCommandLineInvocation(int argc, char** argv) {
    // The window's options that take a value (window/WindowMain.cpp), some shared with commands.
    return app::namesCommand(argc, argv, {"--endpoint", "--server-pid", "--label", "--open", "--screenshots", "--compare-endpoint",
                                          "--compare-server-pid", "--compare-label", "--gui-lag-report"});
}

int runCommandLine(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ua-loadtest"));
    QCoreApplication::setOrganizationName(QStringLiteral("ua-workbench"));  // as the window: the same default PKI
    QCoreApplication::setApplicationVersion(QStringLiteral(UA_WORKBENCH_VERSION));
    // The stack's own log lines (a Session per line in the connect storm) would drown the result
    // lines; QT_LOGGING_RULES="ua.*=true" brings them back.
    QLoggingCategory::setFilterRules(QStringLiteral("ua.*=false"));
    QString error;
    const auto options = parseCliOptions(QCoreApplication::arguments(), &error);
    if (!options) {
        printError(QStringLiteral("ua-loadtest: ") + error);
        printError(QStringLiteral("Try 'ua-loadtest --help'."));
        return ExitUsage;
    }
    if (options->help) {
        printLine(cliUsage());
        return ExitOk;
    }
    if (options->version) {
        printLine(cliVersion());
        return ExitOk;
    }
    if (options->command == QLatin1String("compare")) return runCompare(*options);
    if (options->jsonFile == QLatin1String("-")) sendResultsToStderr();
    CliContext context(*options);
    if (options->command == QLatin1String("run")) return runRun(context);
    if (options->command == QLatin1String("sweep")) return runSweep(context);
    if (options->command == QLatin1String("soak")) return runSoak(context);
    return runAb(context);
}

} // namespace ua::loadtest
