// What one load-test step does (guide/benchmarks.md "Scenarios"): the target (endpoint, security,
// user), the scenario and its shape (sessions x outstanding requests, closed or open loop), the
// durations, and the nodes it uses. Every duration is in seconds unless its name says ms.
// Serialised to JSON for saved runs and the command line's --json (toJson/fromJson).
#pragma once

#include "ua/encoding/generated/Types.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace ua::loadtest {

// One request of each scenario (guide/benchmarks.md):
//   Read      Read of valuesPerRequest Value attributes (OPC 10000-4 5.10.2) of the benchmark
//             variables, a different random subset each time
//   Write     Write of valuesPerRequest Int32 Values (5.10.4) to the benchmark variables
//   Browse    Browse of browseNode (default the Server object, i=2253), all references, both
//             directions (5.8.2), ContinuationPoints followed
//   Subscribe monitoredItems MonitoredItems per session sampling counterNode every
//             samplingIntervalMs in one Subscription publishing every publishingIntervalMs
//             (5.13, 5.12); "requests" are Publish responses, "values" notifications
//   Connect   a storm: each of `sessions` workers loops open SecureChannel + CreateSession +
//             ActivateSession + CloseSession + CloseSecureChannel; "requests" are completed cycles
//   HistoryRead  HistoryRead Read Raw (OPC 10000-4 5.11.3, OPC 10000-11 6.5.3) of valuesPerRequest
//             historized nodes (historyNodes, consecutive from a random one), from now -
//             historySpanS forward, numValuesPerNode historyValuesPerNode, no bounds; "values" are
//             the DataValues returned. When the server has more, the ContinuationPoints are
//             released (a second HistoryRead, releaseContinuationPoints) before the request counts
//             as answered, so that no step leaves ContinuationPoints behind on the server.
//   Events    each Session: one Subscription publishing every publishingIntervalMs with one event
//             MonitoredItem on the Server object (i=2253, EventNotifier; queue eventQueueSize,
//             discardOldest) whose EventFilter selects EventId, EventType, Time, Severity and the
//             Sequence of our demo's DemoLoadEventType, where Severity >= eventMinSeverity. With
//             eventRate > 0 the runner makes our server raise eventRate events a second
//             (Demo/Events/GenerateEvents, server-app/demo/DemoEventLoad.h) from the start of the
//             load until the measured period ends, then waits for the events still on their way.
//             "requests" are NotificationMessages, "values" the events delivered (all Sessions);
//             latency is per event, from its Time field to its arrival (same clock: the server on
//             this machine). Lost events: StepResult::eventsLost.
enum class Scenario { Read, Write, Browse, Subscribe, Connect, HistoryRead, Events };
// "read", "write", "browse", "subscribe", "connect", "history-read", "events".
QString scenarioName(Scenario s);
std::optional<Scenario> scenarioFromName(const QString& name);

struct LoadParameters {
    // --- Target ---
    QString endpointUrl = QStringLiteral("opc.tcp://localhost:4840");
    // A SecurityPolicy URI (ua/secure/SecurityPolicy.h); empty = None. With a secure policy the
    // client certificate comes from pkiDir (created there on first use).
    QString securityPolicyUri;
    MessageSecurityMode securityMode = MessageSecurityMode::None;
    QString userName;  // empty: anonymous
    QString password;  // never written by toJson()
    QString pkiDir;    // empty: <app data>/loadtest-pki
    // Trust the server's certificate without asking (a load tester's default: it measures, it does
    // not protect anything).
    bool trustServer = true;
    // Reverse Connect (OPC 10000-6 7.1.3): > 0, the Sessions' connections are the ones the server
    // opens to this TCP port (client/channel/ReverseListener.h), its ReverseHello naming
    // endpointUrl; nothing is dialled.
    quint16 reverseListenPort = 0;

    // --- Load ---
    Scenario scenario = Scenario::Read;
    int valuesPerRequest = 1;  // Read / Write
    int sessions = 1;          // Sessions, each on a SecureChannel of its own
    int outstanding = 1;       // requests in flight per Session (closed loop: always this many)
    double durationS = 10;     // the measured period
    double warmupS = 2;        // the same load before it; its figures are discarded
    // Open loop when > 0: requests/s over all Sessions, each with an intended send time on a fixed
    // schedule; latency is measured from the intended time, so a stalled server shows in the tail
    // (no coordinated omission). At most `outstanding` in flight per Session: the rest wait (and
    // their latency grows). 0: closed loop (a response sends the next request).
    double targetRate = 0;
    uint32_t requestTimeoutMs = 5000;  // a request unanswered this long counts as a timeout
    // The client I/O threads shared by every Session; 0: chosen from the Sessions (resolvedIoThreads).
    int ioThreads = 0;
    int connectWindow = 32;            // Session establishments in flight at once while connecting

