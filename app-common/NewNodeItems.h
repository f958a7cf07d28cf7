// The AddNodes item (OPC 10000-4 5.8.2) of a new child, as the server window's Add actions, the
// client's add-node command and its address panel build it: a Folder (FolderType,
// Organizes), an Object (BaseObjectType, Organizes) or a Variable (BaseDataVariableType,
// HasComponent, readable and writable, of dataType) below parent, its BrowseName in the parent's
// namespace (1 for namespace 0), the server choosing the NodeId.
#pragma once

#include "ua/encoding/generated/Types.h"

#include <QString>

namespace ua::app {

enum class NewNodeClass { Folder, Object, Variable };
AddNodesItem newChildItem(const NodeId& parent, NewNodeClass kind, const QString& name,
                          BuiltInType dataType = BuiltInType::Double);

} // namespace ua::app
