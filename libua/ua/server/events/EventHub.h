// The state an EventManager shares with the EventRouter of each I/O thread (EventRouter.h): a
// router may outlive the manager.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ua {

class EventRouter;

// The state shared by the EventManager and its routers (a router may outlive the manager).
struct EventHub {
    std::mutex mutex;
    std::vector<EventRouter*> routers;  // under mutex
    std::atomic<int> items{0};          // event MonitoredItems of all routers
    std::atomic<uint64_t> raised{0};
};

} // namespace ua
