// The step runner (see LoadRunner.h): phases, Session set-up, the timeline, the figures. The
// requests themselves are LoadEngine's (on the I/O threads).
#include "LoadRunner.h"

#include "ClientCertificate.h"
#include "LoadEngine.h"
#include "ProcessStats.h"
#include "StepCoordinator.h"

#include "ua/client/channel/ReverseListener.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/CryptoThreadState.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/transport/ContextRef.h"
#include "ua/transport/EpollEventDispatcher.h"

#include <QStandardPaths>
#include <QThread>
#include <QTimer>
#include <cmath>
#include <sys/resource.h>

namespace ua::loadtest {

using namespace detail;

namespace {

// NodeId text with a namespace URI ("nsu=...;s=X", looked up in the server's NamespaceArray) or an
// index ("ns=1;s=X", "i=2253").
std::optional<NodeId> nodeIdFromText(const NodeIdConverter& conv, const QString& text) {
    const std::string t = text.trimmed().toStdString();
    if (auto id = conv.fromPersistentString(t)) return id;
    return NodeId::parse(t);
}

ClientConfig clientConfig(const LoadParameters& p, ReverseListener* reverse) {
    ClientConfig c;
    c.reverseListener = reverse;
    c.securityPolicyUri = p.securityPolicyUri.isEmpty() ? QString::fromLatin1(kSecurityPolicyNone) : p.securityPolicyUri;
    c.securityMode = p.securityPolicyUri.isEmpty() ? MessageSecurityMode::None : p.securityMode;
    if (!p.userName.isEmpty()) c.identity = UserIdentity::fromUserName(p.userName, p.password);
    const bool needsPki = !p.securityPolicyUri.isEmpty() && p.securityPolicyUri != QLatin1String(kSecurityPolicyNone);
    if (needsPki || !p.userName.isEmpty())
        c.pkiDir = effectivePkiDir(p);
    if (p.trustServer) c.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    c.connectTimeoutMs = std::max<uint32_t>(p.requestTimeoutMs, 1000);
    c.requestTimeoutMs = p.requestTimeoutMs;
    c.keepAliveIntervalMs = 0;  // the load itself shows a lost connection; no extra requests
    c.autoReconnect = false;    // a lost Session is counted (connectionBroken), not hidden
    // connect: the engine backs off and counts; else the client's own back-off, bounded by
    // ClientConfig::busyRetryTimeMs (5 minutes), so that a storm of Sessions all get in.
    if (p.scenario == Scenario::Connect) c.busyRetries = 0;
    c.publishRequests = p.publishRequests;
    c.sessionName = QStringLiteral("UA Workbench Load Tester");
    c.applicationUri = QStringLiteral("urn:ua-workbench:loadtest");
    c.applicationName = QStringLiteral("UA Workbench Load Tester");
    return c;
}

// The ServerDiagnosticsSummary's counters by field name (OPC 10000-5 12.9).
std::map<QString, qint64> diagnosticsFields(const ServerDiagnosticsSummaryDataType& d) {
    return {{QStringLiteral("serverViewCount"), d.serverViewCount},
            {QStringLiteral("currentSessionCount"), d.currentSessionCount},
            {QStringLiteral("cumulatedSessionCount"), d.cumulatedSessionCount},
            {QStringLiteral("securityRejectedSessionCount"), d.securityRejectedSessionCount},
            {QStringLiteral("rejectedSessionCount"), d.rejectedSessionCount},
            {QStringLiteral("sessionTimeoutCount"), d.sessionTimeoutCount},
            {QStringLiteral("sessionAbortCount"), d.sessionAbortCount},
            {QStringLiteral("currentSubscriptionCount"), d.currentSubscriptionCount},
            {QStringLiteral("cumulatedSubscriptionCount"), d.cumulatedSubscriptionCount},
            {QStringLiteral("publishingIntervalCount"), d.publishingIntervalCount},
            {QStringLiteral("securityRejectedRequestsCount"), d.securityRejectedRequestsCount},
            {QStringLiteral("rejectedRequestsCount"), d.rejectedRequestsCount}};
}

QString validate(const LoadParameters& p) {
    QString error;
    if (!LoadParameters::fromJson(p.toJson(), &error)) return error;
    if (p.targetRate > 0 && (p.scenario == Scenario::Subscribe || p.scenario == Scenario::Connect || p.scenario == Scenario::Events))
        return QStringLiteral("the open loop (targetRate) applies to read, write, browse and history-read");
    return {};
}

constexpr double kSaturatedPercent = 90;  // of one core, per I/O thread

// Events: our server's demo event load (server-app/demo/DemoEventLoad.h).
const char* const kDemoNamespaceUri = "urn:ua-workbench:demo";
// A generation runs this much longer than the load it is for: it ends by itself if the stop never
// comes (the load tester killed), and not before the stop when the drain is slow.
constexpr uint32_t kGenerationMarginMs = 60'000;
constexpr uint32_t kMaxGenerationMs = 86'400'000;  // GenerateEvents' DurationMs at most

// The event item's filter (LoadEngine.h EventField): EventId, EventType, Time, Severity and the
// Sequence of DemoLoadEventType (without the demo namespace ReceiveTime in its place, which keeps
// the positions and is never a Sequence), where Severity >= minSeverity.
EventFilter eventLoadFilter(int demoNs, int minSeverity) {
    EventFilter f = makeEventFilter({"EventId", "EventType", "Time", "Severity"});
    if (demoNs >= 0) {
        SimpleAttributeOperand sequence;
        sequence.typeDefinitionId = NodeId(uint16_t(demoNs), String("DemoLoadEventType"));
        sequence.browsePath = Array<QualifiedName>{QualifiedName{uint16_t(demoNs), String("Sequence")}};
        sequence.attributeId = uint32_t(AttributeId::Value);
        f.selectClauses.push_back(std::move(sequence));
    } else {
        f.selectClauses.push_back(eventField("ReceiveTime"));
    }
    ContentFilterElement atLeast;
    atLeast.filterOperator = FilterOperator::GreaterThanOrEqual;
    atLeast.filterOperands = Array<ExtensionObject>{ExtensionObject::make(eventField("Severity")),
                                                    ExtensionObject::make(LiteralOperand{Variant(uint16_t(minSeverity))})};
    f.whereClause.elements = Array<ContentFilterElement>{atLeast};
    return f;
}

// Each Session holds a socket: raise the soft limit of open files to the hard one (once).
void raiseFileLimit() {
    static const bool done = [] {
        rlimit r{};
        if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
            r.rlim_cur = r.rlim_max;
            setrlimit(RLIMIT_NOFILE, &r);
        }
        return true;
    }();
    (void)done;
}

} // namespace

