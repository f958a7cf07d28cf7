#include "ua/server/common/StructureBodyCheck.h"

#include "ua/encoding/StructureCodec.h"
#include "ua/encoding/generated/NodeIds.h"

namespace ua {

namespace {

// The address space as the structure codec's type system: enumerations (subtypes of Enumeration)
// as Int32, concrete structures with a StructureDefinition inline, anything else by its built-in
// type (abstract structures as ExtensionObject, BaseDataType and the like as Variant).
class AddressSpaceTypes final : public DataTypeResolver {
public:
    explicit AddressSpaceTypes(const AddressSpace& s) : m_s(s), m_enumeration(s.indexOf(NodeId(id::Enumeration))) {}

    std::optional<ResolvedDataType> resolve(const NodeId& dataType) const override {
        const NodeIndex type = m_s.indexOf(dataType);
        if (type == kNoNode) return std::nullopt;
        const Node& node = m_s.node(type);
        ResolvedDataType r;
        r.name = node.browseName.name.toQString();
        const ExtensionObject* definition = node.rare->dataTypeDefinition->get<ExtensionObject>();
        if (definition) r.enumeration = definition->get<EnumDefinition>();
        if (m_s.isSubtypeOf(type, m_enumeration)) {
            r.kind = ResolvedDataType::Kind::Enumeration;
            return r;
        }
        r.builtIn = m_s.builtInTypeOf(type);
        r.structure = definition ? definition->get<StructureDefinition>() : nullptr;
        if (r.builtIn == BuiltInType::ExtensionObject && !node.isAbstract && r.structure) r.kind = ResolvedDataType::Kind::Structure;
        return r;
    }

private:
    const AddressSpace& m_s;
    NodeIndex m_enumeration;
};

} // namespace

bool structureBodyDecodes(const AddressSpace& space, NodeIndex dataType, const ByteString& body) {
    const ExtensionObject* definition = space.node(dataType).rare->dataTypeDefinition->get<ExtensionObject>();
    if (!definition || !definition->get<StructureDefinition>()) return true;
    const AddressSpaceTypes types(space);
    StructureCodec codec(types);
    return codec.decodeBody(body, space.node(dataType).nodeId).has_value();
}

} // namespace ua
