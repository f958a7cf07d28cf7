#include "DemoExtension.h"

#include "BenchmarkNodeManager.h"
#include "DemoEventLoad.h"
#include "DemoEvents.h"
#include "DemoNodeManager.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/events/EventManager.h"
#include "ua/server/runtime/ServerConfig.h"

namespace ua {

StatusCode DemoExtension::install(AddressSpace& space, const ServerConfig& config,
                                  const std::shared_ptr<EventManager>& events) {
    // Namespace 1 is the server's own (OPC 10000-5 NamespaceArray[1]); the benchmark layout lives there.
    BenchmarkNodeManager bench(config.applicationUri.toStdString(), config.benchmarkVariables);
    StatusCode s = bench.install(space);
    if (s.isGood() && config.demoNamespace) {
        // The nodes' callbacks share what they need with the manager: it may go after install().
        DemoNodeManager demo(config.demoUpdateRateMs);
        // Methods/GenerateEvent raises a BaseEventType event from the Server object (the root
        // notifier, so every event item on the Server gets it when its filter passes).
        demo.setEventCallback([weak = std::weak_ptr<EventManager>(events)](const QString& message, uint16_t severity) {
            const auto manager = weak.lock();
            if (!manager) return StatusCode(status::BadShutdown);
            if (manager->hasSubscribers())
                manager->raise(makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "GenerateEvent",
                                         message.toStdString(), severity));
            return StatusCode(status::Good);
        });
        s = demo.install(space);
        // Objects/Demo/Events/GenerateEvents: events at a given rate (the load tester's events scenario).
        if (s.isGood()) s = DemoEventLoadManager(events).install(space);
    }
    return s;
}

void DemoExtension::started(const ServerConfig& config, EventManager& events, QObject* context) {
    if (config.demoEventsMs > 0) new DemoEventSource(events, int(config.demoEventsMs), context);
}

void useDemoByDefault() { setDefaultServerExtensions({std::make_shared<DemoExtension>()}); }

} // namespace ua
