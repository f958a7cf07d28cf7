#include "ArgumentSplitter.h"

#include <QRegularExpression>

namespace ua::app {

namespace {

bool looksLikeNegativeNumber(const QString& a) {
    static const QRegularExpression re(QStringLiteral(R"(^-(\d|\.\d|inf|infinity|nan)\S*$)"), QRegularExpression::CaseInsensitiveOption);
    return re.match(a).hasMatch();
}

} // namespace

std::optional<SplitArguments> splitArguments(const QStringList& argv,
                                             const std::function<std::optional<OptionValue>(const QString& name)>& valueOf,
                                             QString* error) {
    SplitArguments out;
    bool optionsEnded = false;
    for (qsizetype i = 1; i < argv.size(); ++i) {
        const QString a = argv[i];
        if (optionsEnded || !a.startsWith(QLatin1Char('-')) || a == QLatin1String("-") || looksLikeNegativeNumber(a)) {
            if (out.command.isEmpty()) out.command = a;
            else out.args << a;
            continue;
        }
        if (a == QLatin1String("--")) {
            optionsEnded = true;
            continue;
        }
        QString name = a.startsWith(QLatin1String("--")) ? a.mid(2) : a.mid(1);
        if (name == QLatin1String("h")) name = QStringLiteral("help");
        if (name == QLatin1String("v")) name = QStringLiteral("version");
        QString value;
        bool hasValue = false;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            value = name.mid(eq + 1);
            name.truncate(eq);
            hasValue = true;
        }
        const std::optional<OptionValue> kind = valueOf(name);
        if (!kind) {
            *error = QStringLiteral("unknown option %1").arg(a);
            return std::nullopt;
        }
        if (*kind == OptionValue::Required && !hasValue) {
            if (i + 1 >= argv.size()) {
                *error = QStringLiteral("--%1 needs a value").arg(name);
                return std::nullopt;
            }
            value = argv[++i];
        } else if (*kind == OptionValue::None && hasValue) {
            *error = QStringLiteral("--%1 takes no value").arg(name);
            return std::nullopt;
        }
        out.options.push_back({name, value});
    }
    return out;
}

} // namespace ua::app
