#include "ua/server/conditions/ConditionRefresh.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/MethodHandler.h"
#include "ua/server/conditions/ConditionManager.h"
#include "ua/server/events/EventRouter.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/Subscription.h"
#include "ua/server/subscriptions/SubscriptionMethods.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

namespace ua {

namespace {

StatusCode refresh(ConditionManager& manager, SubscriptionRegistry& registry, const MethodCall& call, bool oneItem) {
    const uint32_t* itemId = oneItem && call.inputs.size() > 1 ? call.inputs[1].get<uint32_t>() : nullptr;
    if (oneItem && !itemId) return status::BadMonitoredItemIdInvalid;
    const std::vector<EventPtr> retained = manager.retainedEvents();
    const EventPtr start = makeEvent(NodeId(id::RefreshStartEventType), NodeId(id::Server), "Server", "ConditionRefresh started", 1);
    const EventPtr end = makeEvent(NodeId(id::RefreshEndEventType), NodeId(id::Server), "Server", "ConditionRefresh done", 1);
    return onSubscription(registry, call, [&, itemId](Subscription& sub, SessionSubscriptions& owner) {
        std::vector<MonitoredItem*> items;
        for (const auto& [id, item] : sub.items())
            if (item->events && (!itemId || id == *itemId)) items.push_back(item.get());
        if (itemId && items.empty()) return StatusCode(status::BadMonitoredItemIdInvalid);
        if (items.empty()) return StatusCode(status::BadNothingToDo);
        const AddressSpace& space = owner.home().addressSpace();
        for (MonitoredItem* item : items)
            if (item->mode != MonitoringMode::Disabled) EventRouter::queueEvent(sub, *item, space, *start, true);
        for (const EventPtr& e : retained) {
            const Variant* source = e->field("SourceNode");
            const NodeId* node = source ? source->get<NodeId>() : nullptr;
            const std::vector<NodeIndex> notifiers = eventNotifiersOf(space, node ? space.indexOf(*node) : kNoNode);
            for (MonitoredItem* item : items) offerEventTo(space, sub, *item, *e, notifiers, false);
        }
        for (MonitoredItem* item : items)
            if (item->mode != MonitoringMode::Disabled) EventRouter::queueEvent(sub, *item, space, *end, true);
        owner.home().reschedule();
        return StatusCode(status::Good);
    });
}

} // namespace

StatusCode installConditionRefresh(AddressSpace& space, ConditionManager& manager, SubscriptionRegistry& registry) {
    for (const bool two : {false, true}) {
        MethodHandler h;
        h.execution = MethodHandler::Execution::Worker;  // it waits for the Subscription's home thread
        h.run = [m = &manager, r = &registry, two](const MethodCall& call, CallMethodResult&) { return refresh(*m, *r, call, two); };
        Node* n = space.findMutable(NodeId(two ? id::ConditionType_ConditionRefresh2 : id::ConditionType_ConditionRefresh));
        if (!n || n->nodeClass != NodeClass::Method) return status::BadNodeIdUnknown;
        n->rare.edit().method = std::make_shared<const MethodHandler>(std::move(h));
    }
    return status::Good;
}

} // namespace ua
