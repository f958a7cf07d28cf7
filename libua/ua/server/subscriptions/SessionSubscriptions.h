// The Subscriptions of one Session and its queue of parked Publish requests (OPC 10000-4 5.14.1,
// 5.14.5).
//
// Home thread rule. A SessionSubscriptions is created on the I/O thread that serves the Session's
// first subscription request; that thread's SubscriptionScheduler is its home for life. Everything
// in it (Subscriptions, MonitoredItems, parked Publish requests, counters) is touched only on the
// home thread, so the Publish and sampling paths take no lock. A request of the Session arriving on
// another thread (the Session was activated on a channel of another I/O thread) is posted to the
// home thread and its response posted back (subscriptions/SubscriptionService.cpp); that costs two
// thread hops per request only for such a moved Session. TransferSubscriptions moves a
// Subscription to the target Session's home thread (detach there, attach here).
//
// A parked Publish request is a small record (ParkedPublish): no thread, no blocked call.
#pragma once

#include "ua/server/common/ServiceCounters.h"
#include "ua/server/common/ResponseTarget.h"
#include "ua/server/subscriptions/Subscription.h"
#include "ua/server/subscriptions/SubscriptionOwner.h"
#include "ua/server/subscriptions/TimerQueue.h"
#include "ua/server/subscriptions/TransferUser.h"

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace ua {

struct Session;
class SubscriptionScheduler;

struct ParkedPublish {
    ResponseTarget target;
    int64_t deadlineUs = 0;     // from the RequestHeader's timeoutHint; 0: none
    Array<StatusCode> results;  // of the request's acknowledgements, returned with its response
};

// The subscription services' counters of SessionDiagnosticsDataType (OPC 10000-5 12.11), written
// on the home thread only (ServiceCount: relaxed load + store), read from any thread by
// ServerDiagnostics.
struct SessionServiceCounters {
    ServiceCount createSubscription, modifySubscription, setPublishingMode, publish, republish, transferSubscriptions,
        deleteSubscriptions, createMonitoredItems, modifyMonitoredItems, setMonitoringMode, setTriggering,
        deleteMonitoredItems;
};

// Counts one request when it goes out of scope: total, and an error when the response's
// serviceResult is Bad by then. Put it first in a service function (home thread).
class CountedService {
public:
    CountedService(ServiceCount& c, const ResponseHeader& h) : m_count(c), m_header(h) {}
    ~CountedService() {
        ++m_count.total;
        if (m_header.serviceResult.isBad()) ++m_count.errors;
    }
    CountedService(const CountedService&) = delete;
    CountedService& operator=(const CountedService&) = delete;

private:
    ServiceCount& m_count;
    const ResponseHeader& m_header;
};

class SessionSubscriptions final : public std::enable_shared_from_this<SessionSubscriptions>, public SubscriptionOwner {
public:
    // How a Publish response leaves (tests replace it to capture responses).
    using Sender = std::function<void(const ResponseTarget&, PublishResponse&&)>;

    // user: who the Session acts for, as TransferSubscriptions compares it (TransferUser.h).
    SessionSubscriptions(SubscriptionScheduler& home, NodeId sessionId, TransferUser user,
                         std::weak_ptr<Session> session = {});
    ~SessionSubscriptions() override;

    const NodeId& sessionId() const { return m_sessionId; }
    // The user TransferSubscriptions compares (any thread): set at creation and by every
    // ActivateSession (setTransferUser), the last one kept once the Session has gone.
    TransferUser transferUser() const;
    void setTransferUser(TransferUser user);
    // Copies the Session's roles and permissions again: after ActivateSession stored new ones in
    // the Session (any thread), and once after this object was installed in Session::subscriptions
    // (so that an activation between the first copy and the installation is not missed: both
    // sides store, then load, sequentially consistent).
    void accessChanged();
    // True when its Session has been closed or has expired.
    bool sessionGone() const override;
    Sender sender;

    // --- Subscriptions ---
    Subscription* find(uint32_t id);
    std::size_t count() const override { return m_subscriptions.size(); }
    // 5.14.2: a new Subscription, or Bad_TooManySubscriptions (per Session or server-wide).
    StatusCode create(const Subscription::Parameters& p, int64_t nowUs, Subscription** created);
    // 5.14.8: deletes it and its items; false when unknown.
    bool remove(uint32_t id);
    void removeAll() override;
    const std::map<uint32_t, std::unique_ptr<Subscription>>& subscriptions() const { return m_subscriptions; }

    // --- Publish (5.14.5) and Cancel (5.6.5) ---
    // Processes the acknowledgements, resets the lifetime counters, parks the request (answering
    // the oldest with Bad_TooManyPublishRequests when the queue is full) and lets a LATE
    // Subscription use it at once. No Subscription: Bad_NoSubscription at once.
    void publish(const ResponseTarget& target, const PublishRequest& req, int64_t nowUs);
    // Answers parked Publish requests with this requestHandle with Bad_RequestCancelledByClient.
    uint32_t cancel(uint32_t requestHandle);
    std::size_t parkedCount() const { return m_parked.size(); }
    // Answers parked requests past their timeoutHint with Bad_Timeout. A timer of the home's
    // TimerQueue calls it at the earliest parked deadline (armed when a request with an earlier
    // one is parked; re-armed for the earliest left when it fires), so no scan of every Session.
    void expireParked(int64_t nowUs);
    // The scheduler goes first (its destructor): the parked-request timer lets go of its queue.
    void detachTimers() override { m_parkedTimer.reset(); }

    // --- Used by Subscription ---
    bool hasPublishRequest(int64_t nowUs) override;
    // Answers the oldest valid parked request with resp; false when none is parked.
    bool answerPublish(PublishResponse& resp, int64_t nowUs) override;
    // A Subscription's final message (Bad_Timeout, Good_SubscriptionTransferred): sent on the next
    // Publish request (now when one is parked).
    void queueStatusMessage(uint32_t subscriptionId, NotificationMessage msg, int64_t nowUs);
    // The lifetime of s ran out: it is deleted (after queueing its Bad_Timeout message).
    void expired(Subscription& s, int64_t nowUs) override;
    // The Session ends with the server (Server::shutdown()): every Subscription is deleted and its
    // StatusChangeNotification `status` sent on a parked Publish request while one is left (the
    // others are dropped); the parked requests left over are answered with parkedStatus.
    void closeAll(StatusCode status, StatusCode parkedStatus, int64_t nowUs);
    // CloseSession (5.7.4.1): every parked Publish request is answered Bad_SessionClosed; with
    // deleteSubscriptions the Subscriptions are deleted too, else they stay until their lifetime
    // ends (or another Session takes them with TransferSubscriptions).
    void closeSession(bool deleteSubscriptions);

    // --- TransferSubscriptions (5.14.7) ---
    // Takes a Subscription out (detached from the timers) and queues Good_SubscriptionTransferred
    // for this Session; nullptr when unknown.
    std::unique_ptr<Subscription> release(uint32_t id, int64_t nowUs);
    void adopt(std::unique_ptr<Subscription> s, int64_t nowUs);

    std::vector<SubscriptionDiagnosticsDataType> diagnostics() const override;
    // The subscription part of SessionDiagnosticsDataType (OPC 10000-5 12.11): the service
    // counters above, currentSubscriptionsCount, currentMonitoredItemsCount and
    // currentPublishRequestsInQueue. The other fields of d are left as they are. Home thread.
    void fillSessionDiagnostics(SessionDiagnosticsDataType& d) const;
    // Counted by the service functions (subscriptions/SubscriptionService.h, MonitoredItemService.h) and
    // by publish(); Publish errors are the responses answered with a Bad serviceResult
    // (Bad_NoSubscription, Bad_TooManyPublishRequests, Bad_Timeout, Bad_RequestCancelledByClient).
    SessionServiceCounters serviceCounters;

private:
    struct StatusMessage {
        uint32_t subscriptionId;
        NotificationMessage message;
    };
    void send(const ResponseTarget& t, PublishResponse&& r);
    void serveLate(int64_t nowUs);
    bool flushStatusMessages(int64_t nowUs);
    void dropSubscription(uint32_t id);
    void emptied();  // the last Subscription left: the home looks at it at its next housekeeping
    void armParkedTimer();
    void answerParked(StatusCode status);  // every parked request, oldest first
    struct ParkedExpiry final : TimerQueue::Client {
        SessionSubscriptions* self = nullptr;
        void onTimer(uint32_t, int64_t, int64_t nowUs) override;
    };

    NodeId m_sessionId;
    mutable std::mutex m_userMutex;  // guards m_user only (ActivateSession and transfers: rare)
    TransferUser m_user;
    std::weak_ptr<Session> m_session;
    ParkedExpiry m_parkedExpiry;
    Timer m_parkedTimer;
    int64_t m_parkedArmedUs = TimerQueue::kNever;
    std::map<uint32_t, std::unique_ptr<Subscription>> m_subscriptions;
    std::deque<ParkedPublish> m_parked;  // oldest first
    std::deque<StatusMessage> m_statusMessages;
};

} // namespace ua
