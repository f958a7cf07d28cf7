#include "ua/server/addressspace/NodeManager.h"

#include "ua/encoding/generated/StatusCodes.h"

namespace ua {

namespace {
bool given(const LocalizedText& t) { return !t.text.isNull() || !t.locale.isNull(); }
} // namespace

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
    n.setDisplayName(LocalizedText{String(), String(name)});
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
    n.setDisplayName(LocalizedText{String(), String(name)});
    if (given(o.description)) n.rare.edit().description = std::move(o.description);
    SharedAttributes a;
    a.dataType = dataType;
    a.valueRank = o.valueRank;
    a.arrayDimensions = std::move(o.arrayDimensions);
    a.accessLevel = a.userAccessLevel = o.accessLevel;
    a.minimumSamplingInterval = o.minimumSamplingInterval;
    n.attrs = m_attributes.intern(a);
    DataValue dv(std::move(initial));
    dv.setStatus(status::Good);
    dv.setSourceTimestamp(DateTime::now());
    n.value = ValueCell::make(std::move(dv));
    StatusCode s = space.addNode(std::move(n));
    if (s.isGood() && !parent.isNull()) s = space.addReference(parent, o.referenceType, id);
    if (s.isGood()) s = space.addReference(id, NodeId(id::HasTypeDefinition), o.typeDefinition);
    return s;
}

StatusCode NodeManager::setValueSource(AddressSpace& space, const NodeId& id, ValueSource source) {
    Node* n = space.findMutable(id);
    if (!n) return status::BadNodeIdUnknown;
    if (n->nodeClass != NodeClass::Variable) return status::BadNodeClassInvalid;
    n->rare.edit().source = std::move(source);
    return status::Good;
}

StatusCode NodeManager::addMethod(AddressSpace& space, const NodeId& id, std::string_view name, const NodeId& parent,
                                  MethodDeclaration d) {
    if ((!d.inputs.empty() || !d.outputs.empty()) && id.idType() != NodeId::IdType::String) return status::BadNodeIdInvalid;
    Node n;
    n.nodeId = id;
    n.nodeClass = NodeClass::Method;
    n.browseName = {m_ns, String(name)};
    n.setDisplayName(LocalizedText{String(), String(name)});
    if (given(d.description)) n.rare.edit().description = std::move(d.description);
    n.executable = n.userExecutable = true;
    n.rare.edit().method = std::make_shared<const MethodHandler>(std::move(d.handler));
    StatusCode s = space.addNode(std::move(n));
    const NodeId reference = d.referenceType.isNull() ? NodeId(id::HasComponent) : d.referenceType;
    if (s.isGood() && !parent.isNull()) s = space.addReference(parent, reference, id);
    const auto addArguments = [&](const char* property, std::vector<ArgumentDeclaration>& list) {
        if (s.isBad() || list.empty()) return;
        Array<ExtensionObject> arguments = Array<ExtensionObject>::emptyArray();
        for (ArgumentDeclaration& a : list) {
            Argument arg;
            arg.name = String(a.name);
            arg.dataType = a.dataType;
            arg.valueRank = a.valueRank;
            arg.arrayDimensions = std::move(a.arrayDimensions);
            arg.description = std::move(a.description);
            arguments.push_back(ExtensionObject::make(std::move(arg)));
        }
        VariableOptions o;
        o.valueRank = 1;
        o.arrayDimensions = Array<uint32_t>{uint32_t(arguments.size())};
        o.accessLevel = access::CurrentRead;
        o.referenceType = NodeId(id::HasProperty);
        o.typeDefinition = NodeId(id::PropertyType);
        const NodeId pid(id.namespaceIndex(), String(id.string().str() + "." + property));
        s = addVariable(space, pid, property, id, NodeId(id::Argument), Variant(std::move(arguments)), std::move(o));
        if (s.isGood()) space.findMutable(pid)->browseName = QualifiedName{0, String(property)};
    };
    addArguments("InputArguments", d.inputs);
    addArguments("OutputArguments", d.outputs);
    return s;
}

StatusCode NodeManager::setMethodHandler(AddressSpace& space, const NodeId& id, MethodHandler handler) {
    Node* n = space.findMutable(id);
    if (!n) return status::BadNodeIdUnknown;
    if (n->nodeClass != NodeClass::Method) return status::BadNodeClassInvalid;
    n->rare.edit().method = std::make_shared<const MethodHandler>(std::move(handler));
    return status::Good;
}

} // namespace ua
