// The hot path of a step (internal to the engine; LoadRunner.cpp drives it): the Sessions'
// requests of each scenario, sent and answered on the ua::Client I/O threads, and the counts they
// record there. Every Session belongs to one I/O thread; everything a Session or an IoStats holds
// is touched by that thread only (no locks), except the atomics the runner's thread reads to know
// when the step has drained. The runner collects an IoStats' counts by posting to its anchor.
//
// Counting (StepResult.h): a request counts when it starts inside [measureStartNs, measureEndNs)
// (open loop: its intended send time), and is counted once when it ends.
#pragma once

#include "LatencyHistogram.h"
#include "LoadParameters.h"

#include "ua/client/Client.h"

#include <QObject>
#include <QTimer>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <vector>

namespace ua::loadtest::detail {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

int64_t steadyNs();
// "Bad_Timeout" (the specification's spelling) for a StatusCode.
QString statusName(StatusCode s);
// The CPU time (ms, user + system) of a thread of this process (Linux /proc/self/task/TID/stat); -1: unknown.
double threadCpuMs(qint64 tid);
qint64 currentThreadId();
// ns=<ns>;i=first .. first + count - 1.
std::vector<NodeId> numericNodes(uint16_t ns, uint32_t first, int count);

// Counts of requests that ended (of the measured period, or of one second of the timeline).
struct Counts {
    uint64_t sent = 0;
    uint64_t answered = 0;
    uint64_t errors = 0;
    uint64_t timeouts = 0;
    uint64_t values = 0;          // values read/written, references, notifications
    // Good answers (and their values) that arrived inside the measured period, whenever they were
    // sent: the throughput. (An open loop that the server cannot keep up with answers its requests
    // after the period; counting those by send time would report the target rate.)
    uint64_t answeredInPeriod = 0;
    uint64_t valuesInPeriod = 0;
    uint64_t serverTooBusy = 0;   // connect
    uint64_t retries = 0;         // connect
    uint64_t pacerWakeups = 0;    // open loop: runs of the pacers (the whole step, not only the period)
    uint64_t eventOverflows = 0;  // events: EventQueueOverflowEventType notifications
    std::map<QString, uint64_t> errorsByStatus;
    LatencyHistogram latency;     // µs
    void merge(const Counts& o);
};

// Subscribe: one MonitoredItem's notifications inside the measured period.
struct ItemSamples {
    int64_t firstTicks = -1;   // SourceTimestamp (100 ns) of the first and last one
    int64_t lastTicks = -1;
    uint64_t received = 0;
};

struct Session;

// The figures of one I/O thread and the objects living there.
struct IoStats {
    QObject* anchor = nullptr;    // lives in the I/O thread: timers and posted work
    // Open loop: a single-shot timer armed for the next send the schedule has due on this thread
    // (created in the thread). It never ticks when nothing is due: 30 requests/s wake it about 30
    // times a second, whatever the number of Sessions.
    QTimer* pacer = nullptr;
    qint64 tid = 0;
    Counts measured;
    Counts second;                // everything that ended since the last timeline sample
    std::atomic<int64_t> inFlight{0};  // requests (connect: cycles) started and not ended
    // Written by this I/O thread only (read by the runner's): a load and a store, not a locked
    // read-modify-write per request.
    void addInFlight(int64_t d) { inFlight.store(inFlight.load(std::memory_order_relaxed) + d, std::memory_order_relaxed); }
    std::atomic<int64_t> backlog{0};   // open loop: due by the schedule, not sent yet (at most outstanding in flight)
    // Open loop: the schedule as this thread sees it. The whole schedule sends request j at
    // loadStart + j / rate from Session j mod sessions, so this thread's entries come due in the
    // order of `paced` (its Sessions by index), round after round; (paced[cursor], round) is the
    // next entry not passed yet. A pacer run visits only the entries that came due: O(1) per
    // request, not a scan of the Sessions.
    std::vector<Session*> paced;
    std::size_t cursor = 0;
    uint64_t round = 0;
    int64_t unsent = 0;           // passed entries not sent yet (what `backlog` publishes)
    // Read: one request per start variable, built once and shared by the thread's Sessions (the
    // client encodes it at once; its RequestHeader is filled per send), so a request costs no
    // NodeId copies. Empty when variables x valuesPerRequest is over kMaxPrebuiltValues.
    std::vector<ReadRequest> reads;
};

class Engine;

struct Session {
    Engine* engine = nullptr;
    Client* client = nullptr;
    IoStats* io = nullptr;
    int index = 0;
    int inFlight = 0;
    uint64_t rng = 0;
    int32_t writeValue = 0;
    ReadRequest readRequest;      // Read without IoStats::reads: reused, its NodeIds set per request
    uint64_t nextK = 0;           // open loop: the next send of this Session's schedule
    std::size_t pacedAt = 0;      // open loop: its place in IoStats::paced
    bool lost = false;            // its connection is gone: it sends no more
    SubscriptionHandle subscription = 0;
    std::vector<ItemSamples> items;
    int64_t minStepTicks = std::numeric_limits<int64_t>::max();  // the smallest change of an item's SourceTimestamp
    int busyAttempts = 0;         // connect: retries of the current cycle after a "too busy"
    int64_t cycleStartNs = 0;
    bool cycleCounted = false;
    bool setUp = false;           // its Session is activated (set-up phase; the runner's thread)
    // Events: the load events (a Sequence from Engine::firstSequence on) its item received in order,
    // and those that came out of order (a Sequence not above the last). lastSequence is written by
    // its I/O thread and read by the runner's (the wait for the last events).
    uint64_t eventsReceived = 0;
    uint64_t eventsOutOfOrder = 0;
    std::atomic<uint64_t> lastSequence{0};
};

// Events: the select clauses of the event item, in this order (LoadParameters.h).
enum EventField : std::size_t { kEventId, kEventType, kEventTime, kEventSeverity, kEventSequence, kEventFieldCount };

class Engine {
public:
    LoadParameters p;
    bool openLoop = false;
    std::vector<NodeId> variables;   // the benchmark variables (Read, Write)
    NodeId browseNode;
    NodeId counterNode;
    std::vector<NodeId> historyNodes;  // HistoryRead: p.historyNodes resolved
    // Events: the Sequence of the first event our server raised for this step (GenerateEvents'
    // NextSequence when the load started); 0 while unknown (eventRate 0, or not started yet).
    std::atomic<uint64_t> firstSequence{0};
    int64_t loadStartNs = 0;         // the open loop's schedule starts here
    double nsPerRequest = 0;         // open loop: 1e9 / targetRate
    std::atomic<int64_t> measureStartNs{kNever};
    std::atomic<int64_t> measureEndNs{kNever};
    std::atomic<bool> sending{false};   // false: nothing new is sent (stop, teardown)
    std::vector<std::unique_ptr<IoStats>> io;
    std::vector<std::unique_ptr<Session>> sessions;

