// The state of one alarm condition (OPC 10000-9 5.5 ConditionType, 5.7 AcknowledgeableConditionType,
// 5.8 AlarmConditionType and its limit and discrete subtypes) and its transitions: the input's
// value moves it (evaluate), the Methods move it (enable ... unshelve), and each change is an
// Event (OPC 10000-9 4.2: every change of a Condition's state gives an Event with a new EventId)
// whose fields are also the values of the condition's nodes (ConditionNodes.h).
//
// Not thread-safe: ConditionManager holds its lock around every call.
//
// The rules (OPC 10000-9):
//   Retain        EnabledState && (ActiveState || !AckedState || !ConfirmedState) (5.5.2, 4.4)
//   activation    inactive -> active: AckedState false (the alarm must be acknowledged); a change
//                 between active states (High -> HighHigh) keeps AckedState
//   Acknowledge   AckedState true, ConfirmedState false (it now waits for Confirm) (5.7.3)
//   Confirm       ConfirmedState true (5.7.4)
//   Disable       EnabledState false, Retain false, the alarm's other states reset (5.5.4); no
//                 event while disabled; Enable evaluates the last input value again (5.5.5)
//   shelving      5.8.17 ShelvedStateMachineType: TimedShelve (0 < ShelvingTime <= MaxTimeShelved)
//                 ends by itself after ShelvingTime; OneShotShelve ends when the alarm goes
//                 inactive; Unshelve ends either. A shelved alarm still changes state and raises
//                 its events with SuppressedOrShelved true (clients hide them)
//   limits        a high limit is exceeded at value >= limit, a low one at value <= limit; an
//                 exceeded limit is left at value < limit - deadband (high) or > limit + deadband
//                 (low). NaN, or a value that is not a number, changes no limit state (Quality
//                 says so: Bad_TypeMismatch for a value that is not a number)
//   Severity      criticalSeverity while HighHigh or LowLow, else severity; LastSeverity the
//                 Severity before the last change of it
// Branches (4.4) are not kept: BranchId is always null, and a Method's EventId must be that of the
// condition's last event (else Bad_EventIdUnknown).
#pragma once

#include "ua/server/conditions/AlarmDefinition.h"
#include "ua/server/eventmodel/Event.h"

#include <cstdint>
#include <string>

namespace ua {

// The NodeId of a node below a condition (its state variables, "EnabledState/Id"): a String
// NodeId in the condition's namespace, "<condition's string id>/<path>" (for a condition with
// another kind of id, its text form stands for the string id).
NodeId conditionChildId(const NodeId& condition, std::string_view path);

inline constexpr double kMaxTimeShelvedMs = 8.0 * 3600 * 1000;  // MaxTimeShelved: 8 hours

enum class LimitState : uint8_t { None, LowLow, Low, High, HighHigh };
enum class ShelvedState : uint8_t { Unshelved, TimedShelved, OneShotShelved };

class ConditionState {
public:
    ConditionState(AlarmDefinition def, NodeId conditionId, NodeId source, std::string sourceName);

    const AlarmDefinition& definition() const { return m_def; }
    const NodeId& conditionId() const { return m_id; }
    const NodeId& sourceNode() const { return m_source; }
    const std::string& sourceName() const { return m_sourceName; }
    NodeId typeId() const;

    bool enabled() const { return m_enabled; }
    bool active() const;
    bool acked() const { return m_acked; }
    bool confirmed() const { return m_confirmed; }
    bool retain() const { return m_enabled && (active() || !m_acked || !m_confirmed); }
    ShelvedState shelved() const { return m_shelved; }
    LimitState exclusiveState() const { return m_exclusive; }
    // NonExclusiveLevel: whether each limit is exceeded.
    bool limitActive(LimitState s) const;
    uint16_t severity() const { return m_severity; }
    const LocalizedText& comment() const { return m_comment; }
    // The last input value seen (its status is the Quality).
    const DataValue& input() const { return m_input; }
    // The Event of the last change; null before the first (the condition was never reported).
    const EventPtr& lastEvent() const { return m_last; }
    // The EventId of lastEvent() (empty before it).
    ByteString lastEventId() const;

