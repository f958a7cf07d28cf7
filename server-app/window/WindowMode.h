// `ua-server` with a display: the window with its server started, the endpoints printed on stdout
// as in headless mode, SIGINT/SIGTERM shut down gracefully as there. Hidden options:
// --gui-lag-report SECONDS prints the GUI thread's 10 ms timer lag (p50/p99/max) and exits;
// --screenshots DIR saves one PNG per page after --screenshots-after seconds and exits.
#pragma once

#include "ServerCommandLine.h"

namespace ua::app {

// Needs a QApplication. Returns the exit code.
int runWindow(const ServerCommandLine& commandLine);

} // namespace ua::app
