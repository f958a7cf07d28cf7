#include "ua/server/history/HistoricalNodes.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/history/Aggregates.h"
#include "ua/server/history/EventHistory.h"
#include "ua/server/history/RawHistoryRead.h"

#include <QDateTime>

namespace ua {

namespace {

void store(Node& n, Variant v) {
    DataValue dv(std::move(v));
    dv.setStatus(status::Good);
    dv.setSourceTimestamp(DateTime::now());
    if (n.value) n.value->store(std::move(dv));
    else n.value = ValueCell::make(std::move(dv));
}

// A Property (or, with HasComponent, an Object) of parent named (0, name), made when missing;
// its index.
NodeIndex child(AddressSpace& space, NodeIndex parent, const char* name, NodeClass cls, uint32_t dataType, uint32_t typeDefinition,
                uint32_t referenceType) {
    const Node& p = space.node(parent);
    for (const Reference& r : p.references.forward())
        if (space.node(r.target).browseName == QualifiedName{0, String(name)}) return r.target;
    Node n;
    n.nodeId = NodeId(p.nodeId.namespaceIndex(), String(p.nodeId.toString() + "/" + name));
    n.nodeClass = cls;
    n.browseName = {0, String(name)};
    n.setDisplayName(LocalizedText{String(), String(name)});
    if (cls == NodeClass::Variable) {
        n.attrs.edit().dataType = NodeId(dataType);
        n.attrs.edit().valueRank = -1;
        n.attrs.edit().accessLevel = n.attrs.edit().userAccessLevel = access::CurrentRead;
    }
    NodeIndex added = kNoNode;
    if (space.addNode(std::move(n), &added).isBad()) return kNoNode;
    space.addReferenceUnchecked(parent, space.indexOf(NodeId(referenceType)), added);
    space.addReferenceUnchecked(added, space.indexOf(NodeId(id::HasTypeDefinition)), space.indexOf(NodeId(typeDefinition)));
    return added;
}

void property(AddressSpace& space, NodeIndex parent, const char* name, uint32_t dataType, Variant v) {
    const NodeIndex at = child(space, parent, name, NodeClass::Variable, dataType, id::PropertyType, id::HasProperty);
    if (at != kNoNode) store(space.nodeMutable(at), std::move(v));
}

void setStored(AddressSpace& space, uint32_t id, Variant v) {
    if (Node* n = space.findMutable(NodeId(id)); n && n->nodeClass == NodeClass::Variable) store(*n, std::move(v));
}

} // namespace

StatusCode markHistorized(AddressSpace& space, const HistorizedNode& h) {
    const NodeId& id = h.node;
    const HistoricalSettings& settings = h.settings;
    Node* n = space.findMutable(id);
    if (!n) return status::BadNodeIdUnknown;
    if (n->nodeClass != NodeClass::Variable) return status::BadNodeClassInvalid;
    n->attrs.edit().historizing = true;
    n->attrs.edit().accessLevel |= access::HistoryRead | access::HistoryWrite;
    n->attrs.edit().userAccessLevel |= access::HistoryRead | access::HistoryWrite;
    const NodeIndex node = space.indexOf(id);
    // OPC 10000-11 5.2.2: the HistoricalDataConfiguration through HasHistoricalConfiguration,
    // BrowseName "HA Configuration".
    const NodeIndex config = child(space, node, "HA Configuration", NodeClass::Object, 0, id::HistoricalDataConfigurationType,
                                   id::HasHistoricalConfiguration);
    if (config == kNoNode) return status::BadInternalError;
    const NodeIndex aggregate = child(space, config, "AggregateConfiguration", NodeClass::Object, 0, id::AggregateConfigurationType,
                                      id::HasComponent);
    if (aggregate != kNoNode) {
        property(space, aggregate, "TreatUncertainAsBad", id::Boolean, Variant(settings.treatUncertainAsBad));
        property(space, aggregate, "PercentDataBad", id::Byte, Variant(settings.percentDataBad));
        property(space, aggregate, "PercentDataGood", id::Byte, Variant(settings.percentDataGood));
        property(space, aggregate, "UseSlopedExtrapolation", id::Boolean, Variant(settings.useSlopedExtrapolation));
    }
    property(space, config, "Stepped", id::Boolean, Variant(settings.stepped));
    property(space, config, "MinTimeInterval", id::Duration, Variant(std::max(10.0, h.samplingIntervalMs)));
    property(space, config, "ServerTimestampSupported", id::Boolean, Variant(true));
    if (h.limits.maxAgeMs > 0) {
        const DateTime start = DateTime::fromUnixMs(QDateTime::currentMSecsSinceEpoch() - h.limits.maxAgeMs);
        property(space, config, "StartOfOnlineArchive", id::UtcTime, Variant(start));
    }
    return status::Good;
}

StatusCode markEventHistorized(AddressSpace& space, const NodeId& notifier) {
    constexpr uint8_t kSubscribeToEvents = 0x01, kHistoryRead = 0x04;  // EventNotifierType (OPC 10000-3 8.59)
    Node* n = space.findMutable(notifier);
    if (!n) return status::BadNodeIdUnknown;
    if (n->nodeClass != NodeClass::Object && n->nodeClass != NodeClass::View) return status::BadNodeClassInvalid;
    n->eventNotifier |= kSubscribeToEvents | kHistoryRead;
    // What the history keeps: every field an event has; the filter names the BaseEventType ones.
    EventFilter kept;
    std::vector<SimpleAttributeOperand> select;
    for (const char* field : {"EventId", "EventType", "SourceNode", "SourceName", "Time", "ReceiveTime", "Message", "Severity"}) {
        SimpleAttributeOperand op;
        op.typeDefinitionId = NodeId(id::BaseEventType);
        op.browsePath = Array<QualifiedName>(std::vector<QualifiedName>{QualifiedName{0, String(field)}});
        op.attributeId = uint32_t(AttributeId::Value);
        select.push_back(std::move(op));
    }
    kept.selectClauses = Array<SimpleAttributeOperand>(std::move(select));
    property(space, space.indexOf(notifier), "HistoricalEventFilter", id::EventFilter, Variant(ExtensionObject::make(std::move(kept))));
    return status::Good;
}

StatusCode unmarkHistorized(AddressSpace& space, const NodeId& id) {
    Node* n = space.findMutable(id);
    if (!n) return status::BadNodeIdUnknown;
    if (n->nodeClass != NodeClass::Variable) return status::BadNodeClassInvalid;
    n->attrs.edit().historizing = false;
    return status::Good;
}

void installHistoryCapabilities(AddressSpace& space, const HistoryConfig& config, uint32_t maxNodesPerRead, uint32_t maxNodesPerUpdate) {
    const bool on = !config.databasePath.isEmpty();
    for (const uint32_t id : {id::HistoryServerCapabilities_AccessHistoryDataCapability, id::HistoryServerCapabilities_InsertDataCapability,
                              id::HistoryServerCapabilities_ReplaceDataCapability, id::HistoryServerCapabilities_UpdateDataCapability,
                              id::HistoryServerCapabilities_DeleteRawCapability, id::HistoryServerCapabilities_DeleteAtTimeCapability})
        setStored(space, id, Variant(on));
    const bool events = on && !config.eventNotifiers.empty();
    setStored(space, id::HistoryServerCapabilities_AccessHistoryEventsCapability, Variant(events));
    for (const uint32_t id : {id::HistoryServerCapabilities_InsertEventCapability,
                              id::HistoryServerCapabilities_ReplaceEventCapability, id::HistoryServerCapabilities_UpdateEventCapability,
                              id::HistoryServerCapabilities_InsertAnnotationCapability})
        setStored(space, id, Variant(false));
    setStored(space, id::HistoryServerCapabilities_ServerTimestampSupported, Variant(on));
    // The AggregateFunctions ReadProcessed supports (OPC 10000-11 5.4.2), organized by the folder.
    if (on) {
        using history::Aggregate;
        for (int a = int(Aggregate::Interpolative); a <= int(Aggregate::PercentBad); ++a) {
            const NodeId target = history::aggregateNodeId(Aggregate(a));
            if (space.find(target)) space.addReference(NodeId(id::HistoryServerCapabilities_AggregateFunctions), NodeId(id::Organizes), target);
        }
    }
    setStored(space, id::HistoryServerCapabilities_MaxReturnDataValues, Variant(uint32_t(on ? kMaxReturnDataValues : 0)));
    setStored(space, id::HistoryServerCapabilities_MaxReturnEventValues, Variant(uint32_t(events ? kMaxReturnEventValues : 0)));
    setStored(space, id::Server_ServerCapabilities_MaxHistoryContinuationPoints, Variant(uint16_t(on ? config.maxContinuationPoints : 0)));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerHistoryReadData, Variant(maxNodesPerRead));
    setStored(space, id::Server_ServerCapabilities_OperationLimits_MaxNodesPerHistoryUpdateData, Variant(maxNodesPerUpdate));
}

HistoryManager::Reader valueReaderOf(const AddressSpace& space, const NodeId& id) {
    const Node* n = space.find(id);
    if (!n || n->nodeClass != NodeClass::Variable) return {};
    if (n->rare->source->read) return [read = n->rare->source->read](DataValue& out) {
        out = read();
        return true;
    };
    if (n->value) return [cell = n->value](DataValue& out) { return cell->copyTo(out); };
    return {};
}

} // namespace ua
