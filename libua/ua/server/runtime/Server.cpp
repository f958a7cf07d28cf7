#include "ua/server/runtime/Server.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/CryptoThreadState.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/IoWorker.h"
#include "ua/server/runtime/ServerConnection.h"
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/certificates/PushMethods.h"
#include "ua/server/conditions/ConditionMethods.h"
#include "ua/server/diagnostics/DiagnosticsNodes.h"
#include "ua/server/history/HistoricalNodes.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/users/AuditLog.h"
#include "ua/server/events/EventRouter.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/SubscriptionMethods.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"
#include "ua/transport/EpollEventDispatcher.h"
#include "ua/Version.h"

#include <QElapsedTimer>
#include <algorithm>
#include <tuple>
#include <QLoggingCategory>
#include <QHostInfo>
#include <QTcpServer>
#include <QThread>

namespace ua {

namespace {
constexpr int kListenBacklog = 4096;  // connections accepted by the kernel, not yet by the listener
constexpr uint32_t kResetShutdownSeconds = 3;  // ResetToServerDefaults: SecondsTillShutdown (OPC 10000-12 7.10.13)
}

int defaultIoThreads() { return std::max(1, QThread::idealThreadCount() - 1); }

class Listener : public QTcpServer {
public:
    explicit Listener(Server& s) : m_server(s) {}

protected:
    void incomingConnection(qintptr fd) override { m_server.accept(fd); }

private:
    Server& m_server;
};

QString ServerConfig::endpointUrl() const {
    const QString host = hostName.isEmpty() ? QHostInfo::localHostName() : hostName;
    return QStringLiteral("opc.tcp://%1:%2").arg(host).arg(port);
}

namespace {
Q_LOGGING_CATEGORY(lcSessionEnd, "ua.server.session", QtInfoMsg)

void logSessionEnd(const Session& s, SessionEnd why) {
    const char* how = why == SessionEnd::Closed           ? "closed by its client"
                      : why == SessionEnd::TimedOut       ? "timed out"
                      : why == SessionEnd::Aborted        ? "aborted (never activated: its channel closed, its activation time ran out, or it made room for a new Session)"
                                                          : "closed by the server";
    // The name and id do not change after CreateSession (the address may, under activationMutex).
    qCInfo(lcSessionEnd, "session '%s' (%s) %s", s.sessionName.toQString().toUtf8().constData(), s.sessionId.toString().c_str(), how);
}
} // namespace

Server::Server(ServerConfig config, QObject* parent)
    : QObject(parent), m_config(std::move(config)),
      m_sessions(m_config.maxSessions, 0, m_config.admission.activationTimeoutMs),
      m_diagnostics(std::make_unique<ServerDiagnostics>(m_sessions, m_config.applicationUri, channelCount)), m_users(m_config.security.users) {
    m_push = std::make_shared<PushManager>();
    m_sessions.onRemoved = [this, d = m_diagnostics.get(), push = m_push](const Session& s, SessionEnd why) {
        d->sessionRemoved(s, why);
        push->sessionClosed(s.sessionId);  // its TrustList handles close, its transaction ends
        logSessionEnd(s, why);
        // A Session never activated ends as "Session/Terminated" (OPC 10000-4 6.5.6): its channel
        // closed, its activation time ran out, or it made room for a new one. Raised here, under the
        // SessionManager's lock: EventManager::raise only posts to the event routers (its hub's lock
        // is taken after this one, never before).
        if (why == SessionEnd::Aborted)
            auditSessionEnded(audit(), AuditSessionEnd::Terminated, s.sessionId, std::string(),
                              "Session not activated: its channel closed, its activation time ran out, or it made room "
                              "for a new Session");
    };
    if (m_config.hostName.isEmpty()) m_config.hostName = QHostInfo::localHostName();
    if (m_config.applicationUri.isEmpty())
        m_config.applicationUri = QStringLiteral("urn:%1:UAWorkbench:Server").arg(m_config.hostName);
    if (m_config.ioThreads <= 0) m_config.ioThreads = defaultIoThreads();
    // Admission bounds left to the server (-1) follow the cores that do the RSA work.
    AdmissionConfig& a = m_config.admission;
    if (a.maxHandshakes < 0) a.maxHandshakes = AdmissionConfig::kHandshakesPerIoThread * m_config.ioThreads;
    if (a.maxPendingSessions < 0) a.maxPendingSessions = a.maxHandshakes;
    m_admission = std::make_unique<AdmissionControl>(m_config.admission, m_config.backpressure);
    m_sessions.setPendingLimit(a.maxPendingSessions);
    m_subscriptionRegistry = std::make_unique<SubscriptionRegistry>(m_config.subscriptions);
    m_diagnostics->setSubscriptionRegistry(*m_subscriptionRegistry);
    if (!m_config.history.databasePath.isEmpty()) m_history = std::make_unique<HistoryManager>(m_config.history);
    m_conditions = std::make_unique<ConditionManager>(m_events);
    m_conditions->setAuditing(m_config.auditing, m_config.applicationUri);
    m_conditions->setUserOf([this](const NodeId& sessionId) { return clientUserIdOf(sessionId); });
    buildAddressSpace();
    m_parts = std::make_unique<ServerParts>(ServerParts::Refs{
        m_config, *m_admission, m_sessions, *m_diagnostics, *m_space, *m_events, m_users, m_application, m_identity,
        m_userStore, *m_runtime, channelCount, nextChannelId, m_history.get()});
}

std::string Server::clientUserIdOf(const NodeId& sessionId) const {
    const SessionPtr s = m_sessions.findBySessionId(sessionId);
    if (!s) return std::string();
    std::lock_guard lock(s->activationMutex);
    return s->clientUserId;
}

void Server::buildAddressSpace() {
    m_runtime = std::make_shared<ServerRuntimeState>();
    BuildInfo& b = m_runtime->buildInfo;
    b.productUri = String::fromQString(m_config.productUri);
    b.manufacturerName = String("UA Workbench");
    b.productName = String::fromQString(m_config.applicationName);
    b.softwareVersion = String(UA_WORKBENCH_VERSION);
    b.buildNumber = String(UA_WORKBENCH_VERSION);
    b.buildDate = DateTime::fromQDateTime(QDateTime(QDate::fromString(QStringLiteral(__DATE__).simplified(), QStringLiteral("MMM d yyyy")), QTime(0, 0), Qt::UTC));
    AddressSpace space;
    Ns0NodeManager ns0;
    StatusCode s = ns0.install(space);
    // The application's namespaces (ServerExtension.h; the demo's: namespace 1, the server's own
    // per OPC 10000-5 NamespaceArray[1], with the benchmark layout, and the demo namespace).
    for (const auto& e : m_config.extensions)
        if (s.isGood() && e) s = e->install(space, m_config, m_events);
    if (s.isGood())
        s = installServerObject(space, m_runtime, String::fromQString(m_config.applicationUri), m_config.operationLimits,
                                EncodingLimits::defaults());
    if (s.isGood()) s = installSubscriptionCapabilities(space, m_config.subscriptions);
    if (s.isGood()) s = installDiagnosticsNodes(space, *m_diagnostics);
    if (s.isGood()) s = installSubscriptionMethods(space, *m_subscriptionRegistry);
    // Alarms and Conditions (OPC 10000-9): the Methods, then the configured alarms.
    if (s.isGood()) s = installConditionMethods(space, *m_conditions, *m_subscriptionRegistry);
    // Push certificate management (OPC 10000-12): the store is set by start().
    if (s.isGood())
        s = installPushMethods(space, PushMethodsContext{
            m_push, *m_events, m_config.auditing, m_config.applicationUri,
            [link = m_pushLink](const NodeId& id) {
                std::lock_guard lock(link->mutex);
                return link->server ? link->server->clientUserIdOf(id) : std::string();
            },
            [link = m_pushLink](const PushManager::Applied& a) {
                std::lock_guard lock(link->mutex);
                if (!link->server) return;
                if (a.trustListChanged) emit link->server->trustListChangedRemotely();
                link->server->applyPushChanges(a.certificateChanged, a.trustListChanged, link->context);
            },
            [link = m_pushLink] {
                std::lock_guard lock(link->mutex);
                if (!link->server) return;
                // 7.10.13: Shutdown, with time for the Call response to go out.
                Server* server = link->server;
                QMetaObject::invokeMethod(server, [server] {
                    server->shutdown(kResetShutdownSeconds,
                                     QStringLiteral("ResetToServerDefaults: the certificates and the trust list were reset to the "
                                                    "configured defaults; credentials may not work when the server restarts"));
                }, Qt::QueuedConnection);
            }});
    if (s.isGood())
        for (const AlarmDefinition& a : m_config.alarms) {
            std::string why;
            if (const StatusCode as = m_conditions->add(space, a, &why); as.isBad())
                qWarning("ua-server: alarm '%s' left out: %s (%s)", a.name.c_str(), why.c_str(), as.name().c_str());
        }
    // Historical Access (OPC 10000-11): the capabilities, and each historized Variable marked.
    if (s.isGood()) {
        installHistoryCapabilities(space, m_config.history, m_config.operationLimits.maxNodesPerHistoryReadData,
                                   m_config.operationLimits.maxNodesPerHistoryUpdateData);
        if (m_history) {
            // Nodes named with their namespace URI get its index (dropped when there is none).
            std::erase_if(m_config.history.nodes, [&](HistorizedNode& h) {
                if (h.namespaceUri.empty()) return false;
                const int ns = space.namespaceIndex(h.namespaceUri);
                if (ns < 0) qWarning("ua-server: cannot historize %s: no namespace %s", h.node.toString().c_str(), h.namespaceUri.c_str());
                else h.node.setNamespaceIndex(uint16_t(ns)), h.namespaceUri.clear();
                return ns < 0;
            });
            for (const HistorizedNode& h : m_config.history.nodes)
                if (const StatusCode hs = markHistorized(space, h); hs.isBad())
                    qWarning("ua-server: cannot historize %s: %s", h.node.toString().c_str(), hs.name().c_str());
            // The notifiers whose events are kept, the same way (OPC 10000-11 5.4).
            std::erase_if(m_config.history.eventNotifiers, [&](HistorizedNotifier& h) {
                if (!h.namespaceUri.empty()) {
                    const int ns = space.namespaceIndex(h.namespaceUri);
                    if (ns < 0) {
                        qWarning("ua-server: cannot keep the events of %s: no namespace %s", h.node.toString().c_str(), h.namespaceUri.c_str());
                        return true;
                    }
                    h.node.setNamespaceIndex(uint16_t(ns));
                    h.namespaceUri.clear();
                }
                const StatusCode hs = markEventHistorized(space, h.node);
                if (hs.isBad()) qWarning("ua-server: cannot keep the events of %s: %s", h.node.toString().c_str(), hs.name().c_str());
                return hs.isBad();
            });
            m_history->setEventNotifiers(m_config.history.eventNotifiers);
        }
    }
    if (s.isGood() && m_config.auditing) {  // OPC 10000-5 6.3.1 Server.Auditing: audit events are raised
        Node* auditing = space.findMutable(NodeId(id::Server_Auditing));
        if (auditing && auditing->value) auditing->value->store(DataValue(Variant(true)));
    }
    if (s.isBad()) qWarning("ua-server: building the address space failed: %s", s.name().c_str());
    if (s.isGood() && !m_config.nodeSetFiles.isEmpty()) {
        AddressSpace copy = space;  // all or nothing
        m_startupNodeSets = importNodeSetFiles(copy, m_config.nodeSetFiles);
        logNodeSetImport(m_startupNodeSets);
        if (m_startupNodeSets.ok()) space = std::move(copy);
    }
    m_space = std::make_unique<SharedAddressSpace>(std::move(space));
}

StatusCode Server::setHistorized(const HistorizedNode& node, bool on) {
    if (!m_history || !m_history->context()) return status::BadHistoryOperationUnsupported;
    const StatusCode s = m_space->update([&](AddressSpace& space) { return on ? markHistorized(space, node) : unmarkHistorized(space, node.node); });
    if (s.isBad()) return s;
    if (on) m_history->historize(node, valueReaderOf(*m_space->snapshot(), node.node));
    else m_history->stopHistorizing(node.node);
    return status::Good;
}

StatusCode Server::addAlarm(AlarmDefinition alarm, std::string* error) {
    return m_space->update([&](AddressSpace& space) { return m_conditions->add(space, std::move(alarm), error); });
}

StatusCode Server::removeAlarm(const std::string& name) {
    return m_space->update([&](AddressSpace& space) { return m_conditions->remove(space, name); });
}

StatusCode Server::updateAddressSpace(const std::function<StatusCode(AddressSpace&)>& change) {
    return m_space->update(change);
}

Q_LOGGING_CATEGORY(lcNodeSet, "ua.server.nodeset", QtInfoMsg)

void Server::logNodeSetImport(const NodeSetImportResult& r) {
    for (const auto& m : r.models)
        qCInfo(lcNodeSet, "model %s version %s loaded as namespace %u from %s", qPrintable(m.uri), qPrintable(m.version),
               unsigned(m.namespaceIndex), qPrintable(m.file));
    if (r.ok() && !r.models.empty()) qCInfo(lcNodeSet, "%zu nodes and %zu references added", r.nodes, r.references);
    for (const auto& e : r.errors) qCWarning(lcNodeSet, "%s", qPrintable(e.toString()));
    if (!r.ok()) qCWarning(lcNodeSet, "nothing was imported (%zu errors)", r.errors.size());
}

NodeSetImportResult Server::importNodeSets(const QStringList& paths) {
    NodeSetImportResult result;
    m_space->update([&](AddressSpace& space) {
        result = importNodeSetFiles(space, paths);
        return result.status;
    });
    logNodeSetImport(result);
    return result;
}

Server::~Server() {
    m_shutdownState = ShutdownState::None;  // no shutdownFinished() from a Server being destroyed
    stop();
}

Q_LOGGING_CATEGORY(lcSecurity, "ua.server.security", QtInfoMsg)

int Server::certificateExpiresInDays() const {
    if (!m_store) return std::numeric_limits<int>::max();
    const int64_t left = m_store->ownCertificate().notAfter().ticks - DateTime::now().ticks;
    return int(left / (DateTime::kTicksPerMs * 1000 * 86400));
}

bool Server::setUpSecurity() {
    const ServerSecurityConfig& cfg = m_config.security;
    auto sec = std::make_shared<ServerChannelSecurity>();
    if (cfg.pkiDir.isEmpty()) {
        sec->offers = {{SecurityPolicyId::None, MessageSecurityMode::None}};
        m_config.secureChannel.security = std::move(sec);
        return true;
    }
    m_store = std::make_shared<CertificateStore>(cfg.pkiDir.toStdString());
    CertificateRequest request;
    request.applicationUri = m_config.applicationUri.toStdString();
    request.applicationName = m_config.applicationName.toStdString();
    // The configured host name (or this machine's), and the loopback names: a client on the same
    // machine connecting to opc.tcp://localhost or 127.0.0.1 passes the host name check
    // (OPC 10000-4 6.1.3 Table 106) without having to suppress Bad_CertificateHostNameInvalid.
    const QString host = m_config.hostName.isEmpty() ? QHostInfo::localHostName() : m_config.hostName;
    request.hostNames = {host.toStdString()};
    for (const char* loopback : {"localhost", "127.0.0.1"})
        if (host.compare(QLatin1String(loopback), Qt::CaseInsensitive) != 0) request.hostNames.push_back(loopback);
    request.keyBits = cfg.keyBits;
    request.validityDays = cfg.certificateValidityDays;
    std::string error;
    if (!m_store->ensureOwnCertificate(request, &error)) {
        m_error = QStringLiteral("no application instance certificate in %1: %2").arg(cfg.pkiDir, QString::fromStdString(error));
        return false;
    }
    const int days = certificateExpiresInDays();
    if (days <= cfg.expiryWarningDays)
        qCWarning(lcSecurity, "the application instance certificate expires in %d days (%s); renew it in %s/own", days,
                  qPrintable(m_store->ownCertificate().notAfter().toQDateTime().toString(Qt::ISODate)), qPrintable(cfg.pkiDir));
    const QString userPki = cfg.userPkiDir.isEmpty() ? cfg.pkiDir + QStringLiteral("/users") : cfg.userPkiDir;
    m_userStore = std::make_shared<CertificateStore>(userPki.toStdString());
    m_push->setStore(m_store);
    m_push->setApplicationUri(m_config.applicationUri.toStdString());
    for (const EndpointSecurity& e : cfg.endpoints) {
        if (securityPolicy(e.policy).deprecated && !cfg.allowDeprecatedPolicies) continue;
        if ((e.policy == SecurityPolicyId::None) != (e.mode == MessageSecurityMode::None)) continue;
        sec->offers.push_back({e.policy, e.mode});
    }
    sec->certificate = m_store->ownCertificate();
    sec->certificateChain = m_store->ownCertificateChain();  // with its CAs from trusted/ and issuers/
    sec->privateKey = m_store->ownPrivateKey();
    // The ECC policies' endpoints use an ECC certificate of their curve beside the RSA one (made on
    // the first start that offers them; OPC 10000-12 7.8.4 EccNistP256/P384ApplicationCertificateType).
    for (const auto& [curve, keyType, identity] :
         {std::tuple{EccCurve::NistP256, KeyType::EccNistP256, &sec->eccNistP256},
          std::tuple{EccCurve::NistP384, KeyType::EccNistP384, &sec->eccNistP384}}) {
        const bool offered = std::any_of(sec->offers.begin(), sec->offers.end(), [curve = curve](const auto& o) {
            return securityPolicy(o.policy).curve == curve;
        });
        if (!offered) continue;
        CertificateRequest ecc = request;
        ecc.keyType = keyType;
        if (!m_store->ensureOwnCertificate(ecc, &error)) {
            qCWarning(lcSecurity, "no ECC application instance certificate (%s): its endpoints are not offered",
                      error.c_str());
            std::erase_if(sec->offers, [curve = curve](const auto& o) { return securityPolicy(o.policy).curve == curve; });
            continue;
        }
        *identity = {m_store->ownCertificate(keyType), m_store->ownCertificateChain(keyType), m_store->ownPrivateKey(keyType)};
    }
    std::weak_ptr<CertificateStore> store = m_store;
    const bool trustAll = cfg.trustAllClients;
    std::weak_ptr<EventManager> events = m_events;
    const std::string serverId = m_config.applicationUri.toStdString();
    const bool auditing = m_config.auditing;
    if (auditing)  // X509 user certificates that are not trusted (AuditCertificateUntrustedEventType)
        m_userStore->setRejectedCallback([events, serverId](const Certificate& c, StatusCode reason) {
            if (auto e = events.lock()) auditCertificateRejected(*e, serverId, c.der(), reason);
        });
    sec->validateCertificate = [store, trustAll, events, serverId, auditing](const std::string& chain,
                                                                           const SecurityPolicy& policy) -> StatusCode {
        auto s = store.lock();
        if (!s) return status::BadCertificateUntrusted;
        ValidationOptions options;
        options.minKeyBits = int(policy.minAsymmetricKeyBits);
        options.maxKeyBits = int(policy.maxAsymmetricKeyBits);
        options.allowSha1Signature = policy.minCertificateSignatureHash == HashAlgorithm::Sha1;
        options.waiveTrustList = trustAll;  // trusting all clients waives the trust list, nothing else
        std::string reason;
        const StatusCode v = s->validate(chain, options, &reason);
        if (v.isBad()) {
            const std::vector<Certificate> certs =
                Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(chain.data()), chain.size());
            // An audit line (users/AuditLog.h): the subject and thumbprint the administrator finds
            // in the rejected list.
            qCWarning(lcAudit, "client certificate %s (SHA-1 %s) refused: %s (%s)",
                      certs.empty() ? "(unreadable)" : certs.front().subjectName().c_str(),
                      certs.empty() ? "-" : certs.front().thumbprintHex().c_str(), v.name().c_str(), reason.c_str());
        }
        if (v.isBad() && auditing)
            if (auto e = events.lock()) auditCertificateRejected(*e, serverId, chain, v);
        return v;
    };
    m_config.secureChannel.security = std::move(sec);
    return true;
}

