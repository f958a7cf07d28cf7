// The Methods a client calls on alarm conditions (OPC 10000-9 5.5.4 Enable, 5.5.5 Disable, 5.5.6
// AddComment, 5.7.3 Acknowledge, 5.7.4 Confirm, 5.8.17.2 Unshelve, 5.8.17.3 OneShotShelve, 5.8.17.4
// TimedShelve) and ConditionRefresh / ConditionRefresh2 (5.5.7, 5.5.8), over ua::Client's Call.
//
// Every callback gets one StatusCode: the service's failure (Bad_Timeout, Bad_ConnectionClosed,
// a ServiceFault's code, ...) or else the Method's own result, as the server named it. Part 9's
// statuses include Bad_ConditionBranchAlreadyAcked, Bad_ConditionBranchAlreadyConfirmed,
// Bad_ConditionAlreadyEnabled, Bad_ConditionAlreadyDisabled, Bad_ConditionDisabled,
// Bad_ConditionAlreadyShelved, Bad_ConditionNotShelved, Bad_ShelvingTimeOutOfRange,
// Bad_EventIdUnknown (an EventId that is not the condition's latest), Bad_MethodInvalid,
// Bad_NodeIdInvalid, Bad_NodeIdUnknown; the refresh: Bad_SubscriptionIdInvalid, Bad_NothingToDo
// (no event item in the subscription), Bad_RefreshInProgress, Bad_MonitoredItemIdInvalid.
// The callbacks run as Client.h says (in context's thread; nullptr: the I/O thread).
#pragma once

#include "ua/client/common/ServiceResult.h"
#include "ua/encoding/generated/Types.h"

#include <QObject>

namespace ua {

class Client;

enum class AlarmMethod : uint8_t {
    Enable,         // ConditionType.Enable (i=9027), no arguments
    Disable,        // ConditionType.Disable (i=9028), no arguments
    AddComment,     // ConditionType.AddComment (i=9029): EventId, Comment
    Acknowledge,    // AcknowledgeableConditionType.Acknowledge (i=9111): EventId, Comment
    Confirm,        // AcknowledgeableConditionType.Confirm (i=9113): EventId, Comment
    TimedShelve,    // ShelvingState.TimedShelve (i=9213 on AlarmConditionType): ShelvingTime (Duration, ms)
    OneShotShelve,  // ShelvingState.OneShotShelve (i=9212), no arguments
    Unshelve,       // ShelvingState.Unshelve (i=9211), no arguments
};
// "Acknowledge", "TimedShelve", ... (static text).
const char* alarmMethodName(AlarmMethod m);

struct AlarmMethodCall {
    AlarmMethod method = AlarmMethod::Acknowledge;
    NodeId conditionId;        // the ConditionId of the event (ConditionEvent::conditionId)
    ByteString eventId;        // AddComment, Acknowledge, Confirm: the EventId of the condition's latest event
    LocalizedText comment;     // AddComment, Acknowledge, Confirm; may be empty
    double shelvingTimeMs = 0; // TimedShelve: how long (the server's MaxTimeShelved is the limit)
};

// The Call of one Method with ObjectId the condition and MethodId the declaration of the type
// (the form Part 9 lets every client use for Enable, Disable, AddComment, Acknowledge and Confirm:
// "the ConditionId as ObjectId"). For the shelving Methods this is AlarmConditionType's
// declaration i=9213 / i=9212 / i=9211 with the condition, which not every server takes
// (node-opcua answers Bad_MethodInvalid): callAlarmMethod calls those on the ShelvingState.
CallMethodRequest alarmMethodRequest(const AlarmMethodCall& call);

// Calls the Method. The shelving Methods go to the condition's ShelvingState Object with its own
// Method node (OPC 10000-9 5.8.17: "the MethodId found in the Shelving child of the Condition
// instance and the NodeId of the Shelving object as the ObjectId"), found with one
// TranslateBrowsePathsToNodeIds of "/ShelvingState" and "/ShelvingState/<Method>" from the
// condition; when the server has no such path, alarmMethodRequest's form is used. done gets
// the status (see the header comment).
void callAlarmMethod(Client& client, const AlarmMethodCall& call, QObject* context, StatusCallback done,
                         uint32_t timeoutMs = 0);

// ConditionRefresh(SubscriptionId) (i=3875 with ObjectId ConditionType i=2782): the server sends,
// to every event item of the subscription, RefreshStart, the retained conditions, RefreshEnd.
// subscriptionId is the server's id (SubscriptionInfo::subscriptionId; it changes when the
// subscription is created again after a lost Session).
CallMethodRequest conditionRefreshRequest(uint32_t subscriptionId);
// ConditionRefresh2(SubscriptionId, MonitoredItemId) (i=12912): the same to one item.
CallMethodRequest conditionRefresh2Request(uint32_t subscriptionId, uint32_t monitoredItemId);
void conditionRefresh(Client& client, uint32_t subscriptionId, QObject* context, StatusCallback done, uint32_t timeoutMs = 0);

} // namespace ua
