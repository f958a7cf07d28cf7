#include "ua/server/certificates/PushMethods.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/MethodHandler.h"
#include "ua/server/events/AuditEvents.h"

#include <tuple>

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
        n->rare.edit().method = std::make_shared<const MethodHandler>(std::move(h));
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
        if (Node* n = m_space.findMutable(NodeId(id))) n->rare.edit().source.edit().read = std::move(f);
    }

private:
    AddressSpace& m_space;
};

std::string userOf(const PushMethodsContext& ctx, const MethodCall& call) {
    return ctx.userOf && !call.sessionId.isNull() ? ctx.userOf(call.sessionId) : std::string();
}

// The audit event of a call that asks for a change of the trust list (OPC 10000-12 7.8.2.12).
void auditRequested(const PushMethodsContext& ctx, const MethodCall& call, std::string_view name, StatusCode st) {
    const AuditContext audit{ctx.auditing, ctx.events, ctx.applicationUri};
    if (!auditWanted(audit)) return;
    auditMethodCall(audit, id::TrustListUpdateRequestedAuditEventType, call.objectId, name, call.methodId, call.inputs, st,
                    userOf(ctx, call), {{"TrustListId", Variant(NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList))}});
}

// CertificateUpdateRequestedAuditEventType (OPC 10000-12 7.10.16, 1.05) for every UpdateCertificate
// call, its PrivateKey argument left out (7.10.5).
void auditUpdateRequested(const PushMethodsContext& ctx, const MethodCall& call, StatusCode st) {
    const AuditContext audit{ctx.auditing, ctx.events, ctx.applicationUri};
    if (!auditWanted(audit)) return;
    std::vector<Variant> inputs(call.inputs.begin(), call.inputs.end());
    if (inputs.size() >= 6) inputs[5] = Variant(ByteString());
    auditMethodCall(audit, id::CertificateUpdateRequestedAuditEventType, NodeId(id::ServerConfiguration), "UpdateCertificate",
                    call.methodId, Array<Variant>(std::move(inputs)), st, userOf(ctx, call));
}

// CertificateUpdatedAuditEventType (7.10.15): ApplyChanges put a new certificate of type into use
// (one event per certificate type replaced).
void auditCertificateUpdated(const PushMethodsContext& ctx, const MethodCall& call, StatusCode st, KeyType type) {
    const AuditContext audit{ctx.auditing, ctx.events, ctx.applicationUri};
    if (!auditWanted(audit)) return;
    auditMethodCall(audit, id::CertificateUpdatedAuditEventType, NodeId(id::ServerConfiguration), "ApplyChanges", call.methodId,
                    call.inputs, st, userOf(ctx, call),
                    {{"CertificateGroup", Variant(NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup))},
                     {"CertificateType", Variant(certificateTypeOf(type))}});
}

Variant argumentList(std::initializer_list<std::tuple<const char*, uint32_t, int32_t>> args) {
    Array<ExtensionObject> list = Array<ExtensionObject>::emptyArray();
    for (const auto& [name, dataType, valueRank] : args) {
        Argument a;
        a.name = String(name);
        a.dataType = NodeId(dataType);
        a.valueRank = valueRank;
        list.push_back(ExtensionObject::make(std::move(a)));
    }
    return Variant(std::move(list));
}

StatusCode addArgumentsProperty(AddressSpace& space, uint32_t id, const char* name, uint32_t method, Variant value) {
    Node n;
    n.nodeId = NodeId(id);
    n.nodeClass = NodeClass::Variable;
    n.browseName = QualifiedName{0, String(name)};
    n.setDisplayName(LocalizedText{String(), String(name)});
    n.attrs.edit().dataType = NodeId(id::Argument);
    n.attrs.edit().valueRank = 1;
    n.attrs.edit().accessLevel = n.attrs.edit().userAccessLevel = access::CurrentRead;
    DataValue dv(std::move(value));
    dv.setSourceTimestamp(DateTime::now());
    n.value = ValueCell::make(std::move(dv));
    StatusCode s = space.addNode(std::move(n));
    if (s.isGood()) s = space.addReference(NodeId(method), NodeId(id::HasProperty), NodeId(id));
    if (s.isGood()) s = space.addReference(NodeId(id), NodeId(id::HasTypeDefinition), NodeId(id::PropertyType));
    return s;
}

