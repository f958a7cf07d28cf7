#include "ua/server/events/EventManager.h"

#include "ua/server/events/EventRouter.h"

namespace ua {

EventManager::EventManager() : m_hub(std::make_shared<EventHub>()) {}

void EventManager::setHistorySink(std::function<void(const EventPtr&)> sink) {
    m_historyOn.store(false, std::memory_order_relaxed);
    m_historySink = std::move(sink);
    m_historyOn.store(bool(m_historySink), std::memory_order_release);
}

void EventManager::raise(const EventPtr& e) {
    if (!e) return;
    if (m_historyOn.load(std::memory_order_acquire)) m_historySink(e);
    if (m_hub->items.load(std::memory_order_relaxed) == 0) return;
    m_hub->raised.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(m_hub->mutex);  // a router is not destroyed while an event is posted to it
    for (EventRouter* r : m_hub->routers) {
        if (!r->hasItems()) continue;
        // Posted once per thread; if the router goes before it runs, Qt drops the call.
        QMetaObject::invokeMethod(r, [r, e] { r->deliver(e); }, Qt::QueuedConnection);
    }
}

EventRouter* EventManager::attach(SubscriptionScheduler& scheduler) {
    if (EventRouter* r = EventRouter::of(scheduler)) return r;
    return new EventRouter(m_hub, scheduler);
}

} // namespace ua
