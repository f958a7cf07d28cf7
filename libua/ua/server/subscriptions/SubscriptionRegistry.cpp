#include "ua/server/subscriptions/SubscriptionRegistry.h"

namespace ua {

uint32_t SubscriptionRegistry::add(const std::shared_ptr<SessionSubscriptions>& owner) {
    std::lock_guard lock(m_mutex);
    if (m_config.maxSubscriptions && m_owners.size() >= m_config.maxSubscriptions) return 0;
    uint32_t id = m_nextId;
    while (id == 0 || m_owners.count(id)) ++id;
    m_nextId = id + 1;
    m_owners.emplace(id, owner);
    m_cumulated.fetch_add(1, std::memory_order_relaxed);
    return id;
}

void SubscriptionRegistry::remove(uint32_t id) {
    std::lock_guard lock(m_mutex);
    m_owners.erase(id);
}

void SubscriptionRegistry::setOwner(uint32_t id, const std::shared_ptr<SessionSubscriptions>& owner) {
    std::lock_guard lock(m_mutex);
    m_owners[id] = owner;
}

std::shared_ptr<SessionSubscriptions> SubscriptionRegistry::owner(uint32_t id) const {
    std::lock_guard lock(m_mutex);
    auto it = m_owners.find(id);
    return it == m_owners.end() ? nullptr : it->second.lock();
}

int SubscriptionRegistry::subscriptionCount() const {
    std::lock_guard lock(m_mutex);
    return int(m_owners.size());
}

bool SubscriptionRegistry::reserveItems(uint32_t n) {
    uint32_t cur = m_items.load(std::memory_order_relaxed);
    do {
        if (m_config.maxMonitoredItems && uint64_t(cur) + n > m_config.maxMonitoredItems) return false;
    } while (!m_items.compare_exchange_weak(cur, cur + n, std::memory_order_relaxed));
    return true;
}

} // namespace ua
