// A node of the server's address space (OPC 10000-3 5: the NodeClasses and their Attributes) and
// its references as the AddressSpace stores them.
//
// One Node struct serves every NodeClass; the attributes a NodeClass does not have are left at
// their defaults and reported as absent by hasAttribute() (NodeAttributes.h). The attributes few
// nodes have (Description, RolePermissions, InverseName, DataTypeDefinition, a live Value's
// callbacks) are kept out of line (OutOfLine.h): 8 bytes each when absent.
// A Variable's (or VariableType's) Value lives in a ValueCell shared by every snapshot of the
// address space, so a Write to a Value is seen by all readers without copying the node table;
// a live Variable gets its Value from ValueSource callbacks instead.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/addressspace/OutOfLine.h"
#include "ua/server/addressspace/ReferenceList.h"
#include "ua/server/addressspace/ValueCell.h"
#include "ua/types/Variant.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace ua {

struct MethodHandler;  // MethodHandler.h

// AccessLevelType bits (OPC 10000-3 8.57).
namespace access {
inline constexpr uint8_t CurrentRead = 0x01;
inline constexpr uint8_t CurrentWrite = 0x02;
inline constexpr uint8_t HistoryRead = 0x04;
inline constexpr uint8_t HistoryWrite = 0x08;
inline constexpr uint8_t SemanticChange = 0x10;
inline constexpr uint8_t StatusWrite = 0x20;
inline constexpr uint8_t TimestampWrite = 0x40;
} // namespace access

// Callbacks of a live Variable. Both run on the I/O thread serving the request, so they must be
// quick and thread-safe; they replace the ValueCell for this node.
struct ValueSource {
    // The current value (its status and source timestamp included). The service applies the
    // IndexRange and the TimestampsToReturn to what it returns.
    std::function<DataValue()> read;
    // Takes a new value that passed the AccessLevel, DataType and ValueRank checks (with an
    // IndexRange, the whole value after the range was applied). Absent: writes are Bad_NotWritable.
    std::function<StatusCode(const DataValue&)> write;
};

struct Node {
    // The fields are ordered by size, not by NodeClass (no padding between them: a million
    // variables are a million Nodes); the comment on each says which NodeClasses have it.

    // Every NodeClass (OPC 10000-3 5.2).
    NodeId nodeId;
    NodeClass nodeClass = NodeClass::Unspecified;
    // Type nodes: the supertype (source of the inverse HasSubtype), kNoNode for none.
    NodeIndex superType = kNoNode;
    QualifiedName browseName;
    LocalizedText displayName;
    OutOfLine<LocalizedText> description;  // null locale and text when there is none
    OutOfLine<Variant> rolePermissions;    // Array of ExtensionObject(RolePermissionType); Null = absent
    // ReferenceType.
    OutOfLine<LocalizedText> inverseName;  // absent when text and locale are null

    // Variable, VariableType.
    NodeId dataType;
    Array<uint32_t> arrayDimensions;   // null when not given
    std::shared_ptr<ValueCell> value;  // the stored Value (shared by every snapshot)
    OutOfLine<ValueSource> source;     // set: the Value comes from callbacks instead

    // Method: what the Call service runs (MethodHandler.h); null: Bad_NotImplemented. Shared by snapshots.
    std::shared_ptr<const MethodHandler> method;
    // DataType: an ExtensionObject holding a StructureDefinition or EnumDefinition; Null = absent.
    OutOfLine<Variant> dataTypeDefinition;
    // References from and to this node (ReferenceList.h: cheap to copy however many there are).
    ReferenceList references;

    // Variable.
    double minimumSamplingInterval = 0;     // ms; 0 fastest, -1 indeterminate
    // Every NodeClass.
    uint32_t writeMask = 0;            // AttributeWriteMask bits (OPC 10000-3 8.60)
    uint32_t userWriteMask = 0;
    // Non-zero: the node belongs to one Session (Session::scope), e.g. its SessionDiagnosticsObject
    // and everything below it: only that Session and SecurityAdmin see it
    // (users/NodeVisibility.h); to anyone else it does not exist (Bad_NodeIdUnknown).
    uint32_t sessionScope = 0;
    // Variable, VariableType.
    int32_t valueRank = -1;            // -3 ScalarOrOneDimension, -2 Any, -1 Scalar, 0 OneOrMore, n
    // Variable.
    std::optional<uint32_t> accessLevelEx;  // absent: the AccessLevel bits
    // Every NodeClass.
    std::optional<uint16_t> accessRestrictions;  // AccessRestrictionType; absent when empty

    // ObjectType, VariableType, ReferenceType, DataType.
    bool isAbstract = false;
    // ReferenceType.
    bool symmetric = false;
    // View.
    bool containsNoLoops = false;
    // Object, View: EventNotifierType bits.
    uint8_t eventNotifier = 0;
    // Variable.
    uint8_t accessLevel = access::CurrentRead;
    uint8_t userAccessLevel = access::CurrentRead;
    bool historizing = false;
    // Method.
    bool executable = true;
    bool userExecutable = true;
};

} // namespace ua
