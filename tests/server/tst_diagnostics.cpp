// The server's diagnostics (OPC 10000-5 6.3.3, 12.9 ServerDiagnosticsSummaryDataType, 12.11
// SessionDiagnosticsDataType, 12.13 SessionSecurityDiagnosticsDataType) seen through
// ServerDiagnostics snapshots while our Client drives a real Server: the counters change by exactly
// what the client did; Server::closeSession closes a Session.
#include "../client/ClientTestUtil.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/runtime/Server.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/server/diagnostics/DiagnosticsNodes.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include <QSemaphore>
#include <QTemporaryDir>
#include <set>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

constexpr uint32_t kIterations = 1000;  // PBKDF2 iterations of the test users (fast)

ClientConfig clientConfig(const QString& pkiDir = {}, UserIdentity identity = {}) {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.keepAliveIntervalMs = 0;  // no Reads of its own
    cfg.autoReconnect = false;
    cfg.pkiDir = pkiDir;
    cfg.securityPolicyUri = QString::fromUtf8(kSecurityPolicyNone);
    cfg.securityMode = MessageSecurityMode::None;
    cfg.identity = std::move(identity);
    cfg.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    return cfg;
}

const SessionSnapshot* findSession(const DiagnosticsSnapshot& s, const NodeId& id) {
    for (const SessionSnapshot& x : s.sessions)
        if (x.diagnostics.sessionId == id) return &x;
    return nullptr;
}

} // namespace

class TestDiagnostics : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void serviceNamesFollowTheSpecification();
    void readsAreCountedPerSessionAndServerWide();
    void sessionFieldsAreFilled();
    void longSessionNameIsBoundedAndIdleContactTimeIsStable();
    void wrongPasswordIsASecurityRejectedSession();
    void sessionsOpenedAndClosedAreCounted();
    void closeSessionClosesItsClientsSession();
    void concurrentRequestsShareOneSnapshot();
    // The address space (OPC 10000-5 6.3.3 - 6.3.5).
    void summaryNodesReadTheCounters();
    void sessionArraysNeedSecurityAdmin();
    void sessionObjectFollowsTheSession();
    void sessionObjectsAreVisibleToTheirSessionAndAdmins();
    void burstOfSessionsIsOneUpdatePerTick();
    void sessionObjectsAreBoundedByTheLimit();
    void enabledFlagIsWritableByAdminsOnly();
    void removedNodeLeavesNoReferences();
    void sessionTimeoutIsCounted();

private:
    DiagnosticsSnapshotPtr snapshot(int maxAgeMs = 0);
    // Connects and activates; the sessionId (null NodeId on failure).
    NodeId connect(Client& c, const QString& url = {});
    ServiceResult<ReadResponse> read(Client& c, ReadRequest r);

    std::unique_ptr<Client> admin();
    Variant value(Client& c, const NodeId& node, StatusCode* status = nullptr);
    StatusCode writeEnabled(Client& c, bool on);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    QString m_url;
};

void TestDiagnostics::initTestCase() {
    QVERIFY(m_dir.isValid());
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 2;
    cfg.demoNamespace = false;
    cfg.security.pkiDir = m_dir.filePath(QStringLiteral("server-pki"));
    cfg.security.trustAllClients = true;
    cfg.minSessionTimeoutMs = 1000;  // sessionTimesOutIsCounted
    // burstOfSessionsIsOneUpdatePerTick connects 24 clients before any of them creates a Session:
    // with the default bound (8 handshakes per I/O thread), the refused ones waited for the
    // admitted ones' handshakeTimeoutMs (10 s) plus their back-off, past the test's wait, on a busy
    // machine. Admission is tested in tst_admission.
    cfg.admission.maxHandshakes = 64;
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), kIterations);
    cfg.security.users.setUser("admin", "admin-pw", roleBit(Role::SecurityAdmin), kIterations);
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    m_url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m_server->port());
}

void TestDiagnostics::cleanupTestCase() { m_server.reset(); }

DiagnosticsSnapshotPtr TestDiagnostics::snapshot(int maxAgeMs) {
    DiagnosticsSnapshotPtr got;
    m_server->diagnostics().requestSnapshot(this, [&](DiagnosticsSnapshotPtr s) { got = std::move(s); }, maxAgeMs);
    if (!QTest::qWaitFor([&] { return got != nullptr; }, 5000)) return nullptr;
    return got;
}

NodeId TestDiagnostics::connect(Client& c, const QString& url) {
    Awaited<ServiceResult<GetEndpointsResponse>> e;
    c.connectToServer(url.isEmpty() ? m_url : url, this, e.callback());
    if (!e.wait() || e->status.isBad()) return {};
    Awaited<ServiceResult<CreateSessionResponse>> s;
    c.createSession(this, s.callback());
    if (!s.wait() || s->status.isBad()) return {};
    return s->response.sessionId;
}

ServiceResult<ReadResponse> TestDiagnostics::read(Client& c, ReadRequest r) {
    Awaited<ServiceResult<ReadResponse>> a;
    c.read(std::move(r), this, a.callback());
    if (!a.wait()) return {status::BadTimeout, {}};
    return *a;
}

ReadRequest readOf(const NodeId& node) {
    ReadRequest r;
    ReadValueId v;
    v.nodeId = node;
    v.attributeId = uint32_t(AttributeId::Value);
    r.nodesToRead.push_back(v);
    return r;
}

void TestDiagnostics::serviceNamesFollowTheSpecification() {
    QCOMPARE(QByteArray(serviceName(ServiceKind::Read)), QByteArray("Read"));
    QCOMPARE(QByteArray(serviceName(ServiceKind::TranslateBrowsePathsToNodeIds)), QByteArray("TranslateBrowsePathsToNodeIds"));
    QCOMPARE(QByteArray(serviceName(ServiceKind::Cancel)), QByteArray("Cancel"));
    QCOMPARE(QByteArray(serviceName(ServiceKind::Count)), QByteArray(""));
}

