// The event part of a MonitoredItem on an EventNotifier attribute (OPC 10000-4 1.05.03 5.12.1,
// 7.22.3): its compiled EventFilter and its queue of EventFieldLists, and the functions through
// which the MonitoredItem services and a Subscription handle event items.
//
// Threading: like the MonitoredItem that owns it (MonitoredItem::events), touched only on the
// Subscription's home thread. Events reach it through the home thread's EventRouter.
//
// Queue (5.12.1.5): queueSize 0 -> kDefaultEventQueueSize, at most SubscriptionConfig::maxQueueSize.
// On overflow an EventQueueOverflowEventType event (SourceNode the Server object, SourceName
// "Internal/EventQueueOverflow", through the select clauses, bypassing the whereClause) is queued
// once until the queue is next reported, in addition to queueSize: with discardOldest the oldest
// event is dropped and the overflow event goes to the front; without, the new event is dropped and
// the overflow event goes to the end. SubscriptionDiagnostics' eventQueueOverflowCount counts the
// dropped events.
#pragma once

#include "ua/server/eventmodel/EventFilter.h"
#include "ua/server/subscriptions/MonitoredItem.h"

#include <QPointer>
#include <deque>
#include <map>
#include <memory>

namespace ua {

class EventRouter;
class SessionSubscriptions;
class Subscription;

inline constexpr uint32_t kDefaultEventQueueSize = 1000;

class EventItem final : public ItemEvents {
public:
    EventItem() = default;
    ~EventItem() override;
    EventItem(const EventItem&) = delete;
    EventItem& operator=(const EventItem&) = delete;

    CompiledEventFilter filter;

    // Offers an event: queues its selected fields (true) when it passes the whereClause (or
    // bypassWhere); on a full queue applies the overflow rules above (overflows counts dropped events).
    bool offer(const AddressSpace& space, const Event& e, const MonitoredItem& item, uint64_t& overflows,
               bool bypassWhere = false) override;
    bool hasQueued() const override { return !m_queue.empty(); }
    std::size_t queued() const { return m_queue.size(); }
    // Moves up to max queued events (oldest first) into out, with the item's current clientHandle.
    std::size_t drainInto(Array<EventFieldList>& out, std::size_t max, uint32_t clientHandle) override;
    void clear() override;
    // Trims the queue to a new queue size.
    void applyQueueSize(const MonitoredItem& item, uint64_t& overflows);

    // Registration with the EventRouter of the home thread (nullptr: none).
    void registerWith(EventRouter* router, Subscription* sub, MonitoredItem* item);
    void unregister();
    // ItemEvents: unregister(); registerWith the router of sub's home thread.
    void detach() override { unregister(); }
    void attach(Subscription& sub, MonitoredItem& item) override;
    // The EventItem of an event item (item.events set).
    static EventItem& of(const MonitoredItem& item) { return static_cast<EventItem&>(*item.events); }

private:
    void queueOverflowEvent(const AddressSpace& space, const MonitoredItem& item);
    std::size_t eventsQueued() const { return m_queue.size() - (m_overflowQueued ? 1 : 0); }

    std::deque<EventFieldList> m_queue;  // oldest first
    bool m_overflowQueued = false;
    QPointer<EventRouter> m_router;
    MonitoredItem* m_item = nullptr;
};

// --- The MonitoredItem services for event items (home thread) ---
// CreateMonitoredItems of an item on the EventNotifier attribute with an EventFilter:
//   Bad_NotSupported               the node's EventNotifier has no SubscribeToEvents bit (OPC
//                                  10000-3 8.59), or events are not served on this thread
//   Bad_EventFilterInvalid         see EventFilter.h (filterResult carries the EventFilterResult)
//   Bad_TooManyMonitoredItems      as for data items
// revisedSamplingInterval is 0 (events are not sampled).
MonitoredItemCreateResult createEventItem(SessionSubscriptions& ss, Subscription& sub, const AddressSpace& space,
                                          const MonitoredItemCreateRequest& in, NodeIndex node,
                                          TimestampsToReturn timestamps, int64_t nowUs);
// ModifyMonitoredItems of an event item: a new EventFilter (Bad_EventFilterInvalid as above;
// anything but an EventFilter: Bad_FilterNotAllowed, a null filter keeps the old one), queue size
// and discardOldest.
MonitoredItemModifyResult modifyEventItem(SessionSubscriptions& ss, Subscription& sub, MonitoredItem& item,
                                          const AddressSpace& space, const MonitoredItemModifyRequest& in,
                                          TimestampsToReturn timestamps);

} // namespace ua