bool Server::start() {
    resetShutdown();
    if (!m_startupNodeSets.ok()) {
        QStringList lines;
        for (const auto& e : m_startupNodeSets.errors) lines << e.toString();
        m_error = QStringLiteral("the NodeSet files did not load (%1 errors):\n%2").arg(lines.size()).arg(lines.join(u'\n'));
        return false;
    }
    if (!setUpSecurity()) return false;
    if (m_history) {
        // The history thread opens its database before any request can reach it.
        if (const QString e = m_history->start(); !e.isEmpty()) {
            m_error = QStringLiteral("history: %1").arg(e);
            return false;
        }
        const auto space = m_space->snapshot();
        for (const HistorizedNode& h : m_config.history.nodes)
            if (space->find(h.node)) m_history->historize(h, valueReaderOf(*space, h.node));
        // Every raised event goes to the history of its notifiers: the Server object (every
        // event reaches it) and those above its SourceNode (OPC 10000-3 7.16, 7.17).
        if (m_history->historizesEvents())
            m_events->setHistorySink([history = m_history.get(), shared = m_space.get()](const EventPtr& e) {
                std::vector<std::string> notifiers{NodeId(id::Server).toString()};
                if (const Variant* source = e->field("SourceNode"))
                    if (const NodeId* node = source->get<NodeId>()) {
                        const auto snap = shared->snapshot();
                        for (const NodeIndex n : eventNotifiersOf(*snap, snap->indexOf(*node)))
                            notifiers.push_back(snap->node(n).nodeId.toString());
                    }
                history->recordEvent(e, notifiers);
            });
    }
    // Every channel's reassembly of chunked requests draws on one budget (AdmissionConfig.h).
    m_config.secureChannel.chunkBudget = m_admission->chunkBudget();
    m_config.secureChannel.chunkTimeoutMs = m_config.backpressure.chunkTimeoutMs;
    if (m_config.maxChannels <= m_config.maxSessions)
        qCWarning(lcSecurity, "maxChannels (%d) is not above maxSessions (%d): at the Session limit no discovery or "
                  "reconnecting client gets a channel (OPC 10000-4 5.7.2.1 asks for N+1)", m_config.maxChannels, m_config.maxSessions);
    // I/O threads first: the listener hands connections to them as soon as it listens.
    for (int i = 0; i < m_config.ioThreads; ++i) {
        auto* t = new QThread;
        t->setObjectName(QStringLiteral("ua-io-%1").arg(i));
        crypto::freeThreadStateOnFinish(t);
        installIoEventLoop(t);  // epoll and a timer heap: a request costs no scan of the thread's connections
        auto* ctx = new QObject;
        ctx->moveToThread(t);
        connect(t, &QThread::finished, ctx, &QObject::deleteLater);
        t->start();
        // Each I/O thread drives the publishing and sampling timers of the Sessions homed on it.
        QMetaObject::invokeMethod(ctx, [this, ctx] {
            auto* w = new IoWorker(*m_space, m_config.subscriptions, *m_subscriptionRegistry, ctx);
            w->makeCurrent();
            m_diagnostics->addHome(&w->scheduler());
            m_events->attach(w->scheduler());  // events reach the event items homed on this thread
        }, Qt::BlockingQueuedConnection);
        m_threads.push_back(t);
        m_threadContexts.push_back(ctx);
    }
    m_acceptThread = new QThread;
    m_acceptThread->setObjectName(QStringLiteral("ua-accept"));
    crypto::freeThreadStateOnFinish(m_acceptThread);
    installIoEventLoop(m_acceptThread);
    m_acceptContext = new QObject;
    m_acceptContext->moveToThread(m_acceptThread);
    connect(m_acceptThread, &QThread::finished, m_acceptContext, &QObject::deleteLater);
    m_acceptThread->start();
    bool ok = false;
    QMetaObject::invokeMethod(m_acceptContext, [this, &ok] {
        m_listener = std::make_unique<Listener>(*this);
        // Qt's default backlog (50) drops SYNs in a connect storm (2,000 at once: clients waited
        // for the SYN retransmission, 1 s and more); the kernel caps it at net.core.somaxconn.
        m_listener->setListenBacklogSize(kListenBacklog);
        ok = m_listener->listen(m_config.listenAddress, m_config.port);
        if (!ok) {
            m_error = m_listener->errorString();
            m_listener.reset();
            return;
        }
        m_config.port = m_listener->serverPort();
        buildDescriptions();  // before this thread's event loop accepts anything
        if (!m_config.reverseConnect.clientUrls.isEmpty()) {
            auto* reverse = new ReverseConnector(m_config.reverseConnect, m_config.applicationUri, endpointUrl(),
                                                 [this](int fd, ReverseOrigin origin) { acceptReverse(fd, std::move(origin)); },
                                                 m_acceptContext);
            {
                std::lock_guard lock(m_reverseMutex);
                m_reverse = reverse;
            }
            reverse->start();
        }
        m_expiryTimer = new QTimer(m_acceptContext);
        m_expiryTimer->setInterval(1000);
        connect(m_expiryTimer, &QTimer::timeout, m_acceptContext, [this] {
            std::vector<SessionPtr> timedOut;  // (the unactivated ones: onRemoved)
            m_sessions.expire(monotonicMs(), &timedOut);
            // OPC 10000-4 6.5.6: "Session/Timeout" for each, raised outside the manager's lock.
            for (const SessionPtr& s : timedOut)
                auditSessionEnded(audit(), AuditSessionEnd::Timeout, s->sessionId, std::string(), "Session timed out");
        });
        m_expiryTimer->start();
        // The alarms' inputs are read every alarmPollMs (conditions/ConditionManager.h).
        m_alarmTimer = new QTimer(m_acceptContext);
        m_alarmTimer->setInterval(std::clamp(m_config.alarmPollMs, 10, 60000));
        connect(m_alarmTimer, &QTimer::timeout, m_acceptContext, [this] {
            if (m_conditions->size()) m_conditions->poll(*m_space->snapshot(), monotonicMs());
        });
        m_alarmTimer->start();
        new SessionDiagnosticsNodes(*m_diagnostics, m_sessions, *m_space, m_config.maxSessionDiagnosticsObjects, m_acceptContext);  // the per-Session diagnostics objects
        for (const auto& e : m_config.extensions)
            if (e) e->started(m_config, *m_events, m_acceptContext);
    }, Qt::BlockingQueuedConnection);
    if (!ok) {
        stop();
        return false;
    }
    std::lock_guard lock(m_pushLink->mutex);
    m_pushLink->server = this;
    m_pushLink->context = m_acceptContext;
    return true;
}