void TestDiagnostics::readsAreCountedPerSessionAndServerWide() {
    Client c(clientConfig());
    const NodeId id = connect(c);
    QVERIFY(!id.isNull());
    const DiagnosticsSnapshotPtr before = snapshot();
    QVERIFY(before);
    const SessionSnapshot* s0 = findSession(*before, id);
    QVERIFY(s0);
    const ServerDiagnosticsSummaryDataType sum0 = m_server->diagnostics().summary();

    constexpr int kReads = 7;
    for (int i = 0; i < kReads; ++i) QCOMPARE(read(c, readOf(NodeId(id::Server_ServerStatus_State))).status, status::Good);
    // An unknown node: the request is served (Good), its operation fails: not a rejected request.
    const auto unknown = read(c, readOf(NodeId(0, 999999u)));
    QCOMPARE(unknown.status, status::Good);
    QCOMPARE(unknown.response.results.size(), std::size_t(1));
    QCOMPARE(unknown.response.results[0].status, status::BadNodeIdUnknown);
    // Nothing to read: the request is rejected (a ServiceFault).
    QCOMPARE(read(c, ReadRequest{}).status, status::BadNothingToDo);

    const DiagnosticsSnapshotPtr after = snapshot();
    QVERIFY(after);
    const SessionSnapshot* s1 = findSession(*after, id);
    QVERIFY(s1);
    QCOMPARE(s1->diagnostics.readCount.totalCount, s0->diagnostics.readCount.totalCount + kReads + 2);
    QCOMPARE(s1->diagnostics.readCount.errorCount, s0->diagnostics.readCount.errorCount + 1);
    QCOMPARE(s1->diagnostics.totalRequestCount.totalCount, s0->diagnostics.totalRequestCount.totalCount + kReads + 2);
    QCOMPARE(s1->diagnostics.totalRequestCount.errorCount, s0->diagnostics.totalRequestCount.errorCount + 1);
    QCOMPARE(s1->diagnostics.writeCount.totalCount, 0u);
    QCOMPARE(s1->diagnostics.unauthorizedRequestCount, 0u);
    const std::size_t read = std::size_t(ServiceKind::Read);
    QCOMPARE(after->services[read].totalCount, before->services[read].totalCount + kReads + 2);
    QCOMPARE(after->services[read].errorCount, before->services[read].errorCount + 1);
    const auto totals = m_server->diagnostics().serviceTotals();
    QCOMPARE(totals[read].totalCount, after->services[read].totalCount);
    const ServerDiagnosticsSummaryDataType sum1 = m_server->diagnostics().summary();
    QCOMPARE(sum1.rejectedRequestsCount, sum0.rejectedRequestsCount + 1);
    QCOMPARE(sum1.securityRejectedRequestsCount, sum0.securityRejectedRequestsCount);

    // A Write the anonymous user may not do is a request, not a rejection (its operation fails).
    Awaited<ServiceResult<WriteResponse>> w;
    c.writeValue(NodeId(id::Server_ServerStatus_State), Variant(int32_t(0)), this, w.callback());
    QVERIFY(w.wait());
    QCOMPARE(w->status, status::Good);
    const DiagnosticsSnapshotPtr third = snapshot();
    QCOMPARE(findSession(*third, id)->diagnostics.writeCount.totalCount, 1u);
    QCOMPARE(findSession(*third, id)->diagnostics.writeCount.errorCount, 0u);
    Awaited<ServiceResult<CloseSessionResponse>> closed;
    c.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
    // Counts of a closed Session stay in the server-wide totals.
    const auto afterClose = m_server->diagnostics().serviceTotals();
    QCOMPARE(afterClose[read].totalCount, after->services[read].totalCount);
    QCOMPARE(afterClose[std::size_t(ServiceKind::CloseSession)].totalCount,
             third->services[std::size_t(ServiceKind::CloseSession)].totalCount + 1);
}

void TestDiagnostics::sessionFieldsAreFilled() {
    ClientConfig cfg = clientConfig();
    cfg.sessionName = QStringLiteral("diagnostics-session");
    cfg.requestedSessionTimeoutMs = 30000;
    Client c(cfg);
    const NodeId id = connect(c);
    QVERIFY(!id.isNull());
    const DiagnosticsSnapshotPtr snap = snapshot();
    const SessionSnapshot* s = findSession(*snap, id);
    QVERIFY(s);
    const SessionDiagnosticsDataType& d = s->diagnostics;
    QCOMPARE(d.sessionName, String("diagnostics-session"));
    QCOMPARE(d.clientDescription.applicationUri, String::fromQString(cfg.applicationUri));
    QCOMPARE(d.serverUri, String::fromQString(m_server->config().applicationUri));
    QVERIFY(d.endpointUrl.view().find(std::to_string(m_server->port())) != std::string_view::npos);
    QCOMPARE(d.actualSessionTimeout, 30000.0);
    QVERIFY(!d.clientConnectionTime.isMin());
    QVERIFY(d.clientLastContactTime.ticks >= d.clientConnectionTime.ticks);
    QVERIFY(d.clientLastContactTime.ticks <= snap->takenAt.ticks);
    QCOMPARE(d.readCount.totalCount, 1u);  // the client's NamespaceArray read
    QCOMPARE(d.currentSubscriptionsCount, 0u);
    const SessionSecurityDiagnosticsDataType& sec = s->security;
    QCOMPARE(sec.sessionId, id);
    QCOMPARE(sec.authenticationMechanism, String("Anonymous"));
    QCOMPARE(sec.securityMode, MessageSecurityMode::None);
    QCOMPARE(sec.securityPolicyUri, String(kSecurityPolicyNone));
    QCOMPARE(sec.transportProtocol, String("opc.tcp"));
    QCOMPARE(sec.encoding, String("UA Binary"));
    QVERIFY(s->peerAddress.startsWith(QStringLiteral("127.0.0.1:")));
    QVERIFY(s->activated);
    QVERIFY(s->channelId != 0);

    // A Subscription shows in the Session's counts and in the snapshot's list.
    Awaited<ServiceResult<CreateSubscriptionResponse>> sub;
    CreateSubscriptionRequest cs;
    cs.requestedPublishingInterval = 500;
    cs.requestedLifetimeCount = 30;
    cs.requestedMaxKeepAliveCount = 10;
    cs.publishingEnabled = true;
    c.call<CreateSubscriptionRequest, CreateSubscriptionResponse>(cs, this, sub.callback());
    QVERIFY(sub.wait());
    QCOMPARE(sub->status, status::Good);
    const DiagnosticsSnapshotPtr withSub = snapshot();
    const SessionSnapshot* s2 = findSession(*withSub, id);
    QCOMPARE(s2->diagnostics.currentSubscriptionsCount, 1u);
    QCOMPARE(s2->diagnostics.createSubscriptionCount.totalCount, 1u);
    QCOMPARE(s2->diagnostics.totalRequestCount.totalCount, d.totalRequestCount.totalCount + 1);
    bool listed = false;
    for (const auto& x : withSub->subscriptions)
        listed = listed || (x.sessionId == id && x.subscriptionId == sub->response.subscriptionId);
    QVERIFY(listed);
    QVERIFY(withSub->summary.currentSubscriptionCount >= 1u);
    QVERIFY(withSub->summary.publishingIntervalCount >= 1u);
    QVERIFY(withSub->summary.cumulatedSubscriptionCount >= 1u);
    Awaited<ServiceResult<CloseSessionResponse>> closed;
    c.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
}

