#include "ua/client/ConditionCalls.h"

#include "ua/client/Client.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QPointer>
#include <string>

namespace ua {

namespace {

uint32_t conditionMethodDeclaration(AlarmMethod m) {
    switch (m) {
    case AlarmMethod::Enable: return id::ConditionType_Enable;
    case AlarmMethod::Disable: return id::ConditionType_Disable;
    case AlarmMethod::AddComment: return id::ConditionType_AddComment;
    case AlarmMethod::Acknowledge: return id::AcknowledgeableConditionType_Acknowledge;
    case AlarmMethod::Confirm: return id::AcknowledgeableConditionType_Confirm;
    case AlarmMethod::TimedShelve: return id::AlarmConditionType_ShelvingState_TimedShelve;
    case AlarmMethod::OneShotShelve: return id::AlarmConditionType_ShelvingState_OneShotShelve;
    case AlarmMethod::Unshelve: return id::AlarmConditionType_ShelvingState_Unshelve;
    }
    return 0;
}

bool isShelvingMethod(AlarmMethod m) {
    return m == AlarmMethod::TimedShelve || m == AlarmMethod::OneShotShelve || m == AlarmMethod::Unshelve;
}

// The service's failure, else the first Method's result.
StatusCode conditionCallStatus(const ServiceResult<CallResponse>& r) {
    if (r.status.isBad()) return r.status;
    if (r.response.results.empty()) return status::BadUnknownResponse;
    return r.response.results[0].statusCode;
}

void sendConditionCall(Client& client, CallMethodRequest request, QObject* context, StatusCallback done, uint32_t timeoutMs) {
    client.call(std::vector<CallMethodRequest>{std::move(request)}, context,
                [done = std::move(done)](const ServiceResult<CallResponse>& r) {
                    if (done) done(conditionCallStatus(r));
                },
                timeoutMs);
}

} // namespace

const char* alarmMethodName(AlarmMethod m) {
    switch (m) {
    case AlarmMethod::Enable: return "Enable";
    case AlarmMethod::Disable: return "Disable";
    case AlarmMethod::AddComment: return "AddComment";
    case AlarmMethod::Acknowledge: return "Acknowledge";
    case AlarmMethod::Confirm: return "Confirm";
    case AlarmMethod::TimedShelve: return "TimedShelve";
    case AlarmMethod::OneShotShelve: return "OneShotShelve";
    case AlarmMethod::Unshelve: return "Unshelve";
    }
    return "";
}

CallMethodRequest alarmMethodRequest(const AlarmMethodCall& call) {
    CallMethodRequest r;
    r.objectId = call.conditionId;
    r.methodId = NodeId(conditionMethodDeclaration(call.method));
    switch (call.method) {
    case AlarmMethod::AddComment:
    case AlarmMethod::Acknowledge:
    case AlarmMethod::Confirm:
        r.inputArguments = Array<Variant>{Variant(call.eventId), Variant(call.comment)};
        break;
    case AlarmMethod::TimedShelve: r.inputArguments = Array<Variant>{Variant(call.shelvingTimeMs)}; break;
    default: r.inputArguments = Array<Variant>::emptyArray(); break;
    }
    return r;
}

void callAlarmMethod(Client& client, const AlarmMethodCall& call, QObject* context, StatusCallback done, uint32_t timeoutMs) {
    CallMethodRequest request = alarmMethodRequest(call);
    if (!isShelvingMethod(call.method)) return sendConditionCall(client, std::move(request), context, std::move(done), timeoutMs);
    const std::string method = alarmMethodName(call.method);
    std::vector<BrowsePath> paths = {*makeBrowsePath(call.conditionId, "/ShelvingState"),
                                     *makeBrowsePath(call.conditionId, "/ShelvingState/" + method)};
    QPointer<Client> guard(&client);
    client.translateBrowsePaths(
        std::move(paths), context,
        [guard, context, request = std::move(request), done = std::move(done), timeoutMs](
            const ServiceResult<TranslateBrowsePathsToNodeIdsResponse>& r) mutable {
            Client* c = guard.data();
            if (!c) {
                if (done) done(status::BadShutdown);
                return;
            }
            // The Shelving child and its Method when the server has them (one local target each).
            auto target = [&r](std::size_t i) -> NodeId {
                if (r.status.isBad() || i >= r.response.results.size()) return {};
                const BrowsePathResult& p = r.response.results[i];
                if (p.statusCode.isBad()) return {};
                for (const BrowsePathTarget& t : p.targets)
                    if (t.remainingPathIndex == 0xFFFFFFFFu && t.targetId.isLocal() && t.targetId.namespaceUri.isNull())
                        return t.targetId.nodeId;
                return {};
            };
            const NodeId shelving = target(0), methodNode = target(1);
            if (!shelving.isNull() && !methodNode.isNull()) {
                request.objectId = shelving;
                request.methodId = methodNode;
            }
            sendConditionCall(*c, std::move(request), context, std::move(done), timeoutMs);
        },
        timeoutMs);
}

CallMethodRequest conditionRefreshRequest(uint32_t subscriptionId) {
    CallMethodRequest r;
    r.objectId = NodeId(id::ConditionType);
    r.methodId = NodeId(id::ConditionType_ConditionRefresh);
    r.inputArguments = Array<Variant>{Variant(subscriptionId)};
    return r;
}

CallMethodRequest conditionRefresh2Request(uint32_t subscriptionId, uint32_t monitoredItemId) {
    CallMethodRequest r;
    r.objectId = NodeId(id::ConditionType);
    r.methodId = NodeId(id::ConditionType_ConditionRefresh2);
    r.inputArguments = Array<Variant>{Variant(subscriptionId), Variant(monitoredItemId)};
    return r;
}

void conditionRefresh(Client& client, uint32_t subscriptionId, QObject* context, StatusCallback done, uint32_t timeoutMs) {
    sendConditionCall(client, conditionRefreshRequest(subscriptionId), context, std::move(done), timeoutMs);
}

} // namespace ua
