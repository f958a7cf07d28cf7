#include "NewNodeItems.h"

#include "ua/encoding/generated/NodeIds.h"

namespace ua::app {

AddNodesItem newChildItem(const NodeId& parent, NewNodeClass kind, const QString& name, BuiltInType dataType) {
    AddNodesItem item;
    item.parentNodeId = ExpandedNodeId(parent);
    item.browseName = QualifiedName{uint16_t(parent.namespaceIndex() == 0 ? 1 : parent.namespaceIndex()), String::fromQString(name)};
    const LocalizedText displayName{{}, String::fromQString(name)};
    if (kind == NewNodeClass::Variable) {
        item.referenceTypeId = NodeId(id::HasComponent);
        item.nodeClass = NodeClass::Variable;
        VariableAttributes a;
        a.specifiedAttributes = 64 | 16 | 1 | 65536 | 524288;  // DisplayName, DataType, (User)AccessLevel, ValueRank
        a.displayName = displayName;
        a.dataType = NodeId(uint32_t(dataType));
        a.valueRank = -1;
        a.accessLevel = a.userAccessLevel = 0x03;  // CurrentRead | CurrentWrite
        item.nodeAttributes = ExtensionObject::make(a);
        item.typeDefinition = ExpandedNodeId(NodeId(id::BaseDataVariableType));
    } else {
        item.referenceTypeId = NodeId(id::Organizes);
        item.nodeClass = NodeClass::Object;
        ObjectAttributes a;
        a.specifiedAttributes = 64;  // DisplayName
        a.displayName = displayName;
        item.nodeAttributes = ExtensionObject::make(a);
        item.typeDefinition = ExpandedNodeId(NodeId(kind == NewNodeClass::Object ? id::BaseObjectType : id::FolderType));
    }
    return item;
}

} // namespace ua::app
