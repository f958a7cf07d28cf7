// The command line of ua-client (issue 7 item 10): `ua-client <command> [options] <args>` with the
// commands browse, read, write, subscribe, call, discover, history, ..., for scripts. Errors are printed with
// the status code's name and give a non-zero exit code (see docs/ClientApp.md for the table).
#pragma once

namespace ua::clientapp {

// Whether argv names a command (or --help / --version) rather than asking for the window.
bool isCommandLineInvocation(int argc, char** argv);
// Runs the command; returns the process exit code.
int runCommandLine(int argc, char** argv);

} // namespace ua::clientapp
