// The Methods of alarm conditions as the Call service runs them (OPC 10000-9 5.5.4 Enable, 5.5.5
// Disable, 5.5.6 AddComment, 5.7.3 Acknowledge, 5.7.4 Confirm, 5.8.17.2 - 5.8.17.4 Unshelve,
// OneShotShelve, TimedShelve and the 1.05 Unshelve2, OneShotShelve2, TimedShelve2 with a Comment),
// and ConditionRefresh / ConditionRefresh2 (5.5.7, 5.5.8; ConditionRefresh.h).
//
// The handlers go on the Method declarations of namespace 0 (ConditionType_Enable i=9027, ...,
// AlarmConditionType_ShelvingState_TimedShelve i=9213, ShelvedStateMachineType_TimedShelve
// i=2949, ...), so a client may call either a condition's own Method node (ConditionNodes.h
// copies the handler) or the type's with the condition as ObjectId. They run inline on the I/O
// thread (a short lock of ConditionManager). Statuses: those of ConditionManager::call; each call,
// good or bad, raises its audit event (OPC 10000-9 5.10: AuditConditionEnableEventType,
// AuditConditionCommentEventType, AuditConditionAcknowledgeEventType,
// AuditConditionConfirmEventType, AuditConditionShelvingEventType) when auditing is on.
#pragma once

#include "ua/server/addressspace/AddressSpace.h"

namespace ua {

class ConditionManager;
class SubscriptionRegistry;

// Installs the handlers of the condition Methods and of ConditionRefresh / ConditionRefresh2.
// manager and registry must outlive the address space's handlers (the Server owns all three).
StatusCode installConditionMethods(AddressSpace& space, ConditionManager& manager, SubscriptionRegistry& registry);

} // namespace ua