// A client's sessionName becomes node names copied with the node table: a 3 MB name (attacker
// input) is kept to its first 256 bytes, cut between UTF-8 characters. And an idle Session's
// ClientLastContactTime does not move between snapshots (a monitored item on it would report
// changes that did not happen).
void TestDiagnostics::longSessionNameIsBoundedAndIdleContactTimeIsStable() {
    ClientConfig cfg = clientConfig();
    cfg.sessionName = QString(1'000'000, QChar(0x20AC));  // "€": 3 bytes in UTF-8
    Client c(cfg);
    const NodeId id = connect(c);
    QVERIFY(!id.isNull());
    const DiagnosticsSnapshotPtr first = snapshot(0);
    const SessionSnapshot* s = findSession(*first, id);
    QVERIFY(s);
    QCOMPARE(s->diagnostics.sessionName.view().size(), std::size_t(255));  // 85 whole characters
    QCOMPARE(s->diagnostics.sessionName.toQString(), QString(85, QChar(0x20AC)));
    QTest::qWait(30);
    const DiagnosticsSnapshotPtr second = snapshot(0);
    const SessionSnapshot* t = findSession(*second, id);
    QVERIFY(t);
    QVERIFY(second->takenMs > first->takenMs);
    QCOMPARE(t->diagnostics.clientLastContactTime.ticks, s->diagnostics.clientLastContactTime.ticks);
    Awaited<ServiceResult<CloseSessionResponse>> closed;
    c.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
}

void TestDiagnostics::wrongPasswordIsASecurityRejectedSession() {
    const ServerDiagnosticsSummaryDataType before = m_server->diagnostics().summary();
    {
        Client c(clientConfig(m_dir.filePath(QStringLiteral("client-pki")),
                              UserIdentity::fromUserName(QStringLiteral("alice"), QStringLiteral("wrong"))));
        Awaited<ServiceResult<GetEndpointsResponse>> e;
        c.connectToServer(m_url, this, e.callback());
        QVERIFY(e.wait());
        QCOMPARE(e->status, status::Good);
        Awaited<ServiceResult<CreateSessionResponse>> s;
        c.createSession(this, s.callback());
        QVERIFY(s.wait());
        QVERIFY(s->status.isBad());
    }
    // The refused login's Session was never activated: our client closes it with CloseSession on its
    // channel (ClientCore::abandonSession), so it is removed at once and is not an abort.
    QTRY_COMPARE_WITH_TIMEOUT(m_server->diagnostics().summary().currentSessionCount, before.currentSessionCount, 5000);
    QCOMPARE(m_server->diagnostics().summary().sessionAbortCount, before.sessionAbortCount);
    const ServerDiagnosticsSummaryDataType after = m_server->diagnostics().summary();
    // CreateSession succeeded (a Session was established), ActivateSession was rejected for security.
    QCOMPARE(after.cumulatedSessionCount, before.cumulatedSessionCount + 1);
    QCOMPARE(after.securityRejectedSessionCount, before.securityRejectedSessionCount + 1);
    QCOMPARE(after.rejectedSessionCount, before.rejectedSessionCount + 1);
    QCOMPARE(after.securityRejectedRequestsCount, before.securityRejectedRequestsCount + 1);
    QCOMPARE(after.rejectedRequestsCount, before.rejectedRequestsCount + 1);
    const auto totals = m_server->diagnostics().serviceTotals();
    QVERIFY(totals[std::size_t(ServiceKind::ActivateSession)].errorCount >= 1u);

    // The right password: an activated Session of alice.
    Client ok(clientConfig(m_dir.filePath(QStringLiteral("client-pki")),
                           UserIdentity::fromUserName(QStringLiteral("alice"), QStringLiteral("alice-pw"))));
    const NodeId id = connect(ok);
    QVERIFY(!id.isNull());
    const SessionSnapshot* s = findSession(*snapshot(), id);
    QVERIFY(s);
    QCOMPARE(s->security.clientUserIdOfSession, String("alice"));
    QCOMPARE(s->security.clientUserIdHistory.size(), std::size_t(1));
    QCOMPARE(s->security.authenticationMechanism, String("UserName"));
    QCOMPARE(m_server->diagnostics().summary().securityRejectedSessionCount, after.securityRejectedSessionCount);
    Awaited<ServiceResult<CloseSessionResponse>> closed;
    ok.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
}

