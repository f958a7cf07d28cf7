// The NodeManagement service set (OPC 10000-4 5.8 of 1.05: AddNodes 5.8.2, AddReferences 5.8.3,
// DeleteNodes 5.8.4, DeleteReferences 5.8.5). Each request's operations are applied to one copy of
// the address space, published once when the request is done (ServiceContext::sharedAddressSpace;
// without one every operation is Bad_NotSupported). Later operations of a request see the earlier
// ones (a node added first can be the parent of the next).
//
// Service results: Bad_NothingToDo (no operation), Bad_TooManyOperations (more than
// OperationLimits::maxNodesPerNodeManagement).
//
// AddNodes, per item: Bad_ParentNodeIdInvalid (no such local parent), Bad_ReferenceTypeIdInvalid
// (not a concrete ReferenceType), Bad_ReferenceNotAllowed (not hierarchical; HasSubtype between
// anything but a type and its supertype of the same NodeClass), Bad_NodeIdRejected (another
// server, namespace 0, or a namespace the server does not have), Bad_NodeIdExists,
// Bad_NodeClassInvalid, Bad_BrowseNameInvalid (null name), Bad_BrowseNameDuplicated (the parent
// has a child of that BrowseName by that ReferenceType), Bad_NodeAttributesInvalid (not the
// NodeClass's Attributes structure, an unknown DataType, a Value that is not of it),
// Bad_TypeDefinitionInvalid (an Object or Variable without a concrete ObjectType / VariableType,
// or a TypeDefinition given for another NodeClass), Bad_UserAccessDenied (no AddNode permission
// on the parent). A null requestedNewNodeId gets a numeric NodeId in namespace 1. An Object or
// Variable gets the Mandatory InstanceDeclarations of its type and supertypes (OPC 10000-3 6.4.4),
// recursively, with NodeIds "<new NodeId text>/<BrowseName>" in its namespace.
//
// AddReferences: Bad_SourceNodeIdInvalid, Bad_ReferenceTypeIdInvalid, Bad_ServerUriInvalid and
// Bad_ReferenceLocalOnly (a target on another server), Bad_TargetNodeIdInvalid,
// Bad_NodeClassInvalid (targetNodeClass is not the target's), Bad_ReferenceNotAllowed
// (HasSubtype between different NodeClasses or non-types, HasTypeDefinition to a non-type),
// Bad_DuplicateReferenceNotAllowed, Bad_InvalidSelfReference (a hierarchical reference from a
// node to itself), Bad_UserAccessDenied (no AddReference permission on the source).
//
// DeleteNodes: Bad_NodeIdInvalid (null), Bad_NodeIdUnknown, Bad_NoDeleteRights (namespace 0 and
// nodes of a Session), Bad_UserAccessDenied (no DeleteNode permission). A deleted node's
// references are deleted on both of their nodes whatever deleteTargetReferences says (the store
// keeps every reference on both of its nodes).
//
// DeleteReferences: Bad_SourceNodeIdInvalid, Bad_ReferenceTypeIdInvalid, Bad_ServerIndexInvalid,
// Bad_TargetNodeIdInvalid, Bad_NotFound (no such reference), Bad_NoDeleteRights (a reference of a
// namespace 0 node to another one), Bad_UserAccessDenied (no RemoveReference permission on the
// source). The opposite direction is always deleted with it, for the same reason.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/common/ServiceContext.h"

namespace ua {

void handleAddNodes(ServiceContext& ctx, const AddNodesRequest& req, AddNodesResponse& resp);
void handleAddReferences(ServiceContext& ctx, const AddReferencesRequest& req, AddReferencesResponse& resp);
void handleDeleteNodes(ServiceContext& ctx, const DeleteNodesRequest& req, DeleteNodesResponse& resp);
void handleDeleteReferences(ServiceContext& ctx, const DeleteReferencesRequest& req, DeleteReferencesResponse& resp);

} // namespace ua
