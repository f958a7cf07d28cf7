#include "cli/CommandLine.h"

#include "cli/CliOptions.h"
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ua/Version.h"
#include "ua/client/ConditionCalls.h"

#include "CommandInvocation.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTimer>

namespace ua::clientapp {

bool isCommandLineInvocation(int argc, char** argv) {
    // The window's options that take a value (WindowMain.cpp) and the command line's --pki.
    return app::namesCommand(argc, argv, {"--connect", "--project", "--pki", "--screenshots", "--gui-lag-report"});
}

int runCommandLine(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ua-client"));
    QCoreApplication::setApplicationVersion(QStringLiteral(UA_WORKBENCH_VERSION));
    // The stack's own log lines ("ua.client: connection lost: ...") would repeat what the command
    // prints; QT_LOGGING_RULES="ua.*=true" brings them back.
    QLoggingCategory::setFilterRules(QStringLiteral("ua.*=false"));
    QString error;
    const auto options = parseCliOptions(QCoreApplication::arguments(), &error);
    if (!options) {
        printError(QStringLiteral("ua-client: ") + error);
        printError(QStringLiteral("Try 'ua-client --help'."));
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
    CliSession session(*options);
    QTimer::singleShot(0, &session, [&session] {
        const QString& c = session.options().command;
        if (c == QLatin1String("discover")) runDiscover(session);
        else if (c == QLatin1String("browse")) runBrowse(session);
        else if (c == QLatin1String("read")) runRead(session);
        else if (c == QLatin1String("write")) runWrite(session);
        else if (c == QLatin1String("subscribe")) runSubscribe(session);
        else if (c == QLatin1String("call")) runCall(session);
        else if (c == QLatin1String("add-node")) runAddNode(session);
        else if (c == QLatin1String("delete-node")) runDeleteNode(session);
        else if (c == QLatin1String("export-nodeset")) runExportNodeSet(session);
        else if (c == QLatin1String("history")) runHistory(session);
        else if (c == QLatin1String("alarms")) runAlarms(session);
        else if (c == QLatin1String("ack")) runAcknowledge(session, AlarmMethod::Acknowledge);
        else if (c == QLatin1String("confirm")) runAcknowledge(session, AlarmMethod::Confirm);
    });
    return app.exec();
}

} // namespace ua::clientapp
