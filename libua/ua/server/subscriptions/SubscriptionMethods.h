// The Server object's Methods for Subscriptions (OPC 10000-5 9.1 GetMonitoredItems, 9.2
// ResendData), attached to their namespace-0 Method nodes (i=11492, i=12873):
//   GetMonitoredItems(UInt32 subscriptionId) -> UInt32[] serverHandles, UInt32[] clientHandles:
//     every MonitoredItem of the Subscription, in monitoredItemId order.
//   ResendData(UInt32 subscriptionId): every data MonitoredItem in Reporting mode sends its value
//     in the next Publish (what it has queued, else its last value again, as sendInitialValues).
// Both: Bad_SubscriptionIdInvalid for an unknown id, Bad_UserAccessDenied when the calling Session
// does not own the Subscription. They run on the Method worker pool (MethodHandler.h) and wait for
// the Subscription's home thread (at most 5 s: Bad_Timeout).
#pragma once

#include "ua/server/addressspace/AddressSpace.h"

namespace ua {

class SubscriptionRegistry;

// registry must outlive the address space's handlers (the Server owns both).
StatusCode installSubscriptionMethods(AddressSpace& space, SubscriptionRegistry& registry);

} // namespace ua
