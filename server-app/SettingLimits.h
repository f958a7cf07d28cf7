// The numeric limits of ua::SubscriptionConfig and of the Session settings as the configuration
// file and the window's form name them: one table, read by ServerSettings::fromJson/toJson and by
// SettingsEditor, so a limit added here is in both.
#pragma once

#include "ua/server/subscriptions/SubscriptionConfig.h"

#include <cstdint>
#include <vector>

namespace ua::app {

struct ServerSettings;

struct SettingLimit {
    const char* key;    // JSON key in its object ("subscriptions" or "limits")
    const char* label;  // the window's label
    double lo, hi;      // accepted range (inclusive)
    const char* unit;   // the window's suffix: " ms" or ""
    // Exactly one is set: a member of SubscriptionConfig or of ServerSettings.
    double SubscriptionConfig::*subscriptionDouble = nullptr;
    uint32_t SubscriptionConfig::*subscriptionCount = nullptr;
    double ServerSettings::*settingsDouble = nullptr;
    int ServerSettings::*settingsCount = nullptr;

    bool isCount() const { return subscriptionCount || settingsCount; }
    double get(const ServerSettings& s) const;
    void set(ServerSettings& s, double v) const;
};

// ServerSettings::subscriptions, every field (OPC 10000-4 5.13, 5.14), in the "subscriptions" object.
const std::vector<SettingLimit>& subscriptionLimits();
// The Session settings in the "limits" object (maxSessions, maxChannels, session timeouts, ...).
const std::vector<SettingLimit>& sessionLimits();

} // namespace ua::app
