// A Subscription (OPC 10000-4 5.14.1): its publishing timer and the state machine of 5.14.1.2
// (NORMAL, LATE, KEEPALIVE, CLOSED), its keep-alive and lifetime counters, its sequence numbers and
// retransmission queue, its MonitoredItems grouped by sampling interval, and its
// SubscriptionDiagnostics counters.
//
// Rules kept here (1.05.03 numbering 5.13/5.14):
//  - revised parameters: publishing interval in [min, max] of SubscriptionConfig (0, negative, NaN:
//    the fastest), keep-alive count >= 1, lifetime count >= 3 x keep-alive count (5.14.2.2).
//  - every publishing timer expiry counts the lifetime counter down; it is reset whenever a
//    NotificationMessage or keep-alive is sent, a Publish request arrives for the Session, and by
//    ModifySubscription, SetPublishingMode, Republish and the MonitoredItem services. At 0 the
//    Subscription is CLOSED: its items are deleted and a StatusChangeNotification Bad_Timeout is
//    queued for the Session's next Publish response.
//  - a keep-alive goes out after maxKeepAliveCount expiries without a NotificationMessage (and at
//    the first expiry, "MessageSent" false); it carries the next sequence number, is not stored in
//    the retransmission queue and cannot be acknowledged.
//  - a NotificationMessage holds at most maxNotificationsPerPublish notifications; the rest are
//    sent with moreNotifications set, at once while Publish requests are parked.
//
// Publishing timer: an expiry that has nothing to do (no notifications, no keep-alive and no
// lifetime end due, or LATE with its lifetime not yet run out) only counts the two counters down.
// Such expiries are not timed one by one: the timer is armed for the first expiry that has
// something to do, and the ones before it are counted when it fires, when the state changes
// (pullIn(): a notification queued, a message sent, a counter reset, ModifySubscription,
// SetPublishingMode) or when the counters are read. An idle Subscription with maxKeepAliveCount 10
// so costs one timer event per keep-alive, not one per publishing interval. Its deadlines stay on
// the grid of its first expiry (no drift); the first expiry is rounded up to a multiple of
// publishingQuantumUs() (at most 1/100 of the interval, at most 16 ms), so Subscriptions with the same
// interval created at different times share a wake-up of the thread.
//
// Threading: owned by a SessionSubscriptions and used only on its home thread. Time is passed in
// (microseconds of SubscriptionScheduler's clock), so tests drive it with a fake clock.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/subscriptions/MonitoredItem.h"
#include "ua/server/subscriptions/SubscriptionConfig.h"
#include "ua/server/subscriptions/TimerQueue.h"

#include <deque>
#include <map>
#include <memory>

namespace ua {

class SubscriptionOwner;

// SubscriptionDiagnostics counters (OPC 10000-5 12.15 SubscriptionDiagnosticsDataType) kept as
// plain integers on the home thread; read them through SessionSubscriptions::diagnostics().
struct SubscriptionCounters {
    uint64_t modifyCount = 0;
    uint64_t enableCount = 0;
    uint64_t disableCount = 0;
    uint64_t republishRequestCount = 0;      // Republish requests for this Subscription
    uint64_t republishMessageRequestCount = 0;  // messages asked for (one per Republish)
    uint64_t republishMessageCount = 0;      // ... of them found in the retransmission queue
    uint64_t transferRequestCount = 0;       // TransferSubscriptions naming it (moved, or already the Session's)
    uint64_t transferredToSameClientCount = 0;
    uint64_t transferredToAltClientCount = 0;
    uint64_t publishRequestCount = 0;        // Publish requests used by this Subscription
    uint64_t dataChangeNotificationsCount = 0;
    uint64_t eventNotificationsCount = 0;    // EventFieldLists sent (the events code counts them)
    uint64_t notificationsCount = 0;
    uint64_t latePublishRequestCount = 0;    // timer expiries that found no Publish request
    uint64_t keepAliveCount = 0;             // keep-alive messages sent
    uint64_t discardedMessageCount = 0;      // dropped from a full retransmission queue
    uint64_t monitoringQueueOverflowCount = 0;
    uint64_t eventQueueOverflowCount = 0;
    uint64_t samplesTaken = 0;
    uint64_t samplingTicks = 0;              // sampling group deadlines served
    uint64_t samplingTicksLate = 0;          // ... of them served half an interval or more late
    uint64_t samplingTicksSkipped = 0;       // sampling deadlines missed (thread late by >= 1 interval)
};

class Subscription {
public:
    enum class State { Normal, Late, KeepAlive, Closed };
    struct Parameters {
        double publishingIntervalMs = 0;
        uint32_t lifetimeCount = 0;
        uint32_t maxKeepAliveCount = 0;
        // The split of NotificationMessages: the client's value capped at
        // SubscriptionConfig::maxNotificationsPerPublish (a client's 0, "no limit", gets the cap).
        uint32_t maxNotificationsPerPublish = 0;
        // What the client asked for (0: no limit); SubscriptionDiagnostics shows it (OPC 10000-5
        // 12.15: the value the Subscription was created or modified with).
        uint32_t requestedMaxNotificationsPerPublish = 0;
        bool publishingEnabled = true;
        uint8_t priority = 0;
    };
    // The revised parameters of a CreateSubscription / ModifySubscription request (5.14.2.2).
    static Parameters revise(const SubscriptionConfig& c, double publishingIntervalMs, uint32_t lifetimeCount,
                             uint32_t maxKeepAliveCount, uint32_t maxNotificationsPerPublish);

