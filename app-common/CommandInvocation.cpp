#include "CommandInvocation.h"

#include <QRegularExpression>
#include <QString>
#include <cstdio>
#include <cstring>
#include <string>

namespace ua::app {

bool namesCommand(int argc, char** argv, std::initializer_list<const char*> windowValueOptions) {
    static const char* const kQtValueOptions[] = {"-platform", "-style", "-stylesheet", "-display", "-qwindowgeometry",
                                                  "-qwindowtitle", "-qwindowicon", "-session", "-plugin", "-geometry", "-title"};
    static const QRegularExpression word(QStringLiteral("^[A-Za-z][A-Za-z-]*$"));  // "read", "add-node"
    auto takesValue = [&](const char* a) {
        for (const char* q : kQtValueOptions)
            if (!std::strcmp(a, q)) return true;
        for (const char* q : windowValueOptions)
            if (!std::strcmp(a, q)) return true;
        return false;
    };
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h") || !std::strcmp(a, "--version") || !std::strcmp(a, "-v")) return true;
        if (a[0] == '-') {
            if (takesValue(a)) ++i;
            continue;
        }
        return word.match(QString::fromLocal8Bit(a)).hasMatch();
    }
    return false;
}

bool haveDisplay() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

int explainNoDisplay(const char* appName, int (*runCommandLine)(int argc, char** argv)) {
    std::fprintf(stderr, "%s: no display ($DISPLAY is not set), so the window cannot open.\n"
                         "Use the command line instead:\n\n", appName);
    std::string name = appName;
    char help[] = "--help";
    char* helpArgv[] = {name.data(), help, nullptr};
    runCommandLine(2, helpArgv);
    return 2;
}

} // namespace ua::app
