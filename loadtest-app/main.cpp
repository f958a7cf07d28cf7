// ua-loadtest: with a command (run, sweep, ab, compare; see `ua-loadtest --help`) it runs the
// command line (cli/), otherwise it opens the window (window/).
#include "cli/CommandLine.h"
#include "window/WindowMain.h"

#include "EventDispatcher.h"

int main(int argc, char** argv) {
    ua::app::preferUnixEventDispatcher();
    if (ua::loadtest::isCommandLineInvocation(argc, argv)) return ua::loadtest::runCommandLine(argc, argv);
    return ua::loadtest::runWindow(argc, argv);
}
