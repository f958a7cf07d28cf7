// Which Attributes each NodeClass has (OPC 10000-3 5.2 - 5.9), and reading and setting the
// non-Value Attributes of a Node as Variants (the types of OPC 10000-3 5 and 8).
//
// Present attributes: the mandatory ones of the NodeClass, plus Description, WriteMask and
// UserWriteMask on every node (null / 0 when not given), ArrayDimensions on Variables and
// VariableTypes (a null array when not given), MinimumSamplingInterval and AccessLevelEx on
// Variables, and InverseName, DataTypeDefinition, RolePermissions (with UserRolePermissions)
// and AccessRestrictions only when the node has a value for them.
#pragma once

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/Node.h"

namespace ua {

// True when the node has this attribute (the Value of a VariableType included). The Value, which
// nearly every Read asks for, is answered inline; hasAttributeOutOfLine() answers for every one.
bool hasAttributeOutOfLine(const Node& node, AttributeId attribute);
inline bool hasAttribute(const Node& node, AttributeId attribute) {
    if (attribute == AttributeId::Value)
        return node.nodeClass == NodeClass::Variable || node.nodeClass == NodeClass::VariableType;
    return hasAttributeOutOfLine(node, attribute);
}

// The AttributeWriteMask bit (OPC 10000-3 8.60) that lets a client write this attribute of this
// node; 0 when none does (NodeId, NodeClass, the Value of a Variable: its AccessLevel governs it,
// UserRolePermissions).
uint32_t writeMaskBit(NodeClass nodeClass, AttributeId attribute);

// Reads an attribute other than Value into out. Bad_AttributeIdInvalid when absent or unknown.
// UserWriteMask, UserAccessLevel, UserExecutable and UserRolePermissions return the stored values
// (no per-user restrictions yet).
StatusCode readAttribute(const Node& node, AttributeId attribute, Variant& out);

// Sets an attribute from a Variant of its type: Bad_AttributeIdInvalid when the NodeClass lacks
// it, Bad_TypeMismatch when the Variant has the wrong type or rank, Bad_NotWritable for NodeId,
// NodeClass and UserRolePermissions. Setting Value stores it as the node's current value (no
// DataType check: the Write service checks before). Used to load nodes and by the Write service
// after its access checks.
StatusCode setAttribute(Node& node, AttributeId attribute, const Variant& value);

} // namespace ua
