#include "CommandInvocation.h"

#include <QRegularExpression>
#include <QString>
#include <cstring>

namespace ua::app {

bool namesCommand(int argc, char** argv, std::initializer_list<const char*> windowValueOptions) {
    static const char* const kQtValueOptions[] = {"-platform", "-style", "-stylesheet", "-display", "-qwindowgeometry",
                                                  "-qwindowtitle", "-qwindowicon", "-session", "-plugin", "-geometry", "-title"};
    static const QRegularExpression word(QStringLiteral("^[A-Za-z]+$"));
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

} // namespace ua::app