    Subscription(uint32_t id, SubscriptionOwner& owner, const Parameters& p, int64_t nowUs);
    ~Subscription();
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;

    uint32_t id() const { return m_id; }
    const Parameters& parameters() const { return m_params; }
    State state() const { return m_state; }
    SubscriptionOwner& owner() { return *m_owner; }

    // --- Subscription services ---
    void modify(const Parameters& p, int64_t nowUs);            // 5.14.3
    void setPublishingEnabled(bool enabled);                    // 5.14.4
    // 5.14.5: Good, or Bad_SequenceNumberUnknown when the message is not in the queue.
    StatusCode acknowledge(uint32_t sequenceNumber);
    // 5.14.6: the message, or nullptr (Bad_MessageNotAvailable).
    const NotificationMessage* republish(uint32_t sequenceNumber);
    Array<uint32_t> availableSequenceNumbers() const;
    void resetLifetimeCounter();

    // --- Publishing (driven by SessionSubscriptions) ---
    // A Publish request arrived while this Subscription is LATE, or has more notifications with
    // publishing enabled: answers it now (returns true) with notifications or a keep-alive. With
    // PublishingEnabled FALSE a request is queued even with MoreNotifications set (5.14.1.2, NORMAL
    // "Receive Publish Request"): keep-alives go out when due only. A keep-alive always says
    // moreNotifications false; the notifications left go out once publishing is enabled again.
    bool wantsPublishRequest() const {
        return m_state == State::Late || (m_moreNotifications && m_params.publishingEnabled);
    }
    bool publishNow(int64_t nowUs);
    // The timer expired without a Publish request for the final Bad_Timeout message: nothing.
    // Builds a StatusChangeNotification message with the next sequence number (Bad_Timeout on
    // expiry, Good_SubscriptionTransferred for the old Session of a transfer). For a transfer the
    // number is not consumed (like a keep-alive's): the new Session's next message carries it, so
    // its client sees no gap that it would try to Republish (5.14.7 leaves the number open).
    NotificationMessage statusChangeMessage(StatusCode s);

    // --- MonitoredItems (5.13) ---
    MonitoredItem* item(uint32_t id);
    std::size_t itemCount() const { return m_items.size(); }
    void addItem(std::unique_ptr<MonitoredItem> item, int64_t nowUs);
    bool removeItem(uint32_t id);
    // Re-files an item after its sampling interval or mode changed.
    void itemChanged(MonitoredItem& item, int64_t nowUs);
    const std::map<uint32_t, std::unique_ptr<MonitoredItem>>& items() const { return m_items; }
    // Samples one item now (its first value on creation, as 5.13.1.2 asks).
    void sampleNow(MonitoredItem& item);
    // Marks that some item queued something that is to be reported (the next expiry sends it).
    void notificationQueued();
    // NotificationsAvailable (5.14.1.2) again after queued values went unsent: an item set to
    // Disabled or Sampling (SetMonitoringMode) or deleted (DeleteMonitoredItems). When no item to
    // report (Reporting, or Sampling and triggered) has anything queued it is FALSE (and so is
    // MoreNotifications): the next expiry counts the keep-alive counter down and the keep-alive goes
    // out maxKeepAliveCount expiries after the last message, not early. One walk of the items per
    // service call, none per expiry or sample.
    void recheckNotificationsAvailable();
    // atUs: when the triggering item queued (scheduler clock, us).
    void itemTriggered(MonitoredItem& triggering, int64_t atUs);

    // --- Moving between Sessions (TransferSubscriptions 5.14.7) ---
    // Releases the timers (on the old home thread) / re-arms them with the new owner.
    void detach();
    void attach(SubscriptionOwner& owner, int64_t nowUs);
    // sendInitialValues: every Reporting item with an empty queue queues its last value again
    // (MonitoredItem::requeueLast).
    void queueInitialValues();

