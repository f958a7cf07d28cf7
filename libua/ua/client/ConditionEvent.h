// The client side of Alarms and Conditions (OPC 10000-9): the EventFilter an alarm view subscribes
// with, and a received event read back as a condition's state. Used by ua-client's Alarms view
// and its `alarms` command (client-app); ConditionCalls.h has the Methods and ConditionRefresh.
//
// A condition event carries the condition's whole state (OPC 10000-9 4.2, 5.5.2); the client keeps
// one row per ConditionId (and BranchId) and replaces it with each new event. The ConditionId is
// not a Variable of the event: it is selected as the NodeId attribute of ConditionType with an
// empty browse path (OPC 10000-9 5.5.2, Table 13). A ConditionRefresh (OPC 10000-9 4.5, 5.5.7)
// sends a RefreshStartEvent (i=2787), the last event of every retained condition, then a
// RefreshEndEvent (i=2788).
#pragma once

#include "ua/encoding/generated/Types.h"

#include <optional>
#include <string>

namespace ua {

// The select clauses of conditionEventFilter(), in this order: an index into the event's fields.
enum class ConditionField : uint8_t {
    // BaseEventType (i=2041; OPC 10000-5 6.4.2)
    EventId,
    EventType,
    SourceNode,
    SourceName,
    Time,
    ReceiveTime,
    Message,
    Severity,
    // ConditionType (i=2782; OPC 10000-9 5.5.2)
    ConditionId,        // the NodeId attribute of the condition (empty browse path)
    ConditionName,
    BranchId,
    Retain,
    EnabledStateId,     // EnabledState/Id
    Quality,
    LastSeverity,
    Comment,
    ClientUserId,
    // AcknowledgeableConditionType (i=2881; 5.7.2)
    AckedStateId,       // AckedState/Id
    ConfirmedStateId,   // ConfirmedState/Id (optional in Part 9)
    // AlarmConditionType (i=2915; 5.8.2)
    ActiveStateId,      // ActiveState/Id
    ActiveStateEffectiveDisplayName,
    ShelvingStateCurrentStateId,  // ShelvingState/CurrentState/Id (i=2930, i=2932, i=2933)
    SuppressedOrShelved,
    // ExclusiveLimitAlarmType (i=9341; 5.8.19)
    LimitStateCurrentState,       // LimitState/CurrentState: "HighHigh", "High", "Low", "LowLow"
    Count
};

// The EventFilter of an alarm view: the select clauses of ConditionField, and a where clause that
// passes the events of ConditionType and its subtypes and the two refresh events: OfType(i=2782)
// Or OfType(i=2787) Or OfType(i=2788) (OPC 10000-4 7.7.3; a server sends the refresh events
// whatever the where clause, OPC 10000-9 4.5, but not every server knows that).
EventFilter conditionEventFilter();

// A ShelvingState (OPC 10000-9 5.8.17 ShelvedStateMachineType).
enum class AlarmShelving : uint8_t {
    None,            // not selected: the condition has no ShelvingState
    Unshelved,       // i=2930
    TimedShelved,    // i=2932
    OneShotShelved,  // i=2933
};

// One event read with conditionEventFilter(). A field the server did not give (null, or a
// StatusCode in its place, as Part 9 has for the fields of a disabled condition:
// Bad_ConditionDisabled) keeps its default here.
struct ConditionEvent {
    enum class Kind : uint8_t {
        Condition,     // an event of a condition: conditionId is set
        RefreshStart,  // RefreshStartEventType (i=2787)
        RefreshEnd,    // RefreshEndEventType (i=2788)
        Other,         // another event (no ConditionId)
    };
    Kind kind = Kind::Other;
    ByteString eventId;
    NodeId eventType;
    NodeId sourceNode;
    String sourceName;
    DateTime time;          // when the state changed (the event's Time)
    DateTime receiveTime;
    LocalizedText message;
    uint16_t severity = 0;  // 1..1000
    NodeId conditionId;
    String conditionName;
    NodeId branchId;        // null: the condition's current state (not a branch, OPC 10000-9 4.4)
    bool retain = false;    // false: the client may forget the condition (OPC 10000-9 5.5.2)
    bool enabled = true;
    StatusCode quality;
    uint16_t lastSeverity = 0;
    LocalizedText comment;
    String clientUserId;
    std::optional<bool> acked;      // nullopt: not acknowledgeable (or not given)
    std::optional<bool> confirmed;  // nullopt: no ConfirmedState
    std::optional<bool> active;     // nullopt: not an alarm
    LocalizedText activeText;       // ActiveState/EffectiveDisplayName ("High active"), when given
    AlarmShelving shelving = AlarmShelving::None;
    bool suppressedOrShelved = false;
    String limitState;              // ExclusiveLimitAlarmType's current limit; empty when none

    bool isCondition() const { return kind == Kind::Condition; }
    bool shelved() const { return shelving == AlarmShelving::TimedShelved || shelving == AlarmShelving::OneShotShelved; }
};

// Reads the fields of one event (in the order of conditionEventFilter()'s select clauses; fewer
// fields leave the rest at their defaults).
ConditionEvent parseConditionEvent(const Array<Variant>& fields);

// The state in words, as the client shows it: "Disabled", else "Active High" / "Active" /
// "Inactive", then ", Unacknowledged" or ", Acknowledged" (when acknowledgeable), ", Unconfirmed"
// or ", Confirmed" (when it has a ConfirmedState), ", Shelved (timed)" / ", Shelved (one shot)".
std::string conditionStateText(const ConditionEvent& e);
// "Unshelved", "TimedShelved", "OneShotShelved", "" for None.
const char* alarmShelvingName(AlarmShelving s);

// An EventId as lower-case hex ("0a1b..."), and back (case-insensitive, an optional "0x"; nullopt
// for an odd length or a character that is not a hex digit; "" is an empty ByteString).
std::string eventIdHex(const ByteString& eventId);
std::optional<ByteString> eventIdFromHex(std::string_view hex);

} // namespace ua