struct LoadRunner::Impl {
    LoadRunner* q;
    Phase phase = Phase::Idle;
    LoadParameters p;
    StepResult result;
    bool stopRequested = false;
    StepCoordinator* coordinator = nullptr;  // a distributed step (StepCoordinator.h)
    LoadParameters whole;                    // ... the whole step, of which p is this process's share
    bool readyPassed = false;                // coordinator->ready() called for this step

    std::unique_ptr<ReverseListener> reverse;        // --reverse-listen; outlives the Clients
    std::vector<std::unique_ptr<QThread>> threads;
    std::unique_ptr<Engine> engine;
    std::unique_ptr<Client> control;                 // namespace look-up and ServerDiagnostics
    std::vector<std::unique_ptr<Client>> clients;    // one per Session (connect: per worker)
    bool releasing = false;                           // teardown(): Clients being destroyed in slices
    QTimer* tick = nullptr;                          // the timeline, once a second
    QTimer* phaseTimer = nullptr;
    QTimer* drainTimer = nullptr;
    QTimer* setupKeepAlive = nullptr;                // Reads on set-up Sessions while the others connect
    double setupKeepAlivePeriodMs = 10'000;
    int64_t drainDeadlineNs = 0;

    // Connecting.
    std::size_t nextToOpen = 0;
    int opening = 0, opened = 0, openFailed = 0;
    int64_t setupStartNs = 0;
    int setupTimeouts = 0;                           // establishments that timed out and were tried again
    std::map<QString, uint64_t> openFailures;        // by status name
    std::map<QString, uint64_t> openFailuresByStage;  // "CreateMonitoredItems (counter ...): Bad_..." for the message

    // Figures.
    ProcessSample serverBefore;
    double clientBeforeMs = -1, tickClientMs = -1;
    std::vector<double> threadCpuBefore;
    int64_t tickNs = 0;
    std::optional<ServerDiagnosticsSummaryDataType> diagnosticsBefore;
    double clientCpuMs = -1, serverCpuMs = -1;   // over the measured period
    int repliesPending = 0;                      // I/O threads still to hand over the measured counts
    int tickReplies = 0;                         // ... the counts of the last second
    int closing = 0;                             // Sessions still closing
    Counts secondMerged, measuredMerged;
    int64_t minStepTicks = std::numeric_limits<int64_t>::max();
    std::vector<std::vector<ItemSamples>> itemSamples;

    // Events: our server's event generation (GenerateEvents), its Sequences first .. last.
    int demoNs = -1;                  // the demo namespace's index on the server; -1 none
    bool generating = false;          // started and not stopped yet
    int64_t generationStartNs = 0, generationStopNs = 0;
    uint64_t firstSequence = 0, lastSequence = 0;
    bool lastKnown = false;
    uint64_t eventsReceived = 0, eventsOutOfOrder = 0;   // collected from the I/O threads

    // Incremented by each step's start and end: callbacks of an earlier step are ignored.
    uint64_t generation = 0;

    explicit Impl(LoadRunner* runner) : q(runner) {}

    void setPhase(Phase ph) {
        if (phase == ph) return;
        phase = ph;
        emit q->phaseChanged(ph);
    }

    void fail(const QString& error) {
        // A refused certificate is named, so the user knows which one to trust on the server.
        // After ready() the error is every process's message already.
        result.error = readyPassed ? error : ready(withCertificateHint(error, effectivePkiDir(p)));
        close();
    }

    // Once per step, when the Sessions are set up or the step failed before: a distributed step
    // goes on only when every process is ready (the others' errors end it here too). Returns the
    // error that ends the step, "" to go on.
    QString ready(const QString& localError) {
        if (!coordinator || readyPassed) return localError;
        readyPassed = true;
        // The wait blocks this thread and its timers: the set-up keep-alive is sent from here.
        int64_t lastKeepAliveNs = steadyNs();
        return coordinator->ready(localError, [this, &lastKeepAliveNs] {
            if (steadyNs() - lastKeepAliveNs < int64_t(setupKeepAlivePeriodMs) * 1'000'000) return;
            lastKeepAliveNs = steadyNs();
            setupKeepAliveTick();
        });
    }

    // --- Connecting ---------------------------------------------------------------------------

    void begin() {
        ++generation;
        raiseFileLimit();
        readyPassed = false;
        result = StepResult();
        result.sessions = p.sessions;
        result.outstanding = p.outstanding;
        tickReplies = repliesPending = 0;
        clientCpuMs = serverCpuMs = -1;
        stopRequested = false;
        nextToOpen = 0;
        opening = opened = openFailed = 0;
        setupTimeouts = 0;
        openFailures.clear();
        openFailuresByStage.clear();
        diagnosticsBefore.reset();
        demoNs = -1;
        generating = lastKnown = false;
        firstSequence = lastSequence = 0;
        eventsReceived = eventsOutOfOrder = 0;
        setPhase(Phase::Connecting);
        const int n = p.resolvedIoThreads();
        result.ioThreads = n;
        engine = std::make_unique<Engine>();
        engine->p = p;
        engine->openLoop = p.targetRate > 0;
        engine->nsPerRequest = engine->openLoop ? 1e9 / p.targetRate : 0;
        for (int i = 0; i < n; ++i) {
            auto t = std::make_unique<QThread>();
            t->setObjectName(QStringLiteral("loadtest-io-%1").arg(i));
            crypto::freeThreadStateOnFinish(t.get());
            installIoEventLoop(t.get());  // as the server's: no ppoll() over every Session's socket
            t->start();
            auto io = std::make_unique<IoStats>();
            io->anchor = new QObject;
            io->anchor->moveToThread(t.get());
            IoStats* raw = io.get();
            QMetaObject::invokeMethod(io->anchor, [raw] { raw->tid = currentThreadId(); }, Qt::BlockingQueuedConnection);
            engine->io.push_back(std::move(io));
            threads.push_back(std::move(t));
        }
        if (p.reverseListenPort) {
            reverse = std::make_unique<ReverseListener>();
            if (!reverse->listen(QHostAddress::Any, p.reverseListenPort)) {
                const QString why = reverse->errorString();
                reverse.reset();
                return fail(QStringLiteral("listen for reverse connections on port %1: %2").arg(p.reverseListenPort).arg(why));
            }
        }
        control = std::make_unique<Client>(clientConfig(p, reverse.get()), threads[0].get());
        control->connectToServer(p.endpointUrl, q, [this, gen = generation](const ServiceResult<GetEndpointsResponse>& r) {
            if (gen != generation) return;  // a callback of an earlier step
            if (!r.isGood()) return fail(QStringLiteral("connect to %1: %2").arg(p.endpointUrl, statusName(r.status)));
            if (stopRequested) return fail(QStringLiteral("stopped"));
            control->createSession(q, [this, gen = generation](const ServiceResult<CreateSessionResponse>& s) {
                if (gen != generation) return;  // a callback of an earlier step
                if (!s.isGood()) return fail(QStringLiteral("session: %1").arg(statusName(s.status)));
                if (stopRequested) return fail(QStringLiteral("stopped"));
                const QString nodesError = resolveNodes();
                if (!nodesError.isEmpty()) return fail(nodesError);
                // The server before this step's Sessions: their memory is what it has more at the end.
                if (p.serverPid > 0) result.serverRssBeforeKb = sampleProcess(p.serverPid).rssKb;
                createSessions();
            });
        });
    }

