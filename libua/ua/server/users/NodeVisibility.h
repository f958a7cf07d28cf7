// Which nodes a user sees at all. A node with a Node::sessionScope belongs to one Session (its
// SessionDiagnosticsObject and the nodes below it, OPC 10000-5 6.3.4): visible to that Session and
// to the SecurityAdmin Role, to everyone else absent: Browse and TranslateBrowsePathsToNodeIds do
// not return it, Read, Write, Call and CreateMonitoredItems answer Bad_NodeIdUnknown. Every other
// node is visible (its RolePermissions decide what may be done with it, users/Roles.h).
#pragma once

#include "ua/server/addressspace/Node.h"
#include "ua/server/users/Roles.h"

#include <cstdint>

namespace ua {

inline bool nodeVisible(const Node& node, uint32_t sessionScope, RoleSet roles) {
    return node.sessionScope == 0 || node.sessionScope == sessionScope || roles == kUnrestricted ||
           (roles & roleBit(Role::SecurityAdmin)) != 0;
}

} // namespace ua
