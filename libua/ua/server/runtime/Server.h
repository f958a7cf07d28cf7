// An OPC UA server (OPC 10000-4, UA-TCP binary with the security policies of ServerSecurityConfig): a listener on its own
// thread accepts connections on the endpoint's port and hands each to one of N I/O threads, where
// its requests are decoded, served and encoded (see docs/Architecture.md). No server work runs on
// the thread that owns the Server object (the GUI thread in the apps).
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/common/Clock.h"
#include "ua/server/runtime/AdmissionControl.h"
#include "ua/server/runtime/ServerConfig.h"
#include "ua/server/runtime/ServerParts.h"
#include "ua/server/runtime/ReverseConnector.h"
#include "ua/server/common/SessionManager.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/server/nodeset/NodeSetImporter.h"
#include "ua/server/conditions/ConditionManager.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/events/EventManager.h"
#include "ua/server/runtime/ServerObject.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"

#include <QObject>
#include <QTimer>
#include <atomic>
#include <mutex>
#include <memory>
#include <vector>

class QThread;

namespace ua {

class CertificateStore;
class PushManager;
class Listener;

class Server : public QObject {
    Q_OBJECT
public:
    explicit Server(ServerConfig config, QObject* parent = nullptr);
    ~Server() override;

    // Starts listening; false (and errorString()) when the port cannot be bound. ServerStatus is
    // Running again after a shutdown().
    bool start();
    // Stops at once: listener, I/O threads and their connections go without telling anyone (see
    // shutdown() for the orderly way). Ends a shutdown() countdown (shutdownFinished() is emitted).
    void stop();
    // Graceful shutdown (server/runtime/ServerShutdown.cpp; OPC 10000-5 6.3.1, 12.6 ServerState SHUTDOWN_4,
    // 12.10 ServerStatusDataType): ServerStatus.State becomes Shutdown and ShutdownReason `reason`
    // (locale "en") at once; SecondsTillShutdown counts `seconds` down once a second, so clients
    // that monitor ServerStatus see it; meanwhile CreateSession is refused with Bad_Shutdown and
    // the Sessions keep working. At 0: the listener stops; every Session is closed; each of its
    // Subscriptions is deleted with a StatusChangeNotification Bad_Shutdown sent on a parked Publish
    // request, the other parked Publish requests are answered Bad_SessionClosed (OPC 10000-4
    // 5.7.2.1); every connection gets an ERR Bad_ServerHalted and is closed (OPC 10000-6 7.1.5);
    // then shutdownFinished() is emitted (at most ~2.5 s after 0 when a peer does not close its
    // side). The I/O threads keep running until stop(). A second call while shutting down is
    // ignored; without start() it finishes at once. Call on the Server's thread.
    void shutdown(uint32_t seconds, const QString& reason);
    // True from shutdown() until the next start().
    bool isShuttingDown() const { return m_shutdownState != ShutdownState::None; }
    quint16 port() const;
    QString errorString() const { return m_error; }
    QString endpointUrl() const;
    // The ApplicationUri (ServerConfig::applicationUri, or the one made from the host name).
    QString applicationUri() const { return m_config.applicationUri; }
    // Reverse Connect (ServerConfig::reverseConnect): each Client listener's state, in the order
    // configured; empty before start() and after stop(). Any thread.
    std::vector<ReverseConnector::TargetState> reverseConnectStates() const;

    const ServerConfig& config() const { return m_config; }
    SessionManager& sessions() { return m_sessions; }
    const ApplicationDescription& applicationDescription() const { return m_application; }
    // The endpoints offered now (a copy: push management's ApplyChanges replaces them). Any thread.
    std::vector<EndpointDescription> endpoints() const { return m_identity.load(std::memory_order_acquire)->endpoints; }
    // The certificate store (null when ServerSecurityConfig::pkiDir is empty) and what the
    // SecureChannels use of it; both set by start().
    CertificateStore* certificateStore() const { return m_store.get(); }
    // Whole days until the own certificate expires (negative once expired; INT_MAX without PKI).
    // start() logs a warning when it is within ServerSecurityConfig::expiryWarningDays.
    int certificateExpiresInDays() const;
    // The certificate and key new SecureChannels use now (push management's ApplyChanges replaces
    // them). Any thread.
    std::shared_ptr<const ServerChannelSecurity> channelSecurity() const { return m_identity.load(std::memory_order_acquire)->security; }
    // The trust list of X509 user certificates (ServerSecurityConfig::userPkiDir; null without PKI).
    CertificateStore* userCertificateStore() const { return m_userStore.get(); }
    // The users and their Roles: starts as ServerSecurityConfig::users; replace() it to change them
    // while the server runs (Sessions already activated keep their Roles).
    UserStore& userStore() { return m_users; }

