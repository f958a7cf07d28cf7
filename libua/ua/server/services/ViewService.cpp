#include "ua/server/services/ViewService.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/users/NodeVisibility.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <unordered_set>

namespace ua {

namespace {

constexpr uint32_t kMaskReferenceTypeId = uint32_t(BrowseResultMask::ReferenceTypeId);
constexpr uint32_t kMaskIsForward = uint32_t(BrowseResultMask::IsForward);
constexpr uint32_t kMaskNodeClass = uint32_t(BrowseResultMask::NodeClass);
constexpr uint32_t kMaskBrowseName = uint32_t(BrowseResultMask::BrowseName);
constexpr uint32_t kMaskDisplayName = uint32_t(BrowseResultMask::DisplayName);
constexpr uint32_t kMaskTypeDefinition = uint32_t(BrowseResultMask::TypeDefinition);

bool typeMatches(const AddressSpace& s, NodeIndex referenceType, NodeIndex wanted, bool subtypes) {
    return wanted == kNoNode || referenceType == wanted || (subtypes && s.isSubtypeOf(referenceType, wanted));
}

// The ReferenceType a request names: kNoNode for a null id (every type); false when the id is not
// a ReferenceType node.
bool lookupReferenceType(const AddressSpace& s, const NodeId& id, NodeIndex& out) {
    out = kNoNode;
    if (id.isNull()) return true;
    out = s.indexOf(id);
    return out != kNoNode && s.node(out).nodeClass == NodeClass::ReferenceType;
}

ReferenceDescription describe(const AddressSpace& s, const Reference& r, uint32_t mask) {
    const Node& target = s.node(r.target);
    ReferenceDescription d;
    d.nodeId = ExpandedNodeId(target.nodeId);
    if (mask & kMaskReferenceTypeId) d.referenceTypeId = s.node(r.referenceType).nodeId;
    if (mask & kMaskIsForward) d.isForward = r.isForward;
    if (mask & kMaskNodeClass) d.nodeClass = target.nodeClass;
    if (mask & kMaskBrowseName) d.browseName = target.browseName;
    if (mask & kMaskDisplayName) d.displayName = target.displayName();
    if ((mask & kMaskTypeDefinition) &&
        (target.nodeClass == NodeClass::Object || target.nodeClass == NodeClass::Variable)) {
        const NodeIndex type = s.typeDefinition(r.target);
        if (type != kNoNode) d.typeDefinition = ExpandedNodeId(s.node(type).nodeId);
    }
    return d;
}

ByteString newContinuationPointId(SessionViewState& st) {
    const uint64_t n = st.nextContinuationPointId++;
    char bytes[sizeof n];
    std::memcpy(bytes, &n, sizeof n);
    return ByteString(bytes, sizeof bytes);
}

// A ContinuationPoint for the references after the first maxReferences of all (OPC 10000-4 7.9).
// Returns its id, or a null ByteString when the Session has none to give.
ByteString saveContinuationPoint(ServiceContext& ctx, uint32_t maxReferences, std::vector<ReferenceDescription>&& all) {
    if (!ctx.session) return {};
    SessionViewState& st = *ctx.session;
    const uint32_t limit = std::max<uint32_t>(ctx.limits.maxBrowseContinuationPoints, 1);
    if (st.continuationPoints.size() >= limit) {
        const auto prior = std::find_if(st.continuationPoints.begin(), st.continuationPoints.end(),
                                        [&](const BrowseContinuationPoint& cp) { return cp.request != st.request; });
        if (prior == st.continuationPoints.end()) return {};
        st.continuationPoints.erase(prior);
    }
    BrowseContinuationPoint cp;
    cp.id = newContinuationPointId(st);
    cp.request = st.request;
    cp.maxReferences = maxReferences;
    cp.remaining = std::move(all);
    cp.next = maxReferences;
    st.continuationPoints.push_back(std::move(cp));
    return st.continuationPoints.back().id;
}

BrowseResult browseOne(ServiceContext& ctx, const BrowseDescription& d, uint32_t maxReferences) {
    BrowseResult result;
    const AddressSpace& s = ctx.addressSpace;
    const NodeIndex node = s.indexOf(d.nodeId);
    if (node == kNoNode || !nodeVisible(s.node(node), ctx.sessionScope, ctx.roles)) {
        result.statusCode = status::BadNodeIdUnknown;
        return result;
    }
    if (int32_t(d.browseDirection) < 0 || d.browseDirection > BrowseDirection::Both) {
        result.statusCode = status::BadBrowseDirectionInvalid;
        return result;
    }
    NodeIndex wanted = kNoNode;
    if (!lookupReferenceType(s, d.referenceTypeId, wanted)) {
        result.statusCode = status::BadReferenceTypeIdInvalid;
        return result;
    }
    std::vector<ReferenceDescription> found;
    auto collect = [&](const auto& references) {
        for (const Reference& r : references) {
            if (!typeMatches(s, r.referenceType, wanted, d.includeSubtypes)) continue;
            if (d.nodeClassMask && !(d.nodeClassMask & uint32_t(s.node(r.target).nodeClass))) continue;
            if (!nodeVisible(s.node(r.target), ctx.sessionScope, ctx.roles)) continue;
            found.push_back(describe(s, r, d.resultMask));
        }
    };
    // Forward and inverse references are stored apart: a Forward browse of a type node does not
    // walk its inverse references to every instance.
    const ReferenceList& references = s.node(node).references;
    if (d.browseDirection == BrowseDirection::Forward) collect(references.forward());
    else if (d.browseDirection == BrowseDirection::Inverse) collect(references.inverse());
    else collect(references);
    if (maxReferences && found.size() > maxReferences) {
        const std::vector<ReferenceDescription> first(found.begin(), found.begin() + maxReferences);
        result.continuationPoint = saveContinuationPoint(ctx, maxReferences, std::move(found));
        if (result.continuationPoint.isNull()) {
            result.statusCode = status::BadNoContinuationPoints;
            return result;
        }
        result.references = Array<ReferenceDescription>(first);
        return result;
    }
    result.references = Array<ReferenceDescription>(std::move(found));
    return result;
}

uint32_t effectiveMax(uint32_t requested, uint32_t serverCap) {
    if (!requested) return serverCap;
    if (!serverCap) return requested;
    return std::min(requested, serverCap);
}

} // namespace

void handleBrowse(ServiceContext& ctx, const BrowseRequest& req, BrowseResponse& resp) {
    if (!req.view.viewId.isNull()) {
        resp.responseHeader.serviceResult = status::BadViewIdUnknown;
        return;
    }
    if (req.nodesToBrowse.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return;
    }
    if (ctx.limits.maxNodesPerBrowse && req.nodesToBrowse.size() > ctx.limits.maxNodesPerBrowse) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        return;
    }
    if (ctx.session) ++ctx.session->request;
    const uint32_t maxReferences = effectiveMax(req.requestedMaxReferencesPerNode, ctx.limits.maxReferencesPerNode);
    resp.results = Array<BrowseResult>::emptyArray();
    resp.results.reserve(req.nodesToBrowse.size());
    for (const BrowseDescription& d : req.nodesToBrowse) resp.results.push_back(browseOne(ctx, d, maxReferences));
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
}

