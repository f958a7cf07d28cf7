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

#include <functional>

namespace ua {

class SessionSubscriptions;
class Subscription;
class SubscriptionRegistry;
struct MethodCall;

// For a Method handler of Execution::Worker (MethodHandler.h) whose first input is a
// SubscriptionId of the calling Session: runs work on that Subscription's home thread and returns
// its status, or before that Bad_SubscriptionIdInvalid (no such Subscription, or not a UInt32),
// Bad_UserAccessDenied (another Session's) or Bad_Timeout (the home thread did not answer in 5 s).
StatusCode onSubscription(SubscriptionRegistry& registry, const MethodCall& call,
                          std::function<StatusCode(Subscription&, SessionSubscriptions&)> work);

// registry must outlive the address space's handlers (the Server owns both).
StatusCode installSubscriptionMethods(AddressSpace& space, SubscriptionRegistry& registry);

} // namespace ua