void Server::stop() {
    {
        std::lock_guard lock(m_pushLink->mutex);
        m_pushLink->server = nullptr;
        m_pushLink->context = nullptr;
    }
    m_diagnostics->clearHomes();
    if (m_acceptThread) {
        QMetaObject::invokeMethod(m_acceptContext, [this] { stopListening(); }, Qt::BlockingQueuedConnection);
        m_acceptThread->quit();
        m_acceptThread->wait();
        delete m_acceptThread;
        m_acceptThread = nullptr;
        m_acceptContext = nullptr;
        m_expiryTimer = nullptr;
        m_alarmTimer = nullptr;
    }
    // Every I/O thread is told to quit before any is waited for: a thread's context (its
    // SubscriptionScheduler, home of some Sessions' subscriptions) is deleted when that thread ends,
    // and a thread still serving (a Publish) reaches the home of another. Stopping them one by one
    // left the others serving for the whole teardown (a crash seen in tst_client_subscriptions).
    for (QThread* t : m_threads) t->quit();
    for (QThread* t : m_threads) t->wait();
    for (QThread* t : m_threads) delete t;
    m_threads.clear();
    m_threadContexts.clear();
    if (m_history) {
        m_events->setHistorySink({});
        m_history->stop();  // after the I/O threads: no request posts to it any more
    }
    if (m_shutdownState == ShutdownState::CountingDown) shutdownDone();
}

