// The commands of the load tester's command line, one file each (Command<Name>.cpp). Each runs to
// its end (steps in nested event loops, see CliContext.h), prints its result lines, writes --json
// and returns the process exit code (CliOptions.h ExitCode).
#pragma once

namespace ua::loadtest {

class CliContext;
struct CliOptions;

int runRun(CliContext& context);      // one step
int runSweep(CliContext& context);    // sessions x outstanding (SweepRunner)
int runAb(CliContext& context);       // two targets alternately, medians and ratios B/A
int runCompare(const CliOptions& options);  // two saved runs side by side
int runSoak(CliContext& context);     // a mixed load for a long time: memory, descriptors, errors

} // namespace ua::loadtest
