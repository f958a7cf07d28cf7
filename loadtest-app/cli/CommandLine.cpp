#include "cli/CommandLine.h"

#include "cli/CliContext.h"
#include "cli/CliOptions.h"
#include "cli/CliOutput.h"
#include "cli/Commands.h"
#include "ua/Version.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <cstring>

namespace ua::loadtest {

bool isCommandLineInvocation(int argc, char** argv) {
    // Options that take a value: Qt's own and the window's (a value is never the command).
    static const char* const kValueOptions[] = {"-platform", "-style", "-stylesheet", "-display", "-qwindowgeometry",
                                                "-qwindowtitle", "-qwindowicon", "-session", "-plugin", "-geometry", "-title",
                                                // the window's (window/WindowMain.cpp), some shared with commands
                                                "--endpoint", "--server-pid", "--label", "--open", "--screenshots",
                                                "--compare-endpoint", "--compare-server-pid", "--compare-label",
                                                "--gui-lag-report"};
    static const QRegularExpression word(QStringLiteral("^[A-Za-z]+$"));
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h") || !std::strcmp(a, "--version") || !std::strcmp(a, "-v")) return true;
        if (a[0] == '-') {
            for (const char* q : kValueOptions)
                if (!std::strcmp(a, q)) ++i;
            continue;
        }
        // The first plain argument: a command (or a misspelt one, which the command line reports);
        // a file name (a saved run) opens the window.
        return word.match(QString::fromLocal8Bit(a)).hasMatch();
    }
    return false;
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
    return runAb(context);
}

} // namespace ua::loadtest
