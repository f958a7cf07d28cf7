// The View Service Set (OPC 10000-4 5.8): Browse, BrowseNext, TranslateBrowsePathsToNodeIds,
// RegisterNodes and UnregisterNodes, served from the ServiceContext's address space.
//
// The caller fills the ResponseHeader; a handler sets responseHeader.serviceResult only when the
// request as a whole fails (results then empty). diagnosticInfos are not returned.
//
// Browse (5.8.2). Request level: Bad_ViewIdUnknown for any non-null view (Views are not
// supported), Bad_NothingToDo, Bad_TooManyOperations (over maxNodesPerBrowse). Per node:
// Bad_NodeIdUnknown, Bad_BrowseDirectionInvalid, Bad_ReferenceTypeIdInvalid (a non-null
// referenceTypeId that is not a ReferenceType), Bad_NoContinuationPoints. References are returned
// in the order the node stores them (forward references as the NodeSet lists them, then inverse);
// nodeClassMask 0 means every NodeClass; resultMask selects the fields filled besides nodeId.
// A result holds at most requestedMaxReferencesPerNode (0: no client limit) and
// OperationLimits::maxReferencesPerNode references; the rest waits in a ContinuationPoint of the
// Session (7.9). When the Session holds maxBrowseContinuationPoints already, the oldest one from an
// earlier request is freed (7.9: "automatically free ContinuationPoints from prior requests");
// when all belong to this request, or there is no Session, the operation fails with
// Bad_NoContinuationPoints and returns no references.
//
// BrowseNext (5.8.3): Bad_NothingToDo, Bad_TooManyOperations (over maxNodesPerBrowse); per
// ContinuationPoint Bad_ContinuationPointInvalid when unknown, released or used up. Continuing
// returns the next references and a new ContinuationPoint while some remain. Releasing
// (releaseContinuationPoints) frees them and returns empty results, as 5.8.3.2 says.
//
// TranslateBrowsePathsToNodeIds (5.8.4): Bad_NothingToDo, Bad_TooManyOperations (over
// maxNodesPerTranslateBrowsePathsToNodeIds). Per path: Bad_NodeIdUnknown (startingNode),
// Bad_NothingToDo (empty relativePath), Bad_BrowseNameInvalid (an element other than the last
// without targetName), Bad_NoMatch. Every target is complete (remainingPathIndex = UInt32 max):
// the address space has no references to other servers. An empty targetName in the last element
// matches every target (7.31).
//
// RegisterNodes / UnregisterNodes (5.8.5, 5.8.6): Bad_NothingToDo, Bad_TooManyOperations (over
// maxNodesPerRegisterNodes). The registered ids are the ids given (no aliases: every lookup is
// already O(1)); the Session remembers those that exist.
#pragma once

#include "ua/server/common/ServiceContext.h"

namespace ua {

void handleBrowse(ServiceContext& ctx, const BrowseRequest& request, BrowseResponse& response);
void handleBrowseNext(ServiceContext& ctx, const BrowseNextRequest& request, BrowseNextResponse& response);
void handleTranslateBrowsePathsToNodeIds(ServiceContext& ctx, const TranslateBrowsePathsToNodeIdsRequest& request,
                                         TranslateBrowsePathsToNodeIdsResponse& response);
void handleRegisterNodes(ServiceContext& ctx, const RegisterNodesRequest& request, RegisterNodesResponse& response);
void handleUnregisterNodes(ServiceContext& ctx, const UnregisterNodesRequest& request,
                           UnregisterNodesResponse& response);

} // namespace ua