void handleBrowseNext(ServiceContext& ctx, const BrowseNextRequest& req, BrowseNextResponse& resp) {
    if (req.continuationPoints.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return;
    }
    if (ctx.limits.maxNodesPerBrowse && req.continuationPoints.size() > ctx.limits.maxNodesPerBrowse) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        return;
    }
    resp.results = Array<BrowseResult>::emptyArray();
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    if (!ctx.session) {  // no Session, no ContinuationPoints
        if (req.releaseContinuationPoints) return;
        for (std::size_t i = 0; i < req.continuationPoints.size(); ++i) {
            resp.results.emplace_back();
            resp.results.back().statusCode = status::BadContinuationPointInvalid;
        }
        return;
    }
    auto& points = ctx.session->continuationPoints;
    const auto find = [&](const ByteString& id) {
        return std::find_if(points.begin(), points.end(), [&](const BrowseContinuationPoint& cp) { return cp.id == id; });
    };
    if (req.releaseContinuationPoints) {
        // 5.8.3.2: the ContinuationPoints are released and the results are empty.
        for (const ByteString& id : req.continuationPoints)
            if (auto it = find(id); it != points.end()) points.erase(it);
        return;
    }
    ++ctx.session->request;
    for (const ByteString& id : req.continuationPoints) {
        BrowseResult result;
        auto it = find(id);
        if (it == points.end()) {
            result.statusCode = status::BadContinuationPointInvalid;
            resp.results.push_back(std::move(result));
            continue;
        }
        BrowseContinuationPoint cp = std::move(*it);
        points.erase(it);
        const std::size_t left = cp.remaining.size() - cp.next;
        const std::size_t n = cp.maxReferences ? std::min<std::size_t>(cp.maxReferences, left) : left;
        result.references = Array<ReferenceDescription>::emptyArray();
        auto begin = cp.remaining.begin() + std::ptrdiff_t(cp.next);
        result.references.assign(std::make_move_iterator(begin), std::make_move_iterator(begin + std::ptrdiff_t(n)));
        cp.next += n;
        if (cp.next < cp.remaining.size()) {
            cp.id = newContinuationPointId(*ctx.session);  // a used id is never valid again
            cp.request = ctx.session->request;
            result.continuationPoint = cp.id;
            points.push_back(std::move(cp));  // most recently used last
        }
        resp.results.push_back(std::move(result));
    }
}