    // HistoryRead's nodes: the parameters', or our server's demo signals (historized by default).
    QStringList historyNodeTexts() const {
        if (!p.historyNodes.isEmpty()) return p.historyNodes;
        QStringList demo;
        for (const char* name : {"Sine", "Ramp", "Random"})
            demo << QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Simulation.%1").arg(QLatin1String(name));
        return demo;
    }

    QString resolveNodes() {
        const NodeIdConverter conv = control->nodeIdConverter();
        int ns = 1;
        if (!p.variableNamespaceUri.isEmpty()) {
            ns = conv.indexOf(p.variableNamespaceUri.toStdString());
            if (ns < 0) return QStringLiteral("the server has no namespace %1").arg(p.variableNamespaceUri);
        }
        engine->variables = numericNodes(uint16_t(ns), p.firstVariableId, p.variableCount);
        const auto browse = nodeIdFromText(conv, p.browseNode);
        if (!browse) return QStringLiteral("browseNode %1 is not a NodeId of this server").arg(p.browseNode);
        engine->browseNode = *browse;
        const QString counter = counterText();
        if (p.scenario == Scenario::HistoryRead) {
            engine->historyNodes.clear();
            for (const QString& text : historyNodeTexts()) {
                const auto n = nodeIdFromText(conv, text);
                if (!n) return QStringLiteral("historyNodes: %1 is not a NodeId of this server (its namespace?)").arg(text);
                engine->historyNodes.push_back(*n);
            }
        }
        if (p.scenario == Scenario::Events) {
            demoNs = conv.indexOf(kDemoNamespaceUri);
            if (demoNs < 0 && p.eventRate > 0)
                return QStringLiteral("the server has no namespace %1: eventRate > 0 needs our server's Demo/Events/GenerateEvents "
                                      "(eventRate 0 measures the events the server raises by itself)")
                    .arg(QLatin1String(kDemoNamespaceUri));
        }
        if (p.scenario == Scenario::Subscribe) {
            const auto c = nodeIdFromText(conv, counter);
            if (!c) return QStringLiteral("counterNode %1 is not a NodeId of this server (its namespace?)").arg(counter);
            engine->counterNode = *c;
        }
        return {};
    }

    void createSessions() {
        for (int i = 0; i < p.sessions; ++i) {
            auto s = std::make_unique<Session>();
            s->index = i;
            s->engine = engine.get();
            s->io = engine->io[std::size_t(i) % engine->io.size()].get();
            s->rng = 0x9E3779B97F4A7C15ull * uint64_t(i + 1);
            clients.push_back(std::make_unique<Client>(clientConfig(p, reverse.get()), threads[std::size_t(i) % threads.size()].get()));
            s->client = clients.back().get();
            if (p.scenario == Scenario::Subscribe) s->items.resize(std::size_t(p.monitoredItems));
            QObject::connect(s->client, &Client::stateChanged, q, [this](ClientState st, StatusCode) {
                const bool loaded = phase == Phase::WarmingUp || phase == Phase::Measuring || phase == Phase::Draining;
                if (loaded && p.scenario != Scenario::Connect && st != ClientState::Connected) result.connectionBroken = true;
            });
            engine->sessions.push_back(std::move(s));
        }
        if (p.scenario == Scenario::Connect) return startLoad();  // the workers connect in the load
        setupStartNs = steadyNs();
        startSetupKeepAlive();
        openMore();
    }

    void openMore() {
        while (opening < p.connectWindow && nextToOpen < engine->sessions.size() && !stopRequested) {
            Session* s = engine->sessions[nextToOpen++].get();
            ++opening;
            openOne(s, 0);
        }
    }

    // Connect + CreateSession/ActivateSession of one Session. An establishment that timed out (the
    // client gave up on an answer; a storm on a loaded machine) is tried again, kSetupTimeoutRetries
    // times at most, on the channel when it is open; the Client closes what it gave up on.
    static constexpr int kSetupTimeoutRetries = 3;
    bool retryTimedOut(Session* s, StatusCode st, int timeouts) {
        if (st != status::BadTimeout || timeouts >= kSetupTimeoutRetries || stopRequested) return false;
        ++setupTimeouts;
        openOne(s, timeouts + 1);
        return true;
    }
    void openOne(Session* s, int timeouts) {
        auto createSession = [this, s, timeouts] {
            s->client->createSession(q, [this, gen = generation, s, timeouts](const ServiceResult<CreateSessionResponse>& c) {
                if (gen != generation) return;  // a callback of an earlier step
                if (retryTimedOut(s, c.status, timeouts)) return;
                s->setUp = c.isGood();
                if (c.isGood() && p.scenario == Scenario::Events) return subscribeEvents(s);
                if (!c.isGood() || p.scenario != Scenario::Subscribe) return opened1(c.status);
                subscribe(s);
            });
        };
        if (s->client->state() == ClientState::ChannelOpen) return createSession();
        s->client->connectToServer(p.endpointUrl, q, [this, gen = generation, s, timeouts, createSession](const ServiceResult<GetEndpointsResponse>& r) {
            if (gen != generation) return;  // a callback of an earlier step
            if (retryTimedOut(s, r.status, timeouts)) return;
            if (!r.isGood()) return opened1(r.status);
            createSession();
        });
    }

