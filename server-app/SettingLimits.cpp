#include "SettingLimits.h"

#include "ServerSettings.h"

namespace ua::app {

double SettingLimit::get(const ServerSettings& s) const {
    if (subscriptionDouble) return s.subscriptions.*subscriptionDouble;
    if (subscriptionCount) return double(s.subscriptions.*subscriptionCount);
    if (settingsDouble) return s.*settingsDouble;
    return double(s.*settingsCount);
}

void SettingLimit::set(ServerSettings& s, double v) const {
    if (subscriptionDouble) s.subscriptions.*subscriptionDouble = v;
    else if (subscriptionCount) s.subscriptions.*subscriptionCount = uint32_t(v);
    else if (settingsDouble) s.*settingsDouble = v;
    else s.*settingsCount = int(v);
}

namespace {

constexpr double kDay = 86'400'000;   // ms
constexpr double kCount = 2'147'483'647;  // what a QSpinBox holds

SettingLimit interval(const char* key, const char* label, double lo, double SubscriptionConfig::*m) {
    SettingLimit l{key, label, lo, kDay, " ms"};
    l.subscriptionDouble = m;
    return l;
}
SettingLimit count(const char* key, const char* label, double lo, uint32_t SubscriptionConfig::*m) {
    SettingLimit l{key, label, lo, kCount, ""};
    l.subscriptionCount = m;
    return l;
}

} // namespace

const std::vector<SettingLimit>& subscriptionLimits() {
    using C = SubscriptionConfig;
    static const std::vector<SettingLimit> all = {
        interval("minPublishingIntervalMs", "Fastest publishing interval", 1, &C::minPublishingIntervalMs),
        interval("maxPublishingIntervalMs", "Slowest publishing interval", 1, &C::maxPublishingIntervalMs),
        count("maxKeepAliveCount", "Max keep-alive count", 1, &C::maxKeepAliveCount),
        interval("maxKeepAliveMs", "Max keep-alive time", 1, &C::maxKeepAliveMs),
        count("maxLifetimeCount", "Max lifetime count", 3, &C::maxLifetimeCount),
        count("maxNotificationsPerPublish", "Max notifications per Publish", 1, &C::maxNotificationsPerPublish),
        count("maxSubscriptions", "Max Subscriptions (0: no limit)", 0, &C::maxSubscriptions),
        count("maxSubscriptionsPerSession", "Max Subscriptions per Session (0: no limit)", 0, &C::maxSubscriptionsPerSession),
        count("maxPublishRequestsPerSession", "Max queued Publish requests per Session", 1, &C::maxPublishRequestsPerSession),
        count("maxRetransmissionQueue", "Messages kept for Republish", 0, &C::maxRetransmissionQueue),
        interval("minSamplingIntervalMs", "Fastest sampling interval", 1, &C::minSamplingIntervalMs),
        interval("maxSamplingIntervalMs", "Slowest sampling interval", 1, &C::maxSamplingIntervalMs),
        count("maxQueueSize", "Max MonitoredItem queue size", 1, &C::maxQueueSize),
        count("maxMonitoredItems", "Max MonitoredItems (0: no limit)", 0, &C::maxMonitoredItems),
        count("maxMonitoredItemsPerSubscription", "Max MonitoredItems per Subscription (0: no limit)", 0,
              &C::maxMonitoredItemsPerSubscription),
        count("maxMonitoredItemsPerCall", "Max MonitoredItems per call (0: no limit)", 0, &C::maxMonitoredItemsPerCall),
    };
    return all;
}

const std::vector<SettingLimit>& sessionLimits() {
    using S = ServerSettings;
    const auto n = [](const char* key, const char* label, double lo, int S::*m) {
        SettingLimit l{key, label, lo, 1'000'000, ""};
        l.settingsCount = m;
        return l;
    };
    const auto ms = [](const char* key, const char* label, double S::*m) {
        SettingLimit l{key, label, 0, 1e12, " ms"};
        l.settingsDouble = m;
        return l;
    };
    static const std::vector<SettingLimit> all = {
        n("maxSessions", "Max Sessions", 1, &S::maxSessions),
        n("maxChannels", "Max SecureChannels", 1, &S::maxChannels),
        n("maxSessionDiagnosticsObjects", "Session diagnostics objects", 0, &S::maxSessionDiagnosticsObjects),
        ms("minSessionTimeoutMs", "Shortest Session timeout", &S::minSessionTimeoutMs),
        ms("maxSessionTimeoutMs", "Longest Session timeout", &S::maxSessionTimeoutMs),
    };
    return all;
}

} // namespace ua::app
