#include "ua/server/runtime/ServiceDispatcher.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/ThreadSnapshot.h"
#include "ua/server/runtime/RequestContext.h"
#include "ua/server/runtime/ServerParts.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/services/DiscoveryService.h"
#include "ua/server/services/HistoryService.h"
#include "ua/server/services/MethodService.h"
#include "ua/server/services/NodeManagementService.h"
#include "ua/server/services/AttributeService.h"
#include "ua/server/services/SessionService.h"
#include "ua/server/services/ViewService.h"
#include "ua/server/subscriptions/MonitoredItemService.h"
#include "ua/server/subscriptions/SubscriptionService.h"

#include <algorithm>
#include <array>

namespace ua {

namespace {

enum class Needs { Nothing, Session };

using DispatchFn = void (*)(RequestContext&, uint32_t requestId, const uint8_t* body, std::size_t size);

// Counting (common/ServiceCounters.h): a request served with its Session costs one relaxed
// load + store of the Session's counter (the subscription and MonitoredItem services are counted on
// the Session's home thread instead); everything else (Session-less services, rejections) is rare.
// Where a request and its response are decoded and built. Read, the service of the hot path, uses
// one pair per I/O thread, kept between requests: the arrays keep their capacity and the decoded
// ReadValueIds their strings, so a Read of n values allocates nothing in steady state instead of
// two arrays of n elements built and destroyed per request. Everything else gets fresh objects
// (a deferred service may keep its request). The Read pair is reset here, not by the handler.
template <class Req, class Resp, ServiceKind kind>
struct RequestScratch {
    Req req;
    Resp resp;
    Req& request() { return req; }
    Resp& response() { return resp; }
};
template <class Req, class Resp>
struct RequestScratch<Req, Resp, ServiceKind::Read> {
    // A request of more than this many values gives its memory back afterwards (MaxNodesPerRead
    // may allow 10,000 or more; one such Read must not pin megabytes on every I/O thread).
    static constexpr std::size_t kKeptCapacity = 1024;
    struct Pair {
        Req req;
        Resp resp;
    };
    static Pair& pair() {
        thread_local Pair p;
        return p;
    }
    Req& request() { return pair().req; }
    Resp& response() {
        Resp& r = pair().resp;
        r.responseHeader = ResponseHeader();
        // results keeps the previous Read's DataValues: handleRead reads over them, or empties
        // them when it fails the whole request (AttributeService.cpp).
        r.diagnosticInfos.setEmpty();
        return r;
    }
    ~RequestScratch() {
        Pair& p = pair();
        if (p.req.nodesToRead.capacity() > kKeptCapacity) p.req.nodesToRead = {};
        if (p.resp.results.capacity() > kKeptCapacity) p.resp.results = {};
    }
};

template <class Req, class Resp, void (*Handler)(RequestContext&, const Req&, Resp&), Needs needs, ServiceKind kind>
void serve(RequestContext& ctx, uint32_t requestId, const uint8_t* body, std::size_t size) {
    ServerSecureChannel& ch = ctx.channel;
    ServerCounters& server = ctx.server.diagnostics().counters();
    // A request answered without its Session: counted server-wide.
    const auto rejectWithoutSession = [&](uint32_t requestHandle, StatusCode bad) {
        ++server.sessionlessTotal[std::size_t(kind)];
        ++server.sessionlessErrors[std::size_t(kind)];
        server.rejected(bad);
        if constexpr (kind == ServiceKind::CreateSession || kind == ServiceKind::ActivateSession) {
            ++server.rejectedSessions;
            if (isSecurityRejection(bad)) ++server.securityRejectedSessions;
        }
        ch.sendServiceFault(requestId, requestHandle, bad);
    };
    RequestScratch<Req, Resp, kind> scratch;
    Req& req = scratch.request();
    BinaryDecoder d(body, size);
    decode(d, req);
    if (!d.ok() || !d.atEnd()) {
        rejectWithoutSession(req.requestHeader.requestHandle, d.ok() ? status::BadDecodingError : d.status());
        return;
    }
    if constexpr (needs == Needs::Session) {
        SessionPtr s = ctx.channelSessions.find(req.requestHeader.authenticationToken);
        if (!s) s = ctx.server.sessions().find(req.requestHeader.authenticationToken);
        StatusCode bad;
        if (!s || s->closed) bad = status::BadSessionIdInvalid;
        else if (s->channelId != ctx.channelId) bad = status::BadSessionIdInvalid;  // another channel's Session
        // OPC 10000-4 5.7.4.1 (5.6.4 in 1.04): CloseSession may come before the Session is
        // activated, on the SecureChannel of its CreateSession (checked above): a client that gave
        // up on an establishment closes what it created instead of leaving it to time out.
        else if (!s->activated && kind != ServiceKind::CloseSession) bad = status::BadSessionNotActivated;
        if (bad.isBad()) {
            rejectWithoutSession(req.requestHeader.requestHandle, bad);
            return;
        }
        s->touch(ctx.nowMs);
        if constexpr (!countedOnHome(kind)) ++s->counters[kind].total;
        ctx.session = std::move(s);
    }
    Resp& resp = scratch.response();
    resp.responseHeader.timestamp = DateTime::now();
    resp.responseHeader.requestHandle = req.requestHeader.requestHandle;
    Session* const session = ctx.session.get();  // ctx keeps it alive (CloseSession too)
    Handler(ctx, req, resp);
    if constexpr (needs == Needs::Nothing) ++server.sessionlessTotal[std::size_t(kind)];
    if (ctx.deferred) return;  // counted where it is answered (SessionSubscriptions, HomeDispatch.h)
    const StatusCode result = resp.responseHeader.serviceResult;
    if constexpr (kind == ServiceKind::CreateSession)
        if (result.isGood()) ++server.cumulatedSessions;
    if (result.isBad()) {
        server.rejected(result);
        if constexpr (needs == Needs::Nothing) {
            ++server.sessionlessErrors[std::size_t(kind)];
            if constexpr (kind == ServiceKind::CreateSession || kind == ServiceKind::ActivateSession) {
                ++server.rejectedSessions;
                if (isSecurityRejection(result)) ++server.securityRejectedSessions;
            }
        } else {
            if constexpr (!countedOnHome(kind)) ++session->counters[kind].errors;
            if (isSecurityRejection(result)) ++session->counters.unauthorized;
        }
        ch.sendServiceFault(requestId, req.requestHeader.requestHandle, result);
        return;
    }
    ch.sendResponse(requestId, resp);
}

// Each service set gets a context of its own, built here on the stack for one request from the
// server and the connection: what the set uses and nothing more (docs/Architecture.md "Layers").

// The View and Attribute sets (and the core of Call): the Session's view of the thread's
// address-space snapshot.
ServiceContext serviceContext(RequestContext& ctx, DateTime now) {
    ServiceContext sc{ctx.snapshot.get(), &ctx.server.addressSpace(), ctx.server.config().operationLimits,
                      &ctx.session->view, now};
    sc.roles = ctx.session->roles.load(std::memory_order_relaxed);
    sc.permissions = ctx.session->permissions.load(std::memory_order_relaxed);
    sc.sessionScope = ctx.session->scope;
    sc.securityMode = ctx.session->securityMode;
    return sc;
}

template <class Req, class Resp, void (*Handler)(ServiceContext&, const Req&, Resp&)>
void withServiceContext(RequestContext& ctx, const Req& req, Resp& resp) {
    ServiceContext sc = serviceContext(ctx, resp.responseHeader.timestamp);
    Handler(sc, req, resp);
}

void serveCallRequest(RequestContext& ctx, const CallRequest& req, CallResponse& resp) {
    const ServiceContext sc = serviceContext(ctx, resp.responseHeader.timestamp);
    MethodContext mc{sc, ctx.session, ResponseTarget{ctx.link, ctx.requestId, req.requestHeader.requestHandle}};
    handleCall(mc, req, resp);
    ctx.deferred = mc.deferred;
}

// HistoryRead and HistoryUpdate (services/HistoryService.h): served on the history thread, which
// sends the response.
template <class Req, class Resp, void (*Handler)(HistoryServiceContext&, const Req&, Resp&)>
void withHistoryContext(RequestContext& ctx, const Req& req, Resp& resp) {
    const ServiceContext sc = serviceContext(ctx, resp.responseHeader.timestamp);
    HistoryServiceContext hc{sc, ctx.server.history(), ResponseTarget{ctx.link, ctx.requestId, req.requestHeader.requestHandle},
                             ctx.session->scope, {}, false, {}};
    if constexpr (std::is_same_v<Req, HistoryUpdateRequest>) {
        {
            std::lock_guard lock(ctx.session->activationMutex);
            hc.user = ctx.session->clientUserId;
        }
        // Its audit events, raised when the work is done (AuditEvents.h): the audit context refers
        // to the server's EventManager and ApplicationUri, which outlive the history thread's work.
        if (const AuditContext audit = ctx.server.audit(); auditWanted(audit))
            hc.audit = [audit, entry = req.requestHeader.auditEntryId, user = hc.user](const Array<ExtensionObject>& details,
                                                                                         const HistoryUpdateResponse& r) {
                auditHistoryUpdate(audit, details, r, entry, user);
            };
    }
    Handler(hc, req, resp);
    ctx.deferred = hc.deferred;
}

template <class Req, class Resp, void (*Handler)(const DiscoveryContext&, const Req&, Resp&)>
void withDiscoveryContext(RequestContext& ctx, const Req& req, Resp& resp) {
    const std::shared_ptr<const ServerIdentity> identity = ctx.server.identity();
    const DiscoveryContext dc{ctx.server.applicationDescription(), identity->endpoints};
    Handler(dc, req, resp);
}

SessionServiceContext sessionContext(RequestContext& ctx, const ServerIdentity& identity, bool creating) {
    ServerParts& server = ctx.server;
    const ServerConfig& cfg = server.config();
    return SessionServiceContext{
        server.sessions(), ctx.channelSessions, ctx.channel, ctx.channelId, ctx.peerAddress, ctx.nowMs, ctx.session, cfg.minSessionTimeoutMs, cfg.maxSessionTimeoutMs,
        cfg.transport.maxMessageSize, identity.endpoints, identity.security.get(), server.userStore(),
        server.userCertificateStore(), server.admission().counters().busySessions,
        // Server::shutdown(): no new Session while the server counts down (ServerState Shutdown).
        creating && server.runtime().state.load(std::memory_order_relaxed) == int32_t(ServerState::Shutdown),
        &sessionAccessChanged};
}

// The audit events of CreateSession and ActivateSession (events/AuditEvents.h) follow the handler,
// once it filled its response.
void serveCreateSession(RequestContext& ctx, const CreateSessionRequest& req, CreateSessionResponse& resp) {
    const std::shared_ptr<const ServerIdentity> identity = ctx.server.identity();
    SessionServiceContext sc = sessionContext(ctx, *identity, true);
    handleCreateSession(sc, req, resp);
    auditCreateSession(ctx.server.audit(), ctx.channelId, req, resp);
}

void serveActivateSession(RequestContext& ctx, const ActivateSessionRequest& req, ActivateSessionResponse& resp) {
    const std::shared_ptr<const ServerIdentity> identity = ctx.server.identity();
    SessionServiceContext sc = sessionContext(ctx, *identity, false);
    handleActivateSession(sc, req, resp);
    // A Session was activated on this channel: its handshake is over (AdmissionConfig.h).
    if (resp.responseHeader.serviceResult.isGood()) ctx.sessionActivated = true;
    const AuditContext audit = ctx.server.audit();
    if (auditWanted(audit))
        auditActivateSession(audit, ctx.channelId, ctx.server.sessions().find(req.requestHeader.authenticationToken).get(),
                             req, resp);
}

void serveCloseSession(RequestContext& ctx, const CloseSessionRequest& req, CloseSessionResponse& resp) {
    closeSessionSubscriptions(*ctx.session, req.deleteSubscriptions);
    const std::shared_ptr<const ServerIdentity> identity = ctx.server.identity();
    SessionServiceContext sc = sessionContext(ctx, *identity, false);
    handleCloseSession(sc, req, resp);
    // OPC 10000-4 6.5.6: "Session/CloseSession", with the Session's user.
    const AuditContext audit = ctx.server.audit();
    if (!auditWanted(audit)) return;
    std::string user;
    {
        std::lock_guard lock(ctx.session->activationMutex);
        user = ctx.session->clientUserId;
    }
    auditSessionEnded(audit, AuditSessionEnd::CloseSession, ctx.session->sessionId, user, "CloseSession",
                      req.requestHeader.auditEntryId);
}

// NodeManagement (services/NodeManagementService.h), then its audit event, one per request.
template <class Item, class Result>
void auditNodeManagementRequest(RequestContext& ctx, uint32_t eventType, const char* service, const char* field,
                                const RequestHeader& header, const Array<Item>& items, const Array<Result>& results) {
    const AuditContext audit = ctx.server.audit();
    if (!auditWanted(audit)) return;
    Array<ExtensionObject> xs = Array<ExtensionObject>::emptyArray();
    for (const Item& item : items) xs.push_back(ExtensionObject::make(item));
    bool allGood = !results.empty();
    for (const Result& r : results) {
        if constexpr (std::is_same_v<Result, AddNodesResult>) allGood = allGood && r.statusCode.isGood();
        else allGood = allGood && r.isGood();
    }
    std::string user;
    {
        std::lock_guard lock(ctx.session->activationMutex);
        user = ctx.session->clientUserId;
    }
    auditNodeManagement(audit, eventType, service, field, Variant(std::move(xs)), allGood, header.auditEntryId, user);
}

void serveAddNodes(RequestContext& ctx, const AddNodesRequest& req, AddNodesResponse& resp) {
    ServiceContext sc = serviceContext(ctx, resp.responseHeader.timestamp);
    handleAddNodes(sc, req, resp);
    auditNodeManagementRequest(ctx, id::AuditAddNodesEventType, "AddNodes", "NodesToAdd", req.requestHeader, req.nodesToAdd, resp.results);
}
void serveAddReferences(RequestContext& ctx, const AddReferencesRequest& req, AddReferencesResponse& resp) {
    ServiceContext sc = serviceContext(ctx, resp.responseHeader.timestamp);
    handleAddReferences(sc, req, resp);
    auditNodeManagementRequest(ctx, id::AuditAddReferencesEventType, "AddReferences", "ReferencesToAdd", req.requestHeader,
                               req.referencesToAdd, resp.results);
}
void serveDeleteNodes(RequestContext& ctx, const DeleteNodesRequest& req, DeleteNodesResponse& resp) {
    ServiceContext sc = serviceContext(ctx, resp.responseHeader.timestamp);
    handleDeleteNodes(sc, req, resp);
    auditNodeManagementRequest(ctx, id::AuditDeleteNodesEventType, "DeleteNodes", "NodesToDelete", req.requestHeader,
                               req.nodesToDelete, resp.results);
}
void serveDeleteReferences(RequestContext& ctx, const DeleteReferencesRequest& req, DeleteReferencesResponse& resp) {
    ServiceContext sc = serviceContext(ctx, resp.responseHeader.timestamp);
    handleDeleteReferences(sc, req, resp);
    auditNodeManagementRequest(ctx, id::AuditDeleteReferencesEventType, "DeleteReferences", "ReferencesToDelete", req.requestHeader,
                               req.referencesToDelete, resp.results);
}

template <class Req, class Resp, void (*Handler)(SubscriptionContext&, const Req&, Resp&)>
void withSubscriptionContext(RequestContext& ctx, const Req& req, Resp& resp) {
    SubscriptionContext sc{ctx.session, ctx.link, ctx.requestId, ctx.server.diagnostics().counters()};
    Handler(sc, req, resp);
    ctx.deferred = sc.deferred;
}

struct Entry {
    uint32_t encodingId;
    DispatchFn fn;
};

#define UA_ENTRY(Name, handler, needs) \
    Entry{Name##Request::kBinaryEncodingId, &serve<Name##Request, Name##Response, handler, needs, ServiceKind::Name>}
#define UA_SERVICE(Name, Context, needs) UA_ENTRY(Name, (&Context<Name##Request, Name##Response, &handle##Name>), needs)

constexpr auto makeTable() {
    std::array table{
        UA_SERVICE(FindServers, withDiscoveryContext, Needs::Nothing),
        UA_SERVICE(GetEndpoints, withDiscoveryContext, Needs::Nothing),
        UA_ENTRY(CreateSession, &serveCreateSession, Needs::Nothing),
        UA_ENTRY(ActivateSession, &serveActivateSession, Needs::Nothing),
        UA_ENTRY(CloseSession, &serveCloseSession, Needs::Session),
        UA_SERVICE(Cancel, withSubscriptionContext, Needs::Session),
        UA_SERVICE(Read, withServiceContext, Needs::Session),
        UA_SERVICE(Write, withServiceContext, Needs::Session),
        UA_SERVICE(Browse, withServiceContext, Needs::Session),
        UA_SERVICE(BrowseNext, withServiceContext, Needs::Session),
        UA_SERVICE(TranslateBrowsePathsToNodeIds, withServiceContext, Needs::Session),
        UA_SERVICE(RegisterNodes, withServiceContext, Needs::Session),
        UA_SERVICE(UnregisterNodes, withServiceContext, Needs::Session),
        UA_SERVICE(CreateSubscription, withSubscriptionContext, Needs::Session),
        UA_SERVICE(ModifySubscription, withSubscriptionContext, Needs::Session),
        UA_SERVICE(SetPublishingMode, withSubscriptionContext, Needs::Session),
        UA_SERVICE(DeleteSubscriptions, withSubscriptionContext, Needs::Session),
        UA_SERVICE(Publish, withSubscriptionContext, Needs::Session),
        UA_SERVICE(Republish, withSubscriptionContext, Needs::Session),
        UA_SERVICE(TransferSubscriptions, withSubscriptionContext, Needs::Session),
        UA_SERVICE(CreateMonitoredItems, withSubscriptionContext, Needs::Session),
        UA_SERVICE(ModifyMonitoredItems, withSubscriptionContext, Needs::Session),
        UA_SERVICE(DeleteMonitoredItems, withSubscriptionContext, Needs::Session),
        UA_SERVICE(SetMonitoringMode, withSubscriptionContext, Needs::Session),
        UA_SERVICE(SetTriggering, withSubscriptionContext, Needs::Session),
        UA_ENTRY(Call, &serveCallRequest, Needs::Session),
        UA_SERVICE(HistoryRead, withHistoryContext, Needs::Session),
        UA_SERVICE(HistoryUpdate, withHistoryContext, Needs::Session),
        UA_ENTRY(AddNodes, &serveAddNodes, Needs::Session),
        UA_ENTRY(AddReferences, &serveAddReferences, Needs::Session),
        UA_ENTRY(DeleteNodes, &serveDeleteNodes, Needs::Session),
        UA_ENTRY(DeleteReferences, &serveDeleteReferences, Needs::Session),
    };
    std::sort(table.begin(), table.end(), [](const Entry& a, const Entry& b) { return a.encodingId < b.encodingId; });
    return table;
}
#undef UA_SERVICE
#undef UA_ENTRY

const auto kTable = makeTable();

} // namespace

void dispatchRequest(RequestContext& ctx, uint32_t typeId, const uint8_t* body, std::size_t size) {
    const auto it = std::lower_bound(kTable.begin(), kTable.end(), typeId,
                                     [](const Entry& e, uint32_t id) { return e.encodingId < id; });
    if (it == kTable.end() || it->encodingId != typeId) {
        // The requestHandle is the third field of every RequestHeader: NodeId, DateTime, UInt32.
        RequestHeader h;
        BinaryDecoder d(body, size);
        decode(d, h);
        ctx.server.diagnostics().counters().rejected(status::BadServiceUnsupported);
        ctx.channel.sendServiceFault(ctx.requestId, d.ok() ? h.requestHandle : 0, status::BadServiceUnsupported);
        return;
    }
    it->fn(ctx, ctx.requestId, body, size);
}

} // namespace ua
