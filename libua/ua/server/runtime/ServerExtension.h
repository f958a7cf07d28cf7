// What an application adds to its Servers: namespaces and event sources beyond the stack's own
// (namespace 0, the Server object, diagnostics). The server app's demo and benchmark namespaces
// are one (server-app/demo/DemoExtension.h); the stack knows none of them.
//
// A ServerConfig starts with the process's default extensions (setDefaultServerExtensions(): the
// server app, the tests and the benchmarks set the demo's at start-up) in
// ServerConfig::extensions; a program or test may change the list of its copy.
#pragma once

#include "ua/types/StatusCode.h"

#include <memory>
#include <vector>

class QObject;

namespace ua {

class AddressSpace;
class EventManager;
struct ServerConfig;

class ServerExtension {
public:
    virtual ~ServerExtension() = default;
    // While the Server builds its address space (in its constructor), in the order of the list:
    // after namespace 0, before the Server object. config is the Server's (its applicationUri
    // filled in), events its EventManager (hold it weakly in what runs later: a node's callback may
    // run while the Server goes). A Bad status stops the building (logged; the address space is what
    // was built so far).
    virtual StatusCode install(AddressSpace& space, const ServerConfig& config,
                               const std::shared_ptr<EventManager>& events) = 0;
    // When the Server has started listening, on its accept thread: objects made children of
    // context live until the Server stops.
    virtual void started(const ServerConfig& config, EventManager& events, QObject* context) {
        (void)config, (void)events, (void)context;
    }
};

using ServerExtensions = std::vector<std::shared_ptr<ServerExtension>>;

// The extensions a ServerConfig starts with (none until set). Set them before making configs, on
// one thread (program start).
void setDefaultServerExtensions(ServerExtensions extensions);
const ServerExtensions& defaultServerExtensions();

} // namespace ua
