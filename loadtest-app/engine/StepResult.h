// The figures of one step (one LoadParameters at one sessions x outstanding point) and of a whole
// run (a sweep of steps), as the engine measures them and as saved runs hold them (JSON; CSV one
// row per step). Units: latency µs, CPU ms, memory kB, rates per second, durations seconds.
//
// Counting: a request counts when it was *sent* during the measured period, and is counted exactly
// once when it ends, even after the period (the engine waits for the ones still in flight, up to
// their timeout): sent == answered + errors + timeouts always holds.
#pragma once

#include "LatencyHistogram.h"
#include "LoadParameters.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <vector>

namespace ua::loadtest {

// Once a second while a step runs (the live charts): figures of that second.
struct TimelineSample {
    // The end of the sample's second since the step's measurement began (<= 0 for warm-up samples;
    // the warm-up's last, partial second is sampled when the measurement begins, and the
    // measurement's last partial second when it ends).
    double tS = 0;
    bool warmup = false;
    int sessions = 0;
    int outstanding = 0;
    double requestsPerS = 0;
    double valuesPerS = 0;
    double p50Us = 0, p90Us = 0, p99Us = 0, maxUs = 0;  // of the requests answered in that second
    uint64_t errors = 0;                                 // errors + timeouts in that second
    double clientCpuPercent = 0;                         // of one core (200 = two cores busy)
};

// The ServerDiagnosticsSummary (OPC 10000-5 6.3.1 / 12.9; i=2275) as read after the step, and the
// change of each counter since before it. Absent when the server does not expose it.
struct ServerDiagnostics {
    std::map<QString, qint64> after;   // field name (e.g. "currentSessionCount") -> value
    std::map<QString, qint64> delta;   // after - before
};

// A distributed run (several processes, the ranks of an MPI job; RankMerge.h): what one rank
// drove and measured of a step. The step's own figures are the merge of every rank's.
struct RankShare {
    int rank = 0;
    QString host;                // where the rank ran (MPI_Get_processor_name)
    int sessions = 0;            // its share of the step's Sessions
    double targetRate = 0;       // open loop: its share of the rate (requests/s); 0 closed loop
    QString error;               // why it could not run the step; empty when it ran
    uint64_t sent = 0, answered = 0, errors = 0, timeouts = 0;
    double requestsPerS = 0;
    double p99Us = 0;
    double clientCpuPercent = 0; // of one core, on its machine
    long clientRssKb = -1;
    LatencyHistogram latency;    // its own histogram (the step's is the bucket-by-bucket sum)

    QJsonObject toJson() const;
    static std::optional<RankShare> fromJson(const QJsonObject& o, QString* error = nullptr);
};

struct StepResult {
    int sessions = 0;
    int outstanding = 0;
    double durationS = 0;        // measured period actually run
    QString error;               // set when the step could not run at all (e.g. no connection)

    // Counts over the measured period (see the header comment).
    uint64_t sent = 0;
    uint64_t answered = 0;       // Good service result (and Good operation results)
    uint64_t errors = 0;         // a Bad service result or a Bad operation result
    uint64_t timeouts = 0;       // Bad_Timeout from the client (no answer in requestTimeoutMs)
    std::map<QString, uint64_t> errorsByStatus;  // status name (e.g. "Bad_TooManySessions") -> count
    double requestsPerS = 0;     // answered / durationS
    double valuesPerS = 0;       // values read/written, references browsed, notifications received
    LatencyHistogram latency;    // µs, of answered requests (open loop: from the intended send time)
    double p50Us = 0, p90Us = 0, p99Us = 0, p999Us = 0, maxUs = 0, meanUs = 0;

    // Subscribe: per-item sample fidelity = notifications received / counter steps the item should
    // have seen (guide/benchmarks.md "Subscription fidelity").
    double notificationsPerS = 0;
    double minFidelityPercent = -1;   // -1: not a subscribe step
    double meanFidelityPercent = -1;
    int itemsBelow99 = 0;

    // Events (LoadParameters.h): events delivered a second inside the measured period, all Sessions
    // (= valuesPerS; latency is per event, from its Time field). What the server raised (our demo's
    // GenerateEvents, its Sequences F .. L from the start of the load to the end of the period) and
    // what became of it: each Session's item must receive every event of F .. L whose Severity
    // passes its where clause (Severity = 1 + 617 x Sequence mod 1000, so the count is known); the
    // runner waits for them after the period (up to requestTimeoutMs + 2 s). eventsLost = expected
    // - received over all Sessions, warm-up and the wait included; -1 when unknown (eventRate 0,
    // or GenerateEvents' stop failed). eventOverflows counts the EventQueueOverflowEventType
    // notifications (the server's own word that an item's queue dropped events; in the events
    // received too, not in eventsLost). Out of order: a Sequence not above the Session's last
    // one (a duplicate or a reordering; not counted as received).
    double eventsPerS = 0;
    uint64_t eventsRaised = 0;          // L - F + 1 (0 unknown)
    double eventsRaisedPerS = 0;        // eventsRaised over the time from the start call to the stop call
    uint64_t eventsExpected = 0;        // over all Sessions
    uint64_t eventsReceived = 0;        // of those, received (in order)
    int64_t eventsLost = -1;
    uint64_t eventOverflows = 0;
    uint64_t eventsOutOfOrder = 0;