void TestDiagnostics::sessionsOpenedAndClosedAreCounted() {
    const DiagnosticsSnapshotPtr before = snapshot();
    const ServerDiagnosticsSummaryDataType sum0 = m_server->diagnostics().summary();
    constexpr int kSessions = 4;
    std::vector<std::unique_ptr<Client>> clients;
    std::vector<NodeId> ids;
    for (int i = 0; i < kSessions; ++i) {
        clients.push_back(std::make_unique<Client>(clientConfig()));
        ids.push_back(connect(*clients.back()));
        QVERIFY(!ids.back().isNull());
    }
    const DiagnosticsSnapshotPtr open = snapshot();
    QCOMPARE(open->sessions.size(), before->sessions.size() + kSessions);
    for (const NodeId& id : ids) QVERIFY(findSession(*open, id));
    QCOMPARE(open->summary.currentSessionCount, sum0.currentSessionCount + kSessions);
    QCOMPARE(open->summary.cumulatedSessionCount, sum0.cumulatedSessionCount + kSessions);
    QCOMPARE(m_server->diagnostics().summary().currentSessionCount, sum0.currentSessionCount + kSessions);
    for (auto& c : clients) {
        Awaited<ServiceResult<CloseSessionResponse>> closed;
        c->closeSession(this, closed.callback());
        QVERIFY(closed.wait());
        QCOMPARE(closed->status, status::Good);
    }
    const DiagnosticsSnapshotPtr after = snapshot();
    QCOMPARE(after->sessions.size(), before->sessions.size());
    for (const NodeId& id : ids) QVERIFY(!findSession(*after, id));
    const ServerDiagnosticsSummaryDataType sum1 = m_server->diagnostics().summary();
    QCOMPARE(sum1.currentSessionCount, sum0.currentSessionCount);
    QCOMPARE(sum1.cumulatedSessionCount, sum0.cumulatedSessionCount + kSessions);
    QCOMPARE(sum1.sessionAbortCount, sum0.sessionAbortCount);
    QCOMPARE(sum1.sessionTimeoutCount, sum0.sessionTimeoutCount);
    QCOMPARE(sum1.rejectedSessionCount, sum0.rejectedSessionCount);
    const std::size_t create = std::size_t(ServiceKind::CreateSession);
    QCOMPARE(after->services[create].totalCount, before->services[create].totalCount + kSessions);
    QCOMPARE(after->services[std::size_t(ServiceKind::CloseSession)].totalCount,
             before->services[std::size_t(ServiceKind::CloseSession)].totalCount + kSessions);
}

void TestDiagnostics::closeSessionClosesItsClientsSession() {
    Client c(clientConfig());
    const NodeId id = connect(c);
    QVERIFY(!id.isNull());
    Awaited<ServiceResult<CreateSubscriptionResponse>> sub;
    CreateSubscriptionRequest cs;
    cs.requestedPublishingInterval = 1000;
    cs.requestedLifetimeCount = 30;
    cs.requestedMaxKeepAliveCount = 10;
    c.call<CreateSubscriptionRequest, CreateSubscriptionResponse>(cs, this, sub.callback());
    QVERIFY(sub.wait());
    QCOMPARE(sub->status, status::Good);
    const int subscriptions = m_server->subscriptionRegistry().subscriptionCount();

    QCOMPARE(m_server->closeSession(NodeId(1, Guid::random())), status::BadSessionIdInvalid);
    QCOMPARE(m_server->closeSession(id), status::Good);
    QCOMPARE(m_server->closeSession(id), status::BadSessionIdInvalid);  // already closed
    QCOMPARE(read(c, readOf(NodeId(id::Server_ServerStatus_State))).status, status::BadSessionIdInvalid);
    QVERIFY(!findSession(*snapshot(), id));
    // Its Subscription was deleted as CloseSession(deleteSubscriptions) would.
    QVERIFY(QTest::qWaitFor([&] { return m_server->subscriptionRegistry().subscriptionCount() == subscriptions - 1; }, 2000));
}

