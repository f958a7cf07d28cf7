// The events of one I/O thread: the event MonitoredItems of the Subscriptions homed on this
// thread's SubscriptionScheduler (its QObject child), and the delivery of a raised event to them.
//
// EventManager::raise() posts each event once to every router that has items (not once per item);
// deliver() then runs on the home thread: for each item (Disabled skipped) the whereClause is
// evaluated, the select clauses queued, and the Subscription told (notificationQueued, and the
// triggered items of SetTriggering). An item on the Server object (the root notifier) gets every
// event; an item on another notifier N gets the events whose SourceNode is N or lies below N in
// the notifier hierarchy: reached from N by forward HasEventSource references and their subtypes
// (HasNotifier), OPC 10000-3 7.16, 7.17 and OPC 10000-5 (not through Organizes or HasComponent).
#pragma once

#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/eventmodel/Event.h"

#include <QObject>
#include <atomic>
#include <memory>
#include <vector>

namespace ua {

class MonitoredItem;
class Subscription;
class SubscriptionScheduler;
struct EventHub;

// The source and the notifiers above it: source first, then the sources of inverse
// HasEventSource references (and subtypes), breadth first, each once; at most kMaxNotifierDepth
// nodes. Empty for kNoNode.
inline constexpr std::size_t kMaxNotifierDepth = 256;
std::vector<NodeIndex> eventNotifiersOf(const AddressSpace& space, NodeIndex source);

// Offers one event to one event item outside the router (ConditionRefresh, OPC 10000-9 5.5.7), on
// the item's home thread: a Disabled item and an item whose notifier is not the Server object nor
// in notifiers (eventNotifiersOf the event's SourceNode) take nothing; the whereClause is applied
// unless bypassWhere; a queued event tells the Subscription. True when the event was queued.
bool offerEventTo(const AddressSpace& space, Subscription& sub, MonitoredItem& item, const Event& e,
                  const std::vector<NodeIndex>& notifiers, bool bypassWhere);

class EventRouter : public QObject {
    Q_OBJECT
public:
    // Created by EventManager::attach() on the scheduler's thread.
    EventRouter(std::shared_ptr<EventHub> hub, SubscriptionScheduler& scheduler);
    ~EventRouter() override;

    // The router of a scheduler, or nullptr when events are not served there.
    static EventRouter* of(SubscriptionScheduler& scheduler);

    void add(Subscription* sub, MonitoredItem* item);
    void remove(MonitoredItem* item);
    std::size_t itemCount() const { return m_entries.size(); }
    bool hasItems() const { return m_count.load(std::memory_order_relaxed) > 0; }

    // On the home thread: offers the event to every item.
    void deliver(const EventPtr& e);
    uint64_t delivered() const { return m_delivered; }
    // Offers e to one item and tells sub when it was queued (deliver() and offerEventTo()).
    static bool queueEvent(Subscription& sub, MonitoredItem& item, const AddressSpace& space, const Event& e, bool bypassWhere);

private:
    struct Entry {
        Subscription* sub;
        MonitoredItem* item;
    };
    std::shared_ptr<EventHub> m_hub;
    SubscriptionScheduler& m_scheduler;
    std::vector<Entry> m_entries;
    std::atomic<int> m_count{0};
    uint64_t m_delivered = 0;
};

} // namespace ua
