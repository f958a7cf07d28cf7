// Whether an app's arguments name a command of its command line (ua-client, ua-loadtest) or ask
// for its window: the first plain argument decides (a word = a command, even a misspelt one, which
// the command line then reports; a URL or a file name = the window); --help/-h/--version/-v ask
// for the command line. The values of Qt's own options (-platform xcb, ...) and of the app's
// window options given in windowValueOptions ("--endpoint", ...) are skipped.
#pragma once

#include <initializer_list>

namespace ua::app {

bool namesCommand(int argc, char** argv, std::initializer_list<const char*> windowValueOptions);

// Whether a window can be shown: a display, or a platform chosen explicitly (QT_QPA_PLATFORM:
// offscreen, xcb, ...).
bool haveDisplay();
// Without a display: says so on stderr, runs the app's command line with --help and returns 2
// (the exit code the windows of ua-client and ua-loadtest give then).
int explainNoDisplay(const char* appName, int (*runCommandLine)(int argc, char** argv));

} // namespace ua::app
