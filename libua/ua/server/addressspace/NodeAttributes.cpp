#include "ua/server/addressspace/NodeAttributes.h"

#include "ua/encoding/generated/StatusCodes.h"

namespace ua {

namespace {

constexpr uint32_t bit(AttributeWriteMask m) { return uint32_t(m); }

bool isVariableLike(NodeClass c) { return c == NodeClass::Variable || c == NodeClass::VariableType; }
bool isType(NodeClass c) {
    return c == NodeClass::ObjectType || c == NodeClass::VariableType || c == NodeClass::ReferenceType ||
           c == NodeClass::DataType;
}
bool hasInverseName(const Node& n) { return !n.rare->inverseName->text.isNull() || !n.rare->inverseName->locale.isNull(); }

template <class T>
StatusCode take(const Variant& v, T& out) {
    const T* p = v.get<T>();
    if (!p || !v.arrayDimensions().isNull()) return status::BadTypeMismatch;
    out = *p;
    return status::Good;
}
// A Boolean attribute kept in a bit-field of the Node (set(b) stores it).
template <class Set>
StatusCode takeFlag(const Variant& v, Set set) {
    bool b = false;
    const StatusCode s = take(v, b);
    if (s.isGood()) set(b);
    return s;
}
// The type a field holds: T, or the T of an OutOfLine<T>.
template <class F>
struct Held { using type = F; };
template <class T>
struct Held<OutOfLine<T>> { using type = T; };

// A field of a shared block (Node::attrs, Node::rare): the node gets a block of its own only
// when the value is taken.
template <class Block, class Field>
StatusCode take(const Variant& v, OutOfLine<Block>& block, Field Block::*field) {
    const auto* p = v.get<typename Held<Field>::type>();
    if (!p || !v.arrayDimensions().isNull()) return status::BadTypeMismatch;
    block.edit().*field = *p;
    return status::Good;
}

} // namespace

bool hasAttributeOutOfLine(const Node& n, AttributeId a) {
    const NodeClass c = n.nodeClass;
    switch (a) {
    case AttributeId::NodeId: case AttributeId::NodeClass: case AttributeId::BrowseName:
    case AttributeId::DisplayName: case AttributeId::Description: case AttributeId::WriteMask:
    case AttributeId::UserWriteMask:
        return true;
    case AttributeId::IsAbstract: return isType(c);
    case AttributeId::Symmetric: return c == NodeClass::ReferenceType;
    case AttributeId::InverseName: return c == NodeClass::ReferenceType && hasInverseName(n);
    case AttributeId::ContainsNoLoops: return c == NodeClass::View;
    case AttributeId::EventNotifier: return c == NodeClass::Object || c == NodeClass::View;
    case AttributeId::Value: case AttributeId::DataType: case AttributeId::ValueRank:
    case AttributeId::ArrayDimensions:
        return isVariableLike(c);
    case AttributeId::AccessLevel: case AttributeId::UserAccessLevel:
    case AttributeId::MinimumSamplingInterval: case AttributeId::Historizing: case AttributeId::AccessLevelEx:
        return c == NodeClass::Variable;
    case AttributeId::Executable: case AttributeId::UserExecutable: return c == NodeClass::Method;
    case AttributeId::DataTypeDefinition: return c == NodeClass::DataType && !n.rare->dataTypeDefinition->isNull();
    case AttributeId::RolePermissions: case AttributeId::UserRolePermissions: return !n.rare->rolePermissions->isNull();
    case AttributeId::AccessRestrictions: return n.attrs->accessRestrictions.has_value();
    }
    return false;
}

uint32_t writeMaskBit(NodeClass c, AttributeId a) {
    using M = AttributeWriteMask;
    switch (a) {
    case AttributeId::AccessLevel: return bit(M::AccessLevel);
    case AttributeId::ArrayDimensions: return bit(M::ArrayDimensions);
    case AttributeId::BrowseName: return bit(M::BrowseName);
    case AttributeId::ContainsNoLoops: return bit(M::ContainsNoLoops);
    case AttributeId::DataType: return bit(M::DataType);
    case AttributeId::Description: return bit(M::Description);
    case AttributeId::DisplayName: return bit(M::DisplayName);
    case AttributeId::EventNotifier: return bit(M::EventNotifier);
    case AttributeId::Executable: return bit(M::Executable);
    case AttributeId::Historizing: return bit(M::Historizing);
    case AttributeId::InverseName: return bit(M::InverseName);
    case AttributeId::IsAbstract: return bit(M::IsAbstract);
    case AttributeId::MinimumSamplingInterval: return bit(M::MinimumSamplingInterval);
    case AttributeId::Symmetric: return bit(M::Symmetric);
    case AttributeId::UserAccessLevel: return bit(M::UserAccessLevel);
    case AttributeId::UserExecutable: return bit(M::UserExecutable);
    case AttributeId::UserWriteMask: return bit(M::UserWriteMask);
    case AttributeId::ValueRank: return bit(M::ValueRank);
    case AttributeId::WriteMask: return bit(M::WriteMask);
    case AttributeId::Value: return c == NodeClass::VariableType ? bit(M::ValueForVariableType) : 0;
    case AttributeId::DataTypeDefinition: return bit(M::DataTypeDefinition);
    case AttributeId::RolePermissions: return bit(M::RolePermissions);
    case AttributeId::AccessRestrictions: return bit(M::AccessRestrictions);
    case AttributeId::AccessLevelEx: return bit(M::AccessLevelEx);
    case AttributeId::NodeId: case AttributeId::NodeClass: case AttributeId::UserRolePermissions:
        return 0;
    }
    return 0;
}

StatusCode readAttribute(const Node& n, AttributeId a, Variant& out) {
    if (!hasAttribute(n, a)) return status::BadAttributeIdInvalid;
    switch (a) {
    case AttributeId::NodeId: out = n.nodeId; break;
    case AttributeId::NodeClass: out = int32_t(n.nodeClass); break;
    case AttributeId::BrowseName: out = n.browseName; break;
    case AttributeId::DisplayName: out = n.displayName(); break;
    case AttributeId::Description: out = n.rare->description; break;
    case AttributeId::WriteMask: out = n.attrs->writeMask; break;
    case AttributeId::UserWriteMask: out = n.attrs->userWriteMask; break;
    case AttributeId::IsAbstract: out = n.isAbstract; break;
    case AttributeId::Symmetric: out = n.symmetric; break;
    case AttributeId::InverseName: out = n.rare->inverseName; break;
    case AttributeId::ContainsNoLoops: out = n.containsNoLoops; break;
    case AttributeId::EventNotifier: out = n.eventNotifier; break;
    case AttributeId::DataType: out = n.attrs->dataType; break;
    case AttributeId::ValueRank: out = n.attrs->valueRank; break;
    case AttributeId::ArrayDimensions:
        if (n.attrs->arrayDimensions.isNull()) out = Variant();
        else out = n.attrs->arrayDimensions;
        break;
    case AttributeId::AccessLevel: out = n.attrs->accessLevel; break;
    case AttributeId::UserAccessLevel: out = n.attrs->userAccessLevel; break;
    case AttributeId::MinimumSamplingInterval: out = n.attrs->minimumSamplingInterval; break;
    case AttributeId::Historizing: out = n.attrs->historizing; break;
    case AttributeId::Executable: out = n.executable; break;
    case AttributeId::UserExecutable: out = n.userExecutable; break;
    case AttributeId::DataTypeDefinition: out = n.rare->dataTypeDefinition; break;
    case AttributeId::RolePermissions: case AttributeId::UserRolePermissions: out = n.rare->rolePermissions; break;
    case AttributeId::AccessRestrictions: out = *n.attrs->accessRestrictions; break;
    case AttributeId::AccessLevelEx: out = n.attrs->accessLevelEx.value_or(n.attrs->accessLevel); break;
    case AttributeId::Value: {
        DataValue v;
        out = n.value && n.value->copyTo(v) ? std::move(v.value) : Variant();
        break;
    }
    }
    return status::Good;
}

StatusCode setAttribute(Node& n, AttributeId a, const Variant& v) {
    switch (a) {
    case AttributeId::NodeId: case AttributeId::NodeClass: case AttributeId::UserRolePermissions:
        return status::BadNotWritable;
    case AttributeId::InverseName:
        if (n.nodeClass != NodeClass::ReferenceType) return status::BadAttributeIdInvalid;
        return take(v, n.rare, &RareFields::inverseName);
    case AttributeId::DataTypeDefinition: {
        if (n.nodeClass != NodeClass::DataType) return status::BadAttributeIdInvalid;
        const ExtensionObject* x = v.get<ExtensionObject>();
        if (!x || (!x->get<StructureDefinition>() && !x->get<EnumDefinition>())) return status::BadTypeMismatch;
        n.rare.edit().dataTypeDefinition = v;
        return status::Good;
    }
    case AttributeId::RolePermissions: {
        const auto* list = v.get<Array<ExtensionObject>>();
        if (!list) return status::BadTypeMismatch;
        for (const ExtensionObject& x : *list)
            if (!x.get<RolePermissionType>()) return status::BadTypeMismatch;
        n.rare.edit().rolePermissions = v;
        return status::Good;
    }
    case AttributeId::AccessRestrictions: {
        uint16_t r = 0;
        const StatusCode s = take(v, r);
        if (s.isGood()) n.attrs.edit().accessRestrictions = r;
        return s;
    }
    default:
        break;
    }
    if (!hasAttribute(n, a)) return status::BadAttributeIdInvalid;
    switch (a) {
    case AttributeId::BrowseName: {  // the DisplayName stays as it was
        QualifiedName name;
        const StatusCode s = take(v, name);
        if (s.isGood()) n.renameBrowseName(std::move(name));
        return s;
    }
    case AttributeId::DisplayName: {
        LocalizedText text;
        const StatusCode s = take(v, text);
        if (s.isGood()) n.setDisplayName(std::move(text));
        return s;
    }
    case AttributeId::Description: return take(v, n.rare, &RareFields::description);
    case AttributeId::WriteMask: return take(v, n.attrs, &SharedAttributes::writeMask);
    case AttributeId::UserWriteMask: return take(v, n.attrs, &SharedAttributes::userWriteMask);
    case AttributeId::IsAbstract: return takeFlag(v, [&n](bool b) { n.isAbstract = b; });
    case AttributeId::Symmetric: return takeFlag(v, [&n](bool b) { n.symmetric = b; });
    case AttributeId::ContainsNoLoops: return takeFlag(v, [&n](bool b) { n.containsNoLoops = b; });
    case AttributeId::EventNotifier: return take(v, n.eventNotifier);
    case AttributeId::DataType: return take(v, n.attrs, &SharedAttributes::dataType);
    case AttributeId::ValueRank: return take(v, n.attrs, &SharedAttributes::valueRank);
    case AttributeId::ArrayDimensions:
        if (v.isNull()) { n.attrs.edit().arrayDimensions.setNull(); return status::Good; }
        return take(v, n.attrs, &SharedAttributes::arrayDimensions);
    case AttributeId::AccessLevel: return take(v, n.attrs, &SharedAttributes::accessLevel);
    case AttributeId::UserAccessLevel: return take(v, n.attrs, &SharedAttributes::userAccessLevel);
    case AttributeId::MinimumSamplingInterval: return take(v, n.attrs, &SharedAttributes::minimumSamplingInterval);
    case AttributeId::Historizing: return take(v, n.attrs, &SharedAttributes::historizing);
    case AttributeId::Executable: return takeFlag(v, [&n](bool b) { n.executable = b; });
    case AttributeId::UserExecutable: return takeFlag(v, [&n](bool b) { n.userExecutable = b; });
    case AttributeId::AccessLevelEx: {
        uint32_t x = 0;
        const StatusCode s = take(v, x);
        if (s.isGood()) n.attrs.edit().accessLevelEx = x;
        return s;
    }
    case AttributeId::Value:
        if (!n.value) n.value = ValueCell::make();
        n.value->store(DataValue(v));
        return status::Good;
    default:
        return status::BadAttributeIdInvalid;
    }
}

} // namespace ua
