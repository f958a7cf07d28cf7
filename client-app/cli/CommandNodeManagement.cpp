// ua-client add-node <url> <parent> <name> [--class folder|object|variable] [--type TYPE] and
// ua-client delete-node <url> <node>: the NodeManagement services (OPC 10000-4 5.8.2 AddNodes,
// 5.8.4 DeleteNodes) of the server, one operation each. add-node adds a Folder (FolderType,
// Organizes), an Object (BaseObjectType, Organizes) or a Variable (BaseDataVariableType,
// HasComponent, readable and writable, of --type, default Double) below the parent, BrowseName in
// the parent's namespace (1 for namespace 0), and prints the NodeId the server gave it; delete-node
// deletes the node with its references. A refused operation prints its StatusCode (exit 1).
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ValueText.h"
#include "ua/encoding/generated/NodeIds.h"

namespace ua::clientapp {

void runAddNode(CliSession& s) {
    const CliOptions& o = s.options();
    QString error;
    const auto parent = parseNodeArgument(o.args[1], &error);
    if (!parent) return s.fail(ExitUsage, error);
    s.open([&s, parent = *parent] {
        s.resolve({parent}, [&s, parent](std::vector<NodeId> ids) {
            const CliOptions& o = s.options();
            const NodeId& parentId = ids.front();
            AddNodesItem item;
            item.parentNodeId = ExpandedNodeId(parentId);
            item.browseName = QualifiedName{uint16_t(parentId.namespaceIndex() == 0 ? 1 : parentId.namespaceIndex()),
                                            String::fromQString(o.args[2])};
            const LocalizedText name{{}, String::fromQString(o.args[2])};
            if (o.nodeClass == QLatin1String("variable")) {
                item.referenceTypeId = NodeId(id::HasComponent);
                item.nodeClass = NodeClass::Variable;
                VariableAttributes a;
                a.specifiedAttributes = 64 | 16 | 1 | 65536 | 524288;  // DisplayName, DataType, (User)AccessLevel, ValueRank
                a.displayName = name;
                a.dataType = NodeId(uint32_t(o.type.value_or(BuiltInType::Double)));
                a.valueRank = -1;
                a.accessLevel = a.userAccessLevel = 0x03;  // CurrentRead | CurrentWrite
                item.nodeAttributes = ExtensionObject::make(a);
                item.typeDefinition = ExpandedNodeId(NodeId(id::BaseDataVariableType));
            } else {
                item.referenceTypeId = NodeId(id::Organizes);
                item.nodeClass = NodeClass::Object;
                ObjectAttributes a;
                a.specifiedAttributes = 64;
                a.displayName = name;
                item.nodeAttributes = ExtensionObject::make(a);
                item.typeDefinition = ExpandedNodeId(NodeId(o.nodeClass == QLatin1String("object") ? id::BaseObjectType : id::FolderType));
            }
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