    // On the Session's I/O thread: its first requests (closed loop), or its first connect cycle.
    void begin(Session& s);
    // Open loop, on an I/O thread when the load starts: its Sessions in schedule order, then the
    // first pacer run.
    void startPacing(IoStats& io);
    // Open loop: the Session's requests due inside the measured period (by the schedule) and
    // never sent (no free slot before the end): they count as sent and timed out.
    uint64_t unsentDue(const Session& s) const;
    // On an I/O thread, by its pacer: the Sessions whose schedule entries came due send them (as
    // far as their free slots allow; the rest go when answers free a slot), then the pacer is armed
    // for the next entry.
    void pace(IoStats& io);
    // Subscribe: a NotificationMessage for Session s (its I/O thread).
    void notified(Session& s, const SubscriptionNotification& n);
    // Events: a NotificationMessage of Session s's event item (its I/O thread): its events counted,
    // their latency from the Time field, the load events' Sequences checked.
    void eventsNotified(Session& s, const SubscriptionNotification& n);

private:
    void fill(Session& s, int64_t now);
    // Open loop: whether the pacer has passed Session s's k-th schedule entry.
    static bool passed(const IoStats& io, const Session& s, uint64_t k) {
        return k < io.round || (k == io.round && s.pacedAt < io.cursor);
    }
    // Open loop: Session s is lost; its passed and unsent entries leave the backlog.
    void dropFromSchedule(Session& s);
    int64_t intended(const Session& s, uint64_t k) const;
    void send(Session& s, int64_t fromNs);
    // Read: the valuesPerRequest variables from start on (wrapping) into r.
    void setReadNodes(ReadRequest& r, std::size_t start) const;
    // IoStats::reads is built when variables x valuesPerRequest is at most this (100 x 100 by
    // default: about 1 MB a thread).
    static constexpr std::size_t kMaxPrebuiltValues = 65536;
    // tag: the start time (ns) with bit 0 = counted.
    // receivedAtNs: ServiceResult::receivedAtNs (steady clock ns; 0 without a response).
    void ended(Session& s, int64_t tag, StatusCode status, uint64_t values, int64_t receivedAtNs);
    void record(IoStats& io, int64_t fromNs, int64_t nowNs, bool counted, StatusCode status, uint64_t values);
    // Connect: one channel + Session establishment and its closing, retried after "too busy".
    void startCycle(Session& s);
    void attempt(Session& s);
    void busy(Session& s, StatusCode status);
    void endCycle(Session& s, StatusCode status);
};

} // namespace ua::loadtest::detail