    // The input's new value (the poll, or the first read when installed). True when the
    // condition changed (then call report()).
    bool evaluate(const DataValue& value);
    // A timed shelving that has run out ends (true: changed). nowMs: the steady clock.
    bool expireShelving(int64_t nowMs);

    // The Methods (OPC 10000-9 5.5.4 - 5.5.6, 5.7.3, 5.7.4, 5.8.17.2 - 5.8.17.4 and the Shelve2
    // variants of 1.05). Good: changed, call report(). Otherwise the status the Method returns:
    //   every one but enable         Bad_ConditionDisabled while disabled
    //   enable / disable             Bad_ConditionAlreadyEnabled / Bad_ConditionAlreadyDisabled
    //   addComment, acknowledge,     Bad_EventIdUnknown: eventId is not that of lastEvent()
    //   confirm
    //   acknowledge / confirm        Bad_ConditionBranchAlreadyAcked / ...AlreadyConfirmed
    //   timedShelve                  Bad_ShelvingTimeOutOfRange (NaN, <= 0, > kMaxTimeShelvedMs),
    //                                Bad_ConditionAlreadyShelved when timed-shelved already
    //   oneShotShelve                Bad_ConditionAlreadyShelved when one-shot shelved already
    //   unshelve                     Bad_ConditionNotShelved
    // user: the calling Session's user (ClientUserId); comment: applied when it has a text.
    StatusCode enable(const std::string& user);
    StatusCode disable(const std::string& user);
    StatusCode addComment(const ByteString& eventId, const LocalizedText& comment, const std::string& user);
    StatusCode acknowledge(const ByteString& eventId, const LocalizedText& comment, const std::string& user);
    StatusCode confirm(const ByteString& eventId, const LocalizedText& comment, const std::string& user);
    StatusCode timedShelve(double shelvingTimeMs, int64_t nowMs, const LocalizedText& comment, const std::string& user);
    StatusCode oneShotShelve(const LocalizedText& comment, const std::string& user);
    StatusCode unshelve(const LocalizedText& comment, const std::string& user);

    // The Event of the current state (every field of the condition's type that we keep, a new
    // EventId, Time now), remembered as lastEvent(). nowMs: the steady clock (UnshelveTime).
    EventPtr report(int64_t nowMs);

private:
    void applyComment(const LocalizedText& comment, const std::string& user);
    StatusCode checkEventId(const ByteString& eventId) const;
    // Applies the value to the limit or discrete states; true when a state changed.
    bool applyValue(const Variant& value);
    // After a change of the active states: activation, severity, one-shot shelving.
    void afterActiveChange(bool activeBefore);
    std::string stateText() const;
    std::string activeMessage() const;

    AlarmDefinition m_def;
    NodeId m_id, m_source;
    std::string m_sourceName;
    bool m_enabled = true;
    bool m_acked = true;
    bool m_confirmed = true;
    LimitState m_exclusive = LimitState::None;
    uint8_t m_nonExclusive = 0;  // bit (1 << LimitState) per exceeded limit
    bool m_discreteActive = false;
    ShelvedState m_shelved = ShelvedState::Unshelved;
    uint32_t m_lastShelvingTransition = 0;  // the NodeId (ns 0) of the last transition; 0: none yet
    int64_t m_unshelveAtMs = 0;
    uint16_t m_severity;
    uint16_t m_lastSeverity;
    LocalizedText m_comment;
    std::string m_clientUserId;
    std::string m_message;
    DataValue m_input;
    DateTime m_enabledTime, m_activeTime, m_ackedTime, m_confirmedTime, m_commentTime, m_severityTime, m_shelvingTime;
    EventPtr m_last;
};

} // namespace ua
