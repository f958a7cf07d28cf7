// `ua-loadtest run <url> | --spawn-server [options]`: one step, one result line, --json.
#include "cli/CliContext.h"
#include "cli/CliOutput.h"
#include "cli/Commands.h"

namespace ua::loadtest {

int runRun(CliContext& context) {
    const CliOptions& o = context.options();
    ResolvedTarget target;
    LoadParameters p;
    QString error;
    if (!context.resolveParameters(&target, &p)) return ExitConnectionFailed;
    RunResult run = CliContext::newRun(p, target.label);
    context.describeRanks(&run);
    const StepResult step = context.runStep(p);
    run.steps.push_back(step);
    printResult(resultLine(p, step));
    printWarnings(step);
    if (!o.jsonFile.isEmpty() && context.reporting() && !writeJson(o.jsonFile, run.toJson(), &error)) {
        printError(QStringLiteral("ua-loadtest: cannot write the JSON: ") + error);
        return ExitRunErrors;
    }
    return exitCodeOf(run.steps);
}

} // namespace ua::loadtest