namespace {

BrowsePathResult translate(const ServiceContext& ctx, const BrowsePath& path) {
    BrowsePathResult result;
    const AddressSpace& s = ctx.addressSpace;
    const NodeIndex start = s.indexOf(path.startingNode);
    if (start == kNoNode || !nodeVisible(s.node(start), ctx.sessionScope, ctx.roles)) {
        result.statusCode = status::BadNodeIdUnknown;
        return result;
    }
    const auto& elements = path.relativePath.elements;
    if (elements.empty()) { result.statusCode = status::BadNothingToDo; return result; }
    for (std::size_t i = 0; i + 1 < elements.size(); ++i)
        if (elements[i].targetName.name.isEmpty()) { result.statusCode = status::BadBrowseNameInvalid; return result; }

    std::vector<NodeIndex> current{start};
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const RelativePathElement& e = elements[i];
        const bool anyName = i + 1 == elements.size() && e.targetName.name.isEmpty();
        NodeIndex wanted = kNoNode;
        if (!lookupReferenceType(s, e.referenceTypeId, wanted)) { result.statusCode = status::BadNoMatch; return result; }
        std::vector<NodeIndex> next;
        std::unordered_set<NodeIndex> seen;
        for (NodeIndex n : current) {
            for (const Reference& r : s.node(n).references) {
                if (r.isForward == e.isInverse) continue;
                if (!typeMatches(s, r.referenceType, wanted, e.includeSubtypes)) continue;
                if (!anyName && !(s.node(r.target).browseName == e.targetName)) continue;
                if (!nodeVisible(s.node(r.target), ctx.sessionScope, ctx.roles)) continue;
                if (seen.insert(r.target).second) next.push_back(r.target);
            }
        }
        if (next.empty()) { result.statusCode = status::BadNoMatch; return result; }
        current = std::move(next);
    }
    result.targets = Array<BrowsePathTarget>::emptyArray();
    for (NodeIndex n : current)
        result.targets.push_back({ExpandedNodeId(s.node(n).nodeId), std::numeric_limits<uint32_t>::max()});
    return result;
}

} // namespace

void handleTranslateBrowsePathsToNodeIds(ServiceContext& ctx, const TranslateBrowsePathsToNodeIdsRequest& req,
                                         TranslateBrowsePathsToNodeIdsResponse& resp) {
    if (req.browsePaths.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return;
    }
    const uint32_t limit = ctx.limits.maxNodesPerTranslateBrowsePathsToNodeIds;
    if (limit && req.browsePaths.size() > limit) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        return;
    }
    resp.results = Array<BrowsePathResult>::emptyArray();
    resp.results.reserve(req.browsePaths.size());
    for (const BrowsePath& p : req.browsePaths) resp.results.push_back(translate(ctx, p));
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
}

void handleRegisterNodes(ServiceContext& ctx, const RegisterNodesRequest& req, RegisterNodesResponse& resp) {
    if (req.nodesToRegister.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return;
    }
    if (ctx.limits.maxNodesPerRegisterNodes && req.nodesToRegister.size() > ctx.limits.maxNodesPerRegisterNodes) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        return;
    }
    resp.registeredNodeIds = req.nodesToRegister;
    if (ctx.session)
        for (const NodeId& id : req.nodesToRegister)
            if (ctx.addressSpace.indexOf(id) != kNoNode) ctx.session->registeredNodes.insert(id);
}

void handleUnregisterNodes(ServiceContext& ctx, const UnregisterNodesRequest& req, UnregisterNodesResponse& resp) {
    if (req.nodesToUnregister.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return;
    }
    if (ctx.limits.maxNodesPerRegisterNodes && req.nodesToUnregister.size() > ctx.limits.maxNodesPerRegisterNodes) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        return;
    }
    if (ctx.session)
        for (const NodeId& id : req.nodesToUnregister) ctx.session->registeredNodes.erase(id);
}

} // namespace ua