    SubscriptionCounters counters;
    uint32_t nextSequenceNumber() const { return m_nextSequence; }
    // Where numbering goes on (0 is taken as 1): tests start a Subscription near the wrap.
    void setNextSequenceNumber(uint32_t n) { m_nextSequence = n ? n : 1; }
    // The counters as the expiries up to the scheduler's now() left them.
    uint32_t currentKeepAliveCount() const;
    uint32_t currentLifetimeCount() const;
    // The deadline the publishing timer is armed for (scheduler clock, us); tests look at it.
    int64_t publishingTimerDueUs() const { return m_armedDueUs; }
    // The rounding of a first expiry for a publishing interval (us): the largest power of two of
    // milliseconds <= interval / 100, at most 16 ms; 1 us below 100 ms.
    static int64_t publishingQuantumUs(int64_t intervalUs);
    std::size_t unacknowledgedMessageCount() const { return m_retransmission.size(); }
    std::size_t disabledItemCount() const;

private:
    struct SamplingGroup;
    struct PublishTimer final : TimerQueue::Client {
        Subscription* self = nullptr;
        void onTimer(uint32_t, int64_t dueUs, int64_t nowUs) override { self->onPublishingTimer(dueUs, nowUs); }
    };
    // Further messages of one publishing cycle (moreNotifications) go out one per timer callback,
    // armed at the scheduler's now(): sampling deadlines that passed meanwhile run first, so a large
    // cycle does not hold up sampling for its whole length.
    struct MoreTimer final : TimerQueue::Client {
        Subscription* self = nullptr;
        void onTimer(uint32_t, int64_t, int64_t nowUs) override { self->sendMore(nowUs); }
    };
    void onPublishingTimer(int64_t dueUs, int64_t nowUs);
    void expiry(int64_t dueUs, int64_t nowUs);
    void sendMore(int64_t nowUs);
    void scheduleMore();
    void armPublishingTimer(int64_t afterUs);
    // Expiries from now on that would only count down (see above), before the first that acts.
    uint64_t noOpsAhead() const;
    // No-op expiries before the armed one that are due by nowUs and not yet counted.
    uint64_t pendingNoOps(int64_t nowUs) const;
    void countNoOps(uint64_t n);
    // Counts the pending no-op expiries, then arms the timer earlier if the state now wants it.
    void catchUp(int64_t nowUs);
    void pullIn(int64_t nowUs);
    void armNext(int64_t dueUs, int64_t nowUs);
    void markReportable(int64_t atUs);
    void sampleGroup(SamplingGroup& g, int64_t dueUs, int64_t nowUs);
    void fileItem(MonitoredItem& item, int64_t nowUs);
    void unfileItem(MonitoredItem& item);
    bool hasReportable() const;
    // Sends a NotificationMessage (data) or a keep-alive on a parked Publish request; false when
    // none is parked.
    bool sendMessage(bool keepAlive, int64_t nowUs);
    void expire();
    uint32_t takeSequenceNumber();

    uint32_t m_id;
    SubscriptionOwner* m_owner;  // its SessionSubscriptions
    Parameters m_params;
    State m_state = State::Normal;
    bool m_messageSent = false;
    bool m_moreNotifications = false;
    bool m_notificationsAvailable = false;
    uint32_t m_keepAliveCounter;
    uint32_t m_lifetimeCounter;
    uint32_t m_nextSequence = 1;
    int64_t m_intervalUs;
    int64_t m_lastDueUs = 0;   // the last expiry counted (grid: m_lastDueUs + k * m_intervalUs)
    int64_t m_armedDueUs = 0;  // the expiry the timer is armed for (> m_lastDueUs)
    PublishTimer m_timerClient;
    Timer m_timer;
    MoreTimer m_moreClient;
    Timer m_moreTimer;
    std::deque<NotificationMessage> m_retransmission;  // oldest first
    std::map<uint32_t, std::unique_ptr<MonitoredItem>> m_items;
    // The same items in creation order: a NotificationMessage walks this contiguous list (a walk of
    // the map cost more than the draining itself at 8,192 items), starting where the previous
    // message of a cycle that had more notifications stopped.
    std::vector<MonitoredItem*> m_itemOrder;
    std::vector<MonitoredItem*> m_eventItems;  // the event items of m_itemOrder (events/EventItem.h)
    std::size_t m_drainFrom = 0;
    std::map<int64_t, std::unique_ptr<SamplingGroup>> m_groups;  // by sampling interval (us)
};

} // namespace ua
