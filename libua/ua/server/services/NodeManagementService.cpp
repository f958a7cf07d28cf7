#include "ua/server/services/NodeManagementService.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/server/common/ValueCheck.h"
#include "ua/server/users/Roles.h"

#include <atomic>

namespace ua {

namespace {

// NodeAttributesMask bits (OPC 10000-4 7.24.1 Table 156) the handlers look at.
namespace attrMask {
inline constexpr uint32_t AccessLevel = 1, ArrayDimensions = 2, ContainsNoLoops = 8, DataType = 16, Description = 32,
                          DisplayName = 64, EventNotifier = 128, Executable = 256, Historizing = 512, InverseName = 1024,
                          IsAbstract = 2048, MinimumSamplingInterval = 4096, Symmetric = 32768, UserAccessLevel = 65536,
                          UserExecutable = 131072, UserWriteMask = 262144, ValueRank = 524288, WriteMask = 1048576,
                          Value = 2097152;
}

// A mask of 0 (some clients send none) takes every field as given.
bool attributeGiven(uint32_t specified, uint32_t bit) { return specified == 0 || (specified & bit) != 0; }

template <class Items>
bool checkOperationCount(const ServiceContext& ctx, const Items& items, ResponseHeader& h) {
    if (items.empty()) { h.serviceResult = status::BadNothingToDo; return false; }
    if (ctx.limits.maxNodesPerNodeManagement && items.size() > ctx.limits.maxNodesPerNodeManagement) {
        h.serviceResult = status::BadTooManyOperations;
        return false;
    }
    return true;
}

uint32_t nodeManagementPermissions(const ServiceContext& ctx, const Node& node) { return userPermissions(node, ctx.roles, ctx.permissions); }

bool isConcreteReferenceType(const AddressSpace& s, NodeIndex t) {
    return t != kNoNode && s.node(t).nodeClass == NodeClass::ReferenceType && !s.node(t).isAbstract;
}

bool isTypeClass(NodeClass c) {
    return c == NodeClass::ObjectType || c == NodeClass::VariableType || c == NodeClass::ReferenceType || c == NodeClass::DataType;
}

// A local NodeId from an ExpandedNodeId: its namespace URI resolved, nothing for another server.
std::optional<NodeId> localNodeId(const AddressSpace& s, const ExpandedNodeId& x) {
    if (x.serverIndex != 0) return std::nullopt;
    NodeId id = x.nodeId;
    if (!x.namespaceUri.isNull()) {
        const int ns = s.namespaceIndex(x.namespaceUri.view());
        if (ns < 0) return std::nullopt;
        id.setNamespaceIndex(uint16_t(ns));
    }
    return id;
}

// The numeric ids the server hands out for AddNodes without a requested NodeId, in namespace 1.
std::atomic<uint32_t> g_nextNumericId{1'000'000};

NodeId freshNodeId(const AddressSpace& s) {
    const uint16_t ns = s.namespaces().size() > 1 ? 1 : 0;
    for (;;) {
        const NodeId id(ns, g_nextNumericId.fetch_add(1, std::memory_order_relaxed));
        if (s.indexOf(id) == kNoNode) return id;
    }
}

template <class A>
void commonAttributes(Node& n, const A& a) {
    if (attributeGiven(a.specifiedAttributes, attrMask::DisplayName) && !a.displayName.text.isNull()) n.setDisplayName(a.displayName);
    if (attributeGiven(a.specifiedAttributes, attrMask::Description)) n.rare.edit().description = a.description;
    if (attributeGiven(a.specifiedAttributes, attrMask::WriteMask)) n.attrs.edit().writeMask = a.writeMask;
    n.attrs.edit().userWriteMask = attributeGiven(a.specifiedAttributes, attrMask::UserWriteMask) ? a.userWriteMask : n.attrs->writeMask;
}

// The NodeClass's Attributes structure (OPC 10000-4 7.24) into n; Bad_NodeAttributesInvalid for
// another structure, an unknown DataType or a Value that is not of it.
StatusCode applyAttributes(AddressSpace& s, Node& n, const ExtensionObject& x) {
    auto variableLike = [&](const auto& a, bool isType) -> StatusCode {
        commonAttributes(n, a);
        if (attributeGiven(a.specifiedAttributes, attrMask::DataType) && !a.dataType.isNull()) n.attrs.edit().dataType = a.dataType;
        const NodeIndex dt = s.indexOf(n.attrs->dataType);
        if (dt == kNoNode || s.node(dt).nodeClass != NodeClass::DataType) return status::BadNodeAttributesInvalid;
        if (attributeGiven(a.specifiedAttributes, attrMask::ValueRank)) n.attrs.edit().valueRank = a.valueRank;
        if (n.attrs->valueRank < -3) return status::BadNodeAttributesInvalid;
        if (attributeGiven(a.specifiedAttributes, attrMask::ArrayDimensions)) n.attrs.edit().arrayDimensions = a.arrayDimensions;
        if (attributeGiven(a.specifiedAttributes, attrMask::Value) && !a.value.isNull()) {
            Variant v = a.value;
            if (checkValueType(s, n.attrs->dataType, n.attrs->valueRank, v).isBad()) return status::BadNodeAttributesInvalid;
            DataValue dv(std::move(v));
            dv.setSourceTimestamp(DateTime::now());
            n.value = ValueCell::make(std::move(dv));
        }
        if constexpr (requires { a.accessLevel; }) {
            if (attributeGiven(a.specifiedAttributes, attrMask::AccessLevel)) n.attrs.edit().accessLevel = a.accessLevel;
            n.attrs.edit().userAccessLevel = attributeGiven(a.specifiedAttributes, attrMask::UserAccessLevel) ? a.userAccessLevel : n.attrs->accessLevel;
            if (attributeGiven(a.specifiedAttributes, attrMask::MinimumSamplingInterval)) {
                if (!(a.minimumSamplingInterval >= -1)) return status::BadNodeAttributesInvalid;  // NaN included
                n.attrs.edit().minimumSamplingInterval = a.minimumSamplingInterval;
            }
            if (attributeGiven(a.specifiedAttributes, attrMask::Historizing)) n.attrs.edit().historizing = a.historizing;
        }
        if constexpr (requires { a.isAbstract; })
            if (isType && attributeGiven(a.specifiedAttributes, attrMask::IsAbstract)) n.isAbstract = a.isAbstract;
        return status::Good;
    };
    switch (n.nodeClass) {
    case NodeClass::Object:
        if (const auto* a = x.get<ObjectAttributes>()) {
            commonAttributes(n, *a);
            if (attributeGiven(a->specifiedAttributes, attrMask::EventNotifier)) n.eventNotifier = a->eventNotifier;
            return status::Good;
        }
        break;
    case NodeClass::Variable:
        if (const auto* a = x.get<VariableAttributes>()) return variableLike(*a, false);
        break;
    case NodeClass::VariableType:
        if (const auto* a = x.get<VariableTypeAttributes>()) return variableLike(*a, true);
        break;
    case NodeClass::Method:
        if (const auto* a = x.get<MethodAttributes>()) {
            commonAttributes(n, *a);
            if (attributeGiven(a->specifiedAttributes, attrMask::Executable)) n.executable = a->executable;
            n.userExecutable = attributeGiven(a->specifiedAttributes, attrMask::UserExecutable) ? a->userExecutable : n.executable;
            return status::Good;
        }
        break;
    case NodeClass::ObjectType:
        if (const auto* a = x.get<ObjectTypeAttributes>()) {
            commonAttributes(n, *a);
            if (attributeGiven(a->specifiedAttributes, attrMask::IsAbstract)) n.isAbstract = a->isAbstract;
            return status::Good;
        }
        break;
    case NodeClass::ReferenceType:
        if (const auto* a = x.get<ReferenceTypeAttributes>()) {
            commonAttributes(n, *a);
            if (attributeGiven(a->specifiedAttributes, attrMask::IsAbstract)) n.isAbstract = a->isAbstract;
            if (attributeGiven(a->specifiedAttributes, attrMask::Symmetric)) n.symmetric = a->symmetric;
            if (attributeGiven(a->specifiedAttributes, attrMask::InverseName) && !n.symmetric) n.rare.edit().inverseName = a->inverseName;
            return status::Good;
        }
        break;
    case NodeClass::DataType:
        if (const auto* a = x.get<DataTypeAttributes>()) {
            commonAttributes(n, *a);
            if (attributeGiven(a->specifiedAttributes, attrMask::IsAbstract)) n.isAbstract = a->isAbstract;
            return status::Good;
        }
        break;
    case NodeClass::View:
        if (const auto* a = x.get<ViewAttributes>()) {
            commonAttributes(n, *a);
            if (attributeGiven(a->specifiedAttributes, attrMask::ContainsNoLoops)) n.containsNoLoops = a->containsNoLoops;
            if (attributeGiven(a->specifiedAttributes, attrMask::EventNotifier)) n.eventNotifier = a->eventNotifier;
            return status::Good;
        }
        break;
    default:
        break;
    }
    return status::BadNodeAttributesInvalid;
}

// Copies the Mandatory InstanceDeclarations (OPC 10000-3 6.4.4) of type and its supertypes under
// instance, recursively; each copy keeps the declaration's attributes, Value and TypeDefinition.
void instantiate(AddressSpace& s, NodeIndex instance, NodeIndex type, int depth) {
    if (depth > 8) return;
    const NodeIndex hasModellingRule = s.indexOf(NodeId(id::HasModellingRule));
    const NodeIndex mandatory = s.indexOf(NodeId(id::ModellingRule_Mandatory));
    const NodeIndex hierarchical = s.indexOf(NodeId(id::HierarchicalReferences));
    const NodeIndex hasSubtype = s.indexOf(NodeId(id::HasSubtype));
    const NodeIndex hasTypeDefinition = s.indexOf(NodeId(id::HasTypeDefinition));
    std::vector<QualifiedName> done;  // a subtype's declaration overrides its supertype's
    for (NodeIndex t = type; t != kNoNode && depth <= 8; t = s.node(t).superType) {
        const ReferenceList::Range forward = s.node(t).references.forward();
        const std::vector<Reference> declarations(forward.begin(), forward.end());  // s changes below
        for (const Reference& r : declarations) {
            if (r.referenceType == hasSubtype || !s.isSubtypeOf(r.referenceType, hierarchical)) continue;
            const Node& decl = s.node(r.target);
            if (decl.nodeClass != NodeClass::Object && decl.nodeClass != NodeClass::Variable && decl.nodeClass != NodeClass::Method) continue;
            bool isMandatory = false;
            for (const Reference& m : decl.references.forward())
                if (m.referenceType == hasModellingRule && m.target == mandatory) isMandatory = true;
            if (!isMandatory || std::find(done.begin(), done.end(), decl.browseName) != done.end()) continue;
            done.push_back(decl.browseName);
            Node copy;
            copy.nodeClass = decl.nodeClass;
            copy.browseName = decl.browseName;
            copy.setDisplayName(decl.displayName());
            if (decl.rare->description.isSet()) copy.rare.edit().description = decl.rare->description;
            copy.attrs = decl.attrs;  // shared: WriteMask, DataType, ValueRank, AccessLevel(Ex), ...
            // but not what the declaration's own node has: no history is kept of the instance, and
            // its AccessRestrictions are the server's to set.
            if (decl.attrs->historizing || decl.attrs->accessRestrictions) {
                copy.attrs.edit().historizing = false;
                copy.attrs.edit().accessRestrictions.reset();
            }
            copy.eventNotifier = decl.eventNotifier;
            copy.executable = decl.executable;
            copy.userExecutable = decl.userExecutable;
            if (decl.rare->method) copy.rare.edit().method = decl.rare->method;
            if (decl.value)
                if (auto dv = decl.value->load()) copy.value = ValueCell::make(*dv);
            const NodeId& parentId = s.node(instance).nodeId;
            copy.nodeId = NodeId(parentId.namespaceIndex(),
                                 String(parentId.toString() + "/" + decl.browseName.name.str()));
            const NodeIndex declTypeDef = s.typeDefinition(r.target);
            const NodeIndex referenceType = r.referenceType;
            NodeIndex added = kNoNode;
            if (s.addNode(std::move(copy), &added).isBad()) continue;
            s.addReferenceUnchecked(instance, referenceType, added);
            if (declTypeDef != kNoNode) {
                s.addReferenceUnchecked(added, hasTypeDefinition, declTypeDef);
                instantiate(s, added, declTypeDef, depth + 1);
            }
        }
    }
}

StatusCode addOneNode(const ServiceContext& ctx, AddressSpace& s, const AddNodesItem& item, NodeId* added) {
    const auto parentId = localNodeId(s, item.parentNodeId);
    const NodeIndex parent = parentId ? s.indexOf(*parentId) : kNoNode;
    if (parent == kNoNode) return status::BadParentNodeIdInvalid;
    const NodeIndex refType = s.indexOf(item.referenceTypeId);
    if (!isConcreteReferenceType(s, refType)) return status::BadReferenceTypeIdInvalid;
    if (!s.isSubtypeOf(refType, s.indexOf(NodeId(id::HierarchicalReferences)))) return status::BadReferenceNotAllowed;
    switch (item.nodeClass) {
    case NodeClass::Object: case NodeClass::Variable: case NodeClass::Method: case NodeClass::ObjectType:
    case NodeClass::VariableType: case NodeClass::ReferenceType: case NodeClass::DataType: case NodeClass::View:
        break;
    default:
        return status::BadNodeClassInvalid;
    }
    // A type hangs below its supertype by HasSubtype; nothing else does.
    const bool subtype = refType == s.indexOf(NodeId(id::HasSubtype));
    if (subtype != isTypeClass(item.nodeClass) || (subtype && s.node(parent).nodeClass != item.nodeClass))
        return status::BadReferenceNotAllowed;
    if (!(nodeManagementPermissions(ctx, s.node(parent)) & uint32_t(PermissionType::AddNode))) return status::BadUserAccessDenied;

    NodeId id;
    if (item.requestedNewNodeId.nodeId.isNull() && item.requestedNewNodeId.namespaceUri.isNull()) {
        id = freshNodeId(s);
    } else {
        const auto requested = localNodeId(s, item.requestedNewNodeId);
        if (!requested || requested->isNull() || requested->namespaceIndex() == 0 ||
            requested->namespaceIndex() >= s.namespaces().size())
            return status::BadNodeIdRejected;
        if (s.indexOf(*requested) != kNoNode) return status::BadNodeIdExists;
        id = *requested;
    }
    if (item.browseName.name.isEmpty()) return status::BadBrowseNameInvalid;
    for (const Reference& r : s.node(parent).references.forward())
        if (r.referenceType == refType && s.node(r.target).browseName == item.browseName)
            return status::BadBrowseNameDuplicated;

    // The TypeDefinition: a concrete ObjectType for an Object, a VariableType for a Variable, none otherwise.
    NodeIndex typeDef = kNoNode;
    const bool instance = item.nodeClass == NodeClass::Object || item.nodeClass == NodeClass::Variable;
    const bool typeGiven = !item.typeDefinition.nodeId.isNull() || !item.typeDefinition.namespaceUri.isNull();
    if (instance) {
        const auto t = localNodeId(s, item.typeDefinition);
        typeDef = t ? s.indexOf(*t) : kNoNode;
        const NodeClass want = item.nodeClass == NodeClass::Object ? NodeClass::ObjectType : NodeClass::VariableType;
        if (typeDef == kNoNode || s.node(typeDef).nodeClass != want || s.node(typeDef).isAbstract) return status::BadTypeDefinitionInvalid;
    } else if (typeGiven) {
        return status::BadTypeDefinitionInvalid;
    }

    Node n;
    n.nodeId = id;
    n.nodeClass = item.nodeClass;
    n.browseName = item.browseName;
    n.setDisplayName(LocalizedText{{}, item.browseName.name});
    if (item.nodeClass == NodeClass::Variable || item.nodeClass == NodeClass::VariableType) {
        n.attrs.edit().dataType = NodeId(id::BaseDataType);
        n.attrs.edit().accessLevel = n.attrs.edit().userAccessLevel = access::CurrentRead;
    }
    if (item.nodeAttributes.isNull()) return status::BadNodeAttributesInvalid;
    if (const StatusCode a = applyAttributes(s, n, item.nodeAttributes); a.isBad()) return a;
    // A Variable without a Value gets none: it reads as null with Good (OPC 10000-3 5.6.2).
    NodeIndex at = kNoNode;
    if (const StatusCode a = s.addNode(std::move(n), &at); a.isBad()) return a;
    s.addReferenceUnchecked(parent, refType, at);
    if (typeDef != kNoNode) {
        s.addReferenceUnchecked(at, s.indexOf(NodeId(id::HasTypeDefinition)), typeDef);
        instantiate(s, at, typeDef, 0);
    }
    *added = id;
    return status::Good;
}

StatusCode addOneReference(const ServiceContext& ctx, AddressSpace& s, const AddReferencesItem& item) {
    const NodeIndex source = s.indexOf(item.sourceNodeId);
    if (source == kNoNode) return status::BadSourceNodeIdInvalid;
    const NodeIndex refType = s.indexOf(item.referenceTypeId);
    if (!isConcreteReferenceType(s, refType)) return status::BadReferenceTypeIdInvalid;
    if (!item.targetServerUri.isEmpty()) return status::BadServerUriInvalid;
    if (item.targetNodeId.serverIndex != 0) return status::BadReferenceLocalOnly;
    const auto targetId = localNodeId(s, item.targetNodeId);
    const NodeIndex target = targetId ? s.indexOf(*targetId) : kNoNode;
    if (target == kNoNode) return status::BadTargetNodeIdInvalid;
    if (item.targetNodeClass != NodeClass::Unspecified && s.node(target).nodeClass != item.targetNodeClass)
        return status::BadNodeClassInvalid;
    // The reference as stored: from its source to its target, whichever side the client named.
    const NodeIndex from = item.isForward ? source : target, to = item.isForward ? target : source;
    if (refType == s.indexOf(NodeId(id::HasSubtype)) &&
        (!isTypeClass(s.node(from).nodeClass) || s.node(from).nodeClass != s.node(to).nodeClass))
        return status::BadReferenceNotAllowed;
    if (refType == s.indexOf(NodeId(id::HasTypeDefinition)) &&
        s.node(to).nodeClass != NodeClass::ObjectType && s.node(to).nodeClass != NodeClass::VariableType)
        return status::BadReferenceNotAllowed;
    if (from == to && s.isSubtypeOf(refType, s.indexOf(NodeId(id::HierarchicalReferences)))) return status::BadInvalidSelfReference;
    if (!(nodeManagementPermissions(ctx, s.node(source)) & uint32_t(PermissionType::AddReference))) return status::BadUserAccessDenied;
    for (const Reference& r : s.node(from).references)
        if (r.isForward && r.referenceType == refType && r.target == to) return status::BadDuplicateReferenceNotAllowed;
    s.addReferenceUnchecked(from, refType, to);
    return status::Good;
}

StatusCode deleteOneNode(const ServiceContext& ctx, AddressSpace& s, const DeleteNodesItem& item) {
    if (item.nodeId.isNull()) return status::BadNodeIdInvalid;
    const NodeIndex at = s.indexOf(item.nodeId);
    if (at == kNoNode) return status::BadNodeIdUnknown;
    const Node& n = s.node(at);
    if (n.nodeId.namespaceIndex() == 0 || n.sessionScope != 0) return status::BadNoDeleteRights;
    if (!(nodeManagementPermissions(ctx, n) & uint32_t(PermissionType::DeleteNode))) return status::BadUserAccessDenied;
    return s.removeNode(item.nodeId);
}

StatusCode deleteOneReference(const ServiceContext& ctx, AddressSpace& s, const DeleteReferencesItem& item) {
    const NodeIndex source = s.indexOf(item.sourceNodeId);
    if (source == kNoNode) return status::BadSourceNodeIdInvalid;
    const NodeIndex refType = s.indexOf(item.referenceTypeId);
    if (refType == kNoNode || s.node(refType).nodeClass != NodeClass::ReferenceType) return status::BadReferenceTypeIdInvalid;
    if (item.targetNodeId.serverIndex != 0) return status::BadServerIndexInvalid;
    const auto targetId = localNodeId(s, item.targetNodeId);
    const NodeIndex target = targetId ? s.indexOf(*targetId) : kNoNode;
    if (target == kNoNode) return status::BadTargetNodeIdInvalid;
    if (s.node(source).nodeId.namespaceIndex() == 0 && s.node(target).nodeId.namespaceIndex() == 0) return status::BadNoDeleteRights;
    if (!(nodeManagementPermissions(ctx, s.node(source)) & uint32_t(PermissionType::RemoveReference))) return status::BadUserAccessDenied;
    const NodeIndex from = item.isForward ? source : target, to = item.isForward ? target : source;
    if (!s.node(from).references.contains(Reference{refType, to, true})) return status::BadNotFound;
    s.nodeMutable(from).references.eraseFirst(Reference{refType, to, true});
    Node& t = s.nodeMutable(to);
    t.references.eraseFirst(Reference{refType, from, false});
    if (refType == s.indexOf(NodeId(id::HasSubtype)) && t.superType == from) t.superType = kNoNode;
    return status::Good;
}

// Runs op on each item against one copy of the address space, published once.
template <class Items, class Op>
void applyToCopy(ServiceContext& ctx, const Items& items, Op op) {
    if (!ctx.sharedAddressSpace) {
        for (std::size_t i = 0; i < items.size(); ++i) op(nullptr, i);
        return;
    }
    ctx.sharedAddressSpace->update([&](AddressSpace& s) {
        for (std::size_t i = 0; i < items.size(); ++i) op(&s, i);
        return StatusCode(status::Good);
    });
}

} // namespace

void handleAddNodes(ServiceContext& ctx, const AddNodesRequest& req, AddNodesResponse& resp) {
    if (!checkOperationCount(ctx, req.nodesToAdd, resp.responseHeader)) return;
    resp.results = Array<AddNodesResult>(std::vector<AddNodesResult>(req.nodesToAdd.size()));
    applyToCopy(ctx, req.nodesToAdd, [&](AddressSpace* s, std::size_t i) {
        AddNodesResult& r = resp.results[i];
        r.statusCode = s ? addOneNode(ctx, *s, req.nodesToAdd[i], &r.addedNodeId) : StatusCode(status::BadNotSupported);
    });
}

void handleAddReferences(ServiceContext& ctx, const AddReferencesRequest& req, AddReferencesResponse& resp) {
    if (!checkOperationCount(ctx, req.referencesToAdd, resp.responseHeader)) return;
    resp.results = Array<StatusCode>(std::vector<StatusCode>(req.referencesToAdd.size()));
    applyToCopy(ctx, req.referencesToAdd, [&](AddressSpace* s, std::size_t i) {
        resp.results[i] = s ? addOneReference(ctx, *s, req.referencesToAdd[i]) : StatusCode(status::BadNotSupported);
    });
}

void handleDeleteNodes(ServiceContext& ctx, const DeleteNodesRequest& req, DeleteNodesResponse& resp) {
    if (!checkOperationCount(ctx, req.nodesToDelete, resp.responseHeader)) return;
    resp.results = Array<StatusCode>(std::vector<StatusCode>(req.nodesToDelete.size()));
    applyToCopy(ctx, req.nodesToDelete, [&](AddressSpace* s, std::size_t i) {
        resp.results[i] = s ? deleteOneNode(ctx, *s, req.nodesToDelete[i]) : StatusCode(status::BadNotSupported);
    });
}

void handleDeleteReferences(ServiceContext& ctx, const DeleteReferencesRequest& req, DeleteReferencesResponse& resp) {
    if (!checkOperationCount(ctx, req.referencesToDelete, resp.responseHeader)) return;
    resp.results = Array<StatusCode>(std::vector<StatusCode>(req.referencesToDelete.size()));
    applyToCopy(ctx, req.referencesToDelete, [&](AddressSpace* s, std::size_t i) {
        resp.results[i] = s ? deleteOneReference(ctx, *s, req.referencesToDelete[i]) : StatusCode(status::BadNotSupported);
    });
}

} // namespace ua
