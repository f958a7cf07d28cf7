// A MonitoredItem of a Subscription (OPC 10000-4 5.13.1): what it samples, its revised parameters,
// its DataChangeFilter (7.22.2) and its queue of notifications (5.13.1.5).
//
// Threading: owned by its Subscription and touched only on the Subscription's home thread (see
// SessionSubscriptions.h). No locks, no clock reads: the caller passes the sampled value.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/addressspace/AddressSpace.h"

#include <memory>
#include <optional>
#include <vector>

namespace ua {

class BinaryEncoder;
class Event;
class MonitoredItem;
class Subscription;

// The event part of an item on an EventNotifier with an EventFilter (events/EventItem.h
// implements it): what the item's Subscription and the EventRouter of its thread use of it. Touched only on the home thread; its
// calls are made only for event items (data items have none).
class ItemEvents {
public:
    virtual ~ItemEvents() = default;
    // Offers an event (the home thread's EventRouter, events/EventRouter.h): queues its selected
    // fields (true) when it passes the filter; overflows counts dropped events. bypassWhere: the
    // whereClause is not applied (the Refresh events of OPC 10000-9 4.5 ignore the filter).
    virtual bool offer(const AddressSpace& space, const Event& e, const MonitoredItem& item, uint64_t& overflows,
                       bool bypassWhere = false) = 0;
    virtual bool hasQueued() const = 0;
    // Moves up to max queued events (oldest first) into out, with the item's current clientHandle.
    virtual std::size_t drainInto(Array<EventFieldList>& out, std::size_t max, uint32_t clientHandle) = 0;
    virtual void clear() = 0;
    // TransferSubscriptions: leaves the router of the old home thread / joins that of sub's home.
    virtual void detach() = 0;
    virtual void attach(Subscription& sub, MonitoredItem& item) = 0;
};

// The DataChangeFilter as the item applies it: a Percent deadband is already converted to an
// absolute one from the node's EURange (7.22.2).
struct DataChangeSettings {
    DataChangeTrigger trigger = DataChangeTrigger::StatusValue;  // the default without a filter
    DeadbandType deadbandType = DeadbandType::None;
    double absoluteDeadband = 0;  // in the value's units; 0: any change
};

class MonitoredItem {
public:
    uint32_t id = 0;            // the monitoredItemId (server handle), unique in the Server
    uint32_t clientHandle = 0;
    ReadValueId itemToMonitor;
    TimestampsToReturn timestamps = TimestampsToReturn::Both;
    NodeIndex node = kNoNode;
    // Value attribute, no IndexRange, default encoding: sampled straight from the node's ValueCell
    // or ValueSource; anything else goes through the Read service's readValue().
    bool fastPath = false;
    MonitoringMode mode = MonitoringMode::Reporting;
    double samplingIntervalMs = 0;  // revised; 5.13.1.2
    uint32_t queueSize = 1;         // revised; at least 1
    bool discardOldest = true;
    DataChangeSettings filter;
    // SetTriggering (5.13.5): the items this one triggers (their ids). An item in Sampling mode
    // reports its queue when one of its triggering items queues a notification.
    std::vector<uint32_t> triggeredItems;
    bool triggered = false;         // set by a triggering item; cleared when the queue is reported
    // Set for an item on an EventNotifier with an EventFilter (events/EventItem.h): its filter and
    // event queue. Such an item is never sampled and its data queue stays empty.
    std::shared_ptr<ItemEvents> events;

    // Offers a sampled value. Queues it (and returns true) when it passes the filter against the
    // last queued value; on a full queue discards per discardOldest and sets the Overflow InfoBits
    // (5.13.1.5) unless the queue size is 1. overflows counts the discards. v carries its
    // SourceTimestamp whatever timestampsToReturn says: the filter compares it (7.10
    // STATUS_VALUE_TIMESTAMP, also for Server and Neither), and for Server and Neither the queued
    // copy goes without it.
    bool offer(const DataValue& v, uint64_t& overflows);
    // sendInitialValues of TransferSubscriptions (5.14.7.2 Table 94), or a change to Reporting
    // mode: with values queued, those are sent and nothing is added; with an empty queue the last
    // value is queued again. False when nothing is queued and nothing was ever sampled.
    bool requeueLast(uint64_t& overflows);
    bool hasQueued() const { return !m_queue.empty(); }
    bool hasQueuedEvents() const { return events && events->hasQueued(); }
    std::size_t queued() const { return m_queue.size(); }
    // Encodes up to max queued values (oldest first) as MonitoredItemNotifications (OPC 10000-6
    // binary: clientHandle, DataValue) into e and removes them from the queue; returns how many.
    std::size_t drainEncoded(BinaryEncoder& e, std::size_t max);
    void clearQueue() { m_queue.clear(); }
    // Forgets the last value (a change to Disabled mode): the next sample is reported as new.
    void resetLast() { m_last.reset(); }
    // Trims the queue to the (new) queueSize, dropping per discardOldest; when it dropped any and
    // queueSize > 1, the oldest value left (discardOldest) or the newest carries the Overflow bit.
    void applyQueueSize(uint64_t& overflows);
    const std::optional<DataValue>& lastValue() const { return m_last; }

private:
    bool passesFilter(const DataValue& v) const;
    void push(const DataValue& v, uint64_t& overflows);

    std::optional<DataValue> m_last;  // the last sampled value that passed the filter, with its SourceTimestamp
    // Oldest first. A vector that keeps its capacity: no allocation per sample once warm (a deque
    // allocated a block every few samples); its capacity is what the item has needed so far.
    std::vector<DataValue> m_queue;
};

// InfoBits of a StatusCode (OPC 10000-4 7.39.1): InfoType DataValue and the Overflow bit.
inline constexpr uint32_t kOverflowInfoBits = 0x0480;

// True when the deadband of 7.22.2 can apply to values of this Variant (a number or an array of
// numbers).
bool isNumericVariant(const Variant& v);

} // namespace ua
