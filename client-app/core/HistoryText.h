// History values as text, the same for the command line (`ua-client history`) and the window's
// History trend (its table and CSV export): the status with its historian bits, the time a value
// is plotted and listed at, and a CSV field.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/types/Variant.h"
#include "ua/types/StatusCode.h"

#include <QString>

namespace ua::clientapp {

// "Good", "Good (Calculated, Partial)", "Uncertain_DataSubNormal (Calculated)", "Bad_NoData": the
// status by name with the historian bits of a HistoryRead value (OPC 10000-11 6.2.1); other info
// bits as app::statusName() writes them.
QString historyStatusText(StatusCode status);
// The time of a history value: its source timestamp, else its server timestamp (a value without
// a source timestamp); MinValue when it has neither.
DateTime historyValueTime(const DataValue& value);
// ISO 8601 UTC with milliseconds, "2026-11-30T10:00:00.100Z"; empty for MinValue.
QString historyTimeText(const DateTime& time);
// RFC 4180: a field with a comma, a quote or a line break quoted, its quotes doubled.
QString csvField(const QString& text);

// The BaseEventType fields an event history lists, in this order (`ua-client history --events`, the
// window's Event history), and the EventFilter of a ReadEventDetails that selects them (OPC 10000-11
// 6.5.2).
inline constexpr const char* kHistoryEventFields[] = {"Time", "Severity", "SourceName", "EventType", "Message"};
EventFilter historyEventFilter();
// The HistoryRead of node's events from startTime to endTime (ReadEventDetails with that filter, at
// most perRequest events; TimestampsToReturn Both), continuing at continuationPoint (empty: the
// first request); release: releaseContinuationPoints (the read stops there).
HistoryReadRequest historyEventRequest(const NodeId& node, DateTime startTime, DateTime endTime, uint32_t perRequest,
                                       const ByteString& continuationPoint, bool release);

} // namespace ua::clientapp