void TestDiagnostics::concurrentRequestsShareOneSnapshot() {
    // Requests within maxAgeMs get the cached snapshot; requests made while a collection runs share it.
    const DiagnosticsSnapshotPtr a = snapshot(0);
    QVERIFY(a);
    QCOMPARE(snapshot(60000), a);
    // A burst of requests that accept a snapshot up to a second old: one collection at most (the
    // first, when a is already older), every request answered with the same snapshot.
    constexpr int kRequests = 200;
    const uint64_t collections = m_server->diagnostics().collectionCount();
    std::vector<DiagnosticsSnapshotPtr> got(kRequests);
    for (auto& g : got)
        m_server->diagnostics().requestSnapshot(this, [&g](DiagnosticsSnapshotPtr s) { g = std::move(s); }, 1000);
    QVERIFY(QTest::qWaitFor([&] { return std::all_of(got.begin(), got.end(), [](auto& p) { return p != nullptr; }); }, 5000));
    QVERIFY(m_server->diagnostics().collectionCount() - collections <= 1u);
    std::set<const DiagnosticsSnapshot*> distinct;
    for (auto& g : got) distinct.insert(g.get());
    QVERIFY(distinct.size() <= 2u);  // a, then (if a aged meanwhile) one new one
    // Requests that want a new one (maxAgeMs 0) made while a collection runs wait for it instead of
    // starting their own. A home thread of the test's, held busy, keeps the collection running.
    QThread thread;
    thread.start();
    SubscriptionScheduler* home = nullptr;
    auto* owner = new QObject;
    owner->moveToThread(&thread);
    QMetaObject::invokeMethod(owner, [&] {
        home = new SubscriptionScheduler(m_server->addressSpace(), m_server->config().subscriptions,
                                         m_server->subscriptionRegistry(), false, owner);
    }, Qt::BlockingQueuedConnection);
    m_server->diagnostics().addHome(home);
    QSemaphore release;
    QMetaObject::invokeMethod(owner, [&] { release.acquire(); }, Qt::QueuedConnection);
    const uint64_t before = m_server->diagnostics().collectionCount();
    std::vector<DiagnosticsSnapshotPtr> fresh(kRequests);
    for (auto& g : fresh)
        m_server->diagnostics().requestSnapshot(this, [&g](DiagnosticsSnapshotPtr s) { g = std::move(s); }, 0);
    QCOMPARE(m_server->diagnostics().collectionCount() - before, 1u);
    QTest::qWait(50);
    QVERIFY(!fresh[0]);  // still collecting
    release.release();
    QVERIFY(QTest::qWaitFor([&] { return std::all_of(fresh.begin(), fresh.end(), [](auto& p) { return p != nullptr; }); }, 5000));
    for (auto& g : fresh) QCOMPARE(g, fresh[0]);
    QVERIFY(fresh[0] != a);
    QCOMPARE(m_server->diagnostics().latest(), fresh[0]);
    QMetaObject::invokeMethod(owner, [owner] { delete owner; }, Qt::BlockingQueuedConnection);  // and the home
    thread.quit();
    thread.wait();
    // A receiver destroyed before the answer is not called.
    bool called = false;
    auto* receiver = new QObject;
    m_server->diagnostics().requestSnapshot(receiver, [&](DiagnosticsSnapshotPtr) { called = true; }, 0);
    delete receiver;
    QTest::qWait(300);
    QVERIFY(!called);
}

std::unique_ptr<Client> TestDiagnostics::admin() {
    auto c = std::make_unique<Client>(clientConfig(m_dir.filePath(QStringLiteral("client-pki")),
                                                   UserIdentity::fromUserName(QStringLiteral("admin"), QStringLiteral("admin-pw"))));
    if (connect(*c).isNull()) return nullptr;
    return c;
}

Variant TestDiagnostics::value(Client& c, const NodeId& node, StatusCode* status) {
    const auto r = read(c, readOf(node));
    if (r.status.isBad() || r.response.results.size() != 1) {
        if (status) *status = r.status.isBad() ? r.status : StatusCode(status::BadUnexpectedError);
        return {};
    }
    if (status) *status = r.response.results[0].status;
    return r.response.results[0].value;
}

StatusCode TestDiagnostics::writeEnabled(Client& c, bool on) {
    Awaited<ServiceResult<WriteResponse>> w;
    c.writeValue(NodeId(id::Server_ServerDiagnostics_EnabledFlag), Variant(on), this, w.callback());
    if (!w.wait()) return status::BadTimeout;
    if (w->status.isBad()) return w->status;
    return w->response.results.size() == 1 ? w->response.results[0] : StatusCode(status::BadUnexpectedError);
}

template <class T>
const T* structure(const Variant& v) {
    const ExtensionObject* x = v.get<ExtensionObject>();
    return x ? x->get<T>() : nullptr;
}

void TestDiagnostics::summaryNodesReadTheCounters() {
    Client c(clientConfig());
    QVERIFY(!connect(c).isNull());
    const ServerDiagnosticsSummaryDataType now = m_server->diagnostics().summary();
    const Variant whole = value(c, NodeId(id::Server_ServerDiagnostics_ServerDiagnosticsSummary));
    const auto* sum = structure<ServerDiagnosticsSummaryDataType>(whole);
    QVERIFY(sum);
    QCOMPARE(sum->cumulatedSessionCount, now.cumulatedSessionCount);
    QCOMPARE(sum->currentSessionCount, now.currentSessionCount);
    QCOMPARE(sum->securityRejectedSessionCount, now.securityRejectedSessionCount);
    const Variant current = value(c, NodeId(id::Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSessionCount));
    QVERIFY(current.get<uint32_t>());
    QCOMPARE(*current.get<uint32_t>(), now.currentSessionCount);
    const Variant rejected = value(c, NodeId(id::Server_ServerDiagnostics_ServerDiagnosticsSummary_RejectedSessionCount));
    QVERIFY(rejected.get<uint32_t>());
    QCOMPARE(*rejected.get<uint32_t>(), now.rejectedSessionCount);
    // A rejected request shows at once in the child variable.
    QCOMPARE(read(c, ReadRequest{}).status, status::BadNothingToDo);
    const Variant requests = value(c, NodeId(id::Server_ServerDiagnostics_ServerDiagnosticsSummary_RejectedRequestsCount));
    QCOMPARE(*requests.get<uint32_t>(), now.rejectedRequestsCount + 1);
    StatusCode st;
    const Variant subs = value(c, NodeId(id::Server_ServerDiagnostics_SubscriptionDiagnosticsArray), &st);
    QCOMPARE(st, status::Good);
    QVERIFY(subs.get<Array<ExtensionObject>>());
    value(c, NodeId(id::Server_ServerDiagnostics_SamplingIntervalDiagnosticsArray), &st);
    QCOMPARE(st, status::Good);
    Awaited<ServiceResult<CloseSessionResponse>> closed;
    c.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
}

