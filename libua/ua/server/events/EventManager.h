// The server's event source API (OPC 10000-4 1.05.03 5.12.1, OPC 10000-3 4.7): raise() takes an
// immutable Event (Event.h) from any thread and hands it to every I/O thread that has event
// MonitoredItems, where their EventFilters run (EventRouter.h).
//
//     auto e = makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "Demo", "hello", 500);
//     if (server.events().hasSubscribers()) server.events().raise(std::move(e));
//
// Cost: raise() with no event item anywhere is one relaxed atomic load; check hasSubscribers()
// before building an event to skip even that. With items, it takes a mutex (held while posting,
// never by the I/O threads' event paths) and posts the shared event once per router with items.
#pragma once

#include "ua/server/eventmodel/Event.h"
#include "ua/server/events/EventHub.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace ua {

class EventRouter;
class SubscriptionScheduler;

class EventManager {
public:
    EventManager();

    // True when some Subscription has an event MonitoredItem, or the event history keeps events
    // (any thread).
    bool hasSubscribers() const {
        return m_hub->items.load(std::memory_order_relaxed) > 0 || m_historyOn.load(std::memory_order_relaxed);
    }
    // Raises an event (any thread): to the history sink first, then to the event items. Dropped
    // at once when neither wants it.
    void raise(const EventPtr& e);

    // The event history (OPC 10000-11 5.4): every raised event is handed to sink on the raising
    // thread (it must be quick and thread-safe: HistoryManager::recordEvent posts it). Set before
    // the server serves and cleared (an empty function) after it stopped.
    void setHistorySink(std::function<void(const EventPtr&)> sink);
    // Events raised while someone subscribed.
    uint64_t raisedCount() const { return m_hub->raised.load(std::memory_order_relaxed); }

    // Serves events on a scheduler's thread: creates its EventRouter (call on that thread).
    EventRouter* attach(SubscriptionScheduler& scheduler);

private:
    std::shared_ptr<EventHub> m_hub;
    std::atomic<bool> m_historyOn{false};
    std::function<void(const EventPtr&)> m_historySink;  // written only while nothing raises
};

} // namespace ua
