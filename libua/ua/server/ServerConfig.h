// Configuration of a Server: endpoint, threads, transport and session limits.
#pragma once

#include "ua/secure/ServerSecureChannel.h"
#include "ua/server/ServerSecurityConfig.h"
#include "ua/server/ServiceContext.h"
#include "ua/server/subscriptions/SubscriptionConfig.h"
#include "ua/transport/TcpMessages.h"

#include <QHostAddress>
#include <QString>

namespace ua {

struct ServerConfig {
    QString hostName;                      // in the endpoint URL; empty: this machine's host name
    quint16 port = 4840;                   // 0: any free port (see Server::port())
    QHostAddress listenAddress = QHostAddress::Any;
    int ioThreads = 0;                     // 0: one per core
    TransportLimits transport;             // UA-TCP buffer sizes and limits (bytes)
    SecureChannelConfig secureChannel;     // SecurityToken lifetimes (ms); its `security` is set by start()
    ServerSecurityConfig security;         // PKI, endpoints' policies and modes, user tokens
    QString applicationUri;                // empty: urn:<host>:UAWorkbench:Server
    QString productUri = QStringLiteral("urn:ua-workbench:server");
    QString applicationName = QStringLiteral("UA Workbench Server");
    double minSessionTimeoutMs = 10'000;   // revisedSessionTimeout is clamped into [min, max]
    double maxSessionTimeoutMs = 3'600'000;
    int maxSessions = 1000;                // CreateSession beyond: Bad_TooManySessions
    int maxChannels = 1000;                // Hello beyond: ERR Bad_TcpNotEnoughResources
    // SessionDiagnosticsObjects in the address space (OPC 10000-5 6.3.4: an OptionalPlaceholder of
    // SessionsDiagnosticsSummary) at most; the Sessions beyond have none, their diagnostics are in
    // SessionDiagnosticsArray. Each object is 57 nodes, about 90 KB (docs/Scalability-sessions.md).
    // 0: none.
    int maxSessionDiagnosticsObjects = 100;
    OperationLimits operationLimits;       // published in ServerCapabilities.OperationLimits
    SubscriptionConfig subscriptions;      // Subscription/MonitoredItem limits, also in ServerCapabilities
    uint32_t benchmarkVariables = 1100;    // ns=1 Int32 i=1000.. (guide/benchmarks.md); 0: none
    bool demoNamespace = true;             // urn:ua-workbench:demo (DemoNodeManager.h)
    uint32_t demoUpdateRateMs = 1000;      // period of the simulated signals
    uint32_t demoEventsMs = 0;             // period of the demo events (events/DemoEvents.h); 0: none
    bool auditing = true;                  // raise audit events (events/AuditEvents.h); Server_Auditing

    QString endpointUrl() const;           // opc.tcp://<host>:<port>
};

} // namespace ua
