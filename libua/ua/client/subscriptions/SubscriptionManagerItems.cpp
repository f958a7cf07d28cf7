// SubscriptionManager's MonitoredItem service set (OPC 10000-4 5.12): create, modify, delete,
// SetMonitoringMode, by the items' clientHandles; and the CreateMonitoredItems a re-creation sends.
#include "ua/client/core/ClientCore.h"
#include "ua/client/subscriptions/SubscriptionManager.h"

namespace ua {

namespace {

MonitoringParameters parametersOf(uint32_t clientHandle, const MonitoredItemSettings& s) {
    MonitoringParameters p;
    p.clientHandle = clientHandle;
    p.samplingInterval = s.samplingIntervalMs;
    p.queueSize = s.queueSize;
    p.discardOldest = s.discardOldest;
    if (s.dataChangeFilter) p.filter = ExtensionObject::make(*s.dataChangeFilter);
    else if (s.eventFilter) p.filter = ExtensionObject::make(*s.eventFilter);
    return p;
}

MonitoredItemResult itemResult(uint32_t clientHandle, StatusCode s) {
    MonitoredItemResult r;
    r.clientHandle = clientHandle;
    r.statusCode = s;
    return r;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// MonitoredItem service set (OPC 10000-4 5.12)

void SubscriptionManager::createMonitoredItems(SubscriptionHandle h, std::vector<MonitoredItemSpec> specs, MonitoredItemsCallback done) {
    Sub* s = find(h);
    if (!s || s->id == 0) {
        if (done) done({status::BadSubscriptionIdInvalid, {}});
        return;
    }
    std::vector<uint32_t> handles;
    std::vector<MonitoredItemResult> refused;  // duplicate client handles: never sent
    for (MonitoredItemSpec& spec : specs) {
        if (spec.clientHandle == 0) {
            while (s->items.count(s->nextClientHandle) || s->nextClientHandle == 0) ++s->nextClientHandle;
            spec.clientHandle = s->nextClientHandle++;
        } else if (s->items.count(spec.clientHandle)) {
            refused.push_back(itemResult(spec.clientHandle, status::BadInvalidArgument));
            continue;
        }
        Item item;
        if (spec.onDataChange || spec.onEvent) {
            auto cb = std::make_shared<ItemCallbacks>();
            cb->onDataChange = std::move(spec.onDataChange);
            cb->onEvent = std::move(spec.onEvent);
            item.callbacks = std::move(cb);
        }
        spec.onDataChange = nullptr;
        spec.onEvent = nullptr;
        handles.push_back(spec.clientHandle);
        item.spec = std::move(spec);
        s->items.emplace(handles.back(), std::move(item));
    }
    if (handles.empty()) {
        if (done) done({status::Good, std::move(refused)});
        return;
    }
    sendCreateItems(*s, std::move(handles), [done, refused](const MonitoredItemsResult& r) {
        MonitoredItemsResult out = r;
        out.items.insert(out.items.end(), refused.begin(), refused.end());
        if (done) done(out);
    });
}

void SubscriptionManager::sendCreateItems(Sub& s, std::vector<uint32_t> handles, MonitoredItemsCallback done) {
    CreateMonitoredItemsRequest req;
    req.subscriptionId = s.id;
    req.timestampsToReturn = TimestampsToReturn::Both;
    req.itemsToCreate = Array<MonitoredItemCreateRequest>::emptyArray();
    for (uint32_t ch : handles) {
        const Item& item = s.items.at(ch);
        MonitoredItemCreateRequest c;
        c.itemToMonitor.nodeId = item.spec.nodeId;
        c.itemToMonitor.attributeId = item.spec.attributeId;
        c.itemToMonitor.indexRange = item.spec.indexRange;
        c.monitoringMode = item.spec.settings.mode;
        c.requestedParameters = parametersOf(ch, item.spec.settings);
        req.itemsToCreate.push_back(std::move(c));
    }
    m_core->call<CreateMonitoredItemsRequest, CreateMonitoredItemsResponse>(
        std::move(req), 0, [this, h = s.handle, id = s.id, handles, done](const ServiceResult<CreateMonitoredItemsResponse>& r) {
            MonitoredItemsResult out;
            out.status = r.status;
            Sub* s = find(h);
            if (!s || s->id != id) {  // deleted or re-created meanwhile (re-creation sends every item again)
                if (done) done({s ? status::Good : status::BadSubscriptionIdInvalid, {}});
                return;
            }
            const bool usable = r.status.isGood() && r.response.results.size() == handles.size();
            if (r.status.isGood() && !usable) out.status = status::BadUnknownResponse;
            for (std::size_t i = 0; i < handles.size(); ++i) {
                MonitoredItemResult res;
                res.clientHandle = handles[i];
                res.statusCode = usable ? r.response.results[i].statusCode : out.status;
                if (usable && res.statusCode.isGood()) {
                    const MonitoredItemCreateResult& cr = r.response.results[i];
                    res.monitoredItemId = cr.monitoredItemId;
                    res.revisedSamplingIntervalMs = cr.revisedSamplingInterval;
                    res.revisedQueueSize = cr.revisedQueueSize;
                    res.filterResult = cr.filterResult;
                    s->items[handles[i]].monitoredItemId = cr.monitoredItemId;
                } else {
                    if (usable) res.filterResult = r.response.results[i].filterResult;
                    s->items.erase(handles[i]);  // not on the server: not re-created either
                }
                out.items.push_back(std::move(res));
            }
            if (done) done(out);
        });
}

namespace {
// The common shape of modify/delete/setMonitoringMode: requests for the items the subscription
// has, local Bad_MonitoredItemIdInvalid for the others, results merged in the caller's order.
struct ItemOp {
    std::vector<MonitoredItemResult> results;
    std::vector<std::size_t> sentIndex;  // results index of each item sent
};
} // namespace

void SubscriptionManager::modifyMonitoredItems(SubscriptionHandle h, std::vector<MonitoredItemChange> changes, MonitoredItemsCallback done) {
    Sub* s = find(h);
    if (!s || s->id == 0) {
        if (done) done({status::BadSubscriptionIdInvalid, {}});
        return;
    }
    ItemOp op;
    ModifyMonitoredItemsRequest req;
    req.subscriptionId = s->id;
    req.timestampsToReturn = TimestampsToReturn::Both;
    req.itemsToModify = Array<MonitoredItemModifyRequest>::emptyArray();
    for (const MonitoredItemChange& c : changes) {
        op.results.push_back(itemResult(c.clientHandle, status::BadMonitoredItemIdInvalid));
        const auto it = s->items.find(c.clientHandle);
        if (it == s->items.end() || it->second.monitoredItemId == 0) continue;
        MonitoredItemModifyRequest m;
        m.monitoredItemId = it->second.monitoredItemId;
        m.requestedParameters = parametersOf(c.clientHandle, c.settings);
        req.itemsToModify.push_back(std::move(m));
        op.sentIndex.push_back(op.results.size() - 1);
    }
    if (op.sentIndex.empty()) {
        if (done) done({status::Good, std::move(op.results)});
        return;
    }
    m_core->call<ModifyMonitoredItemsRequest, ModifyMonitoredItemsResponse>(
        std::move(req), 0, [this, h, op, changes, done](const ServiceResult<ModifyMonitoredItemsResponse>& r) mutable {
            const bool usable = r.status.isGood() && r.response.results.size() == op.sentIndex.size();
            Sub* s = find(h);
            for (std::size_t k = 0; k < op.sentIndex.size(); ++k) {
                MonitoredItemResult& res = op.results[op.sentIndex[k]];
                if (!usable) {
                    res.statusCode = r.status.isBad() ? r.status : status::BadUnknownResponse;
                    continue;
                }
                const MonitoredItemModifyResult& mr = r.response.results[k];
                res.statusCode = mr.statusCode;
                res.revisedSamplingIntervalMs = mr.revisedSamplingInterval;
                res.revisedQueueSize = mr.revisedQueueSize;
                res.filterResult = mr.filterResult;
                if (mr.statusCode.isGood() && s) {
                    const auto it = s->items.find(res.clientHandle);
                    if (it != s->items.end()) {
                        const MonitoringMode mode = it->second.spec.settings.mode;
                        it->second.spec.settings = changes[op.sentIndex[k]].settings;
                        it->second.spec.settings.mode = mode;
                    }
                }
                if (s) {
                    const auto it = s->items.find(res.clientHandle);
                    if (it != s->items.end()) res.monitoredItemId = it->second.monitoredItemId;
                }
            }
            if (done) done({r.status, std::move(op.results)});
        });
}

void SubscriptionManager::deleteMonitoredItems(SubscriptionHandle h, std::vector<uint32_t> clientHandles, MonitoredItemsCallback done) {
    Sub* s = find(h);
    if (!s || s->id == 0) {
        if (done) done({status::BadSubscriptionIdInvalid, {}});
        return;
    }
    ItemOp op;
    DeleteMonitoredItemsRequest req;
    req.subscriptionId = s->id;
    req.monitoredItemIds = Array<uint32_t>::emptyArray();
    for (uint32_t ch : clientHandles) {
        op.results.push_back(itemResult(ch, status::BadMonitoredItemIdInvalid));
        const auto it = s->items.find(ch);
        if (it == s->items.end()) continue;
        op.results.back().monitoredItemId = it->second.monitoredItemId;
        if (it->second.monitoredItemId != 0) {
            req.monitoredItemIds.push_back(it->second.monitoredItemId);
            op.sentIndex.push_back(op.results.size() - 1);
        }
        s->items.erase(it);  // its later notifications reach only the subscription's handler
    }
    if (op.sentIndex.empty()) {
        if (done) done({status::Good, std::move(op.results)});
        return;
    }
    m_core->call<DeleteMonitoredItemsRequest, DeleteMonitoredItemsResponse>(
        std::move(req), 0, [op, done](const ServiceResult<DeleteMonitoredItemsResponse>& r) mutable {
            const bool usable = r.status.isGood() && r.response.results.size() == op.sentIndex.size();
            for (std::size_t k = 0; k < op.sentIndex.size(); ++k)
                op.results[op.sentIndex[k]].statusCode =
                    usable ? r.response.results[k] : (r.status.isBad() ? r.status : status::BadUnknownResponse);
            if (done) done({r.status, std::move(op.results)});
        });
}

void SubscriptionManager::setMonitoringMode(SubscriptionHandle h, std::vector<uint32_t> clientHandles, MonitoringMode mode,
                                            MonitoredItemsCallback done) {
    Sub* s = find(h);
    if (!s || s->id == 0) {
        if (done) done({status::BadSubscriptionIdInvalid, {}});
        return;
    }
    ItemOp op;
    SetMonitoringModeRequest req;
    req.subscriptionId = s->id;
    req.monitoringMode = mode;
    req.monitoredItemIds = Array<uint32_t>::emptyArray();
    for (uint32_t ch : clientHandles) {
        op.results.push_back(itemResult(ch, status::BadMonitoredItemIdInvalid));
        const auto it = s->items.find(ch);
        if (it == s->items.end() || it->second.monitoredItemId == 0) continue;
        op.results.back().monitoredItemId = it->second.monitoredItemId;
        req.monitoredItemIds.push_back(it->second.monitoredItemId);
        op.sentIndex.push_back(op.results.size() - 1);
    }
    if (op.sentIndex.empty()) {
        if (done) done({status::Good, std::move(op.results)});
        return;
    }
    m_core->call<SetMonitoringModeRequest, SetMonitoringModeResponse>(
        std::move(req), 0, [this, h, mode, op, done](const ServiceResult<SetMonitoringModeResponse>& r) mutable {
            const bool usable = r.status.isGood() && r.response.results.size() == op.sentIndex.size();
            Sub* s = find(h);
            for (std::size_t k = 0; k < op.sentIndex.size(); ++k) {
                MonitoredItemResult& res = op.results[op.sentIndex[k]];
                res.statusCode = usable ? r.response.results[k] : (r.status.isBad() ? r.status : status::BadUnknownResponse);
                if (res.statusCode.isGood() && s) {
                    const auto it = s->items.find(res.clientHandle);
                    if (it != s->items.end()) it->second.spec.settings.mode = mode;  // re-created items keep it
                }
            }
            if (done) done({r.status, std::move(op.results)});
        });
}

} // namespace ua
