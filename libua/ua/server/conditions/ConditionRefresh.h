// ConditionRefresh (OPC 10000-9 5.5.7) and ConditionRefresh2 (5.5.8), called with ObjectId
// ConditionType (i=2782) and MethodId i=3875 / i=12912:
//   ConditionRefresh(IntegerId SubscriptionId)
//   ConditionRefresh2(IntegerId SubscriptionId, IntegerId MonitoredItemId)
// On the Subscription's home thread, to every event MonitoredItem of the Subscription (Refresh2:
// to that one; Disabled items take nothing), in this order and before any later event: a
// RefreshStartEventType event (one EventId for every copy), the last event of every retained
// condition (Retain true) that the item's notifier reports and its whereClause passes, then a
// RefreshEndEventType event. The Refresh events ignore the whereClause (OPC 10000-9 4.5); the
// select clauses apply. SourceNode the Server object, SourceName "Server".
// Statuses: Bad_SubscriptionIdInvalid (no such Subscription), Bad_UserAccessDenied (another
// Session's), Bad_NothingToDo (the Subscription has no event MonitoredItem), Bad_MonitoredItemIdInvalid
// (Refresh2: no such item in it, or not an event item), Bad_Timeout (its home thread did not
// answer in 5 s). Bad_RefreshInProgress never: a refresh is done in one step on the home thread.
#pragma once

#include "ua/server/addressspace/AddressSpace.h"

namespace ua {

class ConditionManager;
class SubscriptionRegistry;

StatusCode installConditionRefresh(AddressSpace& space, ConditionManager& manager, SubscriptionRegistry& registry);

} // namespace ua
