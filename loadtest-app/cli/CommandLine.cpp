#include "cli/CommandLine.h"

#include "cli/CliContext.h"
#include "cli/CliOptions.h"
#include "cli/CliOutput.h"
#include "cli/Commands.h"
#include "distributed/Ranks.h"
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

namespace {

// A distributed run: what this rank cannot do (empty: nothing). Every rank checks its own
// arguments (an MPMD job, `mpirun -np 2 ua-loadtest ... : -np 1 ua-loadtest ...`, gives ranks
// different ones).
QString distributedUsageError(const CliOptions& o, int ranks) {
    if (o.help || o.version) return {};
    if (o.command != QLatin1String("run") && o.command != QLatin1String("sweep"))
        return QStringLiteral("%1 runs in one process: start it without mpirun (distributed runs are run and sweep)").arg(o.command);
    const int fewest = o.command == QLatin1String("run") ? o.parameters.sessions : o.plan.sessions.front();
    if (fewest < ranks)
        return QStringLiteral("--sessions %1 is fewer than the %2 ranks: each rank needs a Session at least").arg(fewest).arg(ranks);
    return {};
}

} // namespace

int runCommandLine(int argc, char** argv) {
    // Before anything else: MPI_Init when an MPI launcher started this process (distributed/Ranks.h).
    // Finalized when `ranks` goes, after the application.
    QString ranksError;
    const std::unique_ptr<Ranks> ranks = openRanks(&argc, &argv, &ranksError);
    if (!ranks) {
        printError(QStringLiteral("ua-loadtest: ") + ranksError);
        return ExitUsage;
    }
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ua-loadtest"));
    QCoreApplication::setOrganizationName(QStringLiteral("ua-workbench"));  // as the window: the same default PKI
    QCoreApplication::setApplicationVersion(QStringLiteral(UA_WORKBENCH_VERSION));
    // The stack's own log lines (a Session per line in the connect storm) would drown the result
    // lines; QT_LOGGING_RULES="ua.*=true" brings them back.
    QLoggingCategory::setFilterRules(QStringLiteral("ua.*=false"));
    QString error;
    const auto options = parseCliOptions(QCoreApplication::arguments(), &error);
    if (ranks->size() > 1) {
        // Every rank stops here together on a usage error of any rank; rank 0 says which.
        if (ranks->rank() != 0) stopReporting();
        const QString local = options ? distributedUsageError(*options, ranks->size()) : error;
        error = agreeOnErrors(*ranks, local);
        if (!error.isEmpty()) {
            if (ranks->rank() == 0) {
                printError(QStringLiteral("ua-loadtest: ") + error);
                printError(QStringLiteral("Try 'ua-loadtest --help'."));
            }
            return ExitUsage;
        }
    }
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
    CliContext context(*options, ranks.get());
    if (options->command == QLatin1String("run")) return runRun(context);
    if (options->command == QLatin1String("sweep")) return runSweep(context);
    if (options->command == QLatin1String("soak")) return runSoak(context);
    return runAb(context);
}

} // namespace ua::loadtest
