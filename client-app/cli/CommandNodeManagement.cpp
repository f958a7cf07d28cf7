// ua-client add-node <url> <parent> <name> [--class folder|object|variable] [--type TYPE] and
// ua-client delete-node <url> <node>: the NodeManagement services (OPC 10000-4 5.8.2 AddNodes,
// 5.8.4 DeleteNodes) of the server, one operation each. add-node adds a folder, an object or a
// variable of --type (default Double) below the parent (core/NewNodeItems.h) and prints the NodeId
// the server gave it; delete-node
// deletes the node with its references. A refused operation prints its StatusCode (exit 1).
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ValueText.h"
#include "NewNodeItems.h"

namespace ua::clientapp {

void runAddNode(CliSession& s) {
    const CliOptions& o = s.options();
    QString error;
    const auto parent = parseNodeArgument(o.args[1], &error);
    if (!parent) return s.fail(ExitUsage, error);
    s.open([&s, parent = *parent] {
        s.resolve({parent}, [&s, parent](std::vector<NodeId> ids) {
            const CliOptions& o = s.options();
            const app::NewNodeClass kind = o.nodeClass == QLatin1String("variable") ? app::NewNodeClass::Variable
                                      : o.nodeClass == QLatin1String("object") ? app::NewNodeClass::Object
                                                                               : app::NewNodeClass::Folder;
            const AddNodesItem item = app::newChildItem(ids.front(), kind, o.args[2], o.type.value_or(BuiltInType::Double));
            AddNodesRequest req;
            req.nodesToAdd = Array<AddNodesItem>({item});
            s.client().call<AddNodesRequest, AddNodesResponse>(std::move(req), &s, [&s, parent](const ServiceResult<AddNodesResponse>& r) {
                if (!r.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("AddNodes"), r.status);
                if (r.response.results.empty()) return s.failStatus(ExitOperationFailed, QStringLiteral("AddNodes"), status::BadUnexpectedError);
                const AddNodesResult& added = r.response.results[0];
                if (s.options().json)
                    printJson({{"parent", parent.text}, {"nodeId", CliSession::nodeText(added.addedNodeId)},
                               {"status", app::statusName(added.statusCode)}});
                if (added.statusCode.isBad())
                    return s.failStatus(ExitOperationFailed, QStringLiteral("add-node below ") + parent.text, added.statusCode);
                if (!s.options().json) printLine(CliSession::nodeText(added.addedNodeId));
                s.finish(ExitOk);
            });
        });
    });
}

void runDeleteNode(CliSession& s) {
    QString error;
    const auto node = parseNodeArgument(s.options().args[1], &error);
    if (!node) return s.fail(ExitUsage, error);
    s.open([&s, node = *node] {
        s.resolve({node}, [&s, node](std::vector<NodeId> ids) {
            DeleteNodesRequest req;
            req.nodesToDelete = Array<DeleteNodesItem>({DeleteNodesItem{ids.front(), true}});
            s.client().call<DeleteNodesRequest, DeleteNodesResponse>(std::move(req), &s, [&s, node](const ServiceResult<DeleteNodesResponse>& r) {
                if (!r.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("DeleteNodes"), r.status);
                const StatusCode st = r.response.results.empty() ? StatusCode(status::BadUnexpectedError) : r.response.results[0];
                if (s.options().json) printJson({{"node", node.text}, {"status", app::statusName(st)}});
                if (st.isBad()) return s.failStatus(ExitOperationFailed, QStringLiteral("delete-node ") + node.text, st);
                s.finish(ExitOk);
            });
        });
    });
}

} // namespace ua::clientapp
