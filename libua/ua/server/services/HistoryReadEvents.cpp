// HistoryRead of events (OPC 10000-4 5.11.3 with ReadEventDetails, OPC 10000-11 6.5.2): checked
// on the I/O thread, served from the event history on the history thread (HistoryService.h).
#include "ua/server/services/HistoryService.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/server/history/EventHistory.h"
#include "ua/server/history/HistoryManager.h"
#include "ua/server/users/NodeVisibility.h"
#include "ua/server/users/Roles.h"

namespace ua {

namespace {

constexpr uint8_t kEventHistoryRead = 0x04;  // EventNotifierType HistoryRead (OPC 10000-3 8.59)

// A notifier whose event history the user may read: Good or the operation's Bad status.
StatusCode checkNotifier(const ServiceContext& sc, const NodeId& id) {
    const Node* node = sc.addressSpace.find(id);
    if (!node || !nodeVisible(*node, sc.sessionScope, sc.roles)) return status::BadNodeIdUnknown;
    if ((node->nodeClass != NodeClass::Object && node->nodeClass != NodeClass::View) || !(node->eventNotifier & kEventHistoryRead))
        return status::BadHistoryOperationUnsupported;
    if (!(userPermissions(*node, sc.roles, sc.permissions) & uint32_t(PermissionType::ReadHistory))) return status::BadUserAccessDenied;
    return status::Good;
}

struct EventItem {
    std::size_t index = 0;
    NodeId notifier;
    ByteString continuationPoint;
};

void serveEventItem(HistoryManager& history, uint32_t scope, const ExtensionObject& askedDetails, bool release,
                    const CompiledEventFilter& filter, const AddressSpace& space, const EventItem& item, HistoryReadResult& result) {
    ExtensionObject details = askedDetails;
    EventReadPosition at;
    if (!item.continuationPoint.isEmpty()) {
        std::optional<HistoryContinuation> c = history.takeContinuation(scope, item.continuationPoint);
        if (!c || c->node != item.notifier || !c->details.get<ReadEventDetails>()) {
            result.statusCode = status::BadContinuationPointInvalid;
            return;
        }
        if (release) return void(result.statusCode = status::Good);
        details = c->details;
        at = {true, c->position, c->eventId};
    } else if (release) {
        return void(result.statusCode = status::Good);
    }
    EventHistory* events = history.events();
    if (!events) return void(result.statusCode = status::BadHistoryOperationUnsupported);
    EventReadOutcome out = events->read(item.notifier.toString(), *details.get<ReadEventDetails>(), filter, space, at);
    result.statusCode = out.status;
    if (out.more) {
        HistoryContinuation c{item.notifier, details, out.next.time, 1, out.next.id};
        result.continuationPoint = history.saveContinuation(scope, std::move(c));
    }
    if (out.status.isGood()) result.historyData = ExtensionObject::make(std::move(out.events));
}

} // namespace

void handleHistoryReadEvents(HistoryServiceContext& ctx, const HistoryReadRequest& req, const ReadEventDetails& d,
                             HistoryReadResponse& resp) {
    const ServiceContext& sc = ctx.sc;
    const std::size_t n = req.nodesToRead.size();
    resp.results = Array<HistoryReadResult>(std::vector<HistoryReadResult>(n));
    std::shared_ptr<const AddressSpace> space = sc.sharedAddressSpace ? sc.sharedAddressSpace->snapshot() : nullptr;
    if (!ctx.history || !ctx.history->historizesEvents() || !space) {
        for (HistoryReadResult& r : resp.results) r.statusCode = status::BadHistoryOperationUnsupported;
        return;
    }
    // The details and the filter apply to every node alike: checked once (a continuation brings
    // the same filter; OPC 10000-11 6.5.2.1 asks for at least one select clause).
    auto filter = std::make_shared<CompiledEventFilter>();
    EventFilterResult filterResult;
    bool filterErrors = false;
    StatusCode common = checkReadEventDetails(d);
    if (common.isGood() && filter->compile(*space, d.filter, filterResult, filterErrors).isBad()) common = status::BadEventFilterInvalid;
    if (common.isBad() && !req.releaseContinuationPoints) {
        for (HistoryReadResult& r : resp.results) r.statusCode = common;
        return;
    }
    std::vector<EventItem> items;
    for (std::size_t i = 0; i < n; ++i) {
        const HistoryReadValueId& v = req.nodesToRead[i];
        StatusCode s = checkNotifier(sc, v.nodeId);
        if (s.isGood() && !v.dataEncoding.isNull() &&
            !(v.dataEncoding.namespaceIndex == 0 && v.dataEncoding.name.view() == "Default Binary"))
            s = status::BadDataEncodingInvalid;
        if (s.isBad()) {
            resp.results[i].statusCode = s;
            continue;
        }
        items.push_back({i, v.nodeId, v.continuationPoint});
    }
    if (items.empty()) return;
    ctx.deferred = true;
    HistoryManager* history = ctx.history;
    history->run([history, scope = ctx.sessionScope, target = ctx.target, details = req.historyReadDetails,
                  release = req.releaseContinuationPoints, filter, space, items = std::move(items),
                  response = std::move(resp)](HistoryStore&) mutable {
        if (!target.reachable()) return;
        for (const EventItem& item : items)
            serveEventItem(*history, scope, details, release, *filter, *space, item, response.results[item.index]);
        target.send(std::move(response));
    });
}

} // namespace ua
