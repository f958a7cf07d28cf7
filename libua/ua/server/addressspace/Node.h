// A node of the server's address space (OPC 10000-3 5: the NodeClasses and their Attributes) and
// its references as the AddressSpace stores them.
//
// One Node struct serves every NodeClass; the attributes a NodeClass does not have are left at
// their defaults and reported as absent by hasAttribute() (NodeAttributes.h). The attributes few
// nodes have (Description, RolePermissions, InverseName, DataTypeDefinition, a live Value's
// callbacks, a Method's handler) are kept out of line (RareFields, OutOfLine.h): 8 bytes in all
// when a node has none of them. The attributes many nodes have with equal values (DataType,
// AccessLevel, WriteMask, ...) are shared (SharedAttributes.h), and a DisplayName equal to the
// BrowseName's name is not stored (displayName()).
// A Variable's (or VariableType's) Value lives in a ValueCell shared by every snapshot of the
// address space, so a Write to a Value is seen by all readers without copying the node table;
// a live Variable gets its Value from ValueSource callbacks instead.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/addressspace/BlockPool.h"
#include "ua/server/addressspace/OutOfLine.h"
#include "ua/server/addressspace/ReferenceList.h"
#include "ua/server/addressspace/SharedAttributes.h"
#include "ua/server/addressspace/ValueCell.h"
#include "ua/types/Variant.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace ua {

struct MethodHandler;  // MethodHandler.h

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

// The node store's count of the table chunks that hold a Node (NodeTable.h): it lives in the
// Node's padding, so a stored node is one allocation without a control block. Copying a Node
// does not copy the count (the copy is held by no table yet).
class NodeStoreCount {
public:
    NodeStoreCount() = default;
    NodeStoreCount(const NodeStoreCount&) noexcept {}  // noexcept: a Node moves, not copies, in a vector
    NodeStoreCount& operator=(const NodeStoreCount&) noexcept { return *this; }
    void add() const { m_n.fetch_add(1, std::memory_order_relaxed); }
    // True when that was the last holder.
    bool drop() const { return m_n.fetch_sub(1, std::memory_order_acq_rel) == 1; }

private:
    mutable std::atomic<uint32_t> m_n{0};
};

// What few nodes have, in one block out of the Node (Node::rare): 8 bytes in a node that has none
// of them. Each is itself kept out of line, so a node with a Description pays for that alone.
struct RareFields {
    // Every NodeClass.
    OutOfLine<LocalizedText> description;  // null locale and text when there is none
    OutOfLine<Variant> rolePermissions;    // Array of ExtensionObject(RolePermissionType); Null = absent
    // ReferenceType.
    OutOfLine<LocalizedText> inverseName;  // absent when text and locale are null
    // Variable: set, the Value comes from these callbacks instead of the ValueCell.
    OutOfLine<ValueSource> source;
    // Method: what the Call service runs (MethodHandler.h); null: Bad_NotImplemented. Shared by snapshots.
    std::shared_ptr<const MethodHandler> method;
    // DataType: an ExtensionObject holding a StructureDefinition or EnumDefinition; Null = absent.
    OutOfLine<Variant> dataTypeDefinition;
};

struct Node {
    // The fields are ordered by size, not by NodeClass, and the small ones are bit-fields (no
    // padding: a million variables are a million Nodes, 120 bytes each); the comment on each says
    // which NodeClasses have it.

    // Every NodeClass (OPC 10000-3 5.2).
    NodeId nodeId;
    QualifiedName browseName;
    // The DisplayName when it is not the BrowseName's name without a locale (displayName()).
    OutOfLine<LocalizedText> ownDisplayName;

    // Every NodeClass: WriteMask, UserWriteMask, AccessRestrictions; Variable (and VariableType):
    // DataType, ValueRank, ArrayDimensions, AccessLevel(Ex), UserAccessLevel,
    // MinimumSamplingInterval, Historizing. Shared by the nodes that have the same values.
    OutOfLine<SharedAttributes> attrs;

    // Variable, VariableType.
    ValueCell::Ptr value;  // the stored Value (shared by every snapshot)
    // Description, RolePermissions, InverseName, DataTypeDefinition, a live Value's callbacks and a
    // Method's handler: most nodes have none of them (RareFields).
    OutOfLine<RareFields> rare;
    // References from and to this node (ReferenceList.h: cheap to copy however many there are).
    ReferenceList references;

    // Type nodes: the supertype (source of the inverse HasSubtype), kNoNode for none.
    NodeIndex superType = kNoNode;
    // Every NodeClass.
    // Non-zero: the node belongs to one Session (Session::scope), e.g. its SessionDiagnosticsObject
    // and everything below it: only that Session and SecurityAdmin see it
    // (users/NodeVisibility.h); to anyone else it does not exist (Bad_NodeIdUnknown).
    uint32_t sessionScope = 0;
    // Not an attribute: the node store's count.
    NodeStoreCount storeCount;
    // Every NodeClass (16 bits: the NodeClass values go up to 128).
    NodeClass nodeClass : 16 = NodeClass::Unspecified;
    // ObjectType, VariableType, ReferenceType, DataType.
    bool isAbstract : 1 = false;
    // ReferenceType.
    bool symmetric : 1 = false;
    // View.
    bool containsNoLoops : 1 = false;
    // Method.
    bool executable : 1 = true;
    bool userExecutable : 1 = true;
    // Object, View: EventNotifierType bits.
    uint8_t eventNotifier = 0;

    // A Node on the heap (the node store's) is a block of a BlockPool: no malloc header.
    static void* operator new(std::size_t size) {
        return size == sizeof(Node) ? BlockPool<sizeof(Node)>::allocate() : ::operator new(size);
    }
    static void operator delete(void* p, std::size_t size) noexcept {
        if (size == sizeof(Node)) BlockPool<sizeof(Node)>::deallocate(p);
        else ::operator delete(p);
    }

    // The DisplayName (OPC 10000-3 5.2.5): ownDisplayName when set, else the BrowseName's name
    // without a locale (as most NodeSets give it), which costs the node no storage.
    LocalizedText displayName() const {
        return ownDisplayName.isSet() ? ownDisplayName.get() : LocalizedText{String(), browseName.name};
    }
    // Keeps d only when displayName() would not give it already; set the BrowseName first.
    void setDisplayName(LocalizedText d) {
        if (d.locale.isNull() && !d.text.isEmpty() && d.text == browseName.name) ownDisplayName = OutOfLine<LocalizedText>();
        else ownDisplayName = std::move(d);
    }
    // Changes the BrowseName and keeps the DisplayName as it was.
    void renameBrowseName(QualifiedName name) {
        if (!ownDisplayName.isSet()) ownDisplayName = displayName();
        browseName = std::move(name);
    }
};

} // namespace ua
