// Runs a subscription or MonitoredItem service on its Session's home thread (SessionSubscriptions.h):
// directly when the request arrived there, else posted there with the response posted back to the
// request's connection (SubscriptionContext::deferred tells the dispatcher not to answer).
#pragma once

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/SubscriptionContext.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

namespace ua {

std::shared_ptr<SessionSubscriptions> sessionSubscriptions(SubscriptionContext& ctx);

inline ResponseTarget responseTarget(SubscriptionContext& ctx, uint32_t requestHandle) {
    return ResponseTarget{ctx.link, ctx.requestId, requestHandle};
}

template <class Req, class Resp>
void runOnHome(SubscriptionContext& ctx, const Req& req, Resp& resp,
               void (*fn)(SessionSubscriptions&, const Req&, Resp&, int64_t)) {
    auto ss = sessionSubscriptions(ctx);
    if (!ss) {
        resp.responseHeader.serviceResult = status::BadInternalError;
        return;
    }
    SubscriptionScheduler& home = ss->home();
    if (home.thread() == QThread::currentThread()) {
        fn(*ss, req, resp, SubscriptionScheduler::clockUs());
        home.reschedule();
        return;
    }
    ctx.deferred = true;
    const ResponseTarget target = responseTarget(ctx, req.requestHeader.requestHandle);
    auto copy = std::make_shared<Req>(req);
    ServerCounters* counters = &ctx.counters;
    QMetaObject::invokeMethod(&home, [ss, copy, target, fn, counters] {
        Resp r;
        fn(*ss, *copy, r, SubscriptionScheduler::clockUs());
        ss->home().reschedule();
        if (r.responseHeader.serviceResult.isBad()) counters->rejected(r.responseHeader.serviceResult);
        target.send(std::move(r));
    }, Qt::QueuedConnection);
}

} // namespace ua
