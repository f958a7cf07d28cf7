#include "ua/server/events/EventItem.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/events/EventRouter.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/Subscription.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include <algorithm>

namespace ua {

namespace {

constexpr uint8_t kSubscribeToEvents = 0x01;  // EventNotifierType bit (OPC 10000-3 8.59)

uint32_t reviseEventQueueSize(const SubscriptionConfig& c, uint32_t requested) {
    if (requested == 0) requested = kDefaultEventQueueSize;
    return c.maxQueueSize ? std::min(requested, c.maxQueueSize) : requested;
}

} // namespace

EventItem::~EventItem() { unregister(); }

void EventItem::registerWith(EventRouter* router, Subscription* sub, MonitoredItem* item) {
    unregister();
    m_router = router;
    m_item = item;
    if (router) router->add(sub, item);
}

void EventItem::unregister() {
    if (m_router && m_item) m_router->remove(m_item);
    m_router = nullptr;
}

void EventItem::queueOverflowEvent(const AddressSpace& space, const MonitoredItem& item) {
    if (m_overflowQueued) return;
    const auto e = makeEvent(NodeId(id::EventQueueOverflowEventType), NodeId(id::Server), "Internal/EventQueueOverflow",
                             "Events were lost: the queue of the MonitoredItem overflowed", 1);
    EventFieldList f = filter.select(space, *e, item.clientHandle);
    if (item.discardOldest) m_queue.push_front(std::move(f));
    else m_queue.push_back(std::move(f));
    m_overflowQueued = true;
}

bool EventItem::offer(const AddressSpace& space, const Event& e, const MonitoredItem& item, uint64_t& overflows,
                      bool bypassWhere) {
    if (!bypassWhere && !filter.matches(space, e)) return false;
    const uint32_t size = std::max<uint32_t>(1, item.queueSize);
    if (eventsQueued() < size) {
        EventFieldList f = filter.select(space, e, item.clientHandle);
        // Keeps an overflow event queued at the end (discardOldest false) the last entry.
        if (m_overflowQueued && !item.discardOldest) m_queue.insert(m_queue.end() - 1, std::move(f));
        else m_queue.push_back(std::move(f));
        return true;
    }
    ++overflows;
    if (item.discardOldest) {
        // The oldest event goes; an overflow event at the front stays.
        m_queue.erase(m_queue.begin() + (m_overflowQueued ? 1 : 0));
        m_queue.push_back(filter.select(space, e, item.clientHandle));
    }
    queueOverflowEvent(space, item);
    return true;
}

std::size_t EventItem::drainInto(Array<EventFieldList>& out, std::size_t max, uint32_t clientHandle) {
    const std::size_t n = std::min(max, m_queue.size());
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back(std::move(m_queue.front()));
        out.back().clientHandle = clientHandle;
        m_queue.pop_front();
    }
    if (m_queue.empty()) m_overflowQueued = false;
    return n;
}

void EventItem::clear() {
    m_queue.clear();
    m_overflowQueued = false;
}

void EventItem::applyQueueSize(const MonitoredItem& item, uint64_t& overflows) {
    while (eventsQueued() > std::max<uint32_t>(1, item.queueSize)) {
        ++overflows;
        if (item.discardOldest) m_queue.erase(m_queue.begin() + (m_overflowQueued ? 1 : 0));
        else m_queue.erase(m_queue.end() - (m_overflowQueued ? 2 : 1));
    }
}

void EventItem::attach(Subscription& sub, MonitoredItem& item) {
    registerWith(EventRouter::of(sub.owner().home()), &sub, &item);
}

// --- Services ---

MonitoredItemCreateResult createEventItem(SessionSubscriptions& ss, Subscription& sub, const AddressSpace& space,
                                          const MonitoredItemCreateRequest& in, NodeIndex node,
                                          TimestampsToReturn timestamps, int64_t nowUs) {
    MonitoredItemCreateResult r;
    const SubscriptionConfig& c = ss.config();
    const EventFilter& ef = *in.requestedParameters.filter.get<EventFilter>();
    EventRouter* router = EventRouter::of(ss.home());
    if (!router || !(space.node(node).eventNotifier & kSubscribeToEvents)) {
        r.statusCode = status::BadNotSupported;
        return r;
    }
    auto events = std::make_shared<EventItem>();
    EventFilterResult fr;
    bool hasErrors = false;
    r.statusCode = events->filter.compile(space, ef, fr, hasErrors);
    if (hasErrors) r.filterResult = ExtensionObject::make(std::move(fr));
    if (r.statusCode.isBad()) return r;
    if ((c.maxMonitoredItemsPerSubscription && sub.itemCount() >= c.maxMonitoredItemsPerSubscription) ||
        !ss.home().registry().reserveItems(1)) {
        MonitoredItemCreateResult tooMany;
        tooMany.statusCode = status::BadTooManyMonitoredItems;
        return tooMany;
    }
    auto item = std::make_unique<MonitoredItem>();
    item->id = ss.home().registry().nextItemId();
    item->clientHandle = in.requestedParameters.clientHandle;
    item->itemToMonitor = in.itemToMonitor;
    item->timestamps = timestamps;
    item->node = node;
    item->mode = in.monitoringMode;
    item->samplingIntervalMs = 0;
    item->queueSize = reviseEventQueueSize(c, in.requestedParameters.queueSize);
    item->discardOldest = in.requestedParameters.discardOldest;
    item->events = events;
    r.monitoredItemId = item->id;
    r.revisedSamplingInterval = 0;
    r.revisedQueueSize = item->queueSize;
    MonitoredItem* ref = item.get();
    sub.addItem(std::move(item), nowUs);
    events->registerWith(router, &sub, ref);
    return r;
}

MonitoredItemModifyResult modifyEventItem(SessionSubscriptions& ss, Subscription& sub, MonitoredItem& item,
                                          const AddressSpace& space, const MonitoredItemModifyRequest& in,
                                          TimestampsToReturn timestamps) {
    MonitoredItemModifyResult r;
    const MonitoringParameters& p = in.requestedParameters;
    if (!p.filter.isNull()) {
        const EventFilter* ef = p.filter.get<EventFilter>();
        if (!ef) {
            r.statusCode = status::BadFilterNotAllowed;
            return r;
        }
        CompiledEventFilter compiled;
        EventFilterResult fr;
        bool hasErrors = false;
        r.statusCode = compiled.compile(space, *ef, fr, hasErrors);
        if (hasErrors) r.filterResult = ExtensionObject::make(std::move(fr));
        if (r.statusCode.isBad()) return r;
        EventItem::of(item).filter = std::move(compiled);
    }
    item.clientHandle = p.clientHandle;
    item.timestamps = timestamps;
    item.discardOldest = p.discardOldest;
    item.queueSize = reviseEventQueueSize(ss.config(), p.queueSize);
    uint64_t overflows = 0;
    EventItem::of(item).applyQueueSize(item, overflows);
    sub.counters.eventQueueOverflowCount += overflows;
    r.revisedSamplingInterval = 0;
    r.revisedQueueSize = item.queueSize;
    return r;
}

} // namespace ua
