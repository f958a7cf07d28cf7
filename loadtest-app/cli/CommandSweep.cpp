// `ua-loadtest sweep <url> | --spawn-server --sessions 1,2,5 --outstanding 1,10 [options]`: the
// SweepRunner's steps, a result line each as it finishes, --json with every step.
#include "cli/CliContext.h"
#include "cli/CliOutput.h"
#include "cli/Commands.h"

namespace ua::loadtest {

int runSweep(CliContext& context) {
    const CliOptions& o = context.options();
    ResolvedTarget target;
    LoadParameters p;
    QString error;
    if (!context.resolveParameters(&target, &p)) return ExitConnectionFailed;
    RunResult run = context.runSweep(p, o.plan, target.label, [&p](const StepResult& step) {
        printResult(resultLine(p, step));
        printWarnings(step);
    });
    if (run.label.isEmpty()) run = CliContext::newRun(p, target.label);  // stopped before it began
    context.describeRanks(&run);
    const qsizetype planned = qsizetype(o.plan.sessions.size() * o.plan.outstanding.size());
    if (qsizetype(run.steps.size()) < planned)
        context.progress(QStringLiteral("%1 of %2 steps ran%3")
                             .arg(run.steps.size())
                             .arg(planned)
                             .arg(context.stopRequested() ? QStringLiteral(" (stopped)") : QStringLiteral(" (the others were skipped: the server was beaten)")));
    if (!o.jsonFile.isEmpty() && context.reporting() && !writeJson(o.jsonFile, run.toJson(), &error)) {
        printError(QStringLiteral("ua-loadtest: cannot write the JSON: ") + error);
        return ExitRunErrors;
    }
    return exitCodeOf(run.steps);
}

} // namespace ua::loadtest
