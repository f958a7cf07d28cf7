#include "ua/server/certificates/PushMethods.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/MethodHandler.h"
#include "ua/server/events/AuditEvents.h"

namespace ua {

namespace {

using Caller = PushManager::Caller;

Caller callerOf(const MethodCall& call) { return Caller{call.sessionId, call.roles, call.securityMode}; }

template <class T>
T input(const MethodCall& call, std::size_t i) {
    const T* v = i < call.inputs.size() ? call.inputs[i].get<T>() : nullptr;
    return v ? *v : T{};
}

void setOutputs(CallMethodResult& result, std::vector<Variant> outputs) {
    result.outputArguments = Array<Variant>(std::move(outputs));
}

class Binder {
public:
    explicit Binder(AddressSpace& space) : m_space(space) {}

    // A Method run on the worker pool (the store reads and writes files).
    bool bind(uint32_t methodId, MethodFunction f) {
        Node* n = m_space.findMutable(NodeId(methodId));
        if (!n || n->nodeClass != NodeClass::Method) return false;
        MethodHandler h;
        h.execution = MethodHandler::Execution::Worker;
        h.run = std::move(f);
        n->method = std::make_shared<const MethodHandler>(std::move(h));
        return true;
    }
    void value(uint32_t id, Variant v) {
        Node* n = m_space.findMutable(NodeId(id));
        if (!n || !n->value) return;  // an optional Property this NodeSet does not have
        DataValue dv(std::move(v));
        dv.setSourceTimestamp(DateTime::now());
        n->value->store(std::move(dv));
    }
    void source(uint32_t id, std::function<DataValue()> f) {
        if (Node* n = m_space.findMutable(NodeId(id))) n->source.read = std::move(f);
    }

private:
    AddressSpace& m_space;
};

// The audit event of a call that asks for a change of the trust list (OPC 10000-12 7.8.2.12).
void auditRequested(const PushMethodsContext& ctx, const MethodCall& call, std::string_view name, StatusCode st) {
    const AuditContext audit{ctx.auditing, ctx.events, ctx.applicationUri};
    if (!auditWanted(audit)) return;
    const std::string user = ctx.userOf && !call.sessionId.isNull() ? ctx.userOf(call.sessionId) : std::string();
    auditMethodCall(audit, id::TrustListUpdateRequestedAuditEventType, call.objectId, name, call.methodId, call.inputs, st,
                    user, {{"TrustListId", Variant(NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList))}});
}

} // namespace

