// MonitoredItem service set (OPC 10000-4 1.05.03 5.12; 5.13 in the newest text): data-change items,
// and event items (an EventFilter on the EventNotifier attribute: events/EventItem.h). Handlers run on the Session's home thread as the Subscription
// services do (SubscriptionService.h); the functions taking SessionSubscriptions& are what they
// run and what unit tests call with a fake clock (nowUs).
//
// Revisions (5.13.1.2, 5.13.1.5): samplingInterval -1 (any negative, NaN) -> the Subscription's
// publishing interval; 0 -> the fastest supported (SubscriptionConfig::minSamplingIntervalMs);
// otherwise clamped into [minSamplingIntervalMs, maxSamplingIntervalMs] and raised to the node's
// MinimumSamplingInterval (ms). queueSize 0 -> 1, above maxQueueSize -> maxQueueSize.
// A new item in Sampling or Reporting mode takes its first sample at once.
//
// Request level: Bad_SubscriptionIdInvalid, Bad_NothingToDo, Bad_TimestampsToReturnInvalid,
// Bad_MonitoredItemIdInvalid (SetTriggering's triggering item), Bad_MonitoringModeInvalid
// (SetMonitoringMode), Bad_TooManyOperations (more items, or SetTriggering links added and removed
// together, than SubscriptionConfig::maxMonitoredItemsPerCall, OPC 10000-5 6.3.11; no results).
// Operation level: Bad_NodeIdUnknown, Bad_AttributeIdInvalid, Bad_IndexRangeInvalid,
// Bad_DataEncodingInvalid/Unsupported, Bad_NotReadable, Bad_UserAccessDenied (as Read),
// Bad_MonitoringModeInvalid, Bad_TooManyMonitoredItems (MaxMonitoredItems server-wide,
// MaxMonitoredItemsPerSubscription), Bad_MonitoredItemIdInvalid, and for the filter (7.22.2):
//   Bad_FilterNotAllowed               a DataChangeFilter on an attribute other than Value, a
//                                      deadband on a non-numeric DataType, an EventFilter on an
//                                      attribute other than EventNotifier
//   Bad_DeadbandFilterInvalid          an unknown deadband type, a negative absolute deadband, a
//                                      percent outside 0-100, a percent deadband without EURange
//   Bad_MonitoredItemFilterInvalid     an unknown DataChangeTrigger
//   Bad_MonitoredItemFilterUnsupported any other filter (AggregateFilter, an undecoded structure)
// Event items: Bad_NotSupported, Bad_EventFilterInvalid (see events/EventItem.h).
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/subscriptions/SubscriptionContext.h"
#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/subscriptions/MonitoredItem.h"

namespace ua {

class SessionSubscriptions;

void handleCreateMonitoredItems(SubscriptionContext& ctx, const CreateMonitoredItemsRequest& req, CreateMonitoredItemsResponse& resp);
void handleModifyMonitoredItems(SubscriptionContext& ctx, const ModifyMonitoredItemsRequest& req, ModifyMonitoredItemsResponse& resp);
void handleDeleteMonitoredItems(SubscriptionContext& ctx, const DeleteMonitoredItemsRequest& req, DeleteMonitoredItemsResponse& resp);
void handleSetMonitoringMode(SubscriptionContext& ctx, const SetMonitoringModeRequest& req, SetMonitoringModeResponse& resp);
void handleSetTriggering(SubscriptionContext& ctx, const SetTriggeringRequest& req, SetTriggeringResponse& resp);

// --- On the home thread ---
void createMonitoredItems(SessionSubscriptions& ss, const CreateMonitoredItemsRequest& req,
                          CreateMonitoredItemsResponse& resp, int64_t nowUs);
void modifyMonitoredItems(SessionSubscriptions& ss, const ModifyMonitoredItemsRequest& req,
                          ModifyMonitoredItemsResponse& resp, int64_t nowUs);
void deleteMonitoredItems(SessionSubscriptions& ss, const DeleteMonitoredItemsRequest& req,
                          DeleteMonitoredItemsResponse& resp, int64_t nowUs);
void setMonitoringMode(SessionSubscriptions& ss, const SetMonitoringModeRequest& req, SetMonitoringModeResponse& resp,
                       int64_t nowUs);
void setTriggering(SessionSubscriptions& ss, const SetTriggeringRequest& req, SetTriggeringResponse& resp, int64_t nowUs);

// The filter of one item as 7.22.2 checks it (the statuses above); out gets what the item applies.
StatusCode parseDataChangeFilter(const AddressSpace& space, const Node& node, uint32_t attributeId,
                                 const ExtensionObject& filter, DataChangeSettings& out);

} // namespace ua
