// What the Subscription and MonitoredItem service handlers (SubscriptionService.h,
// MonitoredItemService.h) and Cancel use besides their request, built by the dispatcher for one
// request on the connection's thread: the activated Session, where a response sent later goes,
// and the server-wide counters of rejected requests.
#pragma once

#include "ua/server/common/ResponseTarget.h"
#include "ua/server/common/ServiceCounters.h"
#include "ua/server/common/Session.h"

#include <cstdint>
#include <memory>

namespace ua {

struct SubscriptionContext {
    const SessionPtr& session;
    const std::shared_ptr<ConnectionLink>& link;  // the request's connection
    uint32_t requestId;                           // of the SecureChannel message
    ServerCounters& counters;                     // a Bad response sent later is counted here
    // Set by a handler that answers later (a parked Publish, a service run on the Session's home
    // thread): the dispatcher then sends nothing.
    bool deferred = false;
};

} // namespace ua
