// The server's alarm conditions (OPC 10000-9): the alarms defined on Variables (AlarmDefinition.h),
// their state (ConditionState.h), their nodes (ConditionNodes.h), the Methods clients call on them
// (ConditionMethods.h) and ConditionRefresh (ConditionRefresh.h).
//
// Each poll (Server: every ServerConfig::alarmPollMs on the accept thread) reads every alarm's
// input Variable from the current address space, moves its state and ends timed shelvings; each
// change is raised as the condition's event (EventManager) and stored in its nodes. The Methods
// run on the I/O threads. One mutex guards all conditions (polls and Method calls are short; events
// are raised under it, so a condition's events keep their order).
//
// Cost: a poll is O(alarms) (each one reads one value); a Method call finds its condition by a
// hash lookup; nothing runs per request of other services.
#pragma once

#include "ua/server/conditions/AlarmDefinition.h"
#include "ua/server/conditions/ConditionNodes.h"
#include "ua/server/conditions/ConditionState.h"

#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace ua {

class EventManager;
struct MethodCall;

// What the server window's Alarms page and the tests see of a condition.
struct ConditionSummary {
    std::string name;
    NodeId conditionId, source, inputNode;
    AlarmKind kind = AlarmKind::ExclusiveLevel;
    bool enabled = true, active = false, acked = true, confirmed = true, retain = false;
    ShelvedState shelved = ShelvedState::Unshelved;
    uint16_t severity = 0;
    std::string limitState;  // "HighHigh", "High", "Low", "LowLow" or "" (level kinds)
    std::string message;     // of the last event
    DateTime time;           // of the last event (null before the first)
    ByteString eventId;      // of the last event
    DataValue value;         // the last input value seen
    LocalizedText comment;
};

// The Methods of a condition, as ConditionManager::call takes them.
enum class ConditionMethod : uint8_t {
    Enable, Disable, AddComment, Acknowledge, Confirm,
    TimedShelve, OneShotShelve, Unshelve, TimedShelve2, OneShotShelve2, Unshelve2,
};

class ConditionManager {
public:
    explicit ConditionManager(std::shared_ptr<EventManager> events);
    ~ConditionManager();
    ConditionManager(const ConditionManager&) = delete;
    ConditionManager& operator=(const ConditionManager&) = delete;

    // The ClientUserId of a Session (empty for an anonymous one); set before serving.
    void setUserOf(std::function<std::string(const NodeId& sessionId)> userOf);
    // Audit events of the Method calls (OPC 10000-9 5.10): raised when auditing is on.
    void setAuditing(bool on, QString serverId);

    // Adds an alarm and its condition's nodes to space (the address space being built, or a copy
    // in SharedAddressSpace::update). Its first event is raised by the next poll. Statuses:
    //   Bad_InvalidArgument      no name, a severity outside 1..1000, a deadband that is negative
    //                            or not finite, limits out of order or not finite, a level alarm
    //                            without limits, an OffNormal / Discrete alarm without stateValue
    //   Bad_BrowseNameDuplicated an alarm of that name exists
    //   Bad_NodeIdUnknown        input (or source) is not in space, or namespaceUri is not

    //   Bad_NodeClassInvalid     input is not a Variable
    //   Bad_NodeIdExists         the condition's NodeId is taken
    // error (optional) gets a sentence for the administrator.
    StatusCode add(AddressSpace& space, AlarmDefinition def, std::string* error = nullptr);
    // Removes an alarm and its nodes; Bad_NotFound for an unknown name.
    StatusCode remove(AddressSpace& space, const std::string& name);
    std::size_t size() const;

    // Reads every input from space, moves the states, ends timed shelvings (nowMs: steady clock).
    void poll(const AddressSpace& space, int64_t nowMs);

    // A Method on a condition: object is the condition or (shelving Methods) its ShelvingState.
    // Statuses: Bad_NodeIdInvalid (object is no condition of ours, e.g. ConditionType itself),
    // Bad_MethodInvalid (a shelving Method on the condition, or a condition Method on its
    // ShelvingState), Bad_InvalidArgument (inputs of the wrong count or type), and those of
    // ConditionState's Methods. user: the ClientUserId it is done for.
    StatusCode call(ConditionMethod method, const NodeId& object, const Array<Variant>& inputs, const std::string& user,
                    int64_t nowMs);
    // The same for a Call request: the user from the Session; raises the audit event.
    StatusCode call(ConditionMethod method, const MethodCall& call);

    std::vector<ConditionSummary> summaries() const;
    // The last events of the retained conditions (ConditionRefresh), in the order they were added.
    std::vector<EventPtr> retainedEvents() const;
    // The definitions, in the order they were added (the server app saves them).
    std::vector<AlarmDefinition> definitions() const;

private:
    struct Entry;
    Entry* findByObject(const NodeId& object, bool& shelving);
    void raise(Entry& e, int64_t nowMs);

    std::shared_ptr<EventManager> m_events;
    std::function<std::string(const NodeId&)> m_userOf;
    bool m_auditing = false;
    QString m_serverId;
    mutable std::mutex m_mutex;
    std::vector<std::unique_ptr<Entry>> m_entries;
    // The condition and its ShelvingState object -> the entry (Method calls: no scan).
    std::unordered_map<NodeId, Entry*> m_byObject;
};

} // namespace ua
