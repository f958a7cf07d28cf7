// The window mode of ua-client: a QApplication with the main window (issue 7 items 1-9, 11, 12).
#pragma once

namespace ua::clientapp {

// Runs the window; returns the process exit code. Without a display it prints how to use the
// command line instead and returns 2.
int runWindow(int argc, char** argv);

} // namespace ua::clientapp