    // The address space: readers keep a snapshot and reload it when the version changes.
    SharedAddressSpace& addressSpace() { return *m_space; }
    uint64_t addressSpaceVersion() const { return m_space->version(); }
    // Changes the address space (a copy, published atomically; see SharedAddressSpace).
    StatusCode updateAddressSpace(const std::function<StatusCode(AddressSpace&)>& change);
    // Imports NodeSet2 files into the running server (nodeset/NodeSetImporter.h: dependency order,
    // all or nothing, each error with its file, line and node). Any thread; the nodes appear to
    // every Session with the next request. Logs each model loaded on "ua.server".
    NodeSetImportResult importNodeSets(const QStringList& paths);
    // What ServerConfig::nodeSetFiles gave when the address space was built (empty when none).
    const NodeSetImportResult& startupNodeSets() const { return m_startupNodeSets; }
    ServerRuntimeState& runtime() { return *m_runtime; }
    // Subscription ids and the server-wide Subscription/MonitoredItem counts (any thread).
    SubscriptionRegistry& subscriptionRegistry() { return *m_subscriptionRegistry; }
    // Events (events/EventManager.h): raise() from any thread; every event item of every
    // Subscription whose filter passes gets it. Audit events and those of the extensions (ServerExtension.h) come through here too.
    EventManager& events() { return *m_events; }
    // What the audit events use (events/AuditEvents.h).
    AuditContext audit() const { return AuditContext{m_config.auditing, *m_events, m_config.applicationUri}; }
    // Diagnostics (OPC 10000-5 6.3.3): counters, snapshots of Sessions and Subscriptions
    // (diagnostics/ServerDiagnostics.h). Any thread.
    ServerDiagnostics& diagnostics() { return *m_diagnostics; }
    // What its connections and the service dispatcher use of it (ServerParts.h).
    ServerParts& parts() { return *m_parts; }
    // Alarms and Conditions (conditions/ConditionManager.h): the conditions, their state and Methods.
    ConditionManager& conditions() { return *m_conditions; }
    // Adds an alarm while the server runs (or before start()): its condition appears to every
    // Session with the next request, and its first event comes with the next poll. Statuses of
    // ConditionManager::add; error gets the reason. Any thread.
    StatusCode addAlarm(AlarmDefinition alarm, std::string* error = nullptr);
    // Removes an alarm and its condition's nodes; Bad_NotFound for an unknown name. Any thread.
    StatusCode removeAlarm(const std::string& name);
    // Historical Access (history/HistoryManager.h); null when the configuration has no database.
    HistoryManager* history() { return m_history.get(); }
    // Starts (on) or stops sampling a Variable into its history while the server runs (the
    // administrator's "Historize"; history/HistoricalNodes.h marks the node, OPC 10000-11 5.2).
    // What was stored stays readable after a stop. Bad_HistoryOperationUnsupported without a
    // history database or before start(); Bad_NodeIdUnknown; Bad_NodeClassInvalid for a node that
    // is not a Variable. Any thread but the history thread.
    StatusCode setHistorized(const HistorizedNode& node, bool on);
    // Closes a Session as CloseSession with deleteSubscriptions = true would (OPC 10000-4 5.7.4):
    // its Subscriptions are deleted on their home thread, and its client's next request gets
    // Bad_SessionIdInvalid. Bad_SessionIdInvalid when no open Session has this sessionId. For an
    // administrator (the server app's "close session"); any thread. administrator says who, for the
    // audit line ("ua.audit": the Session's name, id, user and address) and the AuditSessionEventType
    // "Session/Terminated" it raises (events/AuditEvents.h).
    StatusCode closeSession(const NodeId& sessionId, const QString& administrator = QStringLiteral("administrator"));
    // Admission control and backpressure (AdmissionControl.h): handshakes in progress, the chunk
    // budget, the counters of refusals and read pauses. Any thread.
    AdmissionControl& admission() { return *m_admission; }
    // Counters sampled by the GUI; updated with relaxed atomics.
    std::atomic<int> channelCount{0};
    std::atomic<uint32_t> nextChannelId{1};
    static int64_t monotonicMs() { return ua::monotonicMs(); }  // common/Clock.h

