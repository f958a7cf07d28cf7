#include "ua/server/events/EventRouter.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/events/EventHub.h"
#include "ua/server/subscriptions/Subscription.h"
#include "ua/server/subscriptions/SubscriptionOwner.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include <algorithm>

namespace ua {

EventRouter::EventRouter(std::shared_ptr<EventHub> hub, SubscriptionScheduler& scheduler)
    : QObject(&scheduler), m_hub(std::move(hub)), m_scheduler(scheduler) {
    setObjectName(QStringLiteral("ua-event-router"));
    std::lock_guard lock(m_hub->mutex);
    m_hub->routers.push_back(this);
}

EventRouter::~EventRouter() {
    m_hub->items.fetch_sub(int(m_entries.size()), std::memory_order_relaxed);
    std::lock_guard lock(m_hub->mutex);
    std::erase(m_hub->routers, this);
}

EventRouter* EventRouter::of(SubscriptionScheduler& scheduler) {
    return scheduler.findChild<EventRouter*>(QStringLiteral("ua-event-router"), Qt::FindDirectChildrenOnly);
}

void EventRouter::add(Subscription* sub, MonitoredItem* item) {
    m_entries.push_back({sub, item});
    m_count.fetch_add(1, std::memory_order_relaxed);
    m_hub->items.fetch_add(1, std::memory_order_relaxed);
}

void EventRouter::remove(MonitoredItem* item) {
    const auto it = std::find_if(m_entries.begin(), m_entries.end(), [item](const Entry& e) { return e.item == item; });
    if (it == m_entries.end()) return;
    m_entries.erase(it);
    m_count.fetch_sub(1, std::memory_order_relaxed);
    m_hub->items.fetch_sub(1, std::memory_order_relaxed);
}

std::vector<NodeIndex> eventNotifiersOf(const AddressSpace& space, NodeIndex source) {
    std::vector<NodeIndex> found;
    if (source == kNoNode) return found;
    const NodeIndex hasEventSource = space.indexOf(NodeId(id::HasEventSource));
    found.push_back(source);
    // Breadth first up the inverse HasEventSource / HasNotifier (and subtypes) references; the
    // hierarchy may have loops and several parents: each node once.
    for (std::size_t i = 0; i < found.size() && found.size() < kMaxNotifierDepth; ++i) {
        for (const Reference& r : space.node(found[i]).references) {
            if (r.isForward || hasEventSource == kNoNode) continue;
            if (r.referenceType != hasEventSource && !space.isSubtypeOf(r.referenceType, hasEventSource)) continue;
            if (std::find(found.begin(), found.end(), r.target) == found.end()) found.push_back(r.target);
        }
    }
    return found;
}

void EventRouter::deliver(const EventPtr& e) {
    if (!e || m_entries.empty()) return;
    ++m_delivered;
    const AddressSpace& space = m_scheduler.addressSpace();
    const NodeIndex server = space.indexOf(NodeId(id::Server));
    const Variant* source = e->field("SourceNode");
    const NodeId* sourceNode = source ? source->get<NodeId>() : nullptr;
    // The notifiers that report this event: its source and every node above it through
    // HasEventSource / HasNotifier (OPC 10000-3 7.16, 7.17), found once per event and only when an
    // item on a notifier other than the Server object (the root: every event) is there.
    std::vector<NodeIndex> notifiers;
    bool notifiersFound = false;
    for (const Entry& en : m_entries) {
        MonitoredItem& item = *en.item;
        if (item.mode == MonitoringMode::Disabled || !item.events) continue;
        if (item.node != server) {
            if (!notifiersFound) {
                notifiers = eventNotifiersOf(space, sourceNode ? space.indexOf(*sourceNode) : kNoNode);
                notifiersFound = true;
            }
            if (std::find(notifiers.begin(), notifiers.end(), item.node) == notifiers.end()) continue;
        }
        queueEvent(*en.sub, item, space, *e, false);
    }
}

bool EventRouter::queueEvent(Subscription& sub, MonitoredItem& item, const AddressSpace& space, const Event& e, bool bypassWhere) {
    uint64_t overflows = 0;
    const bool queued = item.events->offer(space, e, item, overflows, bypassWhere);
    sub.counters.eventQueueOverflowCount += overflows;
    if (!queued) return false;
    if (item.mode == MonitoringMode::Reporting) sub.notificationQueued();
    if (!item.triggeredItems.empty()) sub.itemTriggered(item, sub.owner().home().now());
    return true;
}

bool offerEventTo(const AddressSpace& space, Subscription& sub, MonitoredItem& item, const Event& e,
                  const std::vector<NodeIndex>& notifiers, bool bypassWhere) {
    if (item.mode == MonitoringMode::Disabled || !item.events) return false;
    if (item.node != space.indexOf(NodeId(id::Server)) && std::find(notifiers.begin(), notifiers.end(), item.node) == notifiers.end())
        return false;
    return EventRouter::queueEvent(sub, item, space, e, bypassWhere);
}

} // namespace ua