void Server::stopListening() {
    m_listener.reset();
    ReverseConnector* reverse = nullptr;
    {
        std::lock_guard lock(m_reverseMutex);
        reverse = std::exchange(m_reverse, nullptr);
    }
    delete reverse;  // its spares stay with their I/O threads; reports after this are dropped
}

std::vector<ReverseConnector::TargetState> Server::reverseConnectStates() const {
    std::lock_guard lock(m_reverseMutex);
    return m_reverse ? m_reverse->states() : std::vector<ReverseConnector::TargetState>{};
}

StatusCode Server::closeSession(const NodeId& sessionId, const QString& administrator) {
    const SessionPtr s = m_sessions.findBySessionId(sessionId);
    if (!s) {
        qCWarning(lcAudit, "%s: closing Session %s failed: BadSessionIdInvalid (it has gone already)",
                  qPrintable(administrator), sessionId.toString().c_str());
        return status::BadSessionIdInvalid;
    }
    std::string user;
    QString from;
    {
        std::lock_guard lock(s->activationMutex);  // the user and the address change under it
        user = s->clientUserId.empty() ? std::string("anonymous") : "'" + s->clientUserId + "'";
        from = s->peerAddress.isEmpty() ? QStringLiteral("an unknown address") : s->peerAddress;
    }
    if (auto ss = s->subscriptions.load()) {
        QMetaObject::invokeMethod(&ss->home(), [ss] {
            ss->removeAll();
            ss->home().reschedule();
        }, Qt::QueuedConnection);
    }
    m_sessions.remove(s, SessionEnd::ClosedByServer);
    // The administrator's action: an audit line (users/AuditLog.h) and event (OPC 10000-4 6.5.6).
    qCInfo(lcAudit, "%s: closed Session '%s' (%s) of user %s from %s", qPrintable(administrator),
           s->sessionName.toQString().toUtf8().constData(), sessionId.toString().c_str(), user.c_str(), qPrintable(from));
    auditSessionEnded(audit(), AuditSessionEnd::Terminated, sessionId, administrator.toStdString(),
                      "Session closed by the administrator");
    return status::Good;
}

