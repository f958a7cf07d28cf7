// The "alarms" section of ua-server.json (ServerSettings.h): the alarm conditions the server
// watches (OPC 10000-9; ua/server/conditions/ConditionManager.h).
//   "alarms": { "pollMs": 100,                  how often the inputs are read, 10 .. 60,000 ms
//               "definitions": [ {
//                   "name": "SineLevel",         ConditionName, unique
//                   "kind": "exclusiveLevel",    or "nonExclusiveLevel", "offNormal", "discrete"
//                   "input": "nsu=urn:ua-workbench:demo;s=Demo.Simulation.Sine",
//                   "source": "",                SourceNode; empty: the input
//                   "highHigh": 90, "high": 70, "low": -70, "lowLow": -90,   absent: not checked
//                   "deadband": 2,               input units
//                   "severity": 500, "criticalSeverity": 800,
//                   "message": "",               empty: "<name>: <state> (<value>)"
//                   "value": true                offNormal: the normal value; discrete: the alarm value
//               }, ... ] }
// input and source are ExpandedNodeId texts. By default the demo namespace's Sine (exclusive
// level), Ramp (non-exclusive level) and Scalars.Boolean (off-normal, normal true) have alarms, so
// a fresh ./run.sh shows conditions at once.
#pragma once

#include "ua/server/runtime/ServerConfig.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>
#include <vector>

namespace ua::app {

struct AlarmSetting {
    QString name;
    QString kind = QStringLiteral("exclusiveLevel");
    QString input;                    // ExpandedNodeId text
    QString source;                   // ExpandedNodeId text; empty: the input
    std::optional<double> highHigh, high, low, lowLow;
    double deadband = 0;
    double severity = 500;            // 1 .. 1000
    double criticalSeverity = 800;    // 1 .. 1000
    QString message;
    QJsonValue value;                 // bool, number or string; Null for the level kinds
    friend bool operator==(const AlarmSetting&, const AlarmSetting&) = default;
};

struct AlarmSettings {
    double pollMs = 100;
    std::vector<AlarmSetting> definitions = demoAlarms();

    static std::vector<AlarmSetting> demoAlarms();
    QJsonObject toJson() const;
    // Reads the section (absent keys keep their defaults); false and *error on a wrong value.
    static bool fromJson(const QJsonObject& json, AlarmSettings* out, QString* error);
    // Fills config.alarms and alarmPollMs.
    void apply(ServerConfig& config) const;
    // One setting as the server takes it (nullopt when its kind or NodeIds do not parse).
    static std::optional<AlarmDefinition> toDefinition(const AlarmSetting& s);
};

} // namespace ua::app
