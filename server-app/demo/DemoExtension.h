// The server app's demo (ServerExtension, libua/ua/server/runtime/ServerExtension.h): namespace 1
// with the benchmark variables (BenchmarkNodeManager.h, ServerConfig::benchmarkVariables), the demo
// namespace (DemoNodeManager.h, ServerConfig::demoNamespace and demoUpdateRateMs; its
// Methods/GenerateEvent raises a BaseEventType event from the Server object), the event load of
// Events/GenerateEvents (DemoEventLoad.h, with the demo namespace) and the periodic demo events
// (DemoEvents.h, ServerConfig::demoEventsMs).
#pragma once

#include "ua/server/runtime/ServerExtension.h"

namespace ua {

class DemoExtension final : public ServerExtension {
public:
    StatusCode install(AddressSpace& space, const ServerConfig& config,
                       const std::shared_ptr<EventManager>& events) override;
    void started(const ServerConfig& config, EventManager& events, QObject* context) override;
};

// Makes the demo a default extension of every ServerConfig made from now on (program start: the
// server app, the test bundles, the benchmarks).
void useDemoByDefault();

} // namespace ua