    // --- Nodes ---
    // The benchmark variables: Int32 nodes ns=<namespace>;i=firstVariableId + k, k < variableCount.
    // variableNamespaceUri empty: namespace index 1 (the server's own namespace, as in our server
    // and tests/interop/node_bench_server.js).
    QString variableNamespaceUri;
    uint32_t firstVariableId = 1000;
    int variableCount = 100;
    QString browseNode = QStringLiteral("i=2253");
    // Subscribe: the counter sampled (NodeId text, "nsu=" allowed). Empty: our server's demo Ramp
    // (a counter stepping on every demoUpdateRateMs boundary).
    QString counterNode;
    int monitoredItems = 100;  // per Session
    double samplingIntervalMs = 10;
    double publishingIntervalMs = 100;
    uint32_t queueSize = 30;
    // Publish requests each Session keeps outstanding (ClientConfig::publishRequests); 0: the
    // client's own rule (2 for one Subscription). A cycle of more notifications than fit one
    // NotificationMessage (the server's maxNotificationsPerPublish) needs several.
    uint32_t publishRequests = 0;
    // The Subscription's requested counts (OPC 10000-4 5.14.2: the server makes the lifetime at
    // least 3 x the keep-alive count).
    uint32_t maxKeepAliveCount = 10;
    uint32_t lifetimeCount = 60;
    // HistoryRead: the historized nodes (NodeId text, "nsu=" allowed); empty: our server's demo
    // Sine, Ramp and Random (historized by its default configuration, docs/History.md).
    QStringList historyNodes;
    int historyValuesPerNode = 1000;  // numValuesPerNode of each Read Raw, 1..100,000
    double historySpanS = 3600;       // each request reads from (now - historySpanS) forward, in s
    // Events: the events our server raises a second (GenerateEvents' EventsPerSecond, whatever
    // the Sessions), 0..1,000,000; 0 calls nothing and measures the events the server raises by
    // itself (then no loss is counted but the queue overflows the server reports).
    uint32_t eventRate = 1000;
    int eventMinSeverity = 1;         // the where clause: Severity >= this, 1..1000 (1: every event)
    uint32_t eventQueueSize = 10000;  // the event item's requested queue size (the server revises it)

    // --- Server figures ---
    // The server's process id on this machine (its CPU time and RSS from /proc); 0: unknown.
    qint64 serverPid = 0;
    // Read Server.ServerDiagnostics.ServerDiagnosticsSummary (i=2275) before and after the step.
    bool readServerDiagnostics = true;

    // ioThreads, or when 0 one per kSessionsPerIoThread Sessions (rounded up), at most the machine's
    // cores (QThread::idealThreadCount), at least 1: a storm of 1,000 secure Sessions on one thread
    // answers its responses too late (their timeouts pass while the thread does RSA work).
    static constexpr int kSessionsPerIoThread = 100;
    int resolvedIoThreads() const;

    QJsonObject toJson() const;
    // Missing keys keep their defaults; a wrong type or value: nullopt with *error set.
    static std::optional<LoadParameters> fromJson(const QJsonObject& o, QString* error = nullptr);
};

// The scenario with its shape, as result lines, file names and the comparison name a step:
// "read-10", "write-1", "subscribe-100", "history-read-10x1000" (nodes x values per node),
// "events-10000" (events raised a second; "events-10000-sev500" with a where clause Severity >= 500),
// "browse", "connect".
QString stepShape(const LoadParameters& p);

// The events scenario's arithmetic of our demo's event load (DemoEventLoad.h): the event with
// Sequence k has Severity 1 + (617 k mod 1000): every 1000 consecutive Sequences have each Severity
// once.
namespace events {
inline int severityOf(uint64_t sequence) { return int(1 + sequence % 1000 * 617 % 1000); }
// How many of the Sequences first .. last (both included; none when last < first) have
// Severity >= minSeverity (1..1000).
uint64_t expectedCount(uint64_t first, uint64_t last, int minSeverity);
// The last of them, 0 when there is none.
uint64_t lastExpected(uint64_t first, uint64_t last, int minSeverity);
} // namespace events

} // namespace ua::loadtest