    // Connect: completed establishments per second (= requestsPerS), Bad_ServerTooBusy /
    // Bad_TcpServerTooBusy answers seen, retries made after them (with back-off).
    double sessionsPerS = 0;
    uint64_t serverTooBusy = 0;
    uint64_t retries = 0;

    // Setting up the step's Sessions before the load (not the connect scenario, whose workers connect
    // in the load): seconds from the first connect until every Session was set up (subscribe: with
    // its Subscription and MonitoredItems), and Sessions set up per second over that time. 0 when
    // no Session was set up.
    double setupS = 0;
    double setupSessionsPerS = 0;
    int ioThreads = 0;                // the client I/O threads the step ran with (LoadParameters::ioThreads resolved)
    // Open loop: how often the pacers woke to send what was due, over the whole step (warm-up
    // included); about once per due request at low rates, at most ~1,000 a second per I/O thread.
    uint64_t pacerWakeups = 0;

    // The load generator over the measured period: CPU of its I/O threads (where requests are built,
    // sent, answered and recorded; not a server in the same process), RSS of this process.
    double clientCpuMsPerOp = 0;
    double clientCpuPercent = 0;      // of one core
    long clientRssKb = -1;
    bool generatorSaturated = false;  // the client used (nearly) all of a core per I/O thread
    // The server, when LoadParameters::serverPid is known (-1 otherwise).
    double serverCpuMsPerOp = -1;
    double serverCpuPercent = -1;
    long serverRssKb = -1;
    // The server's RSS when the step started, before its Sessions were opened (in a sweep: before
    // the sweep's first step's Sessions); -1 unknown. The step's Sessions cost
    // (serverRssKb - serverRssBeforeKb) / sessions each.
    long serverRssBeforeKb = -1;
    // KB of server RSS per Session of this step (the growth from before its Sessions to the end of
    // the period, over the Sessions; negative when the server gave memory back); NaN when unknown.
    double serverKbPerSession() const;
    std::optional<ServerDiagnostics> serverDiagnostics;

    bool connectionBroken = false;    // a Session's connection was lost during the step
    QString beatenBy;                 // sweep: why this step beat the server ("errors 3.2 % > 1 %"); empty if not
    QStringList warnings;             // e.g. the generator saturated
    std::vector<TimelineSample> timeline;
    // A distributed run: each rank's share, in rank order (empty for a run in one process).
    std::vector<RankShare> ranks;

    // Recomputes p50..meanUs and requestsPerS from latency, answered and durationS.
    void computeFigures();
    QJsonObject toJson() const;
    static std::optional<StepResult> fromJson(const QJsonObject& o, QString* error = nullptr);
};

// When a step beats the server (guide/benchmarks.md "Sweeps"); a sweep dimension stops there.
struct StopRules {
    double maxErrorFraction = 0.01;     // (errors + timeouts) / sent above it
    double maxP99Factor = 10;           // p99 above this times the lightest step's p99
    double minThroughputFactor = 0.5;   // requests/s below this times the previous step's
    bool brokenConnection = true;       // a lost connection
};

// A sweep dimension typed as text, "1, 2, 5, 10": whole numbers 1..1,000,000 in any order, spaces
// allowed around each, returned sorted and de-duplicated ("5,2,1,2" is 1,2,5); nullopt for an empty
// list or anything else (the command line's --sessions/--outstanding and the window's fields).
std::optional<std::vector<int>> parseStepList(const QString& text);

struct SweepPlan {
    std::vector<int> sessions{1};       // ascending
    std::vector<int> outstanding{1};    // ascending
    StopRules stopRules;
};

struct RunResult {
    QString label;                      // e.g. "ours" or "node-opcua", or the endpoint
    QString machine;                    // machineDescription()
    QString version;                    // UA_WORKBENCH_VERSION of the tool
    QDateTime startedUtc;
    LoadParameters parameters;          // sessions/outstanding are those of each step
    SweepPlan plan;
    std::vector<StepResult> steps;

    QJsonObject toJson() const;
    static std::optional<RunResult> fromJson(const QJsonObject& o, QString* error = nullptr);
    // One header row, then one row per step: scenario, sessions, outstanding, requests/s, values/s,
    // p50..max µs, sent, answered, errors, timeouts, client and server CPU ms/op, RSS kB, beatenBy.
    QString toCsv() const;
};

} // namespace ua::loadtest
