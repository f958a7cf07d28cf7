// An alarm an administrator defines on a Variable (ua-server.json "alarms", the server window's
// Alarms page): which Variable it watches, which Part 9 type it is an instance of, and its limits
// (OPC 10000-9 5.8.18 LimitAlarmType, 5.8.19 ExclusiveLimitAlarmType, 5.8.20
// NonExclusiveLimitAlarmType, 5.8.22 DiscreteAlarmType, 5.8.23 OffNormalAlarmType).
#pragma once

#include "ua/encoding/generated/Types.h"

#include <optional>
#include <string>

namespace ua {

enum class AlarmKind : uint8_t {
    ExclusiveLevel,     // ExclusiveLevelAlarmType: at most one of HighHigh, High, Low, LowLow at a time
    NonExclusiveLevel,  // NonExclusiveLevelAlarmType: HighHighState ... LowLowState each of its own
    OffNormal,          // OffNormalAlarmType: active while the value differs from stateValue (normal)
    Discrete,           // DiscreteAlarmType: active while the value equals stateValue (the alarm value)
};

// "exclusiveLevel", "nonExclusiveLevel", "offNormal", "discrete" (ua-server.json).
const char* alarmKindName(AlarmKind kind);
std::optional<AlarmKind> alarmKindFromName(std::string_view name);
// The ObjectType of the condition instance (i=9482, i=10060, i=10637, i=10523).
uint32_t alarmTypeId(AlarmKind kind);

struct AlarmDefinition {
    // ConditionName (OPC 10000-9 5.5.2) and the BrowseName of the condition: unique in the server.
    std::string name;
    // The condition's NodeId; null: "s=Alarms/<name>" in namespace 1 (the server's own).
    NodeId conditionId;
    // The Variable watched (the InputNode Property): its Value is read every poll period. A
    // numeric DataType for the level kinds; any for OffNormal and Discrete.
    NodeId input;
    // The SourceNode of the condition's events (HasCondition from it to the condition); null: input.
    NodeId source;
    // input and source are in this namespace (resolved when the alarm is installed); empty: as given.
    std::string namespaceUri;
    AlarmKind kind = AlarmKind::ExclusiveLevel;
    // The limits of the level kinds, in the input's units; absent limits are not checked. Ordered
    // lowLow < low < high < highHigh where given (else Bad_InvalidArgument when installed).
    std::optional<double> highHigh, high, low, lowLow;
    // A limit that was exceeded is left only once the value is back by more than deadband (>= 0,
    // finite): the alarm does not chatter around a limit.
    double deadband = 0;
    // Severity of High and Low, and of an active OffNormal / Discrete alarm (1..1000).
    uint16_t severity = 500;
    // Severity of HighHigh and LowLow (1..1000).
    uint16_t criticalSeverity = 800;
    // Message of an active alarm; empty: "<name>: <state> (<value>)".
    std::string message;
    // OffNormal: the normal value; Discrete: the value in alarm (compared under the conversion
    // rules of OPC 10000-4 7.7.3, so 1 equals true).
    Variant stateValue;
};

} // namespace ua