void TestDiagnostics::sessionArraysNeedSecurityAdmin() {
    Client anonymous(clientConfig());
    const NodeId mine = connect(anonymous);
    QVERIFY(!mine.isNull());
    StatusCode st;
    value(anonymous, NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionDiagnosticsArray), &st);
    QCOMPARE(st, status::BadUserAccessDenied);
    value(anonymous, NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionSecurityDiagnosticsArray), &st);
    QCOMPARE(st, status::BadUserAccessDenied);
    auto a = admin();
    QVERIFY(a);
    const Variant v = value(*a, NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionDiagnosticsArray), &st);
    QCOMPARE(st, status::Good);
    const auto* list = v.get<Array<ExtensionObject>>();
    QVERIFY(list);
    const DiagnosticsSnapshotPtr snap = snapshot();
    QCOMPARE(list->size(), snap->sessions.size());
    bool found = false;
    for (const ExtensionObject& x : *list)
        if (const auto* d = x.get<SessionDiagnosticsDataType>()) found = found || d->sessionId == mine;
    QVERIFY(found);
    const Variant sec = value(*a, NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionSecurityDiagnosticsArray), &st);
    QCOMPARE(st, status::Good);
    QCOMPARE(sec.get<Array<ExtensionObject>>()->size(), snap->sessions.size());
    for (Client* c : {&anonymous, a.get()}) {
        Awaited<ServiceResult<CloseSessionResponse>> closed;
        c->closeSession(this, closed.callback());
        QVERIFY(closed.wait());
    }
}

void TestDiagnostics::sessionObjectFollowsTheSession() {
    Client c(clientConfig());
    const NodeId id = connect(c);
    QVERIFY(!id.isNull());
    const std::string prefix = id.guid().toString();
    const NodeId readCount(1, String(prefix + ".SessionDiagnostics.ReadCount"));
    const NodeId sessionName(1, String(prefix + ".SessionDiagnostics.SessionName"));
    // Added within a tick or two of the reconciler.
    StatusCode st = status::BadNodeIdUnknown;
    QVERIFY(QTest::qWaitFor([&] { value(c, sessionName, &st); return st.isGood(); }, 2000));
    for (int i = 0; i < 3; ++i) read(c, readOf(NodeId(id::Server_ServerStatus_State)));
    const Variant v = value(c, readCount, &st);
    QCOMPARE(st, status::Good);
    const auto* counter = structure<ServiceCounterDataType>(v);
    QVERIFY(counter);
    // The NamespaceArray read, the SessionName polls, the three reads (this read is counted before
    // it is served, so it sees itself).
    const SessionSnapshot now = m_server->diagnostics().describe(*m_server->sessions().findBySessionId(id));
    QCOMPARE(counter->totalCount, now.diagnostics.readCount.totalCount - 0);
    QVERIFY(counter->totalCount >= 5u);
    // The object itself: browse path from SessionsDiagnosticsSummary by the session's name.
    BrowsePath path;
    path.startingNode = NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary);
    path.relativePath = *parseRelativePath("/1:UA Workbench Client/0:SessionDiagnostics/0:ReadCount");
    Awaited<ServiceResult<TranslateBrowsePathsToNodeIdsResponse>> t;
    c.translateBrowsePaths({path}, this, t.callback());
    QVERIFY(t.wait());
    QCOMPARE(t->status, status::Good);
    bool hit = false;
    for (const BrowsePathTarget& target : t->response.results[0].targets)
        hit = hit || target.targetId.nodeId == readCount;
    QVERIFY(hit);
    // Security diagnostics: SecurityAdmin only.
    value(c, NodeId(1, String(prefix + ".SessionSecurityDiagnostics.ClientUserIdOfSession")), &st);
    QCOMPARE(st, status::BadUserAccessDenied);
    Awaited<ServiceResult<CloseSessionResponse>> closed;
    c.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
    // Removed with the Session.
    Client other(clientConfig());
    QVERIFY(!connect(other).isNull());
    QVERIFY(QTest::qWaitFor([&] { value(other, readCount, &st); return st == StatusCode(status::BadNodeIdUnknown); }, 2000));
    Awaited<ServiceResult<CloseSessionResponse>> closed2;
    other.closeSession(this, closed2.callback());
    QVERIFY(closed2.wait());
}

// Issue 26 item 16: a Session's SessionDiagnosticsObject (and everything below it) is visible to
// that Session and to SecurityAdmin; to another Session it does not exist (Browse leaves it out,
// Read answers Bad_NodeIdUnknown, a browse path does not reach it). The arrays of every Session stay
// SecurityAdmin's (sessionArraysNeedSecurityAdmin).
void TestDiagnostics::sessionObjectsAreVisibleToTheirSessionAndAdmins() {
    Client a(clientConfig()), b(clientConfig());
    const NodeId idA = connect(a), idB = connect(b);
    QVERIFY(!idA.isNull() && !idB.isNull());
    const NodeId nameOfA(1, String(idA.guid().toString() + ".SessionDiagnostics.SessionName"));
    const NodeId nameOfB(1, String(idB.guid().toString() + ".SessionDiagnostics.SessionName"));
    StatusCode st = status::BadNodeIdUnknown;
    QVERIFY(QTest::qWaitFor([&] { value(a, nameOfA, &st); return st.isGood(); }, 2000));
    QVERIFY(QTest::qWaitFor([&] { value(b, nameOfB, &st); return st.isGood(); }, 2000));
    value(b, nameOfA, &st);
    QCOMPARE(st, status::BadNodeIdUnknown);
    value(b, idA, &st);  // the object itself (its Value attribute does not exist either way)
    const auto browseSummary = [&](Client& c) {
        BrowseRequest req;
        BrowseDescription d;
        d.nodeId = NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary);
        d.browseDirection = BrowseDirection::Forward;
        d.includeSubtypes = true;
        d.resultMask = 0x3F;
        req.nodesToBrowse.push_back(d);
        Awaited<ServiceResult<BrowseResponse>> r;
        c.browse(std::move(req), {}, this, r.callback());
        std::set<NodeId> seen;
        if (r.wait() && r->status.isGood() && !r->response.results.empty())
            for (const ReferenceDescription& x : r->response.results[0].references) seen.insert(x.nodeId.nodeId);
        return seen;
    };
    const std::set<NodeId> seenByB = browseSummary(b);
    QVERIFY(seenByB.count(idB));
    QVERIFY(!seenByB.count(idA));
    QVERIFY(seenByB.count(NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionDiagnosticsArray)));
    BrowseRequest direct;
    BrowseDescription d;
    d.nodeId = idA;
    d.browseDirection = BrowseDirection::Forward;
    direct.nodesToBrowse.push_back(d);
    Awaited<ServiceResult<BrowseResponse>> br;
    b.browse(std::move(direct), {}, this, br.callback());
    QVERIFY(br.wait());
    QCOMPARE(br->response.results[0].statusCode, status::BadNodeIdUnknown);
    BrowsePath path;
    path.startingNode = NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary);
    path.relativePath = *parseRelativePath("/1:UA Workbench Client/0:SessionDiagnostics/0:SessionName");
    Awaited<ServiceResult<TranslateBrowsePathsToNodeIdsResponse>> t;
    b.translateBrowsePaths({path}, this, t.callback());
    QVERIFY(t.wait());
    for (const BrowsePathTarget& target : t->response.results[0].targets)
        QVERIFY(!(target.targetId.nodeId == nameOfA));  // B reaches its own only
    // SecurityAdmin sees both.
    auto admin = this->admin();
    QVERIFY(admin);
    value(*admin, nameOfA, &st);
    QCOMPARE(st, status::Good);
    const std::set<NodeId> seenByAdmin = browseSummary(*admin);
    QVERIFY(seenByAdmin.count(idA) && seenByAdmin.count(idB));
    for (Client* c : {&a, &b, admin.get()}) {
        Awaited<ServiceResult<CloseSessionResponse>> closed;
        c->closeSession(this, closed.callback());
        QVERIFY(closed.wait());
    }
}

