#include "ua/server/users/Roles.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/Node.h"

#include <array>

namespace ua {

namespace {

struct RoleInfo {
    uint32_t nodeId;
    std::string_view name;
};

constexpr std::array<RoleInfo, kRoleCount> kRoles{{
    {id::WellKnownRole_Anonymous, "Anonymous"},
    {id::WellKnownRole_AuthenticatedUser, "AuthenticatedUser"},
    {id::WellKnownRole_Observer, "Observer"},
    {id::WellKnownRole_Operator, "Operator"},
    {id::WellKnownRole_Engineer, "Engineer"},
    {id::WellKnownRole_Supervisor, "Supervisor"},
    {id::WellKnownRole_ConfigureAdmin, "ConfigureAdmin"},
    {id::WellKnownRole_SecurityAdmin, "SecurityAdmin"},
}};

constexpr uint32_t p(PermissionType t) { return uint32_t(t); }

constexpr uint32_t kReadOnly = p(PermissionType::Browse) | p(PermissionType::ReadRolePermissions) |
                               p(PermissionType::Read) | p(PermissionType::ReadHistory) |
                               p(PermissionType::ReceiveEvents);
constexpr uint32_t kOperate = kReadOnly | p(PermissionType::Write) | p(PermissionType::Call);
// The history of a process is the Engineer's to correct (HistoryUpdate, OPC 10000-11 6.8).
constexpr uint32_t kEngineer = kOperate | p(PermissionType::WriteAttribute) | p(PermissionType::WriteHistorizing) |
                               p(PermissionType::InsertHistory) | p(PermissionType::ModifyHistory) |
                               p(PermissionType::DeleteHistory);
constexpr uint32_t kConfigure = kEngineer | p(PermissionType::WriteRolePermissions) |
                                p(PermissionType::AddReference) | p(PermissionType::RemoveReference) |
                                p(PermissionType::AddNode) | p(PermissionType::DeleteNode);
constexpr uint32_t kSecurity = kReadOnly | p(PermissionType::WriteRolePermissions) | p(PermissionType::Call);

} // namespace

NodeId roleNodeId(Role r) { return NodeId(kRoles[std::size_t(r)].nodeId); }

std::optional<Role> roleFromNodeId(const NodeId& id) {
    if (id.namespaceIndex() != 0 || !id.isNumeric()) return std::nullopt;
    for (int i = 0; i < kRoleCount; ++i)
        if (kRoles[std::size_t(i)].nodeId == id.numeric()) return Role(i);
    return std::nullopt;
}

std::string_view roleName(Role r) { return kRoles[std::size_t(r)].name; }

std::optional<Role> roleFromName(std::string_view name) {
    for (int i = 0; i < kRoleCount; ++i)
        if (kRoles[std::size_t(i)].name == name) return Role(i);
    return std::nullopt;
}

std::vector<std::string> roleNames(RoleSet roles) {
    std::vector<std::string> names;
    for (int i = 0; i < kRoleCount; ++i)
        if (roles & roleBit(Role(i))) names.emplace_back(kRoles[std::size_t(i)].name);
    return names;
}

uint32_t defaultRolePermissions(Role r) {
    switch (r) {
    case Role::Anonymous:
    case Role::AuthenticatedUser:
    case Role::Observer:
        return kReadOnly;
    case Role::Operator:
    case Role::Supervisor:
        return kOperate;
    case Role::Engineer:
        return kEngineer;
    case Role::ConfigureAdmin:
        return kConfigure;
    case Role::SecurityAdmin:
        return kSecurity;
    }
    return 0;
}

uint32_t defaultPermissions(RoleSet roles) {
    if (roles == kUnrestricted) return kAllPermissions;
    uint32_t perms = 0;
    for (int i = 0; i < kRoleCount; ++i)
        if (roles & roleBit(Role(i))) perms |= defaultRolePermissions(Role(i));
    return perms;
}

// The union of the entries' permissions for the Roles in roles (entries of other types skipped).
uint32_t permissionsFromEntries(const Array<ExtensionObject>& rolePermissions, RoleSet roles) {
    uint32_t perms = 0;
    for (const ExtensionObject& x : rolePermissions) {
        const RolePermissionType* rp = x.get<RolePermissionType>();
        if (!rp) continue;
        const std::optional<Role> r = roleFromNodeId(rp->roleId);
        if (r && (roles & roleBit(*r))) perms |= uint32_t(rp->permissions);
    }
    return perms;
}

uint32_t userWriteMask(uint32_t stored, uint32_t permissions) {
    const uint32_t rolePermissionsBit = uint32_t(AttributeWriteMask::RolePermissions);
    const uint32_t historizingBit = uint32_t(AttributeWriteMask::Historizing);
    const uint32_t valueBit = uint32_t(AttributeWriteMask::ValueForVariableType);
    uint32_t allowed = 0;
    if (permissions & p(PermissionType::WriteAttribute))
        allowed |= ~(rolePermissionsBit | historizingBit | valueBit);
    if (permissions & p(PermissionType::Write)) allowed |= valueBit;
    if (permissions & p(PermissionType::WriteRolePermissions)) allowed |= rolePermissionsBit;
    if (permissions & p(PermissionType::WriteHistorizing)) allowed |= historizingBit;
    return stored & allowed;
}

} // namespace ua