    void subscribe(Session* s) {
        SubscriptionSettings settings;
        settings.publishingIntervalMs = p.publishingIntervalMs;
        settings.maxKeepAliveCount = p.maxKeepAliveCount;
        settings.lifetimeCount = p.lifetimeCount;
        SubscriptionHandlers h;
        Engine* e = engine.get();
        h.notification = [e, s](const SubscriptionNotification& n) { e->notified(*s, n); };  // on the I/O thread
        s->client->createSubscription(settings, q, h, [this, gen = generation, s](const SubscriptionInfo& info) {
            if (gen != generation) return;  // a callback of an earlier step
            if (info.status.isBad()) return opened1(info.status, QStringLiteral("CreateSubscription"));
            s->subscription = info.handle;
            std::vector<MonitoredItemSpec> items;
            for (int k = 0; k < p.monitoredItems; ++k) {
                MonitoredItemSpec m;
                m.clientHandle = uint32_t(k + 1);
                m.nodeId = engine->counterNode;
                m.settings.samplingIntervalMs = p.samplingIntervalMs;
                m.settings.queueSize = p.queueSize;
                items.push_back(std::move(m));
            }
            s->client->createMonitoredItems(info.handle, std::move(items), q, [this, gen = generation](const MonitoredItemsResult& r) {
                if (gen != generation) return;  // a callback of an earlier step
                StatusCode st = r.status;
                for (const auto& i : r.items)
                    if (st.isGood() && i.statusCode.isBad()) st = i.statusCode;
                opened1(st, QStringLiteral("CreateMonitoredItems of %1 items on counter %2").arg(p.monitoredItems).arg(counterText()));
            });
        });
    }

    // Events: a Subscription with one event item on the Server object. Its notifications are
    // handled on the Session's I/O thread (context nullptr); the set-up's answers come back here.
    void subscribeEvents(Session* s) {
        SubscriptionSettings settings;
        settings.publishingIntervalMs = p.publishingIntervalMs;
        settings.maxKeepAliveCount = p.maxKeepAliveCount;
        settings.lifetimeCount = p.lifetimeCount;
        SubscriptionHandlers h;
        Engine* e = engine.get();
        h.notification = [e, s](const SubscriptionNotification& n) { e->eventsNotified(*s, n); };
        const ContextRef runner(q);
        // Runs f on the runner's thread, unless the runner is gone by then (ContextRef.h).
        auto here = [runner](auto f) { runner.post(std::move(f)); };
        s->client->createSubscription(settings, nullptr, h, [this, here, gen = generation, s](const SubscriptionInfo& info) {
            here([this, gen, s, info] {
                if (gen != generation) return;  // a callback of an earlier step
                if (info.status.isBad()) return opened1(info.status, QStringLiteral("CreateSubscription"));
                s->subscription = info.handle;
                MonitoredItemSpec m;
                m.clientHandle = 1;
                m.nodeId = NodeId(id::Server);
                m.attributeId = uint32_t(AttributeId::EventNotifier);
                m.settings.samplingIntervalMs = 0;
                m.settings.queueSize = p.eventQueueSize;
                m.settings.discardOldest = true;
                m.settings.eventFilter = eventLoadFilter(demoNs, p.eventMinSeverity);
                s->client->createMonitoredItems(info.handle, {std::move(m)}, q, [this, gen = generation](const MonitoredItemsResult& r) {
                    if (gen != generation) return;  // a callback of an earlier step
                    StatusCode st = r.status;
                    for (const auto& i : r.items)
                        if (st.isGood() && i.statusCode.isBad()) st = i.statusCode;
                    opened1(st, QStringLiteral("CreateMonitoredItems of the event item on the Server object"));
                });
            });
        });
    }

    // Events: GenerateEvents(EventsPerSecond, DurationMs) on our server's Demo/Events; done gets the
    // NextSequence, or the error.
    void generateEvents(uint32_t perSecond, uint32_t durationMs, std::function<void(std::optional<uint64_t>, QString)> done) {
        const NodeId object(uint16_t(demoNs), String("Demo.Events"));
        const NodeId method(uint16_t(demoNs), String("Demo.Events.GenerateEvents"));
        control->callMethod(object, method, {Variant(perSecond), Variant(durationMs)}, q,
                            [done = std::move(done)](const ServiceResult<CallResponse>& r) {
                                StatusCode st = r.status;
                                if (st.isGood() && r.response.results.empty()) st = status::BadUnexpectedError;
                                if (st.isGood()) st = r.response.results[0].statusCode;
                                const uint64_t* next = st.isGood() && !r.response.results[0].outputArguments.empty()
                                                           ? r.response.results[0].outputArguments[0].get<uint64_t>()
                                                           : nullptr;
                                if (!next) {
                                    QString why = statusName(st.isBad() ? st : StatusCode(status::BadTypeMismatch));
                                    if (st == status::BadUserAccessDenied)
                                        why += QStringLiteral(" (calling needs a user with the Operator Role)");
                                    return done(std::nullopt, QStringLiteral("GenerateEvents: %1").arg(why));
                                }
                                done(*next, {});
                            }, p.requestTimeoutMs);
    }

    // The counter sampled by the subscribe scenario, as text (default: our server's demo Ramp).
    QString counterText() const {
        return p.counterNode.isEmpty() ? QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Simulation.Ramp") : p.counterNode;
    }

