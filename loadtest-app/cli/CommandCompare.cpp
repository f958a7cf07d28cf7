// `ua-loadtest compare <a.json> <b.json>`: two saved runs (RunResult JSON, as --json and the
// window write them) side by side: for each step (sessions x outstanding) each figure of a and b
// and the ratio b/a (RunComparison.h).
#include "cli/CliOptions.h"
#include "cli/CliOutput.h"
#include "cli/Commands.h"
#include "engine/RunComparison.h"

#include <QFile>
#include <QJsonDocument>

namespace ua::loadtest {

namespace {

std::optional<RunResult> load(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject()) {
        *error = parseError.error != QJsonParseError::NoError
                     ? QStringLiteral("%1: not JSON (%2)").arg(path, parseError.errorString())
                     : QStringLiteral("%1: not a saved run (the JSON is not an object)").arg(path);
        return std::nullopt;
    }
    QString why;
    auto run = RunResult::fromJson(doc.object(), &why);
    if (!run) *error = QStringLiteral("%1: not a saved run: %2").arg(path, why);
    return run;
}

} // namespace

int runCompare(const CliOptions& o) {
    QString error;
    const auto a = load(o.files[0], &error);
    const auto b = a ? load(o.files[1], &error) : std::nullopt;
    if (!a || !b) {
        printError(QStringLiteral("ua-loadtest: ") + error);
        return ExitUsage;
    }
    printLine(QStringLiteral("a: %1 (%2, %3)").arg(a->label, a->startedUtc.toString(Qt::ISODate), a->machine));
    printLine(QStringLiteral("b: %1 (%2, %3)").arg(b->label, b->startedUtc.toString(Qt::ISODate), b->machine));
    if (a->parameters.scenario != b->parameters.scenario || a->parameters.valuesPerRequest != b->parameters.valuesPerRequest)
        printError(QStringLiteral("warning: the runs are of different scenarios (%1 x %2 values, %3 x %4 values): their ratios compare "
                                  "unlike requests")
                       .arg(scenarioName(a->parameters.scenario))
                       .arg(a->parameters.valuesPerRequest)
                       .arg(scenarioName(b->parameters.scenario))
                       .arg(b->parameters.valuesPerRequest));
    // An unknown figure (-1: e.g. no server pid) prints as "-".
    auto text = [](double v) { return v < 0 ? QStringLiteral("-") : figureText(v); };
    for (const StepComparison& c : compareRuns(*a, *b)) {
        QString head = QStringLiteral("%1x%2").arg(c.sessions).arg(c.outstanding);
        if (!c.inA || !c.inB) {
            printLine(QStringLiteral("%1  only in %2").arg(head, c.inA ? QStringLiteral("a") : QStringLiteral("b")));
            continue;
        }
        printLine(QStringLiteral("%1  %2  %3  %4").arg(head, -18).arg(QStringLiteral("a"), 12).arg(QStringLiteral("b"), 12).arg(QStringLiteral("b/a"), 7));
        for (const FigureRatio& f : c.figures)
            printLine(QStringLiteral("  %1  %2  %3  %4")
                          .arg(f.figure, -16)
                          .arg(text(f.a), 12)
                          .arg(text(f.b), 12)
                          .arg(f.ratio != 0 ? QString::number(f.ratio, 'f', 3) : QStringLiteral("-"), 7));
    }
    return ExitOk;
}

} // namespace ua::loadtest
