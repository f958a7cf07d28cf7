// Roles and permissions (OPC 10000-3 4.9 Roles, 5.2.9 RolePermissions / UserRolePermissions,
// 8.55 PermissionType; the well-known Roles of OPC 10000-3 4.9.2, whose Role objects OPC 10000-18
// defines). A Session's user holds a RoleSet (one bit per well-known Role); what the Roles may do on
// a node comes from the node's RolePermissions when it has any, else from the server's defaults
// (defaultPermissions below). Everything here is a pure function of small integers, so the request
// path checks access without a lock and without an allocation.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/addressspace/Node.h"
#include "ua/server/addressspace/SharedAttributes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ua {

// The well-known Roles (OPC 10000-3 4.9.2), in the order of their RoleSet bits.
enum class Role : uint8_t {
    Anonymous,         // a Session with anonymous credentials: browse and read
    AuthenticatedUser, // any Session with valid non-anonymous credentials: browse and read
    Observer,          // browse, read, receive events
    Operator,          // + write Values, call Methods
    Engineer,          // + write attributes (configuration)
    Supervisor,        // + write Values, call Methods
    ConfigureAdmin,    // + write attributes and RolePermissions, change the address space
    SecurityAdmin,     // security settings: certificates, users, session security diagnostics
};
inline constexpr int kRoleCount = 8;

// A set of Roles: bit i is Role(i).
using RoleSet = uint32_t;
inline constexpr RoleSet roleBit(Role r) { return RoleSet(1) << unsigned(r); }
inline constexpr RoleSet kNoRoles = 0;
// Not a set of real Roles: marks a caller without a Session (in-process use, unit tests) that is
// not restricted by any Role. userPermissions() returns every permission for it.
inline constexpr RoleSet kUnrestricted = ~RoleSet(0);
inline constexpr uint32_t kAllPermissions = ~uint32_t(0);

// The NodeId of a well-known Role object (ns=0, e.g. i=15680 WellKnownRole_Operator).
NodeId roleNodeId(Role r);
// The well-known Role of a NodeId; nullopt for any other NodeId.
std::optional<Role> roleFromNodeId(const NodeId& id);
// The BrowseName of a Role ("Operator"); roleFromName accepts it case-sensitively.
std::string_view roleName(Role r);
std::optional<Role> roleFromName(std::string_view name);
std::vector<std::string> roleNames(RoleSet roles);

// The PermissionType bits (OPC 10000-3 8.55) a Role has on nodes without RolePermissions:
//   Anonymous, AuthenticatedUser, Observer: Browse, ReadRolePermissions, Read, ReadHistory, ReceiveEvents
//   Operator, Supervisor: those + Write, Call
//   Engineer: those + Write, WriteAttribute, WriteHistorizing, InsertHistory, ModifyHistory,
//             DeleteHistory, Call
//   ConfigureAdmin: Engineer's + WriteRolePermissions, AddReference, RemoveReference, AddNode, DeleteNode
//   SecurityAdmin: Anonymous's + WriteRolePermissions, Call (no Value writes)
uint32_t defaultRolePermissions(Role r);
// The union of defaultRolePermissions over roles (kAllPermissions for kUnrestricted).
uint32_t defaultPermissions(RoleSet roles);

// The permissions of a user with `roles` on `node` (OPC 10000-3 5.2.9): the union of the node's
// RolePermissions entries for those Roles when the node has RolePermissions, else `defaults`
// (defaultPermissions(roles), precomputed per Session). No allocation. Inline: most nodes have no
// RolePermissions, and every Read of a Value asks.
uint32_t permissionsFromEntries(const Array<ExtensionObject>& rolePermissions, RoleSet roles);
inline uint32_t userPermissions(const Node& node, RoleSet roles, uint32_t defaults) {
    if (roles == kUnrestricted) return kAllPermissions;
    const RareFields* rare = node.rare.find();
    const Variant* given = rare ? rare->rolePermissions.find() : nullptr;
    const auto* list = given ? given->get<Array<ExtensionObject>>() : nullptr;
    return list ? permissionsFromEntries(*list, roles) : defaults;
}

// What the User... attributes report for a user with `permissions` on a node (OPC 10000-3 5.6.2
// UserAccessLevel, 5.2.8 UserWriteMask): the node's stored user value with the bits removed that
// the permissions do not grant (CurrentRead needs Read; CurrentWrite, StatusWrite and TimestampWrite
// need Write; HistoryRead needs ReadHistory; HistoryWrite needs InsertHistory/ModifyHistory/
// DeleteHistory; a WriteMask bit needs WriteAttribute, the RolePermissions bit WriteRolePermissions,
// the Historizing bit WriteHistorizing, the ValueForVariableType bit Write).
// userAccessLevel is inline: every Read and Write of a Value asks it.
uint32_t userWriteMask(uint32_t stored, uint32_t permissions);
inline uint8_t userAccessLevel(uint8_t stored, uint32_t permissions) {
    uint8_t allowed = 0xFF;
    if (!(permissions & uint32_t(PermissionType::Read))) allowed &= uint8_t(~access::CurrentRead);
    if (!(permissions & uint32_t(PermissionType::Write)))
        allowed &= uint8_t(~(access::CurrentWrite | access::StatusWrite | access::TimestampWrite));
    if (!(permissions & uint32_t(PermissionType::ReadHistory))) allowed &= uint8_t(~access::HistoryRead);
    const uint32_t historyWrite = uint32_t(PermissionType::InsertHistory) | uint32_t(PermissionType::ModifyHistory) |
                                  uint32_t(PermissionType::DeleteHistory);
    if (!(permissions & historyWrite)) allowed &= uint8_t(~access::HistoryWrite);
    return uint8_t(stored & allowed);
}

} // namespace ua
