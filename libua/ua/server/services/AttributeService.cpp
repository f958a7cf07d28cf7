#include "ua/server/services/AttributeService.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/EpochReclamation.h"
#include "ua/server/addressspace/NodeAttributes.h"
#include "ua/server/common/NumericRange.h"
#include "ua/server/common/ValueCheck.h"
#include "ua/server/users/NodeVisibility.h"
#include "ua/server/users/Roles.h"

#include <algorithm>
#include <cmath>

namespace ua {

namespace {

constexpr uint32_t kMaxAttributeId = uint32_t(AttributeId::AccessLevelEx);

DataValue failed(StatusCode s) {
    DataValue dv;
    dv.setStatus(s);
    return dv;
}

// out = failed(s), out of line: the Read's path keeps no registers for it.
[[gnu::noinline]] void setFailed(DataValue& out, StatusCode s) { out = failed(s); }

bool validAttributeId(uint32_t a) { return a >= 1 && a <= kMaxAttributeId; }

// The PermissionType bits of the context's user on node (users/Roles.h).
uint32_t permissionsOn(const ServiceContext& ctx, const Node& node) {
    return userPermissions(node, ctx.roles, ctx.permissions);
}

// The User... attributes as this user sees them (OPC 10000-3 5.2.8, 5.2.9, 5.6.2, 5.7).
void restrictUserAttribute(const ServiceContext& ctx, const Node& node, AttributeId attribute, Variant& v) {
    if (ctx.roles == kUnrestricted) return;
    const uint32_t perms = permissionsOn(ctx, node);
    switch (attribute) {
    case AttributeId::UserAccessLevel: v = userAccessLevel(node.attrs->userAccessLevel, perms); break;
    case AttributeId::UserWriteMask: v = userWriteMask(node.attrs->userWriteMask, perms); break;
    case AttributeId::UserExecutable: v = bool(node.userExecutable && (perms & uint32_t(PermissionType::Call))); break;
    case AttributeId::UserRolePermissions: {
        // Only the entries of the user's Roles.
        Array<ExtensionObject> mine = Array<ExtensionObject>::emptyArray();
        if (const auto* all = node.rare->rolePermissions->get<Array<ExtensionObject>>()) {
            for (const ExtensionObject& x : *all) {
                const RolePermissionType* rp = x.get<RolePermissionType>();
                const std::optional<Role> r = rp ? roleFromNodeId(rp->roleId) : std::nullopt;
                if (r && (ctx.roles & roleBit(*r))) mine.push_back(x);
            }
        }
        v = std::move(mine);
        break;
    }
    default: break;
    }
}

// No dataEncoding asked for: the Value as it is.
bool isDefaultEncoding(const QualifiedName& encoding) { return encoding.namespaceIndex == 0 && encoding.name.isEmpty(); }

// OPC 10000-4 7.11.1: no value with a Bad status. True when the status is Bad.
bool dropValueIfBad(DataValue& dv) {
    if (!(dv.hasStatus && dv.status.isBad())) return false;
    dv.value = Variant();
    dv.hasValue = false;
    return true;
}

// The dataEncoding check of OPC 10000-4 5.10.2.2 (1.05.03: the parameter is still in use).
StatusCode checkDataEncoding(const AddressSpace& space, const Node& node, AttributeId attribute,
                             const QualifiedName& encoding) {
    if (isDefaultEncoding(encoding)) return status::Good;
    if (attribute != AttributeId::Value) return status::BadDataEncodingInvalid;
    if (!space.isSubtypeOf(space.indexOf(node.attrs->dataType), space.indexOf(NodeId(id::Structure))))
        return status::BadDataEncodingInvalid;
    const std::string_view name = encoding.name.view();
    if (encoding.namespaceIndex != 0 || (name != "Default Binary" && name != "DefaultBinary"))
        return status::BadDataEncodingUnsupported;
    return status::Good;
}

// The current value of a Variable or VariableType: from its ValueSource, else its ValueCell.
DataValue currentValue(const Node& node) {
    if (node.rare->source->read) return node.rare->source->read();
    const auto stored = node.value ? node.value->load() : nullptr;
    return stored ? *stored : DataValue(Variant());
}

// currentValue() into out, every field: a stored value is copied over what out holds (a Variant
// of the same type is assigned, not destroyed and built again).
[[gnu::always_inline]] inline void currentValueInto(const Node& node, DataValue& out) {
    const RareFields* rare = node.rare.find();
    const ValueSource* source = rare ? rare->source.find() : nullptr;
    if (source && source->read) {
        out = source->read();
        return;
    }
    const DataValue* stored = node.value ? node.value->peek() : nullptr;  // under the caller's guard
    if (stored) out = *stored;
    else out = DataValue(Variant());
}

void applyTimestamps(DataValue& dv, TimestampsToReturn t, DateTime now, bool isValue) {
    const bool source = isValue && (t == TimestampsToReturn::Source || t == TimestampsToReturn::Both);
    const bool server = t == TimestampsToReturn::Server || t == TimestampsToReturn::Both;
    if (!source) {
        dv.hasSourceTimestamp = dv.hasSourcePicoseconds = false;
        dv.sourceTimestamp = {};
        dv.sourcePicoseconds = 0;
    }
    dv.hasServerPicoseconds = false;
    dv.serverPicoseconds = 0;
    if (server) dv.setServerTimestamp(now);
    else { dv.hasServerTimestamp = false; dv.serverTimestamp = {}; }
}

} // namespace

namespace {

// The access checks of a Value read (OPC 10000-4 5.10.2.2): Bad_NotReadable, Bad_UserAccessDenied.
[[gnu::always_inline]] inline StatusCode valueReadable(const ServiceContext& ctx, const Node& node) {
    if (node.nodeClass != NodeClass::Variable) return status::Good;  // a VariableType's Value
    if (!(node.attrs->accessLevel & access::CurrentRead)) return status::BadNotReadable;
    if (!(userAccessLevel(node.attrs->userAccessLevel, permissionsOn(ctx, node)) & access::CurrentRead))
        return status::BadUserAccessDenied;
    return status::Good;
}

// A Value with an IndexRange or a DataEncoding, or another attribute: every read but the plain
// Value's (readNodeInto). Out of line, so that the plain read keeps no registers for it.
[[gnu::noinline]] void readRangedOrOther(const ServiceContext& ctx, const Node& node, const ReadValueId& item,
                                         AttributeId attribute, TimestampsToReturn timestamps, DataValue& out) {
    NumericRange range;
    if (!item.indexRange.isEmpty())
        if (StatusCode s = NumericRange::parse(item.indexRange.view(), range); s.isBad()) return setFailed(out, s);
    if (StatusCode s = checkDataEncoding(ctx.addressSpace, node, attribute, item.dataEncoding); s.isBad())
        return setFailed(out, s);

    if (attribute == AttributeId::Value) {
        if (StatusCode s = valueReadable(ctx, node); s.isBad()) return setFailed(out, s);
        currentValueInto(node, out);
        if (!dropValueIfBad(out) && !range.isEmpty()) {
            Variant part;
            if (StatusCode s = readRange(out.value, range, part); s.isBad()) return setFailed(out, s);
            out.value = std::move(part);
            out.hasValue = true;
        }
    } else {
        Variant v;
        if (StatusCode s = readAttribute(node, attribute, v); s.isBad()) return setFailed(out, s);
        restrictUserAttribute(ctx, node, attribute, v);
        if (!range.isEmpty()) {
            Variant part;
            if (StatusCode s = readRange(v, range, part); s.isBad()) return setFailed(out, s);
            v = std::move(part);
        }
        out = DataValue(std::move(v));
    }
    applyTimestamps(out, timestamps, ctx.now, attribute == AttributeId::Value);
}

// readValueInto() of a node already found (nullptr: not found).
void readNodeInto(const ServiceContext& ctx, const Node* node, const ReadValueId& item, TimestampsToReturn timestamps,
                  DataValue& out) {
    if (!node || !nodeVisible(*node, ctx.sessionScope, ctx.roles)) return setFailed(out, status::BadNodeIdUnknown);
    if (!validAttributeId(item.attributeId)) return setFailed(out, status::BadAttributeIdInvalid);
    const auto attribute = AttributeId(item.attributeId);
    if (!hasAttribute(*node, attribute)) return setFailed(out, status::BadAttributeIdInvalid);
    if (attribute != AttributeId::Value || !item.indexRange.isEmpty() || !isDefaultEncoding(item.dataEncoding))
        return readRangedOrOther(ctx, *node, item, attribute, timestamps, out);
    // The plain Value read, most of all Reads.
    if (StatusCode s = valueReadable(ctx, *node); s.isBad()) return setFailed(out, s);
    currentValueInto(*node, out);
    dropValueIfBad(out);
    applyTimestamps(out, timestamps, ctx.now, true);
}

} // namespace

void readValueInto(const ServiceContext& ctx, const ReadValueId& item, TimestampsToReturn timestamps, DataValue& out) {
    readNodeInto(ctx, ctx.addressSpace.find(item.nodeId), item, timestamps, out);
}

DataValue readValue(const ServiceContext& ctx, const ReadValueId& item, TimestampsToReturn timestamps) {
    const epoch::ReadGuard guard;
    DataValue dv;
    readValueInto(ctx, item, timestamps, dv);
    return dv;
}

void handleRead(ServiceContext& ctx, const ReadRequest& req, ReadResponse& resp) {
    if (req.maxAge < 0 || std::isnan(req.maxAge)) {
        resp.responseHeader.serviceResult = status::BadMaxAgeInvalid;
        resp.results.setEmpty();
        return;
    }
    if (int32_t(req.timestampsToReturn) < 0 || req.timestampsToReturn > TimestampsToReturn::Neither) {
        resp.responseHeader.serviceResult = status::BadTimestampsToReturnInvalid;
        resp.results.setEmpty();
        return;
    }
    if (req.nodesToRead.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        resp.results.setEmpty();
        return;
    }
    if (ctx.limits.maxNodesPerRead && req.nodesToRead.size() > ctx.limits.maxNodesPerRead) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        resp.results.setEmpty();
        return;
    }
    // The reused response's results (ServiceDispatcher.cpp) are read into where they are: each
    // DataValue is overwritten whole, its Variant assigned rather than destroyed and built again.
    resp.results.setNotNull();
    resp.results.resize(req.nodesToRead.size());
    const epoch::ReadGuard guard;  // one for all the values of the request (ValueCell::peek)
    // In blocks: the block's nodes are found first, then read. Their lookups do not depend on each
    // other, so their cache misses overlap, and each node's first line is on its way (prefetch)
    // before the second pass reads it.
    constexpr std::size_t kBlock = 16;
    const Node* nodes[kBlock];
    const std::size_t n = req.nodesToRead.size();
    for (std::size_t at = 0; at < n; at += kBlock) {
        const std::size_t m = std::min(kBlock, n - at);
        for (std::size_t j = 0; j < m; ++j) {
            nodes[j] = ctx.addressSpace.find(req.nodesToRead[at + j].nodeId);
            if (nodes[j]) __builtin_prefetch(nodes[j]);
        }
        for (std::size_t j = 0; j < m; ++j)
            readNodeInto(ctx, nodes[j], req.nodesToRead[at + j], req.timestampsToReturn, resp.results[at + j]);
    }
    resp.diagnosticInfos.setEmpty();
}

