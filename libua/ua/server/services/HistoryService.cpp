#include "ua/server/services/HistoryService.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/common/NumericRange.h"
#include "ua/server/history/HistoryManager.h"
#include "ua/server/history/ProcessedHistoryRead.h"
#include "ua/server/history/RawHistoryRead.h"
#include "ua/server/users/NodeVisibility.h"
#include "ua/server/users/Roles.h"

namespace ua {

namespace {

constexpr uint32_t bit(PermissionType p) { return uint32_t(p); }

// The operation's node, checked as 5.11.3.4 and 5.11.5.4 ask; Good or the operation's Bad status.
StatusCode checkNode(const ServiceContext& sc, const NodeId& id, uint8_t accessBit, uint32_t permissionBits, const Node** out) {
    const Node* node = sc.addressSpace.find(id);
    if (!node || !nodeVisible(*node, sc.sessionScope, sc.roles)) return status::BadNodeIdUnknown;
    if (node->nodeClass != NodeClass::Variable || !(node->attrs->accessLevel & accessBit)) return status::BadHistoryOperationUnsupported;
    if (!(userPermissions(*node, sc.roles, sc.permissions) & permissionBits)) return status::BadUserAccessDenied;
    *out = node;
    return status::Good;
}

void applyTimestamps(std::vector<DataValue>& values, TimestampsToReturn t) {
    for (DataValue& v : values) {
        if (v.status == status::BadBoundNotFound) continue;  // the bound's timestamp is all it has
        if (t == TimestampsToReturn::Source) v.hasServerTimestamp = v.hasServerPicoseconds = false;
        else if (t == TimestampsToReturn::Server) v.hasSourceTimestamp = v.hasSourcePicoseconds = false;
    }
}

// An item that passed the checks on the I/O thread.
struct ReadItem {
    std::size_t index = 0;
    NodeId node;
    bool hasRange = false;
    NumericRange range;
    ByteString continuationPoint;
};

void applyRange(std::vector<DataValue>& values, const NumericRange& range) {
    for (DataValue& v : values) {
        if (!v.hasValue) continue;
        Variant part;
        const StatusCode s = readRange(v.value, range, part);
        if (s.isBad()) {
            v.value = Variant();
            v.hasValue = false;
            v.setStatus(s);
        } else {
            v.value = std::move(part);
        }
    }
}

// The details a HistoryRead serves, as one of the three kinds.
template <class T>
bool sameKind(const ExtensionObject& a, const ExtensionObject& b) {
    return a.get<T>() && b.get<T>();
}

// Serves one item on the history thread: Read Raw / Modified, Read Processed or Read At Time.
void serveItem(HistoryManager& history, HistoryStore& store, uint32_t scope, const ExtensionObject& askedDetails, bool release,
               TimestampsToReturn timestamps, const ReadItem& item, HistoryReadResult& result) {
    ExtensionObject details = askedDetails;
    HistoryReadPosition at;
    if (!item.continuationPoint.isEmpty()) {
        std::optional<HistoryContinuation> c = history.takeContinuation(scope, item.continuationPoint);
        const bool valid = c && c->node == item.node &&
                           (sameKind<ReadRawModifiedDetails>(c->details, askedDetails) ||
                            sameKind<ReadProcessedDetails>(c->details, askedDetails) ||
                            sameKind<ReadAtTimeDetails>(c->details, askedDetails));
        if (!valid) {
            result.statusCode = status::BadContinuationPointInvalid;
            return;
        }
        if (release) {
            result.statusCode = status::Good;
            return;
        }
        details = c->details;
        at = {c->phase, c->position};
    } else if (release) {
        result.statusCode = status::Good;
        return;
    }
    const int64_t series = store.findSeries(item.node);
    HistoryReadOutcome out;
    bool modified = false;
    if (const ReadRawModifiedDetails* raw = details.get<ReadRawModifiedDetails>()) {
        modified = raw->isReadModified;
        if (series < 0) out.status = status::GoodNoData;
        else out = modified ? readModified(store, series, *raw, at) : readRaw(store, series, *raw, at);
    } else {
        const HistoricalSettings node = history.settingsOf(item.node);
        if (const ReadProcessedDetails* p = details.get<ReadProcessedDetails>())
            out = readProcessed(store, series, *p, item.index, aggregateSettings(p->aggregateConfiguration, node), uint64_t(at.position));
        else if (const ReadAtTimeDetails* t = details.get<ReadAtTimeDetails>())
            out = readAtTime(store, series, *t, aggregateSettings(AggregateConfiguration{true, false, 0, 0, false}, node),
                             uint64_t(at.position));
    }
    applyTimestamps(out.values, timestamps);
    if (item.hasRange) applyRange(out.values, item.range);
    result.statusCode = out.status;
    if (out.more) result.continuationPoint = history.saveContinuation(scope, HistoryContinuation{item.node, details, out.next.position, out.next.phase});
    if (modified) {
        HistoryModifiedData m;
        m.dataValues = Array<DataValue>(std::move(out.values));
        m.modificationInfos = Array<ModificationInfo>(std::move(out.modifications));
        result.historyData = ExtensionObject::make(std::move(m));
    } else if (out.status.isGood()) {
        HistoryData h;
        h.dataValues = Array<DataValue>(std::move(out.values));
        result.historyData = ExtensionObject::make(std::move(h));
    }
}

} // namespace

void handleHistoryRead(HistoryServiceContext& ctx, const HistoryReadRequest& req, HistoryReadResponse& resp) {
    const ServiceContext& sc = ctx.sc;
    const std::size_t n = req.nodesToRead.size();
    if (n == 0) return void(resp.responseHeader.serviceResult = status::BadNothingToDo);
    if (sc.limits.maxNodesPerHistoryReadData && n > sc.limits.maxNodesPerHistoryReadData)
        return void(resp.responseHeader.serviceResult = status::BadTooManyOperations);
    const ExtensionObject& details = req.historyReadDetails;
    const ReadRawModifiedDetails* raw = details.get<ReadRawModifiedDetails>();
    const ReadProcessedDetails* processed = details.get<ReadProcessedDetails>();
    const ReadAtTimeDetails* atTime = details.get<ReadAtTimeDetails>();
    const bool known = raw || processed || atTime || details.get<ReadEventDetails>() || details.get<ReadAnnotationDataDetails>();
    if (!known) return void(resp.responseHeader.serviceResult = status::BadHistoryOperationInvalid);
    if (uint32_t(req.timestampsToReturn) >= uint32_t(TimestampsToReturn::Neither))
        return void(resp.responseHeader.serviceResult = status::BadTimestampsToReturnInvalid);
    if (const ReadEventDetails* events = details.get<ReadEventDetails>(); events && ctx.history)
        return handleHistoryReadEvents(ctx, req, *events, resp);
    if (!(raw || processed || atTime) || !ctx.history) return void(resp.responseHeader.serviceResult = status::BadHistoryOperationUnsupported);
    // OPC 10000-11 6.5.4: one aggregate per node.
    if (processed && processed->aggregateType.size() != n) return void(resp.responseHeader.serviceResult = status::BadAggregateListMismatch);
    StatusCode detailsStatus = raw ? checkRawModifiedDetails(*raw) : StatusCode();
    if (atTime && atTime->reqTimes.empty()) detailsStatus = status::BadInvalidArgument;
    if (const StatusCode s = detailsStatus; s.isBad()) {
        // The details apply to every node alike.
        resp.results = Array<HistoryReadResult>(std::vector<HistoryReadResult>(n));
        for (HistoryReadResult& r : resp.results) r.statusCode = s;
        return;
    }
    resp.results = Array<HistoryReadResult>(std::vector<HistoryReadResult>(n));
    std::vector<ReadItem> items;
    for (std::size_t i = 0; i < n; ++i) {
        const HistoryReadValueId& v = req.nodesToRead[i];
        const Node* node = nullptr;
        StatusCode s = checkNode(sc, v.nodeId, access::HistoryRead, bit(PermissionType::ReadHistory), &node);
        ReadItem item;
        if (s.isGood() && !v.indexRange.isEmpty()) {
            item.hasRange = true;
            s = NumericRange::parse(v.indexRange.view(), item.range);
            if (s.isBad()) s = status::BadIndexRangeInvalid;
        }
        if (s.isGood() && !v.dataEncoding.isNull() &&
            !(v.dataEncoding.namespaceIndex == 0 && v.dataEncoding.name.view() == "Default Binary"))
            s = status::BadDataEncodingInvalid;
        if (s.isBad()) {
            resp.results[i].statusCode = s;
            continue;
        }
        item.index = i;
        item.node = v.nodeId;
        item.continuationPoint = v.continuationPoint;
        items.push_back(std::move(item));
    }
    if (items.empty()) return;
    ctx.deferred = true;
    HistoryManager* history = ctx.history;
    history->run([history, scope = ctx.sessionScope, target = ctx.target, details = req.historyReadDetails,
                  release = req.releaseContinuationPoints, timestamps = req.timestampsToReturn, items = std::move(items),
                  response = std::move(resp)](HistoryStore& store) mutable {
        if (!target.reachable()) return;
        for (const ReadItem& item : items)
            serveItem(*history, store, scope, details, release, timestamps, item, response.results[item.index]);
        target.send(std::move(response));
    });
}

void handleHistoryUpdate(HistoryServiceContext& ctx, const HistoryUpdateRequest& req, HistoryUpdateResponse& resp) {
    const ServiceContext& sc = ctx.sc;
    const std::size_t n = req.historyUpdateDetails.size();
    if (n == 0) return void(resp.responseHeader.serviceResult = status::BadNothingToDo);
    if (sc.limits.maxNodesPerHistoryUpdateData && n > sc.limits.maxNodesPerHistoryUpdateData)
        return void(resp.responseHeader.serviceResult = status::BadTooManyOperations);
    if (!ctx.history) return void(resp.responseHeader.serviceResult = status::BadHistoryOperationUnsupported);
    resp.results = Array<HistoryUpdateResult>(std::vector<HistoryUpdateResult>(n));
    std::vector<std::size_t> work;
    for (std::size_t i = 0; i < n; ++i) {
        const ExtensionObject& x = req.historyUpdateDetails[i];
        HistoryUpdateResult& r = resp.results[i];
        const Node* node = nullptr;
        if (const UpdateDataDetails* u = x.get<UpdateDataDetails>()) {
            const PerformUpdateType t = u->performInsertReplace;
            const uint32_t needs = t == PerformUpdateType::Insert ? bit(PermissionType::InsertHistory)
                                 : t == PerformUpdateType::Replace ? bit(PermissionType::ModifyHistory)
                                                                   : bit(PermissionType::InsertHistory) | bit(PermissionType::ModifyHistory);
            if (t != PerformUpdateType::Insert && t != PerformUpdateType::Replace && t != PerformUpdateType::Update)
                r.statusCode = status::BadHistoryOperationInvalid;
            else r.statusCode = checkNode(sc, u->nodeId, access::HistoryWrite, needs, &node);
            if (r.statusCode.isGood() && u->updateValues.empty()) r.statusCode = status::BadNothingToDo;
        } else if (const DeleteRawModifiedDetails* d = x.get<DeleteRawModifiedDetails>()) {
            r.statusCode = checkNode(sc, d->nodeId, access::HistoryWrite, bit(PermissionType::DeleteHistory), &node);
            if (r.statusCode.isGood() && (d->startTime.isMin() || d->endTime.isMin())) r.statusCode = status::BadInvalidTimestampArgument;
        } else if (const DeleteAtTimeDetails* a = x.get<DeleteAtTimeDetails>()) {
            r.statusCode = checkNode(sc, a->nodeId, access::HistoryWrite, bit(PermissionType::DeleteHistory), &node);
            if (r.statusCode.isGood() && a->reqTimes.empty()) r.statusCode = status::BadNothingToDo;
        } else if (x.get<UpdateStructureDataDetails>() || x.get<UpdateEventDetails>() || x.get<DeleteEventDetails>()) {
            r.statusCode = status::BadHistoryOperationUnsupported;
        } else {
            r.statusCode = status::BadHistoryOperationInvalid;
        }
        if (r.statusCode.isGood()) work.push_back(i);
    }
    if (work.empty()) {
        if (ctx.audit) ctx.audit(req.historyUpdateDetails, resp);
        return;
    }
    ctx.deferred = true;
    ctx.history->run([target = ctx.target, details = req.historyUpdateDetails, work = std::move(work), user = ctx.user,
                      audit = std::move(ctx.audit), response = std::move(resp)](HistoryStore& store) mutable {
        if (!target.reachable()) return;
        const HistoryChange change{DateTime::now().ticks, user};
        for (const std::size_t i : work) {
            HistoryUpdateResult& r = response.results[i];
            std::vector<StatusCode> results;
            if (const UpdateDataDetails* u = details[i].get<UpdateDataDetails>()) {
                const int64_t series = store.series(u->nodeId);
                for (const DataValue& v : u->updateValues) {
                    // No SourceTimestamp, or one in the future (the sampled values that follow would be
                    // older than it): outside the range this server allows.
                    if (!v.hasSourceTimestamp || v.sourceTimestamp.isMin() || v.sourceTimestamp.ticks > change.time) {
                        results.push_back(status::BadInvalidTimestamp);
                        continue;
                    }
                    DataValue kept = v;
                    if (!kept.hasServerTimestamp) kept.setServerTimestamp(DateTime{change.time});
                    results.push_back(store.write(series, kept, HistoryStore::Mode(int(u->performInsertReplace)), change));
                }
            } else if (const DeleteRawModifiedDetails* d = details[i].get<DeleteRawModifiedDetails>()) {
                const int64_t series = store.findSeries(d->nodeId);
                const int64_t lo = std::min(d->startTime.ticks, d->endTime.ticks);
                const int64_t hi = std::max(d->startTime.ticks, d->endTime.ticks) - 1;
                uint64_t removed = 0;
                if (series >= 0) removed = d->isDeleteModified ? store.removeModified(series, lo, hi) : store.removeRange(series, lo, hi, change);
                r.statusCode = removed ? status::Good : status::BadNoData;
            } else if (const DeleteAtTimeDetails* a = details[i].get<DeleteAtTimeDetails>()) {
                const int64_t series = store.findSeries(a->nodeId);
                for (const DateTime& t : a->reqTimes)
                    results.push_back(series < 0 ? status::BadNoEntryExists : store.removeAt(series, t.ticks, change));
            }
            if (!results.empty()) r.operationResults = Array<StatusCode>(std::move(results));
        }
        if (audit) audit(details, response);  // after the work: the events keep the order of the updates
        target.send(std::move(response));
    });
}

} // namespace ua