quint16 Server::port() const { return m_config.port; }
QString Server::endpointUrl() const { return m_config.endpointUrl(); }

void Server::accept(qintptr fd) {
    QObject* ctx = m_threadContexts[m_nextThread++ % m_threadContexts.size()];
    // The connection is created on its I/O thread and lives there (no thread hop per request); a
    // child of the thread's context, so that shutdown() finds it and stop() deletes it.
    QMetaObject::invokeMethod(ctx, [this, ctx, fd] { (new ServerConnection(*m_parts, fd))->setParent(ctx); }, Qt::QueuedConnection);
}

void Server::acceptReverse(int fd, ReverseOrigin origin) {
    QObject* ctx = m_threadContexts[m_nextThread++ % m_threadContexts.size()];
    QMetaObject::invokeMethod(ctx, [this, ctx, fd, origin = std::move(origin)]() mutable {
        (new ServerConnection(*m_parts, fd, std::move(origin)))->setParent(ctx);
    }, Qt::QueuedConnection);
}

void Server::buildDescriptions() {
    m_application.applicationUri = String::fromQString(m_config.applicationUri);
    m_application.productUri = String::fromQString(m_config.productUri);
    m_application.applicationName = LocalizedText{String("en"), String::fromQString(m_config.applicationName)};
    m_application.applicationType = ApplicationType::Server;
    m_application.discoveryUrls = Array<String>{String::fromQString(endpointUrl())};

    m_identity.store(std::make_shared<const ServerIdentity>(
                         ServerIdentity{m_config.secureChannel.security, endpointsFor(m_config.secureChannel.security.get())}),
                     std::memory_order_release);
}

