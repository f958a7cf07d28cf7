#include "cli/CommandLine.h"

#include <cstring>

namespace ua::clientapp {

bool isCommandLineInvocation(int, char**) { return false; }  // replaced by the CLI (issue 7 item 10)
int runCommandLine(int, char**) { return 2; }

} // namespace ua::clientapp