// ServerConfiguration.GetCertificates (i=32333, 1.05): the 1.05.03 NodeSet this stack is generated
// from declares it on ServerConfigurationType (i=32296) but not on the Server's instance.
StatusCode addGetCertificates(AddressSpace& space) {
    if (space.find(NodeId(id::ServerConfiguration_GetCertificates))) return status::Good;
    Node m;
    m.nodeId = NodeId(id::ServerConfiguration_GetCertificates);
    m.nodeClass = NodeClass::Method;
    m.browseName = QualifiedName{0, String("GetCertificates")};
    m.setDisplayName(LocalizedText{String(), String("GetCertificates")});
    m.executable = m.userExecutable = true;
    StatusCode s = space.addNode(std::move(m));
    if (s.isGood()) s = space.addReference(NodeId(id::ServerConfiguration), NodeId(id::HasComponent), NodeId(id::ServerConfiguration_GetCertificates));
    if (s.isGood())
        s = addArgumentsProperty(space, id::ServerConfiguration_GetCertificates_InputArguments, "InputArguments",
                                 id::ServerConfiguration_GetCertificates, argumentList({{"CertificateGroupId", id::NodeId, -1}}));
    if (s.isGood())
        s = addArgumentsProperty(space, id::ServerConfiguration_GetCertificates_OutputArguments, "OutputArguments",
                                 id::ServerConfiguration_GetCertificates,
                                 argumentList({{"CertificateTypeIds", id::NodeId, 1}, {"Certificates", id::ByteString, 1}}));
    return s;
}

std::vector<ByteString> byteStrings(const MethodCall& call, std::size_t i) {
    const auto* list = i < call.inputs.size() ? call.inputs[i].get<Array<ByteString>>() : nullptr;
    return list ? std::vector<ByteString>(list->begin(), list->end()) : std::vector<ByteString>();
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
        for (const KeyType type : applied.certificateTypes) auditCertificateUpdated(*ctx, call, st, type);
        if (applied.trustListChanged) {
            const AuditContext audit{ctx->auditing, ctx->events, ctx->applicationUri};
            if (auditWanted(audit)) {
                auditMethodCall(audit, id::TrustListUpdatedAuditEventType, NodeId(id::ServerConfiguration), "ApplyChanges",
                                call.methodId, call.inputs, st, userOf(*ctx, call),
                                {{"TrustListId",
                                  Variant(NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList))}});
            }
        }
        if ((applied.trustListChanged || applied.certificateChanged) && ctx->applied) ctx->applied(applied);
        return st;
    });
    ok &= b.bind(id::ServerConfiguration_UpdateCertificate, [ctx](const MethodCall& call, CallMethodResult& r) {
        bool applyRequired = false;
        const StatusCode st = ctx->manager->updateCertificate(
            callerOf(call), input<NodeId>(call, 0), input<NodeId>(call, 1), input<ByteString>(call, 2), byteStrings(call, 3),
            input<String>(call, 4).str(), input<ByteString>(call, 5), &applyRequired);
        auditUpdateRequested(*ctx, call, st);
        if (st.isGood()) setOutputs(r, {Variant(applyRequired)});
        return st;
    });
    ok &= b.bind(id::ServerConfiguration_CreateSigningRequest, [ctx](const MethodCall& call, CallMethodResult& r) {
        ByteString request;
        const StatusCode st =
            ctx->manager->createSigningRequest(callerOf(call), input<NodeId>(call, 0), input<NodeId>(call, 1),
                                               input<String>(call, 2).str(), input<bool>(call, 3), input<ByteString>(call, 4), &request);
        if (st.isGood()) setOutputs(r, {Variant(request)});
        return st;
    });
    b.bind(id::ServerConfiguration_ResetToServerDefaults,  // optional (1.05)
           [ctx](const MethodCall& call, CallMethodResult&) {
               const StatusCode st = ctx->manager->resetToServerDefaults(callerOf(call));
               if (st.isGood() && ctx->reset) ctx->reset();
               return st;
           });
    ok &= addGetCertificates(space).isGood();
    ok &= b.bind(id::ServerConfiguration_GetCertificates,  // optional (1.05)
           [ctx](const MethodCall& call, CallMethodResult& r) {
               std::vector<NodeId> types;
               std::vector<std::string> certificates;
               const StatusCode st = ctx->manager->getCertificates(callerOf(call), input<NodeId>(call, 0), &types, &certificates);
               if (st.isBad()) return st;
               std::vector<ByteString> ders(certificates.begin(), certificates.end());
               setOutputs(r, {Variant(Array<NodeId>(std::move(types))), Variant(Array<ByteString>(std::move(ders)))});
               return st;
           });
    b.bind(id::ServerConfiguration_CancelChanges,  // optional (1.05)
           [ctx](const MethodCall& call, CallMethodResult&) { return ctx->manager->cancelChanges(callerOf(call)); });

    // ---- Properties ----
    b.value(id::ServerConfiguration_SupportedPrivateKeyFormats, Variant(Array<String>(std::vector<String>{String("PEM"), String("PFX")})));
    b.value(id::ServerConfiguration_ServerCapabilities, Variant(Array<String>::emptyArray()));
    b.value(id::ServerConfiguration_MaxTrustListSize, Variant(uint32_t(1024 * 1024)));
    b.value(id::ServerConfiguration_MulticastDnsEnabled, Variant(false));
    // The types the server holds a pair of: RSA, and the ECC curves of its ECC endpoints (made at start).
    b.source(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_CertificateTypes, [ctx] {
        return DataValue(Variant(Array<NodeId>(ctx->manager->certificateTypes())));
    });
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
