#include "ua/server/subscriptions/SubscriptionMethods.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/MethodHandler.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include <QMetaObject>

#include <chrono>
#include <future>
#include <memory>

namespace ua {

namespace {

constexpr auto kHomeWait = std::chrono::seconds(5);

} // namespace

StatusCode onSubscription(SubscriptionRegistry& registry, const MethodCall& call,
                          std::function<StatusCode(Subscription&, SessionSubscriptions&)> work) {
    const uint32_t* id = call.inputs.empty() ? nullptr : call.inputs[0].get<uint32_t>();
    if (!id) return status::BadSubscriptionIdInvalid;
    std::shared_ptr<SessionSubscriptions> owner = registry.owner(*id);
    if (!owner) return status::BadSubscriptionIdInvalid;
    if (call.sessionId.isNull() || !(owner->sessionId() == call.sessionId)) return status::BadUserAccessDenied;
    auto done = std::make_shared<std::promise<StatusCode>>();
    std::future<StatusCode> result = done->get_future();
    const uint32_t subscriptionId = *id;
    QMetaObject::invokeMethod(&owner->home(), [owner, subscriptionId, done, work = std::move(work)] {
        Subscription* s = owner->find(subscriptionId);  // deleted or transferred meanwhile: gone
        done->set_value(s ? work(*s, *owner) : StatusCode(status::BadSubscriptionIdInvalid));
    }, Qt::QueuedConnection);
    if (result.wait_for(kHomeWait) != std::future_status::ready) return status::BadTimeout;
    return result.get();
}

StatusCode installSubscriptionMethods(AddressSpace& space, SubscriptionRegistry& registry) {
    SubscriptionRegistry* r = &registry;
    MethodHandler getItems;
    getItems.execution = MethodHandler::Execution::Worker;
    getItems.run = [r](const MethodCall& call, CallMethodResult& result) {
        Array<uint32_t> serverHandles = Array<uint32_t>::emptyArray(), clientHandles = Array<uint32_t>::emptyArray();
        const StatusCode s = onSubscription(*r, call, [&](Subscription& sub, SessionSubscriptions&) {
            for (const auto& [itemId, item] : sub.items()) {
                serverHandles.push_back(itemId);
                clientHandles.push_back(item->clientHandle);
            }
            return StatusCode(status::Good);
        });
        if (s.isBad()) return s;
        result.outputArguments = Array<Variant>{Variant(std::move(serverHandles)), Variant(std::move(clientHandles))};
        return StatusCode(status::Good);
    };
    MethodHandler resend;
    resend.execution = MethodHandler::Execution::Worker;
    resend.run = [r](const MethodCall& call, CallMethodResult&) {
        return onSubscription(*r, call, [](Subscription& sub, SessionSubscriptions& owner) {
            sub.queueInitialValues();
            owner.home().reschedule();
            return StatusCode(status::Good);
        });
    };
    for (auto& [method, handler] : {std::pair{id::Server_GetMonitoredItems, &getItems}, std::pair{id::Server_ResendData, &resend}}) {
        Node* n = space.findMutable(NodeId(method));
        if (!n || n->nodeClass != NodeClass::Method) return status::BadNodeIdUnknown;
        n->rare.edit().method = std::make_shared<const MethodHandler>(std::move(*handler));
    }
    return status::Good;
}

} // namespace ua
