// The server application's configuration file (JSON, read with QJsonDocument): what the window's
// Server page edits and saves, and what headless mode reads. Default location
// QStandardPaths::AppConfigLocation/ua-server.json (e.g. ~/.config/ua-server/ua-server.json);
// `--config FILE` chooses another, and command-line options override what the file says
// (ServerCommandLine.h). toServerConfig() maps it onto ua::ServerConfig.
//
// Format (every key optional; a missing key keeps its default, unknown keys are ignored):
//   { "version": 1,
//     "endpoint": { "host": "", "port": 4840, "ioThreads": 0 },
//     "security": { "pkiDir": "", "allowDeprecatedPolicies": false, "trustAllClients": false,
//                   "endpoints": [ { "policy": "None", "mode": "None" },
//                                  { "policy": "Basic256Sha256", "mode": "SignAndEncrypt" }, ... ],
//                   "userTokens": { "anonymous": true, "userName": true, "certificate": true } },
//     "limits": { "maxSessions": 1200, "maxChannels": 1300, "maxSessionDiagnosticsObjects": 100,
//                 "minSessionTimeoutMs": 10000, "maxSessionTimeoutMs": 3600000 },
//     "subscriptions": { every field of ua::SubscriptionConfig by its name, e.g.
//                        "maxSubscriptionsPerSession": 100, "maxPublishRequestsPerSession": 20,
//                        "maxQueueSize": 10000, "maxLifetimeCount": 1000000, ... (SettingLimits.h) },
//                 (the older "limits.maxSubscriptions" and "limits.maxMonitoredItems" are still read)
//     "admission": { "maxHandshakes": -1, "handshakeTimeoutMs": 10000, "helloTimeoutMs": 10000,
//                    "busyDelayMs": 100, "maxPendingSessions": -1, "activationTimeoutMs": 10000 },
//                    (-1: 8 per I/O thread; helloTimeoutMs at most 120000, OPC 10000-6 7.1.3)
//     "backpressure": { "maxQueuedResponses": 100, "resumeQueuedResponses": 50,
//                       "chunkBudgetBytes": 67108864, "chunkTimeoutMs": 30000 },
//     "demo": { "namespace": true, "updateRateMs": 1000, "eventsMs": 1000 },
//     "shutdownDelaySeconds": 2,
//     "history": { ...HistorySettings.h... },
//     "alarms": { ...AlarmSettings.h... },
//     "users": { ...UserDatabase::toJson(), see ua/server/users/UserStore.h... } }
// Policies are named by their URI's fragment (None, Basic128Rsa15, Basic256, Basic256Sha256,
// Aes128_Sha256_RsaOaep, Aes256_Sha256_RsaPss, ECC_nistP256, ECC_nistP384), modes by OPC 10000-4 7.20 (None, Sign,
// SignAndEncrypt).
#pragma once

#include "AlarmSettings.h"
#include "HistorySettings.h"
#include "ua/server/runtime/ServerConfig.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace ua::app {

// True for an opc.tcp://host[:port] URL (a Reverse Connect client listener); else *why says why.
bool validReverseConnectUrl(const QString& text, QString* why);

struct ServerSettings {
    // endpoint
    QString hostName;                      // empty: this machine's host name
    quint16 port = 4840;                   // 0: any free port
    int ioThreads = 0;                     // 0: one per core but one (ua::defaultIoThreads())
    // security
    QString pkiDir;                        // empty: QStandardPaths::AppDataLocation/pki
    std::vector<EndpointSecurity> endpoints = ServerSecurityConfig{}.endpoints;
    bool allowDeprecatedPolicies = false;
    bool allowAnonymous = true;
    bool allowUserName = true;
    bool allowX509 = true;
    bool trustAllClients = false;
    // limits: room for the 1,000-session responsiveness run (tests/bench) plus the window's and an
    // administrator's own clients.
    int maxSessions = 1200;
    int maxChannels = 1300;                // above maxSessions: discovery still gets in (OPC 10000-4 5.7.2.1)
    int maxSessionDiagnosticsObjects = 100;  // ServerConfig::maxSessionDiagnosticsObjects
    double minSessionTimeoutMs = 10'000;
    double maxSessionTimeoutMs = 3'600'000;
    // the Subscription and MonitoredItem limits and revision rules (OPC 10000-4 5.13, 5.14), all
    // of them (SettingLimits.h lists each with its range)
    SubscriptionConfig subscriptions;
    // admission control and backpressure (ua/server/AdmissionConfig.h; 0 turns a bound off)
    AdmissionConfig admission;
    BackpressureConfig backpressure;
    // demo namespace and events
    bool demoNamespace = true;
    uint32_t demoUpdateRateMs = 1000;
    uint32_t demoEventsMs = 1000;          // 0: no demo events
    // seconds of ServerState Shutdown (SecondsTillShutdown counting down) before Sessions close,
    // on SIGINT/SIGTERM and on the window's Stop
    uint32_t shutdownDelaySeconds = 2;
    // NodeSet2 files loaded at start ("nodeSets" in the file, --nodeset FILE), in the order their
    // RequiredModels need; relative paths are taken from the working directory.
    QStringList nodeSetFiles;
    // Historical Access ("history", HistorySettings.h)
    HistorySettings history;
    // Alarms and Conditions ("alarms", AlarmSettings.h)
    AlarmSettings alarms;
    // Reverse Connect ("reverseConnect": {"clientUrls": [...], "helloTimeoutMs", "retryMinMs",
    // "retryMaxMs"}; --reverse-connect URL): the Client listeners the server dials out to
    // (OPC 10000-6 7.1.3; libua/ua/server/runtime/ReverseConnectConfig.h). Each URL is
    // opc.tcp://host:port.
    ReverseConnectConfig reverseConnect;
    // users, their Roles and the Roles of anonymous Sessions. The workbench's demo default lets
    // anonymous Sessions write the demo variables (Operator); `--secure` removes anonymous login.
    UserDatabase users = defaultUsers();

    static UserDatabase defaultUsers();
    // QStandardPaths::AppConfigLocation/ua-server.json (the application name must be set first).
    static QString defaultPath();
    // QStandardPaths::AppDataLocation/pki.
    static QString defaultPkiDir();

    // `--secure`: no None endpoint and no anonymous login.
    void applySecureProfile();

    QJsonObject toJson() const;
    // nullopt and *error for a value of the wrong type or out of range, an unknown policy or mode.
    static std::optional<ServerSettings> fromJson(const QJsonObject& json, QString* error = nullptr);
    // A missing file is not an error: *this keeps its defaults and *existed (if given) is false.
    bool load(const QString& path, QString* error = nullptr, bool* existed = nullptr);
    // Writes the file (mode 0600: it holds password hashes), creating its folder.
    bool save(const QString& path, QString* error = nullptr) const;

    ServerConfig toServerConfig() const;

    friend bool operator==(const ServerSettings&, const ServerSettings&);
};

// "Basic256Sha256" <-> SecurityPolicyId; "SignAndEncrypt" <-> MessageSecurityMode.
QString policyName(SecurityPolicyId id);
std::optional<SecurityPolicyId> policyFromName(const QString& name);
QString modeName(MessageSecurityMode mode);
std::optional<MessageSecurityMode> modeFromName(const QString& name);

} // namespace ua::app