namespace {

// The Value of a Variable or VariableType (5.10.4). Returns the result of the operation.
StatusCode writeValue(ServiceContext& ctx, const Node& node, const NumericRange& range, const DataValue& in) {
    const uint32_t perms = permissionsOn(ctx, node);
    if (node.nodeClass == NodeClass::Variable) {
        if (!(node.attrs->accessLevel & access::CurrentWrite)) return status::BadNotWritable;
        if (!(userAccessLevel(node.attrs->userAccessLevel, perms) & access::CurrentWrite)) return status::BadUserAccessDenied;
        if (in.hasStatus && !(node.attrs->accessLevel & access::StatusWrite)) return status::BadWriteNotSupported;
        if ((in.hasSourceTimestamp || in.hasServerTimestamp) && !(node.attrs->accessLevel & access::TimestampWrite))
            return status::BadWriteNotSupported;
    } else {
        const uint32_t bit = uint32_t(AttributeWriteMask::ValueForVariableType);
        if (!(node.attrs->writeMask & bit)) return status::BadNotWritable;
        if (!(userWriteMask(node.attrs->userWriteMask, perms) & bit)) return status::BadUserAccessDenied;
        if (in.hasStatus || in.hasSourceTimestamp || in.hasServerTimestamp) return status::BadWriteNotSupported;
    }
    if (node.rare->source->read && !node.rare->source->write) return status::BadNotWritable;

    DataValue next;
    next.setStatus(in.hasStatus ? in.status : status::Good);
    next.setSourceTimestamp(in.hasSourceTimestamp ? in.sourceTimestamp : ctx.now);
    next.setServerTimestamp(in.hasServerTimestamp ? in.serverTimestamp : ctx.now);
    if (in.hasSourcePicoseconds) next.setSourcePicoseconds(in.sourcePicoseconds);
    if (in.hasServerPicoseconds) next.setServerPicoseconds(in.serverPicoseconds);

    // The whole new value from a current one (with an IndexRange) and the written data.
    const auto compose = [&](const DataValue* current, DataValue& out) -> StatusCode {
        out = next;
        Variant v;
        if (range.isEmpty()) {
            v = in.value;
        } else {
            if (!current) return status::BadIndexRangeNoData;
            v = current->value;
            if (StatusCode s = writeRange(v, range, in.value); s.isBad()) return s;
        }
        if (StatusCode s = checkValueType(ctx.addressSpace, node, v); s.isBad()) return s;
        out.setValue(std::move(v));
        return status::Good;
    };

    if (node.rare->source->write) {
        DataValue current;
        if (!range.isEmpty()) current = currentValue(node);
        DataValue out;
        if (StatusCode s = compose(range.isEmpty() ? nullptr : &current, out); s.isBad()) return s;
        return node.rare->source->write(out);
    }
    if (!node.value) return status::BadNotWritable;
    return node.value->update(compose);
}

// A non-Value attribute, checked against the snapshot; applied later in one update.
StatusCode checkAttributeWrite(const ServiceContext& ctx, const Node& node, AttributeId attribute,
                               const NumericRange& range, const DataValue& in) {
    const uint32_t bit = writeMaskBit(node.nodeClass, attribute);
    if (!bit || !(node.attrs->writeMask & bit)) return status::BadNotWritable;
    if (!(userWriteMask(node.attrs->userWriteMask, permissionsOn(ctx, node)) & bit)) return status::BadUserAccessDenied;
    if (!range.isEmpty()) return status::BadWriteNotSupported;
    if (in.hasStatus || in.hasSourceTimestamp || in.hasServerTimestamp) return status::BadWriteNotSupported;
    Node scratch = node;  // type check without touching the shared node
    return setAttribute(scratch, attribute, in.value);
}

} // namespace

