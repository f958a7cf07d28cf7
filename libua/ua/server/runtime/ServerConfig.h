// Configuration of a Server: endpoint, threads, transport and session limits.
#pragma once

#include "ua/secure/ServerSecureChannel.h"
#include "ua/server/runtime/AdmissionConfig.h"
#include "ua/server/runtime/ReverseConnectConfig.h"
#include "ua/server/runtime/ServerExtension.h"
#include "ua/server/runtime/ServerSecurityConfig.h"
#include "ua/server/common/ServiceContext.h"
#include "ua/server/conditions/AlarmDefinition.h"
#include "ua/server/history/HistoryManager.h"
#include "ua/server/subscriptions/SubscriptionConfig.h"
#include "ua/transport/TcpMessages.h"

#include <QHostAddress>
#include <QString>
#include <QStringList>

namespace ua {

struct ServerConfig {
    QString hostName;                      // in the endpoint URL; empty: this machine's host name
    quint16 port = 4840;                   // 0: any free port (see Server::port())
    QHostAddress listenAddress = QHostAddress::Any;
    int ioThreads = 0;                     // 0: defaultIoThreads()
    TransportLimits transport;             // UA-TCP buffer sizes and limits (bytes)
    SecureChannelConfig secureChannel;     // SecurityToken lifetimes (ms); its `security` is set by start()
    ServerSecurityConfig security;         // PKI, endpoints' policies and modes, user tokens
    QString applicationUri;                // empty: urn:<host>:UAWorkbench:Server
    QString productUri = QStringLiteral("urn:ua-workbench:server");
    QString applicationName = QStringLiteral("UA Workbench Server");
    double minSessionTimeoutMs = 10'000;   // revisedSessionTimeout is clamped into [min, max]
    double maxSessionTimeoutMs = 3'600'000;
    // OPC 10000-4 5.7.2.1: "for the N Sessions supported by a Server, the Server shall support N+1
    // SecureChannels": keep maxChannels above maxSessions, so that discovery (GetEndpoints) and
    // reconnecting clients get in while the Sessions are all taken (start() warns otherwise).
    int maxSessions = 1000;                // CreateSession beyond (none of them unactivated): Bad_TooManySessions
    int maxChannels = 1100;                // connections beyond: ERR Bad_TcpServerTooBusy at once
    AdmissionConfig admission;             // handshakes and Session establishments in progress
    BackpressureConfig backpressure;       // responses queued per connection, incomplete chunked requests
    // SessionDiagnosticsObjects in the address space (OPC 10000-5 6.3.4: an OptionalPlaceholder of
    // SessionsDiagnosticsSummary) at most; the Sessions beyond have none, their diagnostics are in
    // SessionDiagnosticsArray. Each object is 57 nodes, about 90 KB (docs/Scalability.md "Sessions and MonitoredItems").
    // 0: none.
    int maxSessionDiagnosticsObjects = 100;
    OperationLimits operationLimits;       // published in ServerCapabilities.OperationLimits
    SubscriptionConfig subscriptions;      // Subscription/MonitoredItem limits, also in ServerCapabilities
    // Namespaces and event sources the application adds (ServerExtension.h); starts as the
    // process's defaults.
    ServerExtensions extensions = defaultServerExtensions();
    // The settings of the server app's demo extension (server-app/demo/DemoExtension.h), which
    // reads them from here; the stack itself does not.
    uint32_t benchmarkVariables = 1100;    // ns=1 Int32 i=1000.. (guide/benchmarks.md); 0: none
    bool demoNamespace = true;             // urn:ua-workbench:demo (server-app/demo/DemoNodeManager.h)
    uint32_t demoUpdateRateMs = 1000;      // period of the simulated signals
    uint32_t demoEventsMs = 0;             // period of the demo events (server-app/demo/DemoEvents.h); 0: none
    bool auditing = true;                  // raise audit events (events/AuditEvents.h); Server_Auditing
    // NodeSet2 files (OPC 10000-6 Annex F) imported when the address space is built, in the order
    // their RequiredModels need (nodeset/NodeSetImporter.h). Any error: none is loaded and start()
    // fails with the list of errors.
    QStringList nodeSetFiles;
    // Historical Access (OPC 10000-11; server/history/HistoryManager.h): the SQLite file and the
    // Variables sampled into it. No databasePath: HistoryRead and HistoryUpdate are
    // Bad_HistoryOperationUnsupported.
    HistoryConfig history;
    // Alarms and Conditions (OPC 10000-9; server/conditions/ConditionManager.h): the alarms on
    // Variables the server watches from the start (Server::addAlarm adds more while it runs), and
    // how often their inputs are read (ms, 10..60,000). An alarm that cannot be installed is
    // logged and left out.
    std::vector<AlarmDefinition> alarms;
    int alarmPollMs = 100;
    // Reverse Connect (OPC 10000-6 7.1.3; runtime/ReverseConnector.h): the Client listeners this
    // server dials out to, besides listening on port.
    ReverseConnectConfig reverseConnect;

    QString endpointUrl() const;           // opc.tcp://<host>:<port>
};

// I/O threads when ServerConfig::ioThreads is 0: one per core but one, at least one. The core left
// over runs the accept thread, the timers, the window and often a client on the same machine; with
// every core an I/O thread they preempt each other at every request (docs/Benchmarks.md
// "Performance": on 2 cores, read-1 20 x 1 costs 14 µs of server CPU per request with 1 I/O thread
// and 19 µs with 2).
int defaultIoThreads();

} // namespace ua