void TestDiagnostics::burstOfSessionsIsOneUpdatePerTick() {
    // Let the reconciler settle, then open a burst of Sessions at once.
    QTest::qWait(2 * SessionDiagnosticsNodes::kIntervalMs);
    const uint64_t before = m_server->addressSpaceVersion();
    QElapsedTimer timer;
    timer.start();
    constexpr int kSessions = 24;
    std::vector<std::unique_ptr<Client>> clients;
    std::vector<Awaited<ServiceResult<GetEndpointsResponse>>> connected(kSessions);
    std::vector<Awaited<ServiceResult<CreateSessionResponse>>> created(kSessions);
    for (int i = 0; i < kSessions; ++i) {
        clients.push_back(std::make_unique<Client>(clientConfig()));
        clients.back()->connectToServer(m_url, this, connected[i].callback());
    }
    for (int i = 0; i < kSessions; ++i) {
        QVERIFY(connected[i].wait());
        clients[i]->createSession(this, created[i].callback());
    }
    for (int i = 0; i < kSessions; ++i) {
        QVERIFY(created[i].wait());
        QCOMPARE(created[i]->status, status::Good);
    }
    // Every object there after a tick or two. Each is waited for: the I/O threads serve the
    // CreateSessions in parallel, so a tick may have added the last one's object while another's
    // CreateSession was still being served (that one comes at the next tick).
    for (int i = 0; i < kSessions; ++i) {
        const NodeId name(1, String(created[i]->response.sessionId.guid().toString() + ".SessionDiagnostics.SessionName"));
        StatusCode st = status::BadNodeIdUnknown;
        // Each Session reads its own object (another Session's is not visible to it).
        QVERIFY2(QTest::qWaitFor([&] { value(*clients[i], name, &st); return st.isGood(); }, 3000),
                 qPrintable(QStringLiteral("Session %1: %2").arg(i).arg(QString::fromStdString(st.name()))));
    }
    const uint64_t updates = m_server->addressSpaceVersion() - before;
    const uint64_t ticks = uint64_t(timer.elapsed() / SessionDiagnosticsNodes::kIntervalMs) + 2;
    qInfo("%d Sessions in %lld ms: %llu address-space updates", kSessions, qint64(timer.elapsed()),
          static_cast<unsigned long long>(updates));
    QVERIFY(updates <= ticks);
    QVERIFY(updates < uint64_t(kSessions));
    for (auto& c : clients) {
        Awaited<ServiceResult<CloseSessionResponse>> closed;
        c->closeSession(this, closed.callback());
        QVERIFY(closed.wait());
    }
}

void TestDiagnostics::sessionObjectsAreBoundedByTheLimit() {
    // ServerConfig::maxSessionDiagnosticsObjects = 2: the first two Sessions get an object, the
    // third none (its diagnostics stay in the snapshots / SessionDiagnosticsArray) until one of the
    // first two closes.
    QTemporaryDir dir;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.demoNamespace = false;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = dir.filePath(QStringLiteral("server-pki"));
    cfg.security.trustAllClients = true;
    cfg.maxSessionDiagnosticsObjects = 2;
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const QString url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(server.port());
    auto nameNode = [](const NodeId& session) {
        return NodeId(1, String(session.guid().toString() + ".SessionDiagnostics.SessionName"));
    };
    std::vector<std::unique_ptr<Client>> clients;
    std::vector<NodeId> ids;
    for (int i = 0; i < 3; ++i) {  // one after the other: the creation order decides
        clients.push_back(std::make_unique<Client>(clientConfig()));
        ids.push_back(connect(*clients.back(), url));
        QVERIFY(!ids.back().isNull());
        QTest::qWait(20);
    }
    // Each Session reads its own object (another Session's is not visible to it).
    StatusCode st = status::BadNodeIdUnknown;
    QVERIFY(QTest::qWaitFor([&] { value(*clients[1], nameNode(ids[1]), &st); return st.isGood(); }, 3000));
    value(*clients[0], nameNode(ids[0]), &st);
    QCOMPARE(st, status::Good);
    // A few more ticks: the third stays without an object.
    QTest::qWait(3 * SessionDiagnosticsNodes::kIntervalMs);
    value(*clients[2], nameNode(ids[2]), &st);
    QCOMPARE(st, StatusCode(status::BadNodeIdUnknown));
    QCOMPARE(server.diagnostics().sessionsNow()->size(), std::size_t(3));
    // The first closes: its object goes and the third gets one.
    Awaited<ServiceResult<CloseSessionResponse>> closed;
    clients[0]->closeSession(this, closed.callback());
    QVERIFY(closed.wait());
    QVERIFY(QTest::qWaitFor([&] { value(*clients[2], nameNode(ids[2]), &st); return st.isGood(); }, 3000));
    QVERIFY(!server.addressSpace().snapshot()->find(nameNode(ids[0])));  // the first's object went
    for (std::size_t i = 1; i < clients.size(); ++i) {
        Awaited<ServiceResult<CloseSessionResponse>> c;
        clients[i]->closeSession(this, c.callback());
        QVERIFY(c.wait());
    }
}

