// The administrator adds and deletes nodes of the running server (the Address space page's
// context menu; issue 29 item 4): a folder, an object or a variable below a node, or the deletion
// of a node. Each goes through the NodeManagement service handlers (ua/server/services/
// NodeManagementService.h) as an unrestricted in-process caller, so the same checks apply
// (Bad_BrowseNameDuplicated, Bad_NoDeleteRights for namespace 0, ...), and each is an audit line
// ("ua.audit": AdminAudit.h). New nodes get numeric NodeIds in namespace 1, their BrowseName the
// parent's namespace (1 below namespace 0).
#pragma once

#include "NewNodeItems.h"
#include "models/AdminAudit.h"
#include "ua/encoding/generated/Types.h"

#include <QString>

namespace ua::serverapp {

struct NodeEditResult {
    StatusCode status;
    NodeId nodeId;  // the node added
};

// A Folder, an Object or a Variable (of dataType, no value yet) named name below parent
// (app-common/NewNodeItems.h).
using NewNodeKind = app::NewNodeClass;
NodeEditResult addNode(const AdminAudit& audit, const NodeId& parent, NewNodeKind kind, const QString& name,
                       BuiltInType dataType = BuiltInType::Double);
StatusCode deleteNode(const AdminAudit& audit, const NodeId& node);

} // namespace ua::serverapp
