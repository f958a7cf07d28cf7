// What headless mode and the window do alike with a Server: print its endpoints, and shut it down
// gracefully (OPC 10000-5 6.3.1 ServerStatus: State Shutdown with SecondsTillShutdown counting
// down, then the Sessions closed and their clients told).
#pragma once

#include "ua/server/runtime/Server.h"

#include <cstdio>
#include <functional>

namespace ua::app {

// "ua-server <version> listening on <url> (port N)", one line per endpoint and the demo
// configuration's warning, as ./run.sh and the tests read them.
void printEndpoints(const Server& server, std::FILE* out);

// Starts a graceful shutdown of a running server with `seconds` of ServerState Shutdown, and calls
// done (in context's thread) once the server has closed its Sessions. A second call while one runs
// is ignored.
void shutDownGracefully(Server& server, uint32_t seconds, const QString& reason, QObject* context,
                        std::function<void()> done);

} // namespace ua::app
