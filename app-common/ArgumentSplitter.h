// The command lines of ua-client and ua-loadtest: argv split into the command (the first plain
// argument), the other plain arguments and the options, before each app gives them meaning.
// Rules: "--" ends the options; "-" and negative numbers ("-5", "-.5", "-inf") are plain
// arguments; -h is --help, -v --version; a value is given as --name=value or, for an option that
// requires one, as the next argument.
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

namespace ua::app {

enum class OptionValue { None, Required, Optional };  // Optional: only as --name=value

struct GivenOption {
    QString name;   // without the dashes
    QString value;  // empty when none was given
};

struct SplitArguments {
    QString command;
    QStringList args;
    std::vector<GivenOption> options;  // in the order given
};

// valueOf(name): how the option takes a value; nullopt for an option the app does not know. On a
// mistake: nullopt with *error "unknown option --x", "--x needs a value" or "--x takes no value".
std::optional<SplitArguments> splitArguments(const QStringList& argv,
                                             const std::function<std::optional<OptionValue>(const QString& name)>& valueOf,
                                             QString* error);

} // namespace ua::app
