// ua-loadtest: with a command (run, sweep, ab, compare; see `ua-loadtest --help`) it runs the
// command line (cli/), otherwise it opens the window (window/).
#include "cli/CommandLine.h"
#include "window/WindowMain.h"

int main(int argc, char** argv) {
    if (ua::loadtest::isCommandLineInvocation(argc, argv)) return ua::loadtest::runCommandLine(argc, argv);
    return ua::loadtest::runWindow(argc, argv);
}
