// Server-wide bookkeeping of Subscriptions and MonitoredItems: ids, the MaxSubscriptions and
// MaxMonitoredItems limits (OPC 10000-5 6.3.2 ServerCapabilities) and, for TransferSubscriptions
// (OPC 10000-4 5.14.7), which Session's SessionSubscriptions owns a subscription id.
//
// Threading: any thread. The id map takes a mutex, but only to create, delete and transfer a
// Subscription - never on the Publish or sampling path. Item ids and counts are atomics.
#pragma once

#include "ua/server/subscriptions/SubscriptionConfig.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace ua {

class SessionSubscriptions;

class SubscriptionRegistry {
public:
    explicit SubscriptionRegistry(const SubscriptionConfig& config) : m_config(config) {}

    // A new subscription id owned by owner, or 0 when maxSubscriptions exist.
    uint32_t add(const std::shared_ptr<SessionSubscriptions>& owner);
    void remove(uint32_t subscriptionId);
    void setOwner(uint32_t subscriptionId, const std::shared_ptr<SessionSubscriptions>& owner);
    // The owner of a subscription id, or nullptr (an unknown id, or its Session is gone).
    std::shared_ptr<SessionSubscriptions> owner(uint32_t subscriptionId) const;
    int subscriptionCount() const;
    // Subscriptions created since start (OPC 10000-5 12.9 cumulatedSubscriptionCount).
    uint32_t cumulatedCount() const { return m_cumulated.load(std::memory_order_relaxed); }

    // Takes n MonitoredItems from the server-wide budget; false (nothing taken) when that would
    // exceed maxMonitoredItems.
    bool reserveItems(uint32_t n);
    void releaseItems(uint32_t n) { m_items.fetch_sub(n, std::memory_order_relaxed); }
    uint32_t itemCount() const { return m_items.load(std::memory_order_relaxed); }
    uint32_t nextItemId() { return m_nextItemId.fetch_add(1, std::memory_order_relaxed); }

private:
    const SubscriptionConfig m_config;
    mutable std::mutex m_mutex;
    std::unordered_map<uint32_t, std::weak_ptr<SessionSubscriptions>> m_owners;
    uint32_t m_nextId = 1;
    std::atomic<uint32_t> m_items{0};
    std::atomic<uint32_t> m_cumulated{0};
    std::atomic<uint32_t> m_nextItemId{1};
};

} // namespace ua