void handleWrite(ServiceContext& ctx, const WriteRequest& req, WriteResponse& resp) {
    if (req.nodesToWrite.empty()) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return;
    }
    if (ctx.limits.maxNodesPerWrite && req.nodesToWrite.size() > ctx.limits.maxNodesPerWrite) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        return;
    }
    resp.results = Array<StatusCode>::emptyArray();
    resp.results.resize(req.nodesToWrite.size());
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    std::vector<std::size_t> deferred;  // attribute writes for one SharedAddressSpace::update

    for (std::size_t i = 0; i < req.nodesToWrite.size(); ++i) {
        const WriteValue& w = req.nodesToWrite[i];
        StatusCode& result = resp.results[i];
        const Node* node = ctx.addressSpace.find(w.nodeId);
        if (!node || !nodeVisible(*node, ctx.sessionScope, ctx.roles)) { result = status::BadNodeIdUnknown; continue; }
        if (!validAttributeId(w.attributeId) || !hasAttribute(*node, AttributeId(w.attributeId))) {
            result = status::BadAttributeIdInvalid;
            continue;
        }
        NumericRange range;
        if (result = NumericRange::parse(w.indexRange.view(), range); result.isBad()) continue;
        if (!w.value.hasValue) { result = status::BadWriteNotSupported; continue; }
        const auto attribute = AttributeId(w.attributeId);
        if (attribute == AttributeId::Value) {
            result = writeValue(ctx, *node, range, w.value);
            continue;
        }
        result = checkAttributeWrite(ctx, *node, attribute, range, w.value);
        if (result.isGood()) {
            if (ctx.sharedAddressSpace) deferred.push_back(i);
            else result = status::BadWriteNotSupported;
        }
    }

    if (deferred.empty()) return;
    ctx.sharedAddressSpace->update([&](AddressSpace& space) {
        for (std::size_t i : deferred) {
            const WriteValue& w = req.nodesToWrite[i];
            Node* node = space.findMutable(w.nodeId);
            resp.results[i] = node ? setAttribute(*node, AttributeId(w.attributeId), w.value.value)
                                   : StatusCode(status::BadNodeIdUnknown);
        }
        return StatusCode(status::Good);
    });
}

} // namespace ua
