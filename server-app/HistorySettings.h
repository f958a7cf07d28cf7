// The "history" section of ua-server.json (ServerSettings.h): Historical Access (OPC 10000-11),
// kept in an SQLite file (ua/server/history/HistoryManager.h).
//   "history": { "enabled": true,
//                "database": "",            empty: QStandardPaths::AppDataLocation/history.sqlite
//                "durabilityMs": 10000,     sampled values at most this old are not yet in the file
//                "nodes": [ { "nodeId": "nsu=urn:ua-workbench:demo;s=Demo.Simulation.Sine",
//                             "samplingIntervalMs": 1000, "maxValues": 0, "maxAgeMs": 604800000,
//                             "stepped": false }, ... ],
//                "events": [ { "notifier": "i=2253", "maxAgeMs": 86400000 }, ... ] }
// nodeId and notifier are ExpandedNodeId texts (nsu=URI;... keeps them right when namespace
// indexes move). By default the demo namespace's Simulation signals are historized, and the events
// of the Server object (every event the server raises) are kept: the signals for seven days, the
// events for one.
#pragma once

#include "ua/server/runtime/ServerConfig.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace ua::app {

struct HistoryNodeSetting {
    QString nodeId;                   // ExpandedNodeId text
    double samplingIntervalMs = 1000; // ms, 10 .. 86,400,000
    double maxValues = 0;             // 0: no limit
    double maxAgeMs = 0;              // ms; 0: no limit
    bool stepped = false;
    friend bool operator==(const HistoryNodeSetting&, const HistoryNodeSetting&) = default;
};

struct HistoryEventSetting {
    QString notifier;                 // ExpandedNodeId text of an Object or View
    double maxAgeMs = 0;              // ms; 0: no limit
    friend bool operator==(const HistoryEventSetting&, const HistoryEventSetting&) = default;
};

struct HistorySettings {
    bool enabled = true;
    QString database;
    double durabilityMs = 10000;
    std::vector<HistoryNodeSetting> nodes = demoSignals();
    std::vector<HistoryEventSetting> events = serverEvents();

    static std::vector<HistoryNodeSetting> demoSignals();
    static std::vector<HistoryEventSetting> serverEvents();
    static QString defaultDatabase();
    QJsonObject toJson() const;
    // Reads the section (absent keys keep their defaults); false and *error on a wrong value.
    static bool fromJson(const QJsonObject& json, HistorySettings* out, QString* error);
    // Fills config.history (nothing when disabled).
    void apply(ServerConfig& config) const;
    // A Variable historized (on) or no longer (off) from the window: its entry added, replacing one
    // of the same node, or removed. Entries are the same node when their ExpandedNodeIds are equal
    // (or, for texts that do not parse, their texts).
    void setNode(const HistoryNodeSetting& node, bool on);
};

} // namespace ua::app