StatusCode installPushMethods(AddressSpace& space, PushMethodsContext context) {
    if (!space.find(NodeId(id::ServerConfiguration))) return status::BadNodeIdUnknown;
    auto ctx = std::make_shared<const PushMethodsContext>(std::move(context));
    Binder b(space);
    bool ok = true;
    // ---- the TrustList's FileType Methods ----
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                 [ctx](const MethodCall& call, CallMethodResult& r) {
                     uint32_t handle = 0;
                     const StatusCode st = ctx->manager->open(callerOf(call), input<uint8_t>(call, 0), &handle);
                     if (st.isGood()) setOutputs(r, {Variant(handle)});
                     return st;
                 });
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_OpenWithMasks,
                 [ctx](const MethodCall& call, CallMethodResult& r) {
                     uint32_t handle = 0;
                     const StatusCode st = ctx->manager->openWithMasks(callerOf(call), input<uint32_t>(call, 0), &handle);
                     if (st.isGood()) setOutputs(r, {Variant(handle)});
                     return st;
                 });
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close,
                 [ctx](const MethodCall& call, CallMethodResult&) {
                     return ctx->manager->close(callerOf(call), input<uint32_t>(call, 0));
                 });
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read,
                 [ctx](const MethodCall& call, CallMethodResult& r) {
                     ByteString data;
                     const StatusCode st =
                         ctx->manager->read(callerOf(call), input<uint32_t>(call, 0), input<int32_t>(call, 1), &data);
                     if (st.isGood()) setOutputs(r, {Variant(data.isNull() ? ByteString("") : data)});
                     return st;
                 });
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Write,
                 [ctx](const MethodCall& call, CallMethodResult&) {
                     return ctx->manager->write(callerOf(call), input<uint32_t>(call, 0), input<ByteString>(call, 1));
                 });
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_GetPosition,
                 [ctx](const MethodCall& call, CallMethodResult& r) {
                     uint64_t position = 0;
                     const StatusCode st = ctx->manager->getPosition(callerOf(call), input<uint32_t>(call, 0), &position);
                     if (st.isGood()) setOutputs(r, {Variant(position)});
                     return st;
                 });
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_SetPosition,
                 [ctx](const MethodCall& call, CallMethodResult&) {
                     return ctx->manager->setPosition(callerOf(call), input<uint32_t>(call, 0), input<uint64_t>(call, 1));
                 });
    // ---- TrustListType's own Methods ----
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_CloseAndUpdate,
                 [ctx](const MethodCall& call, CallMethodResult& r) {
                     bool applyRequired = false;
                     const StatusCode st = ctx->manager->closeAndUpdate(callerOf(call), input<uint32_t>(call, 0), &applyRequired);
                     auditRequested(*ctx, call, "CloseAndUpdate", st);
                     if (st.isGood()) setOutputs(r, {Variant(applyRequired)});
                     return st;
                 });
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_AddCertificate,
                 [ctx](const MethodCall& call, CallMethodResult&) {
                     const StatusCode st =
                         ctx->manager->addCertificate(callerOf(call), input<ByteString>(call, 0), input<bool>(call, 1));
                     auditRequested(*ctx, call, "AddCertificate", st);
                     return st;
                 });
    ok &= b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_RemoveCertificate,
                 [ctx](const MethodCall& call, CallMethodResult&) {
                     const StatusCode st =
                         ctx->manager->removeCertificate(callerOf(call), input<String>(call, 0).str(), input<bool>(call, 1));
                     auditRequested(*ctx, call, "RemoveCertificate", st);
                     return st;
                 });
    // ---- ServerConfiguration and the group ----
    auto rejected = [ctx](const MethodCall& call, CallMethodResult& r) {
        std::vector<std::string> certificates;
        const StatusCode st = ctx->manager->getRejectedList(callerOf(call), &certificates);
        if (st.isBad()) return st;
        std::vector<ByteString> out(certificates.begin(), certificates.end());
        setOutputs(r, {Variant(Array<ByteString>(std::move(out)))});  // an empty list is an empty array
        return st;
    };
    ok &= b.bind(id::ServerConfiguration_GetRejectedList, rejected);
    b.bind(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_GetRejectedList, rejected);  // optional
    ok &= b.bind(id::ServerConfiguration_ApplyChanges, [ctx](const MethodCall& call, CallMethodResult&) {
        PushManager::Applied applied;
        const StatusCode st = ctx->manager->applyChanges(callerOf(call), &applied);
        if (applied.trustListChanged) {
            const AuditContext audit{ctx->auditing, ctx->events, ctx->applicationUri};
            if (auditWanted(audit)) {
                const std::string user = ctx->userOf && !call.sessionId.isNull() ? ctx->userOf(call.sessionId) : std::string();
                auditMethodCall(audit, id::TrustListUpdatedAuditEventType, NodeId(id::ServerConfiguration), "ApplyChanges",
                                call.methodId, call.inputs, st, user,
                                {{"TrustListId",
                                  Variant(NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList))}});
            }
            if (ctx->applied) ctx->applied(applied);
        }
        return st;
    });
    b.bind(id::ServerConfiguration_CancelChanges,  // optional (1.05)
           [ctx](const MethodCall& call, CallMethodResult&) { return ctx->manager->cancelChanges(callerOf(call)); });

    // ---- Properties ----
    b.value(id::ServerConfiguration_SupportedPrivateKeyFormats, Variant(Array<String>(std::vector<String>{String("PEM")})));
    b.value(id::ServerConfiguration_ServerCapabilities, Variant(Array<String>::emptyArray()));
    b.value(id::ServerConfiguration_MaxTrustListSize, Variant(uint32_t(1024 * 1024)));
    b.value(id::ServerConfiguration_MulticastDnsEnabled, Variant(false));
    b.value(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_CertificateTypes,
            Variant(Array<NodeId>(std::vector<NodeId>{NodeId(id::RsaSha256ApplicationCertificateType)})));
    b.value(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Writable, Variant(true));
    b.value(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_UserWritable, Variant(true));
    b.value(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_ActivityTimeout, Variant(60000.0));
    b.value(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_MaxByteStringLength,
            Variant(uint32_t(1024 * 1024)));
    b.source(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_OpenCount, [ctx] {
        DataValue v(Variant(ctx->manager->openCount()));
        v.setSourceTimestamp(DateTime::now());
        return v;
    });
    b.source(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_LastUpdateTime, [ctx] {
        DataValue v(Variant(ctx->manager->lastUpdateTime()));
        v.setSourceTimestamp(DateTime::now());
        return v;
    });
    b.source(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Size, [] {
        DataValue v;
        v.setStatus(status::BadNotSupported);  // OPC 10000-12 7.8.2.1: Size has no meaning for a TrustList
        return v;
    });
    return ok ? StatusCode(status::Good) : StatusCode(status::BadNodeIdUnknown);
}

} // namespace ua
