// The client's subscriptions on the I/O thread (internal; use ua::Client's subscription functions).
// OPC 10000-4 5.13 (Subscription service set), 5.12 (MonitoredItem service set), 6.5 (the Publish
// mechanism); docs/Client.md "Subscriptions".
//
// Everything here runs on the Client's I/O thread (a child of ClientCore), so nothing is locked:
//   - the Publish pipeline: min(max(2, subscriptions + 1) or ClientConfig::publishRequests,
//     maxPublishRequests, the count the server accepted before answering
//     Bad_TooManyPublishRequests) Publish requests outstanding while at
//     least one subscription exists; one re-issued per response;
//   - acknowledgements: every sequence number received (republished ones too) goes into the next
//     Publish; its results are checked (Bad_SequenceNumberUnknown counted and logged);
//   - keep-alive supervision: a subscription that hears nothing for revised publishing interval x
//     maxKeepAliveCount + max(500 ms, half of that) is reported (KeepAliveMissing) and the
//     connection is probed (ClientCore::probeConnection, which reconnects when it does not answer);
//   - sequence gaps: each missing number the server still has (availableSequenceNumbers) is
//     Republished, the others reported as MessagesLost; delivery stays in sequence order;
//   - a new Session (after a lost one): TransferSubscriptions (sendInitialValues = true), else the
//     subscription and its items are created again with the same client handles.
// Deliveries go to each subscription's context thread in one hop per NotificationMessage.
#pragma once

#include "ua/client/common/ClientConfig.h"
#include "ua/client/subscriptions/ClientSubscription.h"
#include "ua/client/common/ServiceResult.h"
#include "ua/transport/ContextRef.h"

#include <QObject>
#include <atomic>
#include <map>
#include <set>
#include <unordered_map>

class QTimer;

namespace ua {

class ClientCore;
enum class ClientState;

class SubscriptionManager : public QObject {
    Q_OBJECT
public:
    // Lives on core's thread, as its child. maxPublishRequests: the cap of the pipeline.
    SubscriptionManager(ClientCore* core, const ClientConfig& config, uint32_t maxPublishRequests = 10);
    ~SubscriptionManager() override;

    // The I/O-thread halves of ua::Client's functions. context: where handlers and item callbacks
    // run (not set: on the I/O thread; made on the caller's thread, ContextRef.h). Callbacks `done`
    // run on the I/O thread (Client wraps them).
    void createSubscription(const SubscriptionSettings& settings, ContextRef context, SubscriptionHandlers handlers,
                            SubscriptionCallback done);
    void modifySubscription(SubscriptionHandle h, const SubscriptionSettings& settings, SubscriptionCallback done);
    void deleteSubscription(SubscriptionHandle h, StatusCallback done);
    void createMonitoredItems(SubscriptionHandle h, std::vector<MonitoredItemSpec> items, MonitoredItemsCallback done);
    void modifyMonitoredItems(SubscriptionHandle h, std::vector<MonitoredItemChange> changes, MonitoredItemsCallback done);
    void deleteMonitoredItems(SubscriptionHandle h, std::vector<uint32_t> clientHandles, MonitoredItemsCallback done);
    void setMonitoringMode(SubscriptionHandle h, std::vector<uint32_t> clientHandles, MonitoringMode mode, MonitoredItemsCallback done);

    // Any thread.
    ClientSubscriptionCounters counters() const;

private:
    struct Sink;
    struct ItemCallbacks {
        std::function<void(const DataValue&)> onDataChange;
        std::function<void(const Array<Variant>&)> onEvent;
    };
    struct Item {
        MonitoredItemSpec spec;                      // callbacks moved out into `callbacks`
        std::shared_ptr<const ItemCallbacks> callbacks;
        uint32_t monitoredItemId = 0;                // 0: not created on the server (yet)
    };
    struct Sub {
        SubscriptionHandle handle = 0;
        uint32_t id = 0;                             // the server's subscriptionId; 0 while none
        SubscriptionSettings settings;
        double revisedIntervalMs = 0;
        uint32_t revisedKeepAliveCount = 0;
        std::shared_ptr<Sink> sink;
        std::map<uint32_t, Item> items;              // by clientHandle
        uint32_t nextClientHandle = 1;
        // Ordering: lastDelivered + 1 is the next sequence number to hand out. All of these are
        // extended numbers (SequenceNumbers.h): they go on counting where the server wraps.
        uint64_t lastDelivered = 0;
        std::map<uint64_t, SubscriptionNotification> held;  // received after a gap
        std::set<uint64_t> missing;                  // to Republish (or being republished)
        std::set<uint64_t> republishInFlight;
        std::set<uint64_t> lost;                     // not available any more: skipped in order
        std::set<uint64_t> skipped;                  // after a transfer: never ours to see, skipped silently
        bool resync = false;                         // transferred: the next message sets where numbering goes on
        int64_t lastHeardMs = 0;
        bool keepAliveMissing = false;
    };

    Sub* find(SubscriptionHandle h);
    Sub* findById(uint32_t subscriptionId);
    uint32_t activeCount() const;
    uint32_t publishTarget() const;
    uint32_t publishTimeoutMs() const;
    void fillPipeline();
    void sendPublish();
    void onPublish(const ServiceResult<PublishResponse>& r, const std::vector<SubscriptionAcknowledgement>& acks, uint64_t gen);
    void handleMessage(Sub& s, const NotificationMessage& m, const Array<uint32_t>& available, bool republished);
    void noteGap(Sub& s, uint64_t upTo, const Array<uint32_t>& available);
    void republish(Sub& s, uint64_t sequenceNumber);
    void flush(Sub& s);
    void serverStatusChange(Sub& s, StatusCode st);
    void status(Sub& s, SubscriptionEvent e, StatusCode st, uint32_t first = 0, uint32_t last = 0);
    void deliver(Sub& s, SubscriptionNotification&& n);
    void forget(SubscriptionHandle h);

    void sendCreateItems(Sub& s, std::vector<uint32_t> clientHandles, MonitoredItemsCallback done);
    void onStateChanged(ClientState state);
    void recover();
    void recreate(SubscriptionHandle h, StatusCode why);
    void armWatchdog();
    void onWatchdog();
    static int64_t nowMs();

    ClientCore* m_core;
    const uint32_t m_requestTimeoutMs;
    const uint32_t m_maxPublish;
    const uint32_t m_publishRequests;  // ClientConfig::publishRequests (0: automatic)
    std::map<SubscriptionHandle, Sub> m_subs;
    SubscriptionHandle m_nextHandle = 1;
    std::vector<SubscriptionAcknowledgement> m_acks;   // for the next Publish
    uint32_t m_outstanding = 0;
    uint32_t m_serverLimit = UINT32_MAX;             // lowered by Bad_TooManyPublishRequests
    uint64_t m_sessionGen = 0;                       // Publish answers of an older Session are ignored
    NodeId m_sessionId;                              // the Session the subscriptions live on
    bool m_recovering = false;                       // TransferSubscriptions / re-creation in progress
    QTimer* m_watchdog;

    struct Counters {
        std::atomic<uint32_t> subscriptions{0}, publishOutstanding{0}, publishTarget{0};
        std::atomic<uint64_t> publishResponses{0}, notificationMessages{0}, keepAlives{0}, acknowledgementsSent{0},
            acknowledgementsUnknown{0}, republishRequests{0}, messagesRepublished{0}, messagesLost{0}, tooManyPublishRequests{0};
    } m_counters;
};

} // namespace ua