std::vector<EndpointDescription> Server::endpointsFor(const ServerChannelSecurity* security) const {
    std::vector<EndpointDescription> endpoints;
    if (!security) return endpoints;
    const ServerSecurityConfig& cfg = m_config.security;
    const ServerChannelSecurity& sec = *security;
    const bool pki = m_store != nullptr;
    for (const auto& offer : sec.offers) {
        const SecurityPolicy& policy = securityPolicy(offer.policy);
        EndpointDescription e;
        e.endpointUrl = String::fromQString(endpointUrl());
        e.server = m_application;
        e.securityMode = offer.mode;
        e.securityPolicyUri = String(policy.uri);
        // The certificate of the endpoint's kind (OPC 10000-4 7.14 serverCertificate): RSA, or the ECC
        // one of the policy's curve.
        if (pki) e.serverCertificate = ByteString(sec.certificateFor(policy).der());
        // A relative level (OPC 10000-4 7.14): encryption over signing, newer policies over older.
        uint8_t level = 0;
        if (offer.mode != MessageSecurityMode::None) {
            const uint8_t rank = offer.policy == SecurityPolicyId::EccNistP384           ? 6
                                 : offer.policy == SecurityPolicyId::EccNistP256         ? 5
                                 : offer.policy == SecurityPolicyId::Aes256Sha256RsaPss  ? 4
                                 : offer.policy == SecurityPolicyId::Aes128Sha256RsaOaep ? 3
                                 : offer.policy == SecurityPolicyId::Basic256Sha256      ? 2
                                                                                          : 1;
            level = uint8_t(rank + (offer.mode == MessageSecurityMode::SignAndEncrypt ? 10 : 0));
        }
        e.securityLevel = level;
        // On a None endpoint, secrets in identity tokens are protected by Basic256Sha256 (7.41).
        const String tokenPolicy = offer.policy == SecurityPolicyId::None && pki ? String(kSecurityPolicyBasic256Sha256) : String();
        Array<UserTokenPolicy> tokens = Array<UserTokenPolicy>::emptyArray();
        if (cfg.allowAnonymous) {
            UserTokenPolicy t;
            t.policyId = String("anonymous");
            t.tokenType = UserTokenType::Anonymous;
            tokens.push_back(t);
        }
        // Under an ECC policy the token policies name it (OPC 10000-6 6.8.2: an ECC endpoint offers no
        // RSA token policy): a password travels as an EccEncryptedSecret (OPC 10000-4 7.40.2.5), a
        // user certificate must be of the policy's curve (its ECDSA userTokenSignature).
        const String userTokenPolicy = policy.isEcc() ? String(policy.uri) : tokenPolicy;
        if (cfg.allowUserName && (pki || offer.policy != SecurityPolicyId::None)) {
            UserTokenPolicy t;
            t.policyId = String("username");
            t.tokenType = UserTokenType::UserName;
            t.securityPolicyUri = userTokenPolicy;
            tokens.push_back(t);
        }
        if (cfg.allowX509 && pki) {
            UserTokenPolicy t;
            t.policyId = String("certificate");
            t.tokenType = UserTokenType::Certificate;
            t.securityPolicyUri = userTokenPolicy;
            tokens.push_back(t);
        }
        e.userIdentityTokens = tokens;
        e.transportProfileUri = String("http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary");
        endpoints.push_back(std::move(e));
    }
    return endpoints;
}

} // namespace ua
