#include "window/WindowMain.h"

#include <cstdio>

namespace ua::clientapp {

int runWindow(int, char**) {  // replaced by the window (issue 7)
    std::fprintf(stderr, "ua-client: the window is not built yet\n");
    return 2;
}

} // namespace ua::clientapp
