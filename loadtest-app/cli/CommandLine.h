// The command line of ua-loadtest (issue 8 item 3): `ua-loadtest run|sweep|ab|compare [options]`,
// a result line per step, --json, --spawn-server; see docs/LoadTesterCli.md.
#pragma once

namespace ua::loadtest {

// Whether argv names a command (or --help / --version) rather than asking for the window.
bool isCommandLineInvocation(int argc, char** argv);
// Runs the command; returns the process exit code.
int runCommandLine(int argc, char** argv);

} // namespace ua::loadtest
