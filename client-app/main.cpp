// ua-client: with a command (browse, read, write, subscribe, call, discover; see
// `ua-client --help`) it runs the command line (cli/), otherwise it opens the window (window/).
#include "cli/CommandLine.h"
#include "window/WindowMain.h"

int main(int argc, char** argv) {
    if (ua::clientapp::isCommandLineInvocation(argc, argv)) return ua::clientapp::runCommandLine(argc, argv);
    return ua::clientapp::runWindow(argc, argv);
}
