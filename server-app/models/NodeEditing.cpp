#include "models/NodeEditing.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/services/NodeManagementService.h"

namespace ua::serverapp {

namespace {

ServiceContext adminContext(Server& server, std::shared_ptr<const AddressSpace>& hold) {
    hold = server.addressSpace().snapshot();
    return ServiceContext{*hold, &server.addressSpace(), server.config().operationLimits, nullptr, DateTime::now()};
}

QString nodeText(const NodeId& id) { return QString::fromStdString(id.toString()); }

} // namespace

NodeEditResult addNode(const AdminAudit& audit, const NodeId& parent, NewNodeKind kind, const QString& name, BuiltInType dataType) {
    if (!audit.server) return {StatusCode(status::BadInvalidState), {}};
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = adminContext(*audit.server, hold);
    AddNodesRequest req;
    req.nodesToAdd = Array<AddNodesItem>{std::vector<AddNodesItem>{app::newChildItem(parent, kind, name, dataType)}};
    AddNodesResponse resp;
    handleAddNodes(ctx, req, resp);
    const NodeEditResult r{resp.results.empty() ? resp.responseHeader.serviceResult : resp.results[0].statusCode,
                           resp.results.empty() ? NodeId() : resp.results[0].addedNodeId};
    const char* what = kind == NewNodeKind::Folder ? "folder" : kind == NewNodeKind::Object ? "object" : "variable";
    audit.line(r.status.isGood(), QStringLiteral("added the %1 '%2' (%3) below %4").arg(QLatin1String(what), name, nodeText(r.nodeId), nodeText(parent)),
               QStringLiteral("%1 '%2' not added below %3").arg(QLatin1String(what), name, nodeText(parent)),
               QString::fromStdString(r.status.name()));
    return r;
}

StatusCode deleteNode(const AdminAudit& audit, const NodeId& node) {
    if (!audit.server) return StatusCode(status::BadInvalidState);
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = adminContext(*audit.server, hold);
    DeleteNodesRequest req;
    req.nodesToDelete = Array<DeleteNodesItem>{std::vector<DeleteNodesItem>{DeleteNodesItem{node, true}}};
    DeleteNodesResponse resp;
    handleDeleteNodes(ctx, req, resp);
    const StatusCode s = resp.results.empty() ? resp.responseHeader.serviceResult : resp.results[0];
    audit.line(s.isGood(), QStringLiteral("deleted the node %1").arg(nodeText(node)), QStringLiteral("node %1 not deleted").arg(nodeText(node)),
               QString::fromStdString(s.name()));
    return s;
}

} // namespace ua::serverapp
