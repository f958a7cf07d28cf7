// The demo's event load (issue 31 item 5): what the load tester's `events` scenario
// (docs/LoadTester.md "events") drives. In the demo namespace (urn:ua-workbench:demo):
//
//   Objects/Demo/Events                     ns=<demo>;s=Demo.Events (BaseObjectType)
//     GenerateEvents(EventsPerSecond UInt32, DurationMs UInt32) -> (NextSequence UInt64)
//   Types: BaseEventType / DemoLoadEventType   ns=<demo>;s=DemoLoadEventType
//     Sequence (UInt64, a Property, Mandatory)  the event's number, 1, 2, 3, ... over the server's life
//
// GenerateEvents raises EventsPerSecond DemoLoadEventType events a second from the Server object
// (SourceNode i=2253, so every event item on the Server object is offered them) for DurationMs,
// then stops by itself. The events are due on a fixed schedule from the call (event k of the run
// at start + k / EventsPerSecond) and raised in batches, each batch when its first event is due but
// at most every millisecond; a raising thread that falls behind catches up in batches of at most
// 5 ms of events. The fields: EventId (15 bytes, unique), EventType, SourceNode, SourceName
// "GenerateEvents", Time and ReceiveTime (when raised), Message "Load event", Severity
// = 1 + (617 x Sequence mod 1000) (617 and 1000 have no common factor: every 1000 consecutive
// Sequences have each Severity once, spread out, so a where clause Severity >= S lets an even
// stream through, not bursts; and a client with it knows which Sequences it must receive), and
// Sequence.
//
// Arguments (every value has an outcome; the Method's status is Bad_InvalidArgument with the
// argument's inputArgumentResults entry Bad_OutOfRange for a value out of range):
//   EventsPerSecond  0: stop the current run (Good also when none runs; DurationMs is then not
//                    looked at); 1 .. kMaxEventsPerSecond: start a run, replacing a running one (its
//                    Sequence goes on); above: Bad_OutOfRange
//   DurationMs       1 .. kMaxDurationMs when EventsPerSecond > 0; 0 or above: Bad_OutOfRange (a run
//                    always ends by itself, so that a client that goes away leaves no load behind)
//   NextSequence     the Sequence of the next event to be raised. After a call with 0 no event is
//                    raised until the next start, and every event raised had a smaller Sequence: a
//                    client that called start (F = NextSequence) and stop (L = NextSequence - 1) knows
//                    the run raised exactly the events F .. L.
// Runs on the Method worker pool (it may wait for a batch being raised). Calling needs the Call
// permission (users/Roles.h: the Operator Role; ua-server's demo configuration gives it to anonymous
// Sessions).
//
// Events are built only while someone wants them (EventManager::hasSubscribers(): an event item,
// or the event history); their Sequence goes on meanwhile. With the event history on (ua-server's
// default keeps the Server object's events, docs/History.md), every raised event is also written
// to the history: at high rates run the server with the history of events off
// (docs/Benchmarks.md "Events").
#pragma once

#include "ua/server/addressspace/NodeManager.h"
#include "ua/server/eventmodel/Event.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace ua {

class EventManager;

// What GenerateEvents drives: the events raised on a thread of its own (started by the first
// start()), owned by the Method's handler, so it lives as long as the address space that holds the
// Method. Thread-safe.
class EventLoadGenerator {
public:
    // events: where to raise (held weakly); eventType: DemoLoadEventType; sequenceKey: the event
    // field key of its Sequence (eventFieldKey of the browse path).
    EventLoadGenerator(std::weak_ptr<EventManager> events, const NodeId& eventType, std::string sequenceKey);
    ~EventLoadGenerator();  // ends the thread
    EventLoadGenerator(const EventLoadGenerator&) = delete;
    EventLoadGenerator& operator=(const EventLoadGenerator&) = delete;

    // A run of perSecond (> 0) events a second for durationMs (> 0), replacing a running one;
    // returns the next Sequence. Returns within one batch (at most 5 ms of events) also while the
    // thread is behind.
    uint64_t start(uint32_t perSecond, uint32_t durationMs);
    // Ends the run; returns the next Sequence: no event is raised until the next start. Returns
    // within one batch, as start().
    uint64_t stop();

private:
    void run();
    void raise(uint64_t n);  // under m_mutex
    std::unique_lock<std::mutex> lockForCaller();

    const std::weak_ptr<EventManager> m_events;
    const std::string m_sequenceKey;
    char m_idPrefix[7] = {};
    std::shared_ptr<const Event> m_prototype;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::atomic<int> m_callers{0};  // start()/stop() waiting for m_mutex: the thread lets them in between batches
    std::thread m_thread;
    bool m_quit = false;
    uint32_t m_rate = 0;            // 0: no run
    int64_t m_runStartNs = 0, m_runEndNs = 0;
    uint64_t m_raisedInRun = 0;
    uint64_t m_next = 1;            // the Sequence of the next event
};

class DemoEventLoadManager final : public NodeManager {
public:
    static constexpr uint32_t kMaxEventsPerSecond = 1'000'000;
    static constexpr uint32_t kMaxDurationMs = 86'400'000;  // a day
    static constexpr const char* kEventType = "DemoLoadEventType";
    static constexpr const char* kSequence = "Sequence";
    // The Severity of the event with this Sequence: 1 .. 1000.
    static uint16_t severityOf(uint64_t sequence) { return uint16_t(1 + sequence % 1000 * 617 % 1000); }

    // Shares the demo namespace (DemoNodeManager::kUri); install after DemoNodeManager (Objects/Demo).
    // events: the server's, held weakly (the generator outlives nothing it raises into).
    explicit DemoEventLoadManager(std::weak_ptr<EventManager> events);
    ~DemoEventLoadManager() override;

protected:
    StatusCode populate(AddressSpace& space) override;

private:
    std::weak_ptr<EventManager> m_events;
};

} // namespace ua