    // While Sessions are set up (a storm of 1,000 secure ones takes minutes on a small machine), the
    // ones already set up send nothing of the load yet: without a request the server would time
    // them out (OPC 10000-4 5.7.2: the Session timeout runs from its last request). Each gets a Read
    // of Server_ServerStatus_CurrentTime every third of the revised Session timeout (at most 10 s).
    void startSetupKeepAlive() {
        const double revised = control ? control->snapshot().revisedSessionTimeoutMs : 0;
        setupKeepAlivePeriodMs = revised > 0 ? std::clamp(revised / 3, 500.0, 10'000.0) : 10'000.0;
        setupKeepAlive->start(int(setupKeepAlivePeriodMs));
    }
    void setupKeepAliveTick() {
        if (phase != Phase::Connecting || !engine) return setupKeepAlive->stop();
        // The control Session too: it reads ServerDiagnostics after the step.
        if (control) control->readValues({NodeId(id::Server_ServerStatus_CurrentTime)}, q, [](const ServiceResult<ReadResponse>&) {});
        for (auto& s : engine->sessions)
            if (s->setUp)
                s->client->readValues({NodeId(id::Server_ServerStatus_CurrentTime)}, q, [](const ServiceResult<ReadResponse>&) {});
    }

    // A Session set up (stage empty: connect + Session; else the subscribe stage that failed).
    void opened1(StatusCode status, const QString& stage = {}) {
        --opening;
        if (status.isGood()) {
            ++opened;
        } else {
            ++openFailed;
            ++openFailures[statusName(status)];
            ++openFailuresByStage[stage.isEmpty() ? statusName(status) : stage + QStringLiteral(": ") + statusName(status)];
        }
        if (phase != Phase::Connecting) return;
        if (opened + openFailed == int(engine->sessions.size()) || (stopRequested && opening == 0)) {
            setupKeepAlive->stop();
            result.setupS = double(steadyNs() - setupStartNs) / 1e9;
            result.setupSessionsPerS = opened > 0 && result.setupS > 0 ? opened / result.setupS : 0;
            if (setupTimeouts > 0)
                result.warnings << QStringLiteral("%1 Session establishments timed out while setting up and were tried again").arg(setupTimeouts);
            if (stopRequested) return fail(QStringLiteral("stopped"));
            if (openFailed > 0) {
                QStringList why;
                for (const auto& [name, n] : openFailuresByStage) why << QStringLiteral("%1 x %2").arg(n).arg(name);
                result.errorsByStatus = openFailures;
                return fail(QStringLiteral("%1 of %2 Sessions could not be set up: %3 (set-up %4 s)")
                                .arg(openFailed)
                                .arg(p.sessions)
                                .arg(why.join(QStringLiteral(", ")))
                                .arg(result.setupS, 0, 'f', 1));
            }
            if (const QString error = ready({}); !error.isEmpty()) return fail(error);
            return startLoad();
        }
        openMore();
    }

    // --- Load -----------------------------------------------------------------------------------

    void startLoad() {
        if (p.scenario == Scenario::Events && p.eventRate > 0 && !generating) {
            // The generation runs from now until the period ends (and a margin, should the stop not come).
            const double ms = (p.warmupS + p.durationS) * 1000.0 + double(p.requestTimeoutMs) + kGenerationMarginMs;
            const uint32_t durationMs = uint32_t(std::min(ms, double(kMaxGenerationMs)));
            if (ms > kMaxGenerationMs)
                result.warnings << QStringLiteral("the server's event generation lasts a day at most: it stops before the step ends");
            generateEvents(p.eventRate, durationMs, [this, gen = generation](std::optional<uint64_t> next, const QString& error) {
                if (gen != generation) return;  // a callback of an earlier step
                if (phase != Phase::Connecting) {
                    // The step ended meanwhile (stopped, failed): the generation goes too, if it started.
                    if (next && control) generateEvents(0, 0, [](std::optional<uint64_t>, const QString&) {});
                    return;
                }
                if (!next) return fail(error);
                if (stopRequested) return fail(QStringLiteral("stopped"));
                generating = true;
                generationStartNs = steadyNs();
                firstSequence = *next;
                engine->firstSequence = *next;
                startLoad();
            });
            return;
        }
        const int64_t now = steadyNs();
        engine->loadStartNs = now;
        engine->measureStartNs = now + int64_t(p.warmupS * 1e9);
        engine->measureEndNs = engine->measureStartNs + int64_t(p.durationS * 1e9);
        engine->sending = true;
        tickNs = now;
        tickClientMs = generatorCpuMs();
        Engine* e = engine.get();
        for (auto& io : engine->io) {
            IoStats* raw = io.get();
            QMetaObject::invokeMethod(raw->anchor, [e, raw] {
                for (auto& s : e->sessions)
                    if (s->io == raw) e->begin(*s);
                if (e->openLoop) {
                    raw->pacer = new QTimer(raw->anchor);
                    raw->pacer->setTimerType(Qt::PreciseTimer);
                    raw->pacer->setSingleShot(true);  // armed by each run for the next due entry
                    QObject::connect(raw->pacer, &QTimer::timeout, raw->anchor, [e, raw] { e->pace(*raw); });
                    e->startPacing(*raw);
                }
            });
        }
        tick->start(1000);
        if (p.warmupS > 0) {
            setPhase(Phase::WarmingUp);
            phaseTimer->start(int(p.warmupS * 1000));
        } else {
            measureStarted();
        }
    }

    void measureStarted() {
        if (phase == Phase::Measuring) return;
        setPhase(Phase::Measuring);
        clientBeforeMs = generatorCpuMs();
        serverBefore = sampleProcess(p.serverPid > 0 ? p.serverPid : -1);
        threadCpuBefore.clear();
        for (auto& io : engine->io) threadCpuBefore.push_back(threadCpuMs(io->tid));
        if (p.readServerDiagnostics && control)
            readDiagnostics([this, gen = generation](std::optional<ServerDiagnosticsSummaryDataType> d) {
                if (gen == generation) diagnosticsBefore = d;
            });
        const int64_t left = engine->measureEndNs.load() - steadyNs();
        phaseTimer->start(int(std::max<int64_t>(0, left / 1'000'000)));
        // The timeline's seconds start with the measurement: the warm-up's last part is a sample
        // of its own.
        onTick();
        tick->start(1000);
    }

    // The load generator's CPU time (ms): its I/O threads, where every request is built, sent,
    // answered and recorded (the runner's thread and the rest of the process, e.g. a server in the
    // same process, are not counted).
    double generatorCpuMs() const {
        double sum = 0;
        for (const auto& io : engine->io) {
            const double ms = threadCpuMs(io->tid);
            if (ms < 0) return -1;
            sum += ms;
        }
        return sum;
    }

    void phaseTimeout() {
        if (phase == Phase::WarmingUp) measureStarted();
        else if (phase == Phase::Measuring) measureEnded();
    }

    void measureEnded() {
        const int64_t now = steadyNs();
        if (engine->measureEndNs.load() > now) engine->measureEndNs = now;  // stopped early
        phaseTimer->stop();
        // The measurement's last (partial) second, unless it has just been sampled.
        if (now - tickNs > 200'000'000) onTick();
        tick->stop();  // the drain is not part of the timeline
        const double seconds = double(engine->measureEndNs.load() - engine->measureStartNs.load()) / 1e9;
        result.durationS = std::max(0.0, seconds);
        const ProcessSample client = sampleProcess(0);
        const ProcessSample server = sampleProcess(p.serverPid > 0 ? p.serverPid : -1);
        result.clientRssKb = client.rssKb;
        const double generator = generatorCpuMs();
        clientCpuMs = generator >= 0 && clientBeforeMs >= 0 ? generator - clientBeforeMs : -1;
        serverCpuMs = server.cpuMs >= 0 && serverBefore.cpuMs >= 0 ? server.cpuMs - serverBefore.cpuMs : -1;
        result.serverRssKb = server.rssKb;
        for (std::size_t i = 0; i < engine->io.size(); ++i) {
            const double cpu = threadCpuMs(engine->io[i]->tid);
            if (cpu < 0 || threadCpuBefore[i] < 0 || seconds <= 0) continue;
            const double percent = (cpu - threadCpuBefore[i]) / seconds / 10.0;
            if (percent >= kSaturatedPercent) {
                result.generatorSaturated = true;
                result.warnings << QStringLiteral("the load generator saturated: I/O thread %1 used %2 % of a core; the figures "
                                                  "may be the generator's limit, not the server's (more ioThreads?)")
                                       .arg(i)
                                       .arg(percent, 0, 'f', 0);
            }
        }
        setPhase(Phase::Draining);
        drainDeadlineNs = now + int64_t(p.requestTimeoutMs) * 1'000'000 + 2'000'000'000;
        if (generating) return stopGenerating([this] { drainTimer->start(10); });
        drainTimer->start(10);
    }

    // Events: the generation's stop; then the last Sequence raised is known (lastKnown), and
    // whether each Session's item has had its last event (drainCheck).
    void stopGenerating(std::function<void()> then) {
        generating = false;
        generateEvents(0, 0, [this, gen = generation, then = std::move(then)](std::optional<uint64_t> next, const QString& error) {
            if (gen != generation) return;  // a callback of an earlier step
            generationStopNs = steadyNs();
            if (next && *next > 0) {
                lastSequence = *next - 1;
                lastKnown = true;
            } else {
                result.warnings << QStringLiteral("%1: the events lost are not known").arg(error);
            }
            then();
        });
    }
    // Events: every Session's item has received its last expected event (events arrive in order).
    bool eventsDelivered() const {
        if (!lastKnown || p.scenario != Scenario::Events) return true;
        const uint64_t last = events::lastExpected(firstSequence, lastSequence, p.eventMinSeverity);
        if (last == 0) return true;
        for (const auto& s : engine->sessions)
            if (!s->lost && s->lastSequence.load(std::memory_order_relaxed) < last) return false;
        return true;
    }
    void drainCheck() {
        int64_t busy = 0;
        for (auto& io : engine->io) busy += io->inFlight.load() + io->backlog.load();
        const bool delivered = eventsDelivered();
        if ((busy > 0 || !delivered) && steadyNs() < drainDeadlineNs) return;
        drainTimer->stop();
        if (busy > 0) result.warnings << QStringLiteral("%1 requests still in flight at the end counted as timeouts").arg(busy);
        if (!delivered) result.warnings << QStringLiteral("the last events did not arrive within %1 ms after the period").arg(p.requestTimeoutMs + 2000);
        collect();
    }

    // Every I/O thread hands over its counts (and the subscribe items) and stops its pacer.
    void collect() {
        engine->sending = false;
        tick->stop();
        measuredMerged = Counts();
        itemSamples.clear();
        minStepTicks = std::numeric_limits<int64_t>::max();
        repliesPending = int(engine->io.size());
        Engine* e = engine.get();
        for (auto& io : engine->io) {
            IoStats* raw = io.get();
            QMetaObject::invokeMethod(raw->anchor, [this, gen = generation, e, raw] {
                if (raw->pacer) raw->pacer->stop();
                Counts counts = raw->measured;
                for (auto& s : e->sessions)
                    if (s->io == raw) {
                        const uint64_t unsent = e->unsentDue(*s);
                        counts.sent += unsent;
                        counts.timeouts += unsent;
                    }
                std::vector<std::vector<ItemSamples>> items;
                int64_t minStep = std::numeric_limits<int64_t>::max();
                uint64_t received = 0, outOfOrder = 0;
                for (auto& s : e->sessions)
                    if (s->io == raw) {
                        items.push_back(s->items);
                        minStep = std::min(minStep, s->minStepTicks);
                        received += s->eventsReceived;
                        outOfOrder += s->eventsOutOfOrder;
                    }
                QMetaObject::invokeMethod(q, [this, gen, counts = std::move(counts), items = std::move(items), minStep, received, outOfOrder] {
                    if (gen != generation) return;  // a callback of an earlier step
                    eventsReceived += received;
                    eventsOutOfOrder += outOfOrder;
                    measuredMerged.merge(counts);
                    for (auto& i : items) itemSamples.push_back(i);
                    minStepTicks = std::min(minStepTicks, minStep);
                    if (--repliesPending == 0) collected();
                }, Qt::QueuedConnection);
            });
        }
    }

    void collected() {
        const Counts& c = measuredMerged;
        result.sent = c.sent;
        result.answered = c.answered;
        result.errors = c.errors;
        result.timeouts = c.timeouts;
        // Still in flight past the drain deadline: no answer in time.
        if (result.sent > result.answered + result.errors + result.timeouts)
            result.timeouts = result.sent - result.answered - result.errors;
        result.errorsByStatus = c.errorsByStatus;
        result.latency = c.latency;
        result.serverTooBusy = c.serverTooBusy;
        result.retries = c.retries;
        result.pacerWakeups = c.pacerWakeups;
        result.computeFigures();
        const double d = result.durationS;
        // Throughput: what the server answered inside the period (see Counts::answeredInPeriod).
        result.requestsPerS = d > 0 ? double(c.answeredInPeriod) / d : 0;
        result.valuesPerS = d > 0 ? double(c.valuesInPeriod) / d : 0;
        if (p.targetRate > 0 && result.requestsPerS < 0.95 * p.targetRate)
            result.warnings << QStringLiteral("the target rate was not kept: %1 requests/s answered of %2 wanted; the requests "
                                              "it could not send in time count as timeouts")
                                   .arg(result.requestsPerS, 0, 'f', 0)
                                   .arg(p.targetRate, 0, 'f', 0);
        const uint64_t done = p.scenario == Scenario::Subscribe || p.scenario == Scenario::Events ? c.values : c.answered;
        // Per operation only when something was answered (-1 otherwise: no such figure).
        if (clientCpuMs >= 0) {
            result.clientCpuMsPerOp = done > 0 ? clientCpuMs / double(done) : -1;
            result.clientCpuPercent = d > 0 ? clientCpuMs / d / 10.0 : 0;
        }
        if (serverCpuMs >= 0) {
            result.serverCpuMsPerOp = done > 0 ? serverCpuMs / double(done) : -1;
            result.serverCpuPercent = d > 0 ? serverCpuMs / d / 10.0 : 0;
        }
        if (p.scenario == Scenario::Connect) result.sessionsPerS = result.requestsPerS;
        if (p.scenario == Scenario::Subscribe) fidelity();
        if (p.scenario == Scenario::Events) eventFigures();
        if (p.readServerDiagnostics && control && diagnosticsBefore) {
            readDiagnostics([this, gen = generation](std::optional<ServerDiagnosticsSummaryDataType> after) {
                if (gen != generation) return;  // a callback of an earlier step
                if (after && diagnosticsBefore) {
                    ServerDiagnostics diag;
                    diag.after = diagnosticsFields(*after);
                    const auto before = diagnosticsFields(*diagnosticsBefore);
                    for (const auto& [k, v] : diag.after) diag.delta[k] = v - before.at(k);
                    result.serverDiagnostics = std::move(diag);
                }
                close();
            });
            return;
        }
        close();
    }

    // Per item: notifications received / counter steps between its first and last SourceTimestamp.
    // The counter is taken to step every sampling interval, or every smallest step seen when that
    // is clearly longer (a slower counter).
    void fidelity() {
        const int64_t samplingTicks = std::max<int64_t>(1, int64_t(p.samplingIntervalMs * 10'000));
        int64_t period = samplingTicks;
        if (minStepTicks != std::numeric_limits<int64_t>::max() && double(minStepTicks) > 1.5 * double(samplingTicks))
            period = minStepTicks;
        double minF = -1, sum = 0;
        int n = 0, below = 0;
        for (const auto& session : itemSamples)
            for (const ItemSamples& item : session) {
                double f = 0;
                if (item.received > 0) {
                    const double expected = std::floor(double(item.lastTicks - item.firstTicks) / double(period) + 0.5) + 1;
                    f = std::min(100.0, 100.0 * double(item.received) / expected);
                }
                minF = n == 0 ? f : std::min(minF, f);
                sum += f;
                ++n;
                below += f < 99.0;
            }
        result.notificationsPerS = result.valuesPerS;
        result.minFidelityPercent = n ? minF : 0;
        // The sum of n equal values divided by n can come out an ulp below them: the mean is kept
        // at or above the minimum (tst_load_runner failed on that once).
        result.meanFidelityPercent = n ? std::max(minF, sum / n) : 0;
        result.itemsBelow99 = below;
    }

    // Events: delivered, raised, expected and lost (StepResult.h).
    void eventFigures() {
        result.eventsPerS = result.valuesPerS;
        result.eventOverflows = measuredMerged.eventOverflows;
        result.eventsOutOfOrder = eventsOutOfOrder;
        if (result.eventOverflows > 0)
            result.warnings << QStringLiteral("the server reported %1 event queue overflows (EventQueueOverflowEventType): events "
                                              "were dropped from an item's queue")
                                   .arg(result.eventOverflows);
        if (p.eventRate == 0) return;  // the server's own events: nothing to count them against
        if (!lastKnown) return;
        result.eventsRaised = lastSequence + 1 > firstSequence ? lastSequence + 1 - firstSequence : 0;
        const double s = double(generationStopNs - generationStartNs) / 1e9;
        result.eventsRaisedPerS = s > 0 ? double(result.eventsRaised) / s : 0;
        result.eventsReceived = eventsReceived;
        int live = 0;
        for (const auto& session : engine->sessions) live += session->lost ? 0 : 1;
        result.eventsExpected = events::expectedCount(firstSequence, lastSequence, p.eventMinSeverity) * uint64_t(live);
        result.eventsLost = int64_t(result.eventsExpected) - int64_t(std::min(result.eventsExpected, eventsReceived));
        if (eventsReceived > result.eventsExpected)
            result.warnings << QStringLiteral("%1 more load events arrived than the server raised for this step (another client "
                                              "generating events?)")
                                   .arg(eventsReceived - result.eventsExpected);
        if (result.eventsRaisedPerS < 0.95 * p.eventRate)
            result.warnings << QStringLiteral("the server raised %1 events/s of the %2 asked for")
                                   .arg(result.eventsRaisedPerS, 0, 'f', 0)
                                   .arg(p.eventRate);
    }

    void readDiagnostics(std::function<void(std::optional<ServerDiagnosticsSummaryDataType>)> done) {
        control->readValues({NodeId(id::Server_ServerDiagnostics_ServerDiagnosticsSummary)}, q,
                            [done](const ServiceResult<ReadResponse>& r) {
                                std::optional<ServerDiagnosticsSummaryDataType> d;
                                if (r.isGood() && !r.response.results.empty() && r.response.results[0].status.isGood())
                                    if (const auto* x = r.response.results[0].value.get<ExtensionObject>())
                                        if (const auto* s = x->get<ServerDiagnosticsSummaryDataType>()) d = *s;
                                done(d);
                            }, 5000);
    }

    // --- Timeline -------------------------------------------------------------------------------

    void onTick() {
        // The end is being collected, or the previous second still is (a busy I/O thread): skip.
        if (repliesPending > 0 || tickReplies > 0 || !engine) return;
        secondMerged = Counts();
        tickReplies = int(engine->io.size());
        for (auto& io : engine->io) {
            IoStats* raw = io.get();
            QMetaObject::invokeMethod(raw->anchor, [this, gen = generation, raw] {
                Counts second = std::exchange(raw->second, Counts());
                QMetaObject::invokeMethod(q, [this, gen, second = std::move(second)] {
                    if (gen != generation) return;  // a callback of an earlier step
                    secondMerged.merge(second);
                    if (--tickReplies == 0) emitSample();
                }, Qt::QueuedConnection);
            });
        }
    }
    void emitSample() {
        if (!engine) return;
        const int64_t now = steadyNs();
        const double seconds = double(now - tickNs) / 1e9;
        const double cpu = generatorCpuMs();
        TimelineSample s;
        s.tS = double(now - engine->measureStartNs.load()) / 1e9;
        s.warmup = (now + tickNs) / 2 < engine->measureStartNs.load();  // most of the second was warm-up
        if (s.warmup) s.tS = std::min(s.tS, 0.0);
        s.sessions = p.sessions;
        s.outstanding = p.outstanding;
        const Counts& c = secondMerged;
        if (seconds > 0) {
            s.requestsPerS = double(c.answered) / seconds;
            s.valuesPerS = double(c.values) / seconds;
            if (cpu >= 0 && tickClientMs >= 0) s.clientCpuPercent = (cpu - tickClientMs) / seconds / 10.0;
        }
        s.p50Us = c.latency.percentile(50);
        s.p90Us = c.latency.percentile(90);
        s.p99Us = c.latency.percentile(99);
        s.maxUs = c.latency.max();
        s.errors = c.errors + c.timeouts;
        tickNs = now;
        tickClientMs = cpu;
        result.timeline.push_back(s);
        emit q->sample(s);
    }

    // --- Closing --------------------------------------------------------------------------------

    void close() {
        // A generation still running (the step failed or was stopped on the way): stopped, the
        // answer not waited for (the Call goes out before the CloseSession; the server runs it).
        if (generating && control) {
            generating = false;
            generateEvents(0, 0, [](std::optional<uint64_t>, const QString&) {});
        }
        if (engine) engine->sending = false;
        tick->stop();
        phaseTimer->stop();
        drainTimer->stop();
        setupKeepAlive->stop();
        setPhase(Phase::Closing);
        closing = 0;
        auto closeOne = [this](Client* c) {
            ++closing;
            c->disconnectFromServer(q, [this, gen = generation](StatusCode) {
                if (gen != generation) return;  // a callback of an earlier step
                if (--closing == 0 && phase == Phase::Closing)
                    QTimer::singleShot(0, q, [this, gen] {
                        if (gen == generation) teardown();
                    });
            });
        };
        for (auto& c : clients) closeOne(c.get());
        if (control) closeOne(control.get());
        if (closing == 0) return teardown();
        phaseTimer->start(5000);  // a server that does not answer CloseSession: give up on it
    }

    // sliced: the Clients are destroyed a slice at a time from the event loop. Each destructor
    // waits for its I/O thread to drop the connection (about 0.3 ms): 19,900 at once held the
    // caller's thread, the window's GUI thread, for 6.4 s. The destructor of the runner, with no
    // event loop to come back to, releases them all at once.
    void teardown(bool sliced = true) {
        if (phase != Phase::Closing || releasing) return;
        phaseTimer->stop();
        if (engine) {
            for (auto& io : engine->io) {
                IoStats* raw = io.get();
                if (raw->pacer) QMetaObject::invokeMethod(raw->anchor, [raw] { raw->pacer->stop(); }, Qt::BlockingQueuedConnection);
            }
        }
        if (!sliced) clients.clear();
        releasing = true;
        releaseClients();
    }

    void releaseClients() {
        constexpr std::size_t kSlice = 64;
        for (std::size_t i = 0; i < kSlice && !clients.empty(); ++i) clients.pop_back();
        if (!clients.empty()) {
            QTimer::singleShot(0, q, [this] { releaseClients(); });
            return;
        }
        releasing = false;
        control.reset();
        for (auto& t : threads) {
            t->quit();
            t->wait();
        }
        if (engine)
            for (auto& io : engine->io) delete io->anchor;  // and its pacer; the thread has ended
        threads.clear();
        reverse.reset();  // after every Client that waited on it
        engine.reset();
        ++generation;
        setPhase(Phase::Idle);
        // A slot may start the next step (and reset `result`).
        const StepResult done = coordinator ? coordinator->combine(result, whole) : result;
        emit q->finished(done);
    }
};

LoadRunner::LoadRunner(QObject* parent) : QObject(parent), d(std::make_unique<Impl>(this)) {
    d->tick = new QTimer(this);
    d->tick->setTimerType(Qt::PreciseTimer);
    connect(d->tick, &QTimer::timeout, this, [this] { d->onTick(); });
    d->phaseTimer = new QTimer(this);
    d->phaseTimer->setSingleShot(true);
    d->phaseTimer->setTimerType(Qt::PreciseTimer);
    connect(d->phaseTimer, &QTimer::timeout, this, [this] {
        if (d->phase == Phase::Closing) d->teardown();
        else d->phaseTimeout();
    });
    d->drainTimer = new QTimer(this);
    connect(d->drainTimer, &QTimer::timeout, this, [this] { d->drainCheck(); });
    d->setupKeepAlive = new QTimer(this);
    connect(d->setupKeepAlive, &QTimer::timeout, this, [this] { d->setupKeepAliveTick(); });
}

LoadRunner::~LoadRunner() {
    if (d->phase != Phase::Idle) {
        // Destroyed while running: drop everything without the signals.
        blockSignals(true);
        d->setPhase(Phase::Closing);
        d->releasing = false;  // a sliced release in progress is finished here, at once
        d->teardown(false);
    }
}

void LoadRunner::start(const LoadParameters& parameters) {
    if (isRunning()) {
        StepResult r;
        r.sessions = parameters.sessions;
        r.outstanding = parameters.outstanding;
        r.error = QStringLiteral("a step is already running");
        QMetaObject::invokeMethod(this, [this, r] { emit finished(r); }, Qt::QueuedConnection);
        return;
    }
    const LoadParameters share = d->coordinator ? d->coordinator->share(parameters) : parameters;
    QString invalid = validate(share);
    if (invalid.isEmpty() && d->coordinator && share.scenario == Scenario::Events)
        invalid = QStringLiteral("the events scenario runs in one process (the server's event rate is one for every process)");
    if (const QString e = invalid; !e.isEmpty()) {
        // A distributed step still takes part in the collective calls, so the others do not wait.
        StepResult r;
        r.sessions = share.sessions;
        r.outstanding = share.outstanding;
        r.error = e;
        if (d->coordinator) {
            r.error = d->coordinator->ready(e, {});
            r = d->coordinator->combine(r, parameters);
        }
        QMetaObject::invokeMethod(this, [this, r] { emit finished(r); }, Qt::QueuedConnection);
        return;
    }
    d->whole = parameters;
    d->whole.password.clear();
    d->p = share;
    d->begin();
}

void LoadRunner::setCoordinator(StepCoordinator* coordinator) {
    if (!isRunning()) d->coordinator = coordinator;
}

void LoadRunner::stop() {
    switch (d->phase) {
    case Phase::Connecting:
        d->stopRequested = true;  // the Sessions being opened finish, then it closes
        if (d->opening == 0 && d->engine && d->nextToOpen > 0) d->fail(QStringLiteral("stopped"));
        break;
    case Phase::WarmingUp:
        d->result.error = QStringLiteral("stopped during the warm-up: nothing was measured");
        d->engine->measureStartNs = steadyNs();
        d->measureStarted();
        d->measureEnded();
        break;
    case Phase::Measuring:
        d->measureEnded();
        break;
    default:
        break;
    }
}

bool LoadRunner::isRunning() const { return d->phase != Phase::Idle; }

LoadRunner::Phase LoadRunner::phase() const { return d->phase; }

} // namespace ua::loadtest
