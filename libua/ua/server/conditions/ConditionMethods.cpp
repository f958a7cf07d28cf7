#include "ua/server/conditions/ConditionMethods.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/MethodHandler.h"
#include "ua/server/common/Clock.h"
#include "ua/server/conditions/ConditionManager.h"
#include "ua/server/conditions/ConditionRefresh.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/events/EventManager.h"

namespace ua {

namespace {

struct MethodEntry {
    uint32_t declaration;
    ConditionMethod method;
};

constexpr MethodEntry kMethods[] = {
    {id::ConditionType_Enable, ConditionMethod::Enable},
    {id::ConditionType_Disable, ConditionMethod::Disable},
    {id::ConditionType_AddComment, ConditionMethod::AddComment},
    {id::AcknowledgeableConditionType_Acknowledge, ConditionMethod::Acknowledge},
    {id::AcknowledgeableConditionType_Confirm, ConditionMethod::Confirm},
    {id::ShelvedStateMachineType_TimedShelve, ConditionMethod::TimedShelve},
    {id::ShelvedStateMachineType_OneShotShelve, ConditionMethod::OneShotShelve},
    {id::ShelvedStateMachineType_Unshelve, ConditionMethod::Unshelve},
    {id::AlarmConditionType_ShelvingState_TimedShelve, ConditionMethod::TimedShelve},
    {id::AlarmConditionType_ShelvingState_OneShotShelve, ConditionMethod::OneShotShelve},
    {id::AlarmConditionType_ShelvingState_Unshelve, ConditionMethod::Unshelve},
    {id::ShelvedStateMachineType_TimedShelve2, ConditionMethod::TimedShelve2},
    {id::ShelvedStateMachineType_OneShotShelve2, ConditionMethod::OneShotShelve2},
    {id::ShelvedStateMachineType_Unshelve2, ConditionMethod::Unshelve2},
    {id::AlarmConditionType_ShelvingState_TimedShelve2, ConditionMethod::TimedShelve2},
    {id::AlarmConditionType_ShelvingState_OneShotShelve2, ConditionMethod::OneShotShelve2},
    {id::AlarmConditionType_ShelvingState_Unshelve2, ConditionMethod::Unshelve2},
};

const char* methodName(ConditionMethod m) {
    switch (m) {
    case ConditionMethod::Enable: return "Enable";
    case ConditionMethod::Disable: return "Disable";
    case ConditionMethod::AddComment: return "AddComment";
    case ConditionMethod::Acknowledge: return "Acknowledge";
    case ConditionMethod::Confirm: return "Confirm";
    case ConditionMethod::TimedShelve: return "TimedShelve";
    case ConditionMethod::OneShotShelve: return "OneShotShelve";
    case ConditionMethod::Unshelve: return "Unshelve";
    case ConditionMethod::TimedShelve2: return "TimedShelve2";
    case ConditionMethod::OneShotShelve2: return "OneShotShelve2";
    case ConditionMethod::Unshelve2: return "Unshelve2";
    }
    return "";
}

uint32_t auditTypeOf(ConditionMethod m) {
    switch (m) {
    case ConditionMethod::Enable:
    case ConditionMethod::Disable: return id::AuditConditionEnableEventType;
    case ConditionMethod::AddComment: return id::AuditConditionCommentEventType;
    case ConditionMethod::Acknowledge: return id::AuditConditionAcknowledgeEventType;
    case ConditionMethod::Confirm: return id::AuditConditionConfirmEventType;
    default: return id::AuditConditionShelvingEventType;
    }
}

// The subtype's own fields (OPC 10000-9 5.10): ConditionEventId and Comment of the comment,
// acknowledge and confirm events; ShelvingTime of a timed shelving.
std::vector<Event::Field> auditFields(ConditionMethod m, const Array<Variant>& in) {
    std::vector<Event::Field> f;
    switch (m) {
    case ConditionMethod::AddComment:
    case ConditionMethod::Acknowledge:
    case ConditionMethod::Confirm:
        if (in.size() >= 2) {
            f.push_back({"ConditionEventId", in[0]});
            f.push_back({"Comment", in[1]});
        }
        break;
    case ConditionMethod::TimedShelve:
    case ConditionMethod::TimedShelve2:
        if (!in.empty()) f.push_back({"ShelvingTime", in[0]});
        break;
    default: break;
    }
    return f;
}

} // namespace

StatusCode ConditionManager::call(ConditionMethod method, const MethodCall& mc) {
    const std::string user = m_userOf && !mc.sessionId.isNull() ? m_userOf(mc.sessionId) : std::string();
    const StatusCode s = call(method, mc.objectId, mc.inputs, user, monotonicMs());
    if (m_events) {
        // The audit event's SourceNode is the condition (for a shelving Method: the condition of
        // its ShelvingState).
        NodeId condition = mc.objectId;
        if (method >= ConditionMethod::TimedShelve && condition.idType() == NodeId::IdType::String) {
            std::string id(condition.string().view());
            if (const std::size_t slash = id.rfind("/ShelvingState"); slash != std::string::npos && slash + 14 == id.size())
                condition = NodeId(condition.namespaceIndex(), String(id.substr(0, slash)));
        }
        auditMethodCall(AuditContext{m_auditing, *m_events, m_serverId}, auditTypeOf(method), condition, methodName(method),
                        mc.methodId, mc.inputs, s, user, auditFields(method, mc.inputs));
    }
    return s;
}

StatusCode installConditionMethods(AddressSpace& space, ConditionManager& manager, SubscriptionRegistry& registry) {
    ConditionManager* m = &manager;
    for (const MethodEntry& e : kMethods) {
        MethodHandler h;
        h.execution = MethodHandler::Execution::Inline;
        h.run = [m, method = e.method](const MethodCall& call, CallMethodResult&) { return m->call(method, call); };
        Node* n = space.findMutable(NodeId(e.declaration));
        if (!n || n->nodeClass != NodeClass::Method) continue;  // not in this schema version
        n->rare.edit().method = std::make_shared<const MethodHandler>(std::move(h));
    }
    return installConditionRefresh(space, manager, registry);
}

} // namespace ua
