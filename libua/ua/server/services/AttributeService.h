// The Attribute Service Set: Read (OPC 10000-4 5.10.2) and Write (5.10.4), served from the
// ServiceContext's address space on the calling thread.
//
// The caller fills the ResponseHeader (timestamp, requestHandle, a Good serviceResult); a handler
// only sets responseHeader.serviceResult when the request as a whole fails, and then leaves the
// results empty. diagnosticInfos are not returned (an empty array).
//
// Read, request level: Bad_MaxAgeInvalid (maxAge < 0 or NaN), Bad_TimestampsToReturnInvalid,
// Bad_NothingToDo (no nodesToRead), Bad_TooManyOperations (over maxNodesPerRead).
// Read, per operation (DataValue.status): Bad_NodeIdUnknown, Bad_AttributeIdInvalid (an unknown
// id, or an attribute the NodeClass does not have), Bad_IndexRangeInvalid / Bad_IndexRangeNoData
// (NumericRange.h), Bad_DataEncodingInvalid (a dataEncoding for an attribute other than Value, or
// for a Value whose DataType is not a Structure), Bad_DataEncodingUnsupported (any encoding but
// "Default Binary"), Bad_NotReadable / Bad_UserAccessDenied (AccessLevel / UserAccessLevel
// without CurrentRead). maxAge is met by reading the current value every time (the stored value or
// the ValueSource), so any maxAge >= 0 is served.
// Timestamps: a Value gets its SourceTimestamp (Source, Both) and a ServerTimestamp of
// ServiceContext::now (Server, Both); other attributes get only the ServerTimestamp (Server, Both).
//
// Write, request level: Bad_NothingToDo, Bad_TooManyOperations (over maxNodesPerWrite).
// Write, per operation: Bad_NodeIdUnknown, Bad_AttributeIdInvalid, Bad_IndexRangeInvalid,
// Bad_IndexRangeNoData, Bad_IndexRangeDataMismatch, Bad_TypeMismatch (ValueCheck.h, and for
// other attributes their OPC 10000-3 type), Bad_NotWritable (AccessLevel without CurrentWrite, a
// WriteMask without the attribute's bit, NodeId/NodeClass, a live Variable without a write
// callback), Bad_UserAccessDenied (UserAccessLevel / UserWriteMask), Bad_WriteNotSupported (a
// DataValue without a value; a StatusCode without the StatusWrite access bit, timestamps without
// TimestampWrite; an IndexRange on an attribute other than Value; an attribute other than Value
// when the context has no SharedAddressSpace). A written Value gets the given StatusCode and
// timestamps, or Good and ServiceContext::now.
// Writes of attributes other than Value are applied together in one SharedAddressSpace::update,
// so they show in the snapshots of later requests.
#pragma once

#include "ua/server/common/ServiceContext.h"

namespace ua {

void handleRead(ServiceContext& ctx, const ReadRequest& request, ReadResponse& response);
void handleWrite(ServiceContext& ctx, const WriteRequest& request, WriteResponse& response);

// One Read operation (also for MonitoredItems later): the DataValue 5.10.2 describes.
DataValue readValue(const ServiceContext& ctx, const ReadValueId& item, TimestampsToReturn timestamps);
// The same into out, every field of which is set (out may hold an earlier result: the Read
// service reads into its reused response's DataValues). The caller holds an epoch::ReadGuard
// (addressspace/EpochReclamation.h) for as long as it calls this: readValue() and handleRead()
// open one.
void readValueInto(const ServiceContext& ctx, const ReadValueId& item, TimestampsToReturn timestamps, DataValue& out);

} // namespace ua
