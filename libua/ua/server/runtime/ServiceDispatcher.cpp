#include "ua/server/ServiceDispatcher.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/Server.h"
#include "ua/server/ServerConnection.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"
#include "ua/server/services/DiscoveryService.h"
#include "ua/server/services/MethodService.h"
#include "ua/server/services/AttributeService.h"
#include "ua/server/services/MonitoredItemService.h"
#include "ua/server/services/SessionService.h"
#include "ua/server/services/SubscriptionService.h"
#include "ua/server/services/ViewService.h"

#include <algorithm>
#include <array>

namespace ua {

namespace {

enum class Needs { Nothing, Session };

using DispatchFn = void (*)(RequestContext&, uint32_t requestId, const uint8_t* body, std::size_t size);

// Counting (diagnostics/ServiceCounters.h): a request served with its Session costs one relaxed
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
    ServerSecureChannel& ch = *ctx.connection.channel();
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
        SessionPtr s = ctx.connection.findSession(req.requestHeader.authenticationToken);
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

// Adapts a View/Attribute handler (ServiceContext) to the dispatcher's RequestContext.
template <class Req, class Resp, void (*Handler)(ServiceContext&, const Req&, Resp&)>
void withServiceContext(RequestContext& ctx, const Req& req, Resp& resp) {
    ServiceContext sc{ctx.connection.addressSpace(), &ctx.server.addressSpace(), ctx.server.config().operationLimits,
                      &ctx.session->view, resp.responseHeader.timestamp};
    sc.roles = ctx.session->roles.load(std::memory_order_relaxed);
    sc.permissions = ctx.session->permissions.load(std::memory_order_relaxed);
    Handler(sc, req, resp);
}

struct Entry {
    uint32_t encodingId;
    DispatchFn fn;
};

#define UA_SERVICE(Name, needs) \
    Entry{Name##Request::kBinaryEncodingId, &serve<Name##Request, Name##Response, &handle##Name, needs, ServiceKind::Name>}

#define UA_VIEW_SERVICE(Name)                                                                                  \
    Entry{Name##Request::kBinaryEncodingId,                                                                    \
          &serve<Name##Request, Name##Response, &withServiceContext<Name##Request, Name##Response, &handle##Name>, \
                 Needs::Session, ServiceKind::Name>}

constexpr auto makeTable() {
    std::array table{
        UA_SERVICE(FindServers, Needs::Nothing),
        UA_SERVICE(GetEndpoints, Needs::Nothing),
        UA_SERVICE(CreateSession, Needs::Nothing),
        UA_SERVICE(ActivateSession, Needs::Nothing),
        UA_SERVICE(CloseSession, Needs::Session),
        UA_SERVICE(Cancel, Needs::Session),
        UA_VIEW_SERVICE(Read),
        UA_VIEW_SERVICE(Write),
        UA_VIEW_SERVICE(Browse),
        UA_VIEW_SERVICE(BrowseNext),
        UA_VIEW_SERVICE(TranslateBrowsePathsToNodeIds),
        UA_VIEW_SERVICE(RegisterNodes),
        UA_VIEW_SERVICE(UnregisterNodes),
        UA_SERVICE(CreateSubscription, Needs::Session),
        UA_SERVICE(ModifySubscription, Needs::Session),
        UA_SERVICE(SetPublishingMode, Needs::Session),
        UA_SERVICE(DeleteSubscriptions, Needs::Session),
        UA_SERVICE(Publish, Needs::Session),
        UA_SERVICE(Republish, Needs::Session),
        UA_SERVICE(TransferSubscriptions, Needs::Session),
        UA_SERVICE(CreateMonitoredItems, Needs::Session),
        UA_SERVICE(ModifyMonitoredItems, Needs::Session),
        UA_SERVICE(DeleteMonitoredItems, Needs::Session),
        UA_SERVICE(SetMonitoringMode, Needs::Session),
        UA_SERVICE(SetTriggering, Needs::Session),
        UA_SERVICE(Call, Needs::Session),
    };
    std::sort(table.begin(), table.end(), [](const Entry& a, const Entry& b) { return a.encodingId < b.encodingId; });
    return table;
}
#undef UA_SERVICE
#undef UA_VIEW_SERVICE

const auto kTable = makeTable();

} // namespace

void dispatchRequest(Server& server, ServerConnection& connection, uint32_t requestId, uint32_t typeId,
                     const uint8_t* body, std::size_t size, int64_t nowMs) {
    const auto it = std::lower_bound(kTable.begin(), kTable.end(), typeId,
                                     [](const Entry& e, uint32_t id) { return e.encodingId < id; });
    if (it == kTable.end() || it->encodingId != typeId) {
        // The requestHandle is the third field of every RequestHeader: NodeId, DateTime, UInt32.
        RequestHeader h;
        BinaryDecoder d(body, size);
        decode(d, h);
        server.diagnostics().counters().rejected(status::BadServiceUnsupported);
        connection.channel()->sendServiceFault(requestId, d.ok() ? h.requestHandle : 0, status::BadServiceUnsupported);
        return;
    }
    RequestContext ctx{server, connection, connection.channelId(), nullptr, nowMs, requestId};
    it->fn(ctx, requestId, body, size);
}

} // namespace ua
