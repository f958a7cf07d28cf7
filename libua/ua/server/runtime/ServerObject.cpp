#include "ua/server/runtime/ServerObject.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"

namespace ua {

namespace {

void setStored(AddressSpace& space, uint32_t id, Variant v) {
    Node* n = space.findMutable(NodeId(id));
    if (!n || !n->value) return;  // an optional node this NodeSet does not have
    DataValue dv(std::move(v));
    dv.setSourceTimestamp(DateTime::now());
    n->value->store(std::move(dv));
}

void setSource(AddressSpace& space, uint32_t id, std::function<Variant()> f) {
    Node* n = space.findMutable(NodeId(id));
    if (!n) return;
    n->rare.edit().source.edit().read = [f = std::move(f)] {
        DataValue v(f());
        v.setSourceTimestamp(DateTime::now());
        return v;
    };
}

} // namespace

StatusCode installServerObject(AddressSpace& space, std::shared_ptr<ServerRuntimeState> rt, const String& applicationUri,
                               const OperationLimits& limits, const EncodingLimits& enc) {
    if (!space.find(NodeId(id::Server_ServerStatus))) return status::BadNodeIdUnknown;
    // ServerStatus as a whole and each child.
    auto status = [rt] {
        ServerStatusDataType s;
        s.startTime = rt->startTime;
        s.currentTime = DateTime::now();
        s.state = ServerState(rt->state.load());
        s.buildInfo = rt->buildInfo;
        s.secondsTillShutdown = rt->secondsTillShutdown.load();
        const auto reason = rt->shutdownReason.load();
        s.shutdownReason = reason ? *reason : LocalizedText{};
        return s;
    };
    setSource(space, id::Server_ServerStatus, [status] { return Variant(ExtensionObject::make(status())); });
    setSource(space, id::Server_ServerStatus_StartTime, [rt] { return Variant(rt->startTime); });
    setSource(space, id::Server_ServerStatus_CurrentTime, [] { return Variant(DateTime::now()); });
    setSource(space, id::Server_ServerStatus_State, [rt] { return Variant(int32_t(rt->state.load())); });
    setSource(space, id::Server_ServerStatus_SecondsTillShutdown, [rt] { return Variant(rt->secondsTillShutdown.load()); });
    setSource(space, id::Server_ServerStatus_ShutdownReason, [rt] {
        const auto reason = rt->shutdownReason.load();
        return Variant(reason ? *reason : LocalizedText{});
    });
    const BuildInfo& b = rt->buildInfo;
    setSource(space, id::Server_ServerStatus_BuildInfo, [b] { return Variant(ExtensionObject::make(b)); });
    setStored(space, id::Server_ServerStatus_BuildInfo_ProductUri, Variant(b.productUri));
    setStored(space, id::Server_ServerStatus_BuildInfo_ManufacturerName, Variant(b.manufacturerName));
    setStored(space, id::Server_ServerStatus_BuildInfo_ProductName, Variant(b.productName));
    setStored(space, id::Server_ServerStatus_BuildInfo_SoftwareVersion, Variant(b.softwareVersion));
    setStored(space, id::Server_ServerStatus_BuildInfo_BuildNumber, Variant(b.buildNumber));
    setStored(space, id::Server_ServerStatus_BuildInfo_BuildDate, Variant(b.buildDate));

    Array<String> namespaces;
    for (const String& uri : space.namespaces()) namespaces.push_back(uri);
    setStored(space, id::Server_NamespaceArray, Variant(namespaces));
    setStored(space, id::Server_ServerArray, Variant(Array<String>{applicationUri}));
    setStored(space, id::Server_ServiceLevel, Variant(uint8_t(255)));
    setStored(space, id::Server_Auditing, Variant(false));

    setStored(space, id::Server_ServerCapabilities_ServerProfileArray,
              Variant(Array<String>{String("http://opcfoundation.org/UA-Profile/Server/MicroEmbeddedDevice")}));
    setStored(space, id::Server_ServerCapabilities_LocaleIdArray, Variant(Array<String>{String("en")}));
    setStored(space, id::Server_ServerCapabilities_MinSupportedSampleRate, Variant(0.0));
    setStored(space, id::Server_ServerCapabilities_MaxBrowseContinuationPoints, Variant(uint16_t(limits.maxBrowseContinuationPoints)));
    setStored(space, id::Server_ServerCapabilities_MaxArrayLength, Variant(uint32_t(enc.maxArrayLength)));
    setStored(space, id::Server_ServerCapabilities_MaxStringLength, Variant(uint32_t(enc.maxStringLength)));
    setStored(space, id::Server_ServerCapabilities_MaxByteStringLength, Variant(uint32_t(enc.maxByteStringLength)));
    setStored(space, id::Server_ServerCapabilities_SoftwareCertificates, Variant(Array<ExtensionObject>::emptyArray()));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerRead, Variant(limits.maxNodesPerRead));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerWrite, Variant(limits.maxNodesPerWrite));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerBrowse, Variant(limits.maxNodesPerBrowse));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerRegisterNodes, Variant(limits.maxNodesPerRegisterNodes));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerMethodCall, Variant(limits.maxNodesPerMethodCall));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerNodeManagement, Variant(limits.maxNodesPerNodeManagement));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerTranslateBrowsePathsToNodeIds,
              Variant(limits.maxNodesPerTranslateBrowsePathsToNodeIds));
    return status::Good;
}

StatusCode installSubscriptionCapabilities(AddressSpace& space, const SubscriptionConfig& c) {
    setStored(space, id::Server_ServerCapabilities_MaxSubscriptions, Variant(c.maxSubscriptions));
    setStored(space, id::Server_ServerCapabilities_MaxSubscriptionsPerSession, Variant(c.maxSubscriptionsPerSession));
    setStored(space, id::Server_ServerCapabilities_MaxMonitoredItems, Variant(c.maxMonitoredItems));
    setStored(space, id::Server_ServerCapabilities_MaxMonitoredItemsPerSubscription, Variant(c.maxMonitoredItemsPerSubscription));
    setStored(space, id::Server_ServerCapabilities_MaxMonitoredItemsQueueSize, Variant(c.maxQueueSize));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall, Variant(c.maxMonitoredItemsPerCall));
    setStored(space, id::Server_ServerCapabilities_MinSupportedSampleRate, Variant(c.minSamplingIntervalMs));
    return status::Good;
}

} // namespace ua
