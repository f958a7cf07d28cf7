// `ua-loadtest ab --a <target> --b <target> --rounds N [options]`: the same step against A and B
// alternately (A B A B ...: both see the same drift of a shared machine), a result line per round
// and target, then the median of each figure per target and the ratio B/A (AbSummary.h). --json
// writes {"a": RunResult, "b": RunResult, "rounds": N, "medians": {"figures": [...]}}, each run's
// steps being its rounds.
#include "cli/AbSummary.h"
#include "cli/CliContext.h"
#include "cli/CliOutput.h"
#include "cli/Commands.h"

namespace ua::loadtest {

namespace {

LoadParameters parametersFor(const LoadParameters& base, const ResolvedTarget& t, const CliTarget& spec) {
    LoadParameters p = base;
    p.endpointUrl = t.url;
    p.serverPid = t.pid;
    if (!spec.counterNode.isEmpty()) p.counterNode = spec.counterNode;
    return p;
}

} // namespace

int runAb(CliContext& context) {
    const CliOptions& o = context.options();
    ResolvedTarget a, b;
    QString error;
    if (!context.resolve(o.a, &a, &error) || !context.resolve(o.b, &b, &error)) {
        printError(QStringLiteral("ua-loadtest: cannot start the server: ") + error);
        return ExitConnectionFailed;
    }
    const LoadParameters pa = parametersFor(o.parameters, a, o.a);
    const LoadParameters pb = parametersFor(o.parameters, b, o.b);
    RunResult runA = CliContext::newRun(pa, a.label);
    RunResult runB = CliContext::newRun(pb, b.label);
    for (const auto& [name, t] : {std::pair{"A", &a}, std::pair{"B", &b}})
        printResult(t->label.contains(t->url) ? QStringLiteral("%1: %2").arg(QLatin1String(name), t->label)
                                              : QStringLiteral("%1: %2 (%3)").arg(QLatin1String(name), t->label, t->url));
    int rounds = 0;
    for (int round = 1; round <= o.rounds && !context.stopRequested(); ++round) {
        for (const auto& [name, p, run] : {std::tuple{"A", &pa, &runA}, std::tuple{"B", &pb, &runB}}) {
            context.progress(QStringLiteral("round %1/%2, %3").arg(round).arg(o.rounds).arg(QLatin1String(name)));
            const StepResult step = context.runStep(*p);
            if (context.stopRequested() && !step.error.isEmpty()) break;
            run->steps.push_back(step);
            printResult(QStringLiteral("round %1  %2  %3").arg(round).arg(QLatin1String(name), resultLine(*p, step)));
            printWarnings(step);
        }
        rounds = round;
    }
    const auto figures = abFigures(o.parameters.scenario, runA.steps, runB.steps);
    for (const QString& line : abTable(figures, a.label, b.label, rounds)) printResult(line);
    if (!o.jsonFile.isEmpty()) {
        const QJsonObject doc{{"a", runA.toJson()}, {"b", runB.toJson()}, {"rounds", rounds}, {"medians", abFiguresJson(figures)}};
        if (!writeJson(o.jsonFile, doc, &error)) {
            printError(QStringLiteral("ua-loadtest: cannot write the JSON: ") + error);
            return ExitRunErrors;
        }
    }
    const int codeA = exitCodeOf(runA.steps), codeB = exitCodeOf(runB.steps);
    if (codeA == ExitConnectionFailed || codeB == ExitConnectionFailed) return ExitConnectionFailed;
    return std::max(codeA, codeB);
}

} // namespace ua::loadtest
