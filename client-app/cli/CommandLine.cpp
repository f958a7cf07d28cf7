#include "cli/CommandLine.h"

#include "cli/CliOptions.h"
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ua/Version.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTimer>
#include <cstring>

namespace ua::clientapp {

bool isCommandLineInvocation(int argc, char** argv) {
    // Options that take a value: Qt's own and the window's (a value is never the command).
    static const char* const kQtValueOptions[] = {"-platform", "-style", "-stylesheet", "-display", "-qwindowgeometry",
                                                  "-qwindowtitle", "-qwindowicon", "-session", "-plugin", "-geometry", "-title",
                                                  // the window's (WindowMain.cpp) and the command line's --pki
                                                  "--connect", "--project", "--pki", "--screenshots", "--gui-lag-report"};
    static const QRegularExpression word(QStringLiteral("^[A-Za-z]+$"));
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h") || !std::strcmp(a, "--version") || !std::strcmp(a, "-v")) return true;
        if (a[0] == '-') {
            for (const char* q : kQtValueOptions)
                if (!std::strcmp(a, q)) ++i;
            continue;
        }
        // The first plain argument: a command (or a misspelt one, reported by the command line);
        // a URL or a file name opens the window.
        return word.match(QString::fromLocal8Bit(a)).hasMatch();
    }
    return false;
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
    });
    return app.exec();
}

} // namespace ua::clientapp
