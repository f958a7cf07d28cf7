#include "ua/server/subscriptions/SubscriptionService.h"

#include "ua/server/subscriptions/HomeDispatch.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"

namespace ua {

namespace {
TransferUser lockedTransferUser(Session& s) {
    std::lock_guard lock(s.activationMutex);
    return transferUser(s);
}
} // namespace

std::shared_ptr<SessionSubscriptions> sessionSubscriptions(SubscriptionContext& ctx) {
    Session& s = *ctx.session;
    if (auto existing = s.subscriptions.load()) return existing;
    SubscriptionScheduler* home = SubscriptionScheduler::current();
    if (!home) return nullptr;
    auto created = std::make_shared<SessionSubscriptions>(*home, s.sessionId, lockedTransferUser(s), ctx.session);
    std::shared_ptr<SessionSubscriptions> expected;
    if (!s.subscriptions.compare_exchange_strong(expected, created)) return expected;
    // An ActivateSession meanwhile saw no SessionSubscriptions to tell. The user is read and
    // stored under activationMutex, as ActivateSession stores it: the later of the two leaves the
    // latest user (an ActivateSession after this finds the object installed).
    created->accessChanged();
    {
        std::lock_guard lock(s.activationMutex);
        created->setTransferUser(transferUser(s));
    }
    home->adopt(created);
    return created;
}

void sessionAccessChanged(Session& s) {
    if (auto ss = s.subscriptions.load()) {
        ss->accessChanged();
        ss->setTransferUser(transferUser(s));  // the caller (ActivateSession) holds activationMutex
    }
}

// --- Handlers ---

void handleCreateSubscription(SubscriptionContext& ctx, const CreateSubscriptionRequest& req, CreateSubscriptionResponse& resp) {
    runOnHome(ctx, req, resp, &createSubscription);
}
void handleModifySubscription(SubscriptionContext& ctx, const ModifySubscriptionRequest& req, ModifySubscriptionResponse& resp) {
    runOnHome(ctx, req, resp, &modifySubscription);
}
void handleSetPublishingMode(SubscriptionContext& ctx, const SetPublishingModeRequest& req, SetPublishingModeResponse& resp) {
    runOnHome(ctx, req, resp, &setPublishingMode);
}
void handleDeleteSubscriptions(SubscriptionContext& ctx, const DeleteSubscriptionsRequest& req, DeleteSubscriptionsResponse& resp) {
    runOnHome(ctx, req, resp, &deleteSubscriptions);
}
void handleRepublish(SubscriptionContext& ctx, const RepublishRequest& req, RepublishResponse& resp) {
    runOnHome(ctx, req, resp, &republish);
}
void handleCancel(SubscriptionContext& ctx, const CancelRequest& req, CancelResponse& resp) {
    resp.cancelCount = 0;
    if (!ctx.session->subscriptions.load()) return;  // nothing was ever parked
    runOnHome(ctx, req, resp, &cancelPublish);
}

void handlePublish(SubscriptionContext& ctx, const PublishRequest& req, PublishResponse& resp) {
    auto ss = sessionSubscriptions(ctx);
    if (!ss) {
        resp.responseHeader.serviceResult = status::BadInternalError;
        return;
    }
    ctx.deferred = true;  // parked: answered by a Subscription, a fault, or Cancel
    const ResponseTarget target = responseTarget(ctx, req.requestHeader.requestHandle);
    SubscriptionScheduler& home = ss->home();
    if (home.thread() == QThread::currentThread()) {
        ss->publish(target, req, SubscriptionScheduler::clockUs());
        home.reschedule();
        return;
    }
    auto copy = std::make_shared<PublishRequest>(req);
    QMetaObject::invokeMethod(&home, [ss, copy, target] {
        ss->publish(target, *copy, SubscriptionScheduler::clockUs());
        ss->home().reschedule();
    }, Qt::QueuedConnection);
}

void handleTransferSubscriptions(SubscriptionContext& ctx, const TransferSubscriptionsRequest& req,
                                 TransferSubscriptionsResponse& resp) {
    auto ss = sessionSubscriptions(ctx);
    if (!ss) {
        resp.responseHeader.serviceResult = status::BadInternalError;
        return;
    }
    ctx.deferred = true;
    const ResponseTarget target = responseTarget(ctx, req.requestHeader.requestHandle);
    auto copy = std::make_shared<TransferSubscriptionsRequest>(req);
    auto run = [ss, copy, target] {
        transferSubscriptions(ss, *copy, [target](TransferSubscriptionsResponse&& r) { target.send(std::move(r)); },
                              SubscriptionScheduler::clockUs());
        ss->home().reschedule();
    };
    if (ss->home().thread() == QThread::currentThread()) run();
    else QMetaObject::invokeMethod(&ss->home(), run, Qt::QueuedConnection);
}

void closeSessionSubscriptions(Session& session, bool deleteSubscriptions) {
    auto ss = session.subscriptions.load();
    if (!ss) return;
    if (ss->home().thread() == QThread::currentThread()) ss->closeSession(deleteSubscriptions);
    else
        QMetaObject::invokeMethod(&ss->home(), [ss, deleteSubscriptions] { ss->closeSession(deleteSubscriptions); },
                                  Qt::QueuedConnection);
}

// --- On the home thread ---

void createSubscription(SessionSubscriptions& ss, const CreateSubscriptionRequest& req, CreateSubscriptionResponse& resp,
                        int64_t nowUs) {
    const CountedService counted(ss.serviceCounters.createSubscription, resp.responseHeader);
    Subscription::Parameters p = Subscription::revise(ss.config(), req.requestedPublishingInterval, req.requestedLifetimeCount,
                                                      req.requestedMaxKeepAliveCount, req.maxNotificationsPerPublish);
    p.publishingEnabled = req.publishingEnabled;
    p.priority = req.priority;
    Subscription* s = nullptr;
    if (StatusCode st = ss.create(p, nowUs, &s); st.isBad()) {
        resp.responseHeader.serviceResult = st;
        return;
    }
    resp.subscriptionId = s->id();
    resp.revisedPublishingInterval = p.publishingIntervalMs;
    resp.revisedLifetimeCount = p.lifetimeCount;
    resp.revisedMaxKeepAliveCount = p.maxKeepAliveCount;
}

void modifySubscription(SessionSubscriptions& ss, const ModifySubscriptionRequest& req, ModifySubscriptionResponse& resp,
                        int64_t nowUs) {
    const CountedService counted(ss.serviceCounters.modifySubscription, resp.responseHeader);
    Subscription* s = ss.find(req.subscriptionId);
    if (!s) {
        resp.responseHeader.serviceResult = status::BadSubscriptionIdInvalid;
        return;
    }
    Subscription::Parameters p = Subscription::revise(ss.config(), req.requestedPublishingInterval, req.requestedLifetimeCount,
                                                      req.requestedMaxKeepAliveCount, req.maxNotificationsPerPublish);
    p.priority = req.priority;
    s->modify(p, nowUs);
    resp.revisedPublishingInterval = p.publishingIntervalMs;
    resp.revisedLifetimeCount = p.lifetimeCount;
    resp.revisedMaxKeepAliveCount = p.maxKeepAliveCount;
}

void setPublishingMode(SessionSubscriptions& ss, const SetPublishingModeRequest& req, SetPublishingModeResponse& resp,
                       int64_t) {
    const CountedService counted(ss.serviceCounters.setPublishingMode, resp.responseHeader);
    if (req.subscriptionIds.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return;
    }
    resp.results = Array<StatusCode>::emptyArray();
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    for (uint32_t id : req.subscriptionIds) {
        Subscription* s = ss.find(id);
        if (s) s->setPublishingEnabled(req.publishingEnabled);
        resp.results.push_back(s ? StatusCode(status::Good) : StatusCode(status::BadSubscriptionIdInvalid));
    }
}

void deleteSubscriptions(SessionSubscriptions& ss, const DeleteSubscriptionsRequest& req,
                         DeleteSubscriptionsResponse& resp, int64_t) {
    const CountedService counted(ss.serviceCounters.deleteSubscriptions, resp.responseHeader);
    if (req.subscriptionIds.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return;
    }
    resp.results = Array<StatusCode>::emptyArray();
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    for (uint32_t id : req.subscriptionIds)
        resp.results.push_back(ss.remove(id) ? StatusCode(status::Good) : StatusCode(status::BadSubscriptionIdInvalid));
}

void republish(SessionSubscriptions& ss, const RepublishRequest& req, RepublishResponse& resp, int64_t) {
    const CountedService counted(ss.serviceCounters.republish, resp.responseHeader);
    Subscription* s = ss.find(req.subscriptionId);
    if (!s) {
        resp.responseHeader.serviceResult = status::BadSubscriptionIdInvalid;
        return;
    }
    const NotificationMessage* m = s->republish(req.retransmitSequenceNumber);
    if (!m) {
        resp.responseHeader.serviceResult = status::BadMessageNotAvailable;
        return;
    }
    resp.notificationMessage = *m;
}

void cancelPublish(SessionSubscriptions& ss, const CancelRequest& req, CancelResponse& resp, int64_t) {
    resp.cancelCount = ss.cancel(req.requestHandle);
}

namespace {

// A TransferSubscriptions waiting for Subscriptions homed on other threads. Touched only on the
// target's home thread.
struct TransferJob {
    TransferSubscriptionsResponse response;
    std::function<void(TransferSubscriptionsResponse&&)> done;
    int pending = 0;
    void finishOne() {
        if (--pending == 0) done(std::move(response));
    }
};

void adoptTransferred(SessionSubscriptions& target, std::unique_ptr<Subscription> s, bool sameClient, bool sendInitialValues,
                      TransferResult& result, int64_t nowUs) {
    ++s->counters.transferRequestCount;
    ++(sameClient ? s->counters.transferredToSameClientCount : s->counters.transferredToAltClientCount);
    if (sendInitialValues) s->queueInitialValues();
    result.statusCode = status::Good;
    result.availableSequenceNumbers = s->availableSequenceNumbers();
    target.adopt(std::move(s), nowUs);
}

} // namespace

void transferSubscriptions(const std::shared_ptr<SessionSubscriptions>& target, const TransferSubscriptionsRequest& req,
                           std::function<void(TransferSubscriptionsResponse&&)> done, int64_t nowUs) {
    ++target->serviceCounters.transferSubscriptions.total;
    if (req.subscriptionIds.empty()) {
        ++target->serviceCounters.transferSubscriptions.errors;
        TransferSubscriptionsResponse r;
        r.responseHeader.serviceResult = status::BadNothingToDo;
        done(std::move(r));
        return;
    }
    auto job = std::make_shared<TransferJob>();
    job->done = std::move(done);
    job->pending = 1;  // this function's own share, released at the end
    job->response.results = Array<TransferResult>(std::vector<TransferResult>(req.subscriptionIds.size()));
    job->response.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    SubscriptionRegistry& registry = target->home().registry();
    const bool sendInitial = req.sendInitialValues;
    // 5.14.7 Table 96: a transfer that would take the Session past maxSubscriptionsPerSession is
    // Bad_TooManySubscriptions for that operation, and nothing moves. Counted with the ones this
    // call already accepted (those homed elsewhere arrive later). A CreateSubscription served on
    // the home thread before such a late one arrives can still take the Session one over.
    const std::size_t limit = target->config().maxSubscriptionsPerSession;
    std::size_t accepted = 0;
    const TransferUser taker = target->transferUser();
    for (std::size_t i = 0; i < req.subscriptionIds.size(); ++i) {
        const uint32_t id = req.subscriptionIds[i];
        TransferResult& result = job->response.results[i];
        result.availableSequenceNumbers = Array<uint32_t>::emptyArray();
        std::shared_ptr<SessionSubscriptions> owner = registry.owner(id);
        if (!owner) { result.statusCode = status::BadSubscriptionIdInvalid; continue; }
        if (owner == target) {  // already this Session's: nothing moves (1.05 Table 96: Bad_NothingToDo)
            Subscription* s = target->find(id);
            result.statusCode = s ? StatusCode(status::BadNothingToDo) : StatusCode(status::BadSubscriptionIdInvalid);
            if (s) ++s->counters.transferRequestCount;
            continue;
        }
        if (!mayTakeSubscription(taker, owner->transferUser())) {
            result.statusCode = status::BadUserAccessDenied;
            continue;
        }
        if (limit && target->count() + accepted >= limit) {
            result.statusCode = status::BadTooManySubscriptions;
            continue;
        }
        ++accepted;
        const bool sameClient = owner->sessionGone();  // a reconnecting client takes its own back
        if (&owner->home() == &target->home()) {
            std::unique_ptr<Subscription> s = owner->release(id, nowUs);
            if (!s) { result.statusCode = status::BadSubscriptionIdInvalid; continue; }
            adoptTransferred(*target, std::move(s), sameClient, sendInitial, result, nowUs);
            continue;
        }
        // Homed on another thread: detach it there, adopt it back here.
        ++job->pending;
        QMetaObject::invokeMethod(&owner->home(), [owner, target, job, id, i, sameClient, sendInitial] {
            auto holder = std::make_shared<std::unique_ptr<Subscription>>(owner->release(id, SubscriptionScheduler::clockUs()));
            owner->home().reschedule();
            QMetaObject::invokeMethod(&target->home(), [target, job, holder, i, sameClient, sendInitial] {
                TransferResult& r = job->response.results[i];
                if (!*holder) r.statusCode = status::BadSubscriptionIdInvalid;
                else adoptTransferred(*target, std::move(*holder), sameClient, sendInitial, r, SubscriptionScheduler::clockUs());
                target->home().reschedule();
                job->finishOne();
            }, Qt::QueuedConnection);
        }, Qt::QueuedConnection);
    }
    job->finishOne();
}

} // namespace ua
