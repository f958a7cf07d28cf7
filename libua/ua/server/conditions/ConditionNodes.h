// The nodes of a condition instance in the address space (OPC 10000-9 5.5.2: a Condition is an
// Object of its ConditionType subtype, with the Variables of its state below it): built from the
// condition's first event, one node for each event field whose browse path is an
// InstanceDeclaration of the type (or of a supertype, or of a declaration's own TypeDefinition),
// NodeIds conditionChildId(condition, path) (ConditionState.h), with the declaration's
// BrowseName, DataType, ValueRank, TypeDefinition and reference from its parent. Values are
// read-only (AccessLevel CurrentRead); ConditionManager stores each new event's fields in them.
//
// Also built: the Methods a client calls on the instance (Enable, Disable, AddComment,
// Acknowledge, Confirm; ShelvingState's TimedShelve, OneShotShelve, Unshelve and their 1.05 "2"
// variants), each with the InputArguments of its declaration and the handler of the declaration
// in namespace 0 (ConditionManager installs those first); for OffNormal alarms the NormalValue
// Property that NormalState names; HasCondition from the SourceNode to the condition (OPC
// 10000-9 7.2), HasComponent from the SourceNode when it is an Object, and Organizes from the
// "Alarms" folder (ns=1;s=Alarms below the Objects folder, made with the first condition).
#pragma once

#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/addressspace/ValueCell.h"
#include "ua/server/eventmodel/Event.h"

#include <map>
#include <memory>
#include <string>

namespace ua {

// The value cells of a condition's nodes by event field key.
using ConditionCells = std::map<std::string, ValueCell::Ptr, std::less<>>;

// The Alarms folder's NodeId (ns=1;s=Alarms).
NodeId alarmsFolderId();

// Adds the condition's nodes (see above). first: the condition's first event (its fields decide
// which nodes there are); normalValue: OffNormal's normal value (Null: none). Bad_NodeIdExists
// when the condition's NodeId is taken; Bad_NodeIdUnknown for a SourceNode that is not there.
StatusCode addConditionNodes(AddressSpace& space, const NodeId& condition, const std::string& name, const Event& first,
                             const Variant& normalValue, ConditionCells& cells);
// Removes the condition's nodes (every node whose NodeId starts with its child prefix) and the
// condition; Bad_NodeIdUnknown when it is not there.
StatusCode removeConditionNodes(AddressSpace& space, const NodeId& condition, const ConditionCells& cells);
// Stores the event's fields in the cells (source timestamp the event's Time).
void storeConditionFields(const Event& e, const ConditionCells& cells);

} // namespace ua
