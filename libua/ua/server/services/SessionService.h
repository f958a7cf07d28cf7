// Session service set (OPC 10000-4 5.6): CreateSession, ActivateSession (AnonymousIdentityToken),
// CloseSession and Cancel.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/RequestContext.h"

namespace ua {

// 5.6.2: a Session bound to this channel; Bad_TooManySessions when the limit is reached.
void handleCreateSession(RequestContext& ctx, const CreateSessionRequest& req, CreateSessionResponse& resp);
// 5.6.3: the first activation must come on the creating channel (Bad_SessionIdInvalid otherwise);
// a later one may move the Session to this channel (same user: anonymous).
// Bad_IdentityTokenInvalid for identity tokens other than anonymous (for now).
void handleActivateSession(RequestContext& ctx, const ActivateSessionRequest& req, ActivateSessionResponse& resp);
// 5.6.4 CloseSession (ctx.session is the Session to close).
void handleCloseSession(RequestContext& ctx, const CloseSessionRequest& req, CloseSessionResponse& resp);
// 5.6.5 Cancel: parked Publish requests with the requestHandle get Bad_RequestCancelledByClient;
// cancelCount says how many (SubscriptionService.h).
void handleCancel(RequestContext& ctx, const CancelRequest& req, CancelResponse& resp);

} // namespace ua
