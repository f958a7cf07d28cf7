// Event history (OPC 10000-11 5.4 HistoricalEventNodes, 6.5.2 ReadEventDetails): the events a
// historized notifier reported, kept in the history database and read back through the request's
// EventFilter. The history thread only (it uses the HistoryStore's database).
//
// Writing: record() keeps an event in memory; flush() writes what was kept in one transaction (the
// history thread calls it once a second and before every read, so a read sees every event recorded
// before it). An event is stored as its EventType and its fields (browse path key, Variant), UA
// Binary; the row's time is its Time field (100-ns ticks since 1601).
//
// Reading (readEvents): the time domain of 6.5.2.2. At least two of startTime, endTime
// (DateTime.MinValue: not given) and numValuesPerNode (0: no limit) must be given, else
// Bad_InvalidTimestampArgument. Events run forward from startTime (included) to endTime
// (excluded), or backward (newest first) from startTime when endTime < startTime, or from endTime
// when only endTime and numValuesPerNode are given. startTime == endTime reads the events of that
// instant. The whereClause picks the events, the selectClauses their fields (a field an event
// lacks is a Null Variant). numValuesPerNode counts the events returned; at most
// kMaxReturnEventValues go in one response, the rest follow with a ContinuationPoint
// (Good_MoreData). No event in the domain: Good_NoData with an empty HistoryEvent.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/eventmodel/Event.h"
#include "ua/server/eventmodel/EventFilter.h"

#include <QByteArray>

#include <cstdint>
#include <string>
#include <vector>

namespace ua {

class AddressSpace;
class HistoryDatabase;

// The most events one read returns per node (HistoryServerCapabilities MaxReturnEventValues).
inline constexpr std::size_t kMaxReturnEventValues = 10000;

// Where an event read stands: the (Time, row id) of the last event looked at.
struct EventReadPosition {
    bool started = false;
    int64_t time = 0;
    int64_t id = 0;
};

struct EventReadOutcome {
    StatusCode status;  // Good, Good_NoData, Good_MoreData (a ContinuationPoint follows), Bad_InvalidTimestampArgument
    HistoryEvent events;
    bool more = false;
    EventReadPosition next;  // when more
};

// Checks the time domain alone: Good or Bad_InvalidTimestampArgument.
StatusCode checkReadEventDetails(const ReadEventDetails& d);

// An event as stored, and back (nullptr when data is damaged).
QByteArray encodeEvent(const Event& e);
std::shared_ptr<Event> decodeEvent(const QByteArray& data);

class EventHistory {
public:
    explicit EventHistory(HistoryDatabase& db) : m_db(db) {}

    // Keeps e for each notifier (NodeId::toString); written at the next flush().
    void record(const EventPtr& e, const std::vector<std::string>& notifiers);
    // Writes what was recorded (one transaction); the number of rows.
    int flush();
    // Removes the events of notifier older than olderThanTicks.
    void trim(const std::string& notifier, int64_t olderThanTicks);

    // Read Event of one notifier from `at` (see the header); filter compiled against space.
    EventReadOutcome read(const std::string& notifier, const ReadEventDetails& d, const CompiledEventFilter& filter,
                          const AddressSpace& space, EventReadPosition at);

private:
    struct Pending {
        std::string notifier;
        int64_t time = 0;
        QByteArray data;
    };
    HistoryDatabase& m_db;
    std::vector<Pending> m_pending;
};

} // namespace ua
