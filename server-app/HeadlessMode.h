// `ua-server --headless` (and without a display): no Widgets, the endpoints printed on stdout,
// SIGINT/SIGTERM shut the server down gracefully (ServerLifecycle.h) with the configured delay
// and the process exits 0 once it has; a second signal during the delay stops at once.
#pragma once

#include "ServerCommandLine.h"

namespace ua::app {

// Runs the server until a signal has shut it down; needs a QCoreApplication. Returns the exit code
// (0 after a graceful shutdown, 1 when the server cannot start).
int runHeadless(const ServerCommandLine& commandLine);

} // namespace ua::app
