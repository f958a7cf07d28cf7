#include "ua/server/services/SessionService.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/Server.h"
#include "ua/server/ServerConnection.h"
#include "ua/server/services/SubscriptionService.h"

#include <algorithm>

namespace ua {

void handleCreateSession(RequestContext& ctx, const CreateSessionRequest& req, CreateSessionResponse& resp) {
    const ServerConfig& cfg = ctx.server.config();
    const double timeout = std::clamp(req.requestedSessionTimeout, cfg.minSessionTimeoutMs, cfg.maxSessionTimeoutMs);
    SessionPtr s = ctx.server.sessions().create(ctx.channelId, timeout, ctx.nowMs);
    if (!s) {
        resp.responseHeader.serviceResult = status::BadTooManySessions;
        return;
    }
    s->sessionName = req.sessionName;
    s->client = req.clientDescription;
    ctx.connection.rememberSession(s);
    resp.sessionId = s->sessionId;
    resp.authenticationToken = s->authenticationToken;
    resp.revisedSessionTimeout = timeout;
    resp.serverNonce = s->serverNonce;
    resp.serverCertificate = ByteString();
    resp.serverEndpoints = Array<EndpointDescription>(ctx.server.endpoints());
    resp.serverSoftwareCertificates = Array<SignedSoftwareCertificate>::emptyArray();
    resp.maxRequestMessageSize = ctx.server.config().transport.maxMessageSize;
}

void handleActivateSession(RequestContext& ctx, const ActivateSessionRequest& req, ActivateSessionResponse& resp) {
    SessionPtr s = ctx.server.sessions().find(req.requestHeader.authenticationToken);
    if (!s || s->closed) {
        resp.responseHeader.serviceResult = status::BadSessionIdInvalid;
        return;
    }
    if (!s->activated && s->channelId != ctx.channelId) {
        resp.responseHeader.serviceResult = status::BadSessionIdInvalid;  // 5.6.3: first activation on its channel
        return;
    }
    const ExtensionObject& token = req.userIdentityToken;
    const bool anonymous = token.isNull() || token.get<AnonymousIdentityToken>() != nullptr;
    if (!anonymous) {
        resp.responseHeader.serviceResult = token.isDecoded() ? status::BadIdentityTokenRejected : status::BadIdentityTokenInvalid;
        return;
    }
    s->channelId = ctx.channelId;  // a later activation moves the Session to this channel
    s->activated = true;
    s->touch(ctx.nowMs);
    ctx.connection.rememberSession(s);
    resp.serverNonce = s->serverNonce;
    resp.results = Array<StatusCode>::emptyArray();
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
}

void handleCloseSession(RequestContext& ctx, const CloseSessionRequest& req, CloseSessionResponse&) {
    if (req.deleteSubscriptions) deleteSessionSubscriptions(ctx);
    ctx.server.sessions().remove(ctx.session);
    ctx.connection.forgetSession(ctx.session);
}

void handleCancel(RequestContext& ctx, const CancelRequest& req, CancelResponse& resp) {
    cancelPublishRequests(ctx, req, resp);
}

} // namespace ua
