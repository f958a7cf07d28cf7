// HistoryRead and HistoryUpdate (OPC 10000-4 5.11.3 and 5.11.5, of the Attribute Service Set; the
// details of OPC 10000-11 6.5 and 6.8), over the server's HistoryManager.
//
// The request is checked on the I/O thread serving it, against its address space snapshot:
//   service: Bad_NothingToDo (no operations), Bad_TooManyOperations (OperationLimits
//            maxNodesPerHistoryReadData / maxNodesPerHistoryUpdateData), Bad_TimestampsToReturnInvalid
//            (NEITHER or not an enumerant), Bad_HistoryOperationInvalid (details missing or of no
//            history type), Bad_HistoryOperationUnsupported (annotations, structure or event
//            updates, or a server without history);
//   operation: Bad_NodeIdUnknown, Bad_HistoryOperationUnsupported (not a Variable whose
//            AccessLevel has HistoryRead / HistoryWrite), Bad_UserAccessDenied (the user lacks
//            ReadHistory, InsertHistory, ModifyHistory or DeleteHistory), Bad_IndexRangeInvalid,
//            Bad_DataEncodingInvalid, Bad_ContinuationPointInvalid, and those of
//            history/RawHistoryRead.h.
// What passes is served on the history thread, which sends the response (HistoryServiceContext::
// deferred): the I/O thread never waits for the database.
//
// Read Event (ReadEventDetails, HistoryReadEvents.cpp; OPC 10000-11 6.5.2): the nodes are
// HistoricalEventNodes (an Object or View whose EventNotifier has the HistoryRead bit, else
// Bad_HistoryOperationUnsupported); every operation gets Bad_InvalidTimestampArgument (fewer than
// two of startTime, endTime, numValuesPerNode) or Bad_EventFilterInvalid (no select clause, every
// select clause bad, or a bad where clause) when the details are wrong; Bad_HistoryOperationUnsupported
// for every node when the server keeps no events. The result is a HistoryEvent with one
// HistoryEventFieldList per event, its fields in select clause order (history/EventHistory.h).
//
// HistoryUpdate: UpdateDataDetails (Insert, Replace, Update; per value Good_EntryInserted,
// Good_EntryReplaced, Bad_EntryExists, Bad_NoEntryExists, Bad_InvalidTimestamp for a value without
// SourceTimestamp or with one later than the server's clock), DeleteRawModifiedDetails (startTime included, endTime excluded; Bad_NoData when
// nothing was there; isDeleteModified deletes the recorded modifications), DeleteAtTimeDetails
// (per time Good or Bad_NoEntryExists).
#pragma once

#include "ua/server/common/ResponseTarget.h"
#include "ua/server/common/ServiceContext.h"

#include <functional>

namespace ua {

class HistoryManager;

struct HistoryServiceContext {
    const ServiceContext& sc;
    HistoryManager* history = nullptr;  // null: the server keeps no history
    ResponseTarget target;              // where the history thread sends the response
    uint32_t sessionScope = 0;          // the Session's ContinuationPoints
    std::string user;                   // ModificationInfo userName
    bool deferred = false;              // set when the response is sent later
    // HistoryUpdate's audit events (events/AuditEvents.h), called with the request's details and
    // the response once the work is done (on the history thread when deferred); empty: none.
    std::function<void(const Array<ExtensionObject>&, const HistoryUpdateResponse&)> audit;
};

void handleHistoryRead(HistoryServiceContext& ctx, const HistoryReadRequest& req, HistoryReadResponse& resp);
void handleHistoryReadEvents(HistoryServiceContext& ctx, const HistoryReadRequest& req, const ReadEventDetails& details,
                             HistoryReadResponse& resp);
void handleHistoryUpdate(HistoryServiceContext& ctx, const HistoryUpdateRequest& req, HistoryUpdateResponse& resp);

} // namespace ua
