// Limits and revision rules of the Subscription and MonitoredItem service sets (OPC 10000-4 5.13,
// 5.14). All durations in ms. The Max* counts are published in the Server object's
// ServerCapabilities (OPC 10000-5 6.3.2); 0 means "no limit" there and here.
#pragma once

#include <cstdint>

namespace ua {

struct SubscriptionConfig {
    // --- Subscriptions (5.14.2 CreateSubscription, 5.14.3 ModifySubscription) ---
    double minPublishingIntervalMs = 10;         // 0, negative or NaN requests get this
    double maxPublishingIntervalMs = 3'600'000;
    uint32_t maxKeepAliveCount = 10'000;         // 0 requests get 1; the product with the interval
                                                 // is kept below maxKeepAliveMs
    double maxKeepAliveMs = 3'600'000;
    uint32_t maxLifetimeCount = 1'000'000;       // lifetime is at least 3 x keep-alive count
    uint32_t maxNotificationsPerPublish = 20'000;  // a client's 0 ("no limit") or more gets this
    uint32_t maxSubscriptions = 5'000;           // server-wide: Bad_TooManySubscriptions
    uint32_t maxSubscriptionsPerSession = 100;   // per Session: Bad_TooManySubscriptions
    // Parked Publish requests per Session (5.14.5): one more answers the oldest with
    // Bad_TooManyPublishRequests. A Session with this many Subscriptions or more may park one more
    // than it has Subscriptions (5.14.5.1: more queued requests than Subscriptions shall be accepted).
    uint32_t maxPublishRequestsPerSession = 20;
    // Unacknowledged NotificationMessages kept per Subscription for Republish (5.14.6); the oldest
    // is discarded beyond (counted in SubscriptionDiagnostics.discardedMessageCount).
    uint32_t maxRetransmissionQueue = 40;

    // --- MonitoredItems (5.13.1.2 sampling interval, 5.13.1.5 queue) ---
    double minSamplingIntervalMs = 5;            // the "fastest supported" rate: 0 requests get it
    double maxSamplingIntervalMs = 3'600'000;
    uint32_t maxQueueSize = 10'000;              // requested 0 gets 1
    uint32_t maxMonitoredItems = 100'000;        // server-wide: Bad_TooManyMonitoredItems
    uint32_t maxMonitoredItemsPerSubscription = 20'000;
    // Operations in one call of the MonitoredItem service set (OPC 10000-5 6.3.11
    // OperationLimits.MaxMonitoredItemsPerCall, published there): itemsToCreate of
    // CreateMonitoredItems, itemsToModify of ModifyMonitoredItems, monitoredItemIds of
    // SetMonitoringMode and DeleteMonitoredItems, linksToAdd + linksToRemove of SetTriggering.
    // A request with more gets the service result Bad_TooManyOperations and no results
    // (OPC 10000-4 7.38.2). A client that needs more splits its request.
    uint32_t maxMonitoredItemsPerCall = 20'000;
};

} // namespace ua