void TestDiagnostics::enabledFlagIsWritableByAdminsOnly() {
    Client anonymous(clientConfig());
    const NodeId mine = connect(anonymous);
    QVERIFY(!mine.isNull());
    QCOMPARE(writeEnabled(anonymous, false), status::BadUserAccessDenied);
    QVERIFY(m_server->diagnostics().enabled());
    auto a = admin();
    QVERIFY(a);
    const NodeId name(1, String(mine.guid().toString() + ".SessionDiagnostics.SessionName"));
    StatusCode st;
    QVERIFY(QTest::qWaitFor([&] { value(anonymous, name, &st); return st.isGood(); }, 2000));
    QCOMPARE(writeEnabled(*a, false), status::Good);
    QVERIFY(!m_server->diagnostics().enabled());
    const Variant flag = value(anonymous, NodeId(id::Server_ServerDiagnostics_EnabledFlag), &st);
    QCOMPARE(st, status::Good);
    QCOMPARE(*flag.get<bool>(), false);
    // Disabled: the arrays are empty, the per-Session objects gone; the summary keeps counting.
    const Variant list = value(*a, NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionDiagnosticsArray), &st);
    QCOMPARE(st, status::Good);
    QCOMPARE(list.get<Array<ExtensionObject>>()->size(), std::size_t(0));
    QVERIFY(QTest::qWaitFor([&] { value(anonymous, name, &st); return st == StatusCode(status::BadNodeIdUnknown); }, 2000));
    const Variant current = value(anonymous, NodeId(id::Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSessionCount));
    QVERIFY(*current.get<uint32_t>() >= 2u);
    QCOMPARE(writeEnabled(*a, true), status::Good);
    QVERIFY(QTest::qWaitFor([&] { value(anonymous, name, &st); return st.isGood(); }, 2000));
    for (Client* c : {&anonymous, a.get()}) {
        Awaited<ServiceResult<CloseSessionResponse>> closed;
        c->closeSession(this, closed.callback());
        QVERIFY(closed.wait());
    }
}

void TestDiagnostics::removedNodeLeavesNoReferences() {
    AddressSpace space = *m_server->addressSpace().snapshot();  // a copy
    Node object;
    object.nodeId = NodeId(1, "diagnostics.test.object");
    object.nodeClass = NodeClass::Object;
    object.browseName = {1, String("TestObject")};
    NodeIndex index = kNoNode;
    QCOMPARE(space.addNode(object, &index), status::Good);
    const std::size_t size = space.size();
    QCOMPARE(space.addReference(NodeId(id::ObjectsFolder), NodeId(id::Organizes), object.nodeId), status::Good);
    QCOMPARE(space.addReference(object.nodeId, NodeId(id::HasTypeDefinition), NodeId(id::BaseObjectType)), status::Good);
    QCOMPARE(space.removeNode(object.nodeId), status::Good);
    QCOMPARE(space.removeNode(object.nodeId), status::BadNodeIdUnknown);
    QVERIFY(!space.find(object.nodeId));
    const NodeIndex folder = space.indexOf(NodeId(id::ObjectsFolder));
    for (const Reference& r : space.node(folder).references) QVERIFY(r.target != index);
    for (const Reference& r : space.node(space.indexOf(NodeId(id::BaseObjectType))).references) QVERIFY(r.target != index);
    // The index is taken again by the next node; nothing else moved.
    Node other = object;
    other.nodeId = NodeId(1, 424242u);
    NodeIndex again = kNoNode;
    QCOMPARE(space.addNode(other, &again), status::Good);
    QCOMPARE(again, index);
    QCOMPARE(space.size(), size);
    QCOMPARE(space.indexOf(NodeId(id::ObjectsFolder)), folder);
    QCOMPARE(space.removeNode(other.nodeId), status::Good);
    QVERIFY(!space.find(other.nodeId));
}

void TestDiagnostics::sessionTimeoutIsCounted() {
    const ServerDiagnosticsSummaryDataType before = m_server->diagnostics().summary();
    {
        ClientConfig cfg = clientConfig();
        cfg.requestedSessionTimeoutMs = 1000;
        Client c(cfg);
        QVERIFY(!connect(c).isNull());
    }  // the channel closes without CloseSession: the activated Session waits for its timeout
    QCOMPARE(m_server->diagnostics().summary().sessionTimeoutCount, before.sessionTimeoutCount);
    QTRY_COMPARE_WITH_TIMEOUT(m_server->diagnostics().summary().sessionTimeoutCount, before.sessionTimeoutCount + 1, 5000);
    const ServerDiagnosticsSummaryDataType after = m_server->diagnostics().summary();
    QCOMPARE(after.currentSessionCount, before.currentSessionCount);
    QCOMPARE(after.sessionAbortCount, before.sessionAbortCount);
}

UA_TEST_MAIN(TestDiagnostics)
#include "tst_diagnostics.moc"
