#include "ua/server/subscriptions/MonitoredItemService.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/events/EventItem.h"
#include "ua/server/services/AttributeService.h"
#include "ua/server/subscriptions/HomeDispatch.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/users/NodeVisibility.h"

#include <algorithm>
#include <cmath>

namespace ua {

void handleCreateMonitoredItems(SubscriptionContext& ctx, const CreateMonitoredItemsRequest& req, CreateMonitoredItemsResponse& resp) {
    runOnHome(ctx, req, resp, &createMonitoredItems);
}
void handleModifyMonitoredItems(SubscriptionContext& ctx, const ModifyMonitoredItemsRequest& req, ModifyMonitoredItemsResponse& resp) {
    runOnHome(ctx, req, resp, &modifyMonitoredItems);
}
void handleDeleteMonitoredItems(SubscriptionContext& ctx, const DeleteMonitoredItemsRequest& req, DeleteMonitoredItemsResponse& resp) {
    runOnHome(ctx, req, resp, &deleteMonitoredItems);
}
void handleSetMonitoringMode(SubscriptionContext& ctx, const SetMonitoringModeRequest& req, SetMonitoringModeResponse& resp) {
    runOnHome(ctx, req, resp, &setMonitoringMode);
}
void handleSetTriggering(SubscriptionContext& ctx, const SetTriggeringRequest& req, SetTriggeringResponse& resp) {
    runOnHome(ctx, req, resp, &setTriggering);
}

namespace {

// More operations in one call than SubscriptionConfig::maxMonitoredItemsPerCall (0: no limit).
bool tooManyOperations(const SessionSubscriptions& ss, std::size_t operations) {
    const uint32_t max = ss.config().maxMonitoredItemsPerCall;
    return max != 0 && operations > max;
}

bool validMode(MonitoringMode m) { return int32_t(m) >= 0 && int32_t(m) <= 2; }
bool validTimestamps(TimestampsToReturn t) { return int32_t(t) >= 0 && t <= TimestampsToReturn::Neither; }

// The EURange property of an AnalogItem (OPC 10000-8 5.3.2), if any.
const Range* euRange(const AddressSpace& space, const Node& node, ValueCell::Ref& keep) {
    const NodeIndex hasProperty = space.indexOf(NodeId(id::HasProperty));
    for (const Reference& r : node.references) {
        if (!r.isForward || r.referenceType != hasProperty) continue;
        const Node& p = space.node(r.target);
        if (p.browseName.namespaceIndex != 0 || p.browseName.name.view() != "EURange" || !p.value) continue;
        keep = p.value->load();
        if (!keep) return nullptr;
        const ExtensionObject* x = keep->value.get<ExtensionObject>();
        return x ? x->get<Range>() : nullptr;
    }
    return nullptr;
}

bool numericDataType(const AddressSpace& space, const Node& node) {
    return space.isSubtypeOf(space.indexOf(node.attrs->dataType), space.indexOf(NodeId(id::Number)));
}

double reviseSamplingInterval(const SubscriptionConfig& c, const Node& node, double requested, double publishingMs) {
    double si = requested;
    if (std::isnan(si) || si < 0) si = publishingMs;
    if (si == 0) si = c.minSamplingIntervalMs;
    si = std::clamp(si, c.minSamplingIntervalMs, c.maxSamplingIntervalMs);
    if (node.nodeClass == NodeClass::Variable && node.attrs->minimumSamplingInterval > si) si = node.attrs->minimumSamplingInterval;
    return si;
}

uint32_t reviseQueueSize(const SubscriptionConfig& c, uint32_t requested) {
    if (requested == 0) return 1;
    return c.maxQueueSize ? std::min(requested, c.maxQueueSize) : requested;
}

// Statuses of a Read that mean the item cannot be created at all. Not Bad_NotReadable or
// Bad_UserAccessDenied: 5.13.2.1 creates such an item and reports the status in Publish responses
// (and values once the access rights allow reading).
bool failsCreation(StatusCode s) {
    switch (s.base()) {
    case status::BadNodeIdUnknown:
    case status::BadNodeIdInvalid:
    case status::BadAttributeIdInvalid:
    case status::BadIndexRangeInvalid:
    case status::BadDataEncodingInvalid:
    case status::BadDataEncodingUnsupported:
        return true;
    default:
        return false;
    }
}

MonitoredItemCreateResult createOne(SessionSubscriptions& ss, Subscription& sub, const AddressSpace& space,
                                    const MonitoredItemCreateRequest& in, TimestampsToReturn timestamps, int64_t nowUs) {
    MonitoredItemCreateResult r;
    const SubscriptionConfig& c = ss.config();
    if (!validMode(in.monitoringMode)) { r.statusCode = status::BadMonitoringModeInvalid; return r; }
    const ReadValueId& what = in.itemToMonitor;
    ServiceContext rc{space, nullptr, defaultOperationLimits(), nullptr, DateTime::now()};
    // Whether the node exists for this user (a session-scoped node of another Session does not:
    // Bad_NodeIdUnknown); its RolePermissions are checked at each sample instead.
    const SubscriptionOwner::UserAccess user = ss.userAccess();
    if (const Node* n = space.find(what.nodeId); n && !nodeVisible(*n, user.sessionScope, user.roles)) {
        r.statusCode = status::BadNodeIdUnknown;
        return r;
    }
    const DataValue probe = readValue(rc, what, TimestampsToReturn::Neither);
    if (probe.hasStatus && failsCreation(probe.status)) { r.statusCode = probe.status; return r; }
    const NodeIndex index = space.indexOf(what.nodeId);
    const Node& node = space.node(index);
    if (what.attributeId == uint32_t(AttributeId::EventNotifier) && in.requestedParameters.filter.get<EventFilter>())
        return createEventItem(ss, sub, space, in, index, timestamps, nowUs);  // events/EventItem.h
    DataChangeSettings filter;
    if (StatusCode s = parseDataChangeFilter(space, node, what.attributeId, in.requestedParameters.filter, filter); s.isBad()) {
        r.statusCode = s;
        return r;
    }
    if (c.maxMonitoredItemsPerSubscription && sub.itemCount() >= c.maxMonitoredItemsPerSubscription) {
        r.statusCode = status::BadTooManyMonitoredItems;
        return r;
    }
    if (!ss.home().registry().reserveItems(1)) { r.statusCode = status::BadTooManyMonitoredItems; return r; }

    auto item = std::make_unique<MonitoredItem>();
    item->id = ss.home().registry().nextItemId();
    item->clientHandle = in.requestedParameters.clientHandle;
    item->itemToMonitor = what;
    item->timestamps = timestamps;
    item->node = index;
    item->fastPath = what.attributeId == uint32_t(AttributeId::Value) && what.indexRange.isEmpty() &&
                     what.dataEncoding.name.isEmpty() && what.dataEncoding.namespaceIndex == 0;
    item->mode = in.monitoringMode;
    item->samplingIntervalMs = reviseSamplingInterval(c, node, in.requestedParameters.samplingInterval,
                                                      sub.parameters().publishingIntervalMs);
    item->queueSize = reviseQueueSize(c, in.requestedParameters.queueSize);
    item->discardOldest = in.requestedParameters.discardOldest;
    item->filter = filter;
    r.statusCode = status::Good;
    r.monitoredItemId = item->id;
    r.revisedSamplingInterval = item->samplingIntervalMs;
    r.revisedQueueSize = item->queueSize;
    MonitoredItem& ref = *item;
    sub.addItem(std::move(item), nowUs);
    sub.sampleNow(ref);  // the first value, without waiting for the first sampling deadline
    return r;
}

} // namespace

StatusCode parseDataChangeFilter(const AddressSpace& space, const Node& node, uint32_t attributeId,
                                 const ExtensionObject& filter, DataChangeSettings& out) {
    out = DataChangeSettings{};
    if (filter.isNull()) return status::Good;
    const DataChangeFilter* f = filter.get<DataChangeFilter>();
    if (!f) {
        if (filter.get<EventFilter>() && attributeId != uint32_t(AttributeId::EventNotifier)) return status::BadFilterNotAllowed;
        return status::BadMonitoredItemFilterUnsupported;
    }
    if (attributeId != uint32_t(AttributeId::Value)) return status::BadFilterNotAllowed;
    if (int32_t(f->trigger) < 0 || int32_t(f->trigger) > 2) return status::BadMonitoredItemFilterInvalid;
    out.trigger = f->trigger;
    switch (f->deadbandType) {
    case uint32_t(DeadbandType::None):
        return status::Good;
    case uint32_t(DeadbandType::Absolute):
        if (!numericDataType(space, node)) return status::BadFilterNotAllowed;
        // Negative, NaN and infinite deadbands are invalid (an infinite one would pass no change).
        if (!(f->deadbandValue >= 0 && std::isfinite(f->deadbandValue))) return status::BadDeadbandFilterInvalid;
        out.deadbandType = DeadbandType::Absolute;
        out.absoluteDeadband = f->deadbandValue;
        return status::Good;
    case uint32_t(DeadbandType::Percent): {
        if (!numericDataType(space, node)) return status::BadFilterNotAllowed;
        if (!(f->deadbandValue >= 0 && f->deadbandValue <= 100)) return status::BadDeadbandFilterInvalid;
        ValueCell::Ref keep;
        const Range* range = euRange(space, node, keep);
        if (!range) return status::BadDeadbandFilterInvalid;
        out.deadbandType = DeadbandType::Percent;
        out.absoluteDeadband = f->deadbandValue / 100.0 * std::fabs(range->high - range->low);
        return status::Good;
    }
    default:
        return status::BadDeadbandFilterInvalid;
    }
}

void createMonitoredItems(SessionSubscriptions& ss, const CreateMonitoredItemsRequest& req,
                          CreateMonitoredItemsResponse& resp, int64_t nowUs) {
    const CountedService counted(ss.serviceCounters.createMonitoredItems, resp.responseHeader);
    Subscription* sub = ss.find(req.subscriptionId);
    if (!sub) { resp.responseHeader.serviceResult = status::BadSubscriptionIdInvalid; return; }
    if (!validTimestamps(req.timestampsToReturn)) { resp.responseHeader.serviceResult = status::BadTimestampsToReturnInvalid; return; }
    if (req.itemsToCreate.empty()) { resp.responseHeader.serviceResult = status::BadNothingToDo; return; }
    if (tooManyOperations(ss, req.itemsToCreate.size())) { resp.responseHeader.serviceResult = status::BadTooManyOperations; return; }
    sub->resetLifetimeCounter();
    const AddressSpace& space = ss.home().addressSpace();
    resp.results = Array<MonitoredItemCreateResult>::emptyArray();
    resp.results.reserve(req.itemsToCreate.size());
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    for (const MonitoredItemCreateRequest& in : req.itemsToCreate)
        resp.results.push_back(createOne(ss, *sub, space, in, req.timestampsToReturn, nowUs));
}

void modifyMonitoredItems(SessionSubscriptions& ss, const ModifyMonitoredItemsRequest& req,
                          ModifyMonitoredItemsResponse& resp, int64_t nowUs) {
    const CountedService counted(ss.serviceCounters.modifyMonitoredItems, resp.responseHeader);
    Subscription* sub = ss.find(req.subscriptionId);
    if (!sub) { resp.responseHeader.serviceResult = status::BadSubscriptionIdInvalid; return; }
    if (!validTimestamps(req.timestampsToReturn)) { resp.responseHeader.serviceResult = status::BadTimestampsToReturnInvalid; return; }
    if (req.itemsToModify.empty()) { resp.responseHeader.serviceResult = status::BadNothingToDo; return; }
    if (tooManyOperations(ss, req.itemsToModify.size())) { resp.responseHeader.serviceResult = status::BadTooManyOperations; return; }
    sub->resetLifetimeCounter();
    const AddressSpace& space = ss.home().addressSpace();
    resp.results = Array<MonitoredItemModifyResult>::emptyArray();
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    for (const MonitoredItemModifyRequest& in : req.itemsToModify) {
        MonitoredItemModifyResult r;
        MonitoredItem* item = sub->item(in.monitoredItemId);
        if (!item) {
            r.statusCode = status::BadMonitoredItemIdInvalid;
            resp.results.push_back(r);
            continue;
        }
        if (item->events) {
            resp.results.push_back(modifyEventItem(ss, *sub, *item, space, in, req.timestampsToReturn));
            continue;
        }
        const Node& node = space.node(item->node);
        DataChangeSettings filter;
        r.statusCode = parseDataChangeFilter(space, node, item->itemToMonitor.attributeId, in.requestedParameters.filter, filter);
        if (r.statusCode.isGood()) {
            const MonitoringParameters& p = in.requestedParameters;
            item->clientHandle = p.clientHandle;
            item->timestamps = req.timestampsToReturn;
            item->filter = filter;
            item->discardOldest = p.discardOldest;
            item->queueSize = reviseQueueSize(ss.config(), p.queueSize);
            uint64_t overflows = 0;
            item->applyQueueSize(overflows);
            sub->counters.monitoringQueueOverflowCount += overflows;
            const double si = reviseSamplingInterval(ss.config(), node, p.samplingInterval, sub->parameters().publishingIntervalMs);
            if (si != item->samplingIntervalMs) {
                item->samplingIntervalMs = si;
                sub->itemChanged(*item, nowUs);
            }
            r.revisedSamplingInterval = item->samplingIntervalMs;
            r.revisedQueueSize = item->queueSize;
        }
        resp.results.push_back(r);
    }
}

void deleteMonitoredItems(SessionSubscriptions& ss, const DeleteMonitoredItemsRequest& req,
                          DeleteMonitoredItemsResponse& resp, int64_t) {
    const CountedService counted(ss.serviceCounters.deleteMonitoredItems, resp.responseHeader);
    Subscription* sub = ss.find(req.subscriptionId);
    if (!sub) { resp.responseHeader.serviceResult = status::BadSubscriptionIdInvalid; return; }
    if (req.monitoredItemIds.empty()) { resp.responseHeader.serviceResult = status::BadNothingToDo; return; }
    if (tooManyOperations(ss, req.monitoredItemIds.size())) { resp.responseHeader.serviceResult = status::BadTooManyOperations; return; }
    sub->resetLifetimeCounter();
    resp.results = Array<StatusCode>::emptyArray();
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    for (uint32_t id : req.monitoredItemIds)
        resp.results.push_back(sub->removeItem(id) ? StatusCode(status::Good) : StatusCode(status::BadMonitoredItemIdInvalid));
    sub->recheckNotificationsAvailable();  // 5.14.1.2: the deleted items' queued values are gone
}

void setMonitoringMode(SessionSubscriptions& ss, const SetMonitoringModeRequest& req, SetMonitoringModeResponse& resp,
                       int64_t nowUs) {
    const CountedService counted(ss.serviceCounters.setMonitoringMode, resp.responseHeader);
    Subscription* sub = ss.find(req.subscriptionId);
    if (!sub) { resp.responseHeader.serviceResult = status::BadSubscriptionIdInvalid; return; }
    if (!validMode(req.monitoringMode)) { resp.responseHeader.serviceResult = status::BadMonitoringModeInvalid; return; }
    if (req.monitoredItemIds.empty()) { resp.responseHeader.serviceResult = status::BadNothingToDo; return; }
    if (tooManyOperations(ss, req.monitoredItemIds.size())) { resp.responseHeader.serviceResult = status::BadTooManyOperations; return; }
    sub->resetLifetimeCounter();
    resp.results = Array<StatusCode>::emptyArray();
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    for (uint32_t id : req.monitoredItemIds) {
        MonitoredItem* item = sub->item(id);
        if (!item) { resp.results.push_back(status::BadMonitoredItemIdInvalid); continue; }
        const MonitoringMode old = item->mode;
        item->mode = req.monitoringMode;
        if (item->mode == MonitoringMode::Disabled) {  // 5.13.1.3: a disabled item keeps nothing queued
            item->clearQueue();
            if (item->events) item->events->clear();
            item->resetLast();
            item->triggered = false;
        } else if (old == MonitoringMode::Disabled) {
            sub->sampleNow(*item);
        } else if (item->mode == MonitoringMode::Reporting && (item->hasQueued() || item->hasQueuedEvents())) {
            sub->notificationQueued();
        }
        (void)nowUs;
        resp.results.push_back(status::Good);
    }
    // 5.14.1.2: a Disabled item keeps nothing queued, a Sampling one reports nothing (untriggered).
    if (req.monitoringMode != MonitoringMode::Reporting) sub->recheckNotificationsAvailable();
}

void setTriggering(SessionSubscriptions& ss, const SetTriggeringRequest& req, SetTriggeringResponse& resp, int64_t) {
    const CountedService counted(ss.serviceCounters.setTriggering, resp.responseHeader);
    Subscription* sub = ss.find(req.subscriptionId);
    if (!sub) { resp.responseHeader.serviceResult = status::BadSubscriptionIdInvalid; return; }
    if (req.linksToAdd.empty() && req.linksToRemove.empty()) { resp.responseHeader.serviceResult = status::BadNothingToDo; return; }
    if (tooManyOperations(ss, req.linksToAdd.size() + req.linksToRemove.size())) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        return;
    }
    MonitoredItem* trigger = sub->item(req.triggeringItemId);
    if (!trigger) { resp.responseHeader.serviceResult = status::BadMonitoredItemIdInvalid; return; }
    sub->resetLifetimeCounter();
    resp.addResults = Array<StatusCode>::emptyArray();
    resp.removeResults = Array<StatusCode>::emptyArray();
    resp.addDiagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    resp.removeDiagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    // Removals first (5.13.5: a link both removed and added ends up added).
    for (uint32_t id : req.linksToRemove) {
        auto& links = trigger->triggeredItems;
        auto it = std::find(links.begin(), links.end(), id);
        if (it == links.end()) { resp.removeResults.push_back(status::BadMonitoredItemIdInvalid); continue; }
        links.erase(it);
        resp.removeResults.push_back(status::Good);
    }
    for (uint32_t id : req.linksToAdd) {
        if (!sub->item(id)) { resp.addResults.push_back(status::BadMonitoredItemIdInvalid); continue; }
        auto& links = trigger->triggeredItems;
        if (std::find(links.begin(), links.end(), id) == links.end()) links.push_back(id);
        resp.addResults.push_back(status::Good);
    }
}

} // namespace ua
