#include "ua/server/addressspace/NodeManager.h"

#include "ua/encoding/generated/StatusCodes.h"

namespace ua {

StatusCode NodeManager::install(AddressSpace& space) {
    m_ns = space.addNamespace(m_uri);
    return populate(space);
}

StatusCode NodeManager::addObject(AddressSpace& space, const NodeId& id, std::string_view name,
                                  const NodeId& parent, const NodeId& referenceType,
                                  const NodeId& typeDefinition) {
    Node n;
    n.nodeId = id;
    n.nodeClass = NodeClass::Object;
    n.browseName = {m_ns, String(name)};
    n.displayName.text = String(name);
    StatusCode s = space.addNode(std::move(n));
    if (s.isGood() && !parent.isNull()) s = space.addReference(parent, referenceType, id);
    if (s.isGood()) s = space.addReference(id, NodeId(id::HasTypeDefinition), typeDefinition);
    return s;
}

StatusCode NodeManager::addVariable(AddressSpace& space, const NodeId& id, std::string_view name,
                                    const NodeId& parent, const NodeId& dataType, Variant initial,
                                    VariableOptions o) {
    Node n;
    n.nodeId = id;
    n.nodeClass = NodeClass::Variable;
    n.browseName = {m_ns, String(name)};
    n.displayName.text = String(name);
    n.description = std::move(o.description);
    n.dataType = dataType;
    n.valueRank = o.valueRank;
    n.arrayDimensions = std::move(o.arrayDimensions);
    n.accessLevel = n.userAccessLevel = o.accessLevel;
    n.minimumSamplingInterval = o.minimumSamplingInterval;
    DataValue dv(std::move(initial));
    dv.setStatus(status::Good);
    dv.setSourceTimestamp(DateTime::now());
    n.value = std::make_shared<ValueCell>(std::move(dv));
    StatusCode s = space.addNode(std::move(n));
    if (s.isGood() && !parent.isNull()) s = space.addReference(parent, o.referenceType, id);
    if (s.isGood()) s = space.addReference(id, NodeId(id::HasTypeDefinition), o.typeDefinition);
    return s;
}

StatusCode NodeManager::setValueSource(AddressSpace& space, const NodeId& id, ValueSource source) {
    Node* n = space.findMutable(id);
    if (!n) return status::BadNodeIdUnknown;
    if (n->nodeClass != NodeClass::Variable) return status::BadNodeClassInvalid;
    n->source = std::move(source);
    return status::Good;
}

} // namespace ua