    // Push certificate management (OPC 10000-12 7.8.2, 7.10; certificates/PushManager.h): the
    // TrustList file handles and the transaction of Server.ServerConfiguration. Any thread.
    PushManager& pushManager() { return *m_push; }

signals:
    // The shutdown() has finished: Sessions and connections closed, the listener stopped.
    void shutdownFinished();
    // A client changed the trust list through ServerConfiguration.ApplyChanges (push management);
    // emitted on the Method worker thread that applied it (connect queued for a window).
    void trustListChangedRemotely();
    // ServerConfiguration.ApplyChanges put a new application instance certificate into use (push
    // management, UpdateCertificate): new SecureChannels and GetEndpoints offer it from now on, and
    // the open encrypted channels are closed (their clients reconnect and meet the new one; the
    // Sessions stay). Emitted on the Method worker thread that applied it (connect queued for a window).
    void ownCertificateChanged();

private:
    friend class Listener;
    void accept(qintptr socketDescriptor);
    void acceptReverse(int fd, ReverseOrigin origin);  // a reverse connection made by m_reverse
    void buildDescriptions();
    // The EndpointDescriptions of the endpoints offered with this security (null: None only).
    std::vector<EndpointDescription> endpointsFor(const ServerChannelSecurity* security) const;
    // After a push management ApplyChanges (certificates/PushManager.h): a new certificate is put
    // into use (a new ServerIdentity), and, once the response has gone, the encrypted channels are
    // checked on their threads: those with the old server certificate, and those whose client
    // certificate the new trust list refuses, are closed. On the Method worker thread of ApplyChanges,
    // with m_pushLink's mutex held (context: its listener context).
    void applyPushChanges(bool certificateChanged, bool trustListChanged, QObject* context);
    bool setUpSecurity();
    void buildAddressSpace();
    std::string clientUserIdOf(const NodeId& sessionId) const;  // "" for none, anonymous or a closed Session
    static void logNodeSetImport(const NodeSetImportResult& r);
    void stopListening();                         // on the accept thread
    void finishShutdown(const QString& reason);  // ServerShutdown.cpp, on the accept thread
    void shutdownDone();                          // on the Server's thread
    void resetShutdown();

    ServerConfig m_config;
    std::unique_ptr<AdmissionControl> m_admission;
    SessionManager m_sessions;
    std::unique_ptr<ServerDiagnostics> m_diagnostics;
    ApplicationDescription m_application;
    std::shared_ptr<CertificateStore> m_store;
    std::shared_ptr<CertificateStore> m_userStore;
    UserStore m_users;
    std::shared_ptr<ServerRuntimeState> m_runtime;
    std::unique_ptr<SharedAddressSpace> m_space;
    NodeSetImportResult m_startupNodeSets;
    std::unique_ptr<SubscriptionRegistry> m_subscriptionRegistry;
    std::shared_ptr<EventManager> m_events = std::make_shared<EventManager>();
    std::unique_ptr<HistoryManager> m_history;
    std::unique_ptr<ConditionManager> m_conditions;
    std::shared_ptr<PushManager> m_push;
    SharedServerIdentity m_identity{std::make_shared<const ServerIdentity>()};
    std::unique_ptr<ServerParts> m_parts;  // made last by the constructor
    std::unique_ptr<Listener> m_listener;
    ReverseConnector* m_reverse = nullptr;  // on the accept thread, with the listener
    mutable std::mutex m_reverseMutex;      // guards m_reverse for reverseConnectStates()
    std::vector<QThread*> m_threads;
    std::vector<QObject*> m_threadContexts;
    std::size_t m_nextThread = 0;
    QThread* m_acceptThread = nullptr;    // runs the listener and the session expiry timer
    QObject* m_acceptContext = nullptr;
    // How push management's callbacks reach this Server: they run on Method workers, which outlive
    // every Server. start() sets it; stop() (and so ~Server) clears it under its mutex, waiting for a
    // callback in flight; a callback holds the mutex while it uses the Server.
    struct PushLink {
        std::mutex mutex;
        Server* server = nullptr;
        QObject* context = nullptr;  // the listener thread's, for timers
    };
    std::shared_ptr<PushLink> m_pushLink = std::make_shared<PushLink>();
    QTimer* m_expiryTimer = nullptr;
    QTimer* m_alarmTimer = nullptr;  // the ConditionManager's poll, on the accept thread
    QString m_error;
    enum class ShutdownState { None, CountingDown, Finished };
    ShutdownState m_shutdownState = ShutdownState::None;  // the Server's thread
};

} // namespace ua
