// The window mode of ua-loadtest (issue 8 item 2): scenario and sweep set-up, live charts, results
// table, export, comparison of two saved runs.
#pragma once

namespace ua::loadtest {

// Runs the window; returns the process exit code. Without a display it prints how to use the
// command line instead and returns 2.
int runWindow(int argc, char** argv);

} // namespace ua::loadtest
