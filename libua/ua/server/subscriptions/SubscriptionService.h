// Subscription service set (OPC 10000-4 1.05.03 5.13; 5.14 in the newest text) and Cancel (5.6.5)
// of parked Publish requests. The Subscription model itself lives in server/subscriptions/.
//
// Two layers:
//  - handleX(SubscriptionContext&, ...) are the dispatcher's handlers (runtime/ServiceDispatcher.cpp). Each finds
//    the Session's SessionSubscriptions (created on first use, homed on the calling thread) and runs
//    the service on its home thread: at once when that is this thread (the normal case), else posted
//    there with the response posted back (ctx.deferred). Publish always answers later (parked).
//  - the functions taking SessionSubscriptions& run on its home thread; unit tests call them with a
//    fake clock (nowUs, SubscriptionScheduler::clockUs() units).
//
// Request-level results: Bad_NothingToDo (empty id lists), Bad_SubscriptionIdInvalid (Modify,
// Republish; an id of another Session is unknown here), Bad_NoSubscription (Publish without
// Subscriptions), Bad_TooManyPublishRequests (oldest parked Publish when the queue is full),
// Bad_MessageNotAvailable (Republish of a message not in the retransmission queue),
// Bad_TooManySubscriptions (CreateSubscription over MaxSubscriptions / MaxSubscriptionsPerSession).
// Operation level: Bad_SubscriptionIdInvalid, Bad_SequenceNumberUnknown (acknowledgements),
// Bad_UserAccessDenied (TransferSubscriptions from another user, or anonymous from another
// ApplicationUri or onto a None channel: TransferUser.h), Bad_NothingToDo (TransferSubscriptions
// of a Subscription the Session already owns; counted as a transfer request, nothing else happens).
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/subscriptions/SubscriptionContext.h"

#include <memory>

namespace ua {

class SessionSubscriptions;

void handleCreateSubscription(SubscriptionContext& ctx, const CreateSubscriptionRequest& req, CreateSubscriptionResponse& resp);
void handleModifySubscription(SubscriptionContext& ctx, const ModifySubscriptionRequest& req, ModifySubscriptionResponse& resp);
void handleSetPublishingMode(SubscriptionContext& ctx, const SetPublishingModeRequest& req, SetPublishingModeResponse& resp);
void handleDeleteSubscriptions(SubscriptionContext& ctx, const DeleteSubscriptionsRequest& req, DeleteSubscriptionsResponse& resp);
void handlePublish(SubscriptionContext& ctx, const PublishRequest& req, PublishResponse& resp);
void handleRepublish(SubscriptionContext& ctx, const RepublishRequest& req, RepublishResponse& resp);
void handleTransferSubscriptions(SubscriptionContext& ctx, const TransferSubscriptionsRequest& req,
                                 TransferSubscriptionsResponse& resp);
// 5.6.5 Cancel (of the Session service set, served here): parked Publish requests with
// req.requestHandle are answered with Bad_RequestCancelledByClient; cancelCount says how many.
void handleCancel(SubscriptionContext& ctx, const CancelRequest& req, CancelResponse& resp);
// CloseSession (OPC 10000-4 5.7.4.1): the Session's parked Publish requests are answered
// Bad_SessionClosed, and with deleteSubscriptions its Subscriptions are deleted (the dispatcher
// calls it before services/SessionService.h handleCloseSession; the answers come from the
// Subscriptions' home thread, so they may follow the CloseSession response).
void closeSessionSubscriptions(Session& session, bool deleteSubscriptions);
// ActivateSession stored a new user, roles and permissions in s: its Subscriptions sample with
// them from now on (SessionSubscriptions::accessChanged(); any thread), and TransferSubscriptions
// compares the new user (TransferUser.h). The caller holds s.activationMutex.
void sessionAccessChanged(Session& s);
// The Session's SessionSubscriptions, created (homed on the calling thread) on first use.
std::shared_ptr<SessionSubscriptions> sessionSubscriptions(SubscriptionContext& ctx);

// --- On the home thread ---
void createSubscription(SessionSubscriptions& ss, const CreateSubscriptionRequest& req, CreateSubscriptionResponse& resp,
                        int64_t nowUs);
void modifySubscription(SessionSubscriptions& ss, const ModifySubscriptionRequest& req, ModifySubscriptionResponse& resp,
                        int64_t nowUs);
void setPublishingMode(SessionSubscriptions& ss, const SetPublishingModeRequest& req, SetPublishingModeResponse& resp,
                       int64_t nowUs);
void deleteSubscriptions(SessionSubscriptions& ss, const DeleteSubscriptionsRequest& req,
                         DeleteSubscriptionsResponse& resp, int64_t nowUs);
void republish(SessionSubscriptions& ss, const RepublishRequest& req, RepublishResponse& resp, int64_t nowUs);
void cancelPublish(SessionSubscriptions& ss, const CancelRequest& req, CancelResponse& resp, int64_t nowUs);
// TransferSubscriptions into target; answers through done (at once, or after the Subscriptions
// homed on other threads have moved here).
void transferSubscriptions(const std::shared_ptr<SessionSubscriptions>& target, const TransferSubscriptionsRequest& req,
                           std::function<void(TransferSubscriptionsResponse&&)> done, int64_t nowUs);

} // namespace ua
