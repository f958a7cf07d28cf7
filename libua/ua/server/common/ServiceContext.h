// What the View and Attribute service handlers (services/ViewService.h, services/AttributeService.h)
// get besides their request: the address space snapshot to serve from, the operation limits, the
// Session's view state and the current time. Built by the caller for one request, on the thread
// that serves it; it owns nothing.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/addressspace/SharedAddressSpace.h"

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace ua {

// Operation limits (OPC 10000-5 6.3.11 OperationLimits, 6.3.2 ServerCapabilities). 0 means no
// limit. A request with more operations than its limit fails with Bad_TooManyOperations.
struct OperationLimits {
    uint32_t maxNodesPerRead = 2500;
    uint32_t maxNodesPerWrite = 2500;
    uint32_t maxNodesPerBrowse = 2500;  // Browse nodesToBrowse and BrowseNext continuationPoints
    uint32_t maxNodesPerTranslateBrowsePathsToNodeIds = 2500;
    uint32_t maxNodesPerRegisterNodes = 2500;  // RegisterNodes and UnregisterNodes
    uint32_t maxNodesPerMethodCall = 1000;     // Call methodsToCall (OPC 10000-4 5.11.2)
    uint32_t maxNodesPerNodeManagement = 1000; // AddNodes, AddReferences, DeleteNodes, DeleteReferences items
    uint32_t maxNodesPerHistoryReadData = 1000;   // HistoryRead nodesToRead (OPC 10000-5 6.3.11)
    uint32_t maxNodesPerHistoryUpdateData = 1000; // HistoryUpdate historyUpdateDetails
    // Browse ContinuationPoints one Session may hold (ServerCapabilities.MaxBrowseContinuationPoints,
    // at least 1 per OPC 10000-4 7.9).
    uint32_t maxBrowseContinuationPoints = 10;
    // The most references one BrowseResult carries, whatever the client asks (0: no cap).
    uint32_t maxReferencesPerNode = 1000;
};

// The default limits, for the ServiceContext of the server's own reads (sampling, filter checks).
inline const OperationLimits& defaultOperationLimits() {
    static const OperationLimits l;
    return l;
}

// A paused Browse (OPC 10000-4 7.9): the references not yet returned.
struct BrowseContinuationPoint {
    ByteString id;                 // what the client got (8 bytes, unique within the Session)
    uint64_t request = 0;          // SessionViewState::request of the request that last used it
    uint32_t maxReferences = 0;    // per BrowseNext result, from the original Browse (0: all)
    std::vector<ReferenceDescription> remaining;
    std::size_t next = 0;          // first of remaining not yet returned
};

// The per-Session state of the View service set. Owned by the Session; used by one request at a
// time (the requests of a Session are served in order on its connection's thread).
struct SessionViewState {
    std::vector<BrowseContinuationPoint> continuationPoints;  // oldest first
    uint64_t nextContinuationPointId = 1;
    uint64_t request = 0;  // counts Browse and BrowseNext requests
    // NodeIds registered with RegisterNodes that exist in the address space (OPC 10000-4 5.8.5).
    std::unordered_set<NodeId> registeredNodes;
};

struct ServiceContext {
    // The snapshot this request is served from (hold the shared_ptr for the request's duration).
    const AddressSpace& addressSpace;
    // Where Writes of attributes other than Value are published; nullptr: such Writes get
    // Bad_WriteNotSupported.
    SharedAddressSpace* sharedAddressSpace = nullptr;
    const OperationLimits& limits;
    // nullptr for a call without Session: Browse then cannot create ContinuationPoints
    // (Bad_NoContinuationPoints) and RegisterNodes records nothing.
    SessionViewState* session = nullptr;
    DateTime now;  // ServerTimestamps and the timestamps of written values
    // The user: a RoleSet (server/users/Roles.h) and the PermissionType bits its Roles have on nodes
    // without RolePermissions. The defaults (all bits) mean a caller without a Session that no Role
    // restricts (in-process use, unit tests); the dispatcher sets the Session's.
    uint32_t roles = ~uint32_t(0);
    uint32_t permissions = ~uint32_t(0);
    // The Session's Session::scope: the session-scoped nodes it sees (Node::sessionScope); 0 for
    // none (only an unrestricted caller or SecurityAdmin sees such nodes then).
    uint32_t sessionScope = 0;
    // The MessageSecurityMode of the Session's SecureChannel (Methods that need an encrypted channel
    // check it, e.g. OPC 10000-12 push management). The default is for callers without a Session.
    MessageSecurityMode securityMode = MessageSecurityMode::SignAndEncrypt;
};

} // namespace ua
