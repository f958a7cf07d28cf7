// The diagnostics models fed by a DiagnosticsPoller from a running Server (ServerDiagnostics),
// with Sessions opened and closed by real clients: our ua::Client in the process and node-opcua's
// client (sessions_client.js). Every model under QAbstractItemModelTester; rows appear and
// disappear by key (never a reset), counters move, rates are measured; the address space tree
// gains and loses the Sessions' SessionDiagnosticsObjects.
#include "../client/ClientTestUtil.h"
#include "NodeSessions.h"
#include "models/AddressSpaceModel.h"
#include "models/DiagnosticsHistory.h"
#include "models/DiagnosticsPoller.h"
#include "models/SessionsModel.h"
#include "models/SubscriptionsModel.h"
#include "models/SummaryModel.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::serverapp;

namespace {

// The window's wiring: one poller, every diagnostics model updated from its snapshots.
struct Watch {
    explicit Watch(Server& server) : poller(server.diagnostics()) {
        QObject::connect(&poller, &DiagnosticsPoller::snapshotReady, &poller,
                         [this](const DiagnosticsSnapshotPtr& s, const ProcessUsage& u) {
                             sessions.update(*s);
                             subscriptions.update(*s);
                             summary.update(*s);
                             history.append(*s, u);
                         });
        poller.setInterval(100);
        poller.start();
    }
    DiagnosticsPoller poller;
    SessionsModel sessions;
    SubscriptionsModel subscriptions;
    SummaryModel summary;
    DiagnosticsHistory history;
    QAbstractItemModelTester t1{&sessions, QAbstractItemModelTester::FailureReportingMode::QtTest};
    QAbstractItemModelTester t2{&subscriptions, QAbstractItemModelTester::FailureReportingMode::QtTest};
    QAbstractItemModelTester t3{&summary, QAbstractItemModelTester::FailureReportingMode::QtTest};
};

ServerConfig serverConfig() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.benchmarkVariables = 10;
    return cfg;
}

int rowNamed(const SessionsModel& m, const QString& name) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, SessionsModel::Name).data().toString() == name) return r;
    return -1;
}

// The child of parent named name, fetched first (invalid when there is none).
QModelIndex expand(AddressSpaceModel& m, const QModelIndex& parent, const QString& name) {
    if (m.canFetchMore(parent)) m.fetchMore(parent);
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, AddressSpaceModel::DisplayName, parent).data().toString() == name) return m.index(r, 0, parent);
    return {};
}

quint64 cell(const QAbstractItemModel& m, int row, int column) { return m.index(row, column).data(SortRole).toULongLong(); }

} // namespace

class TestModelsLive : public QObject {
    Q_OBJECT
private slots:
    void ourClients();
    void nodeOpcuaClients();
};

void TestModelsLive::ourClients() {
    Server server(serverConfig());
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Watch w(server);
    QSignalSpy reset(&w.sessions, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&w.sessions, &QAbstractItemModel::rowsRemoved);
    QTRY_VERIFY(w.poller.latest() != nullptr);
    QCOMPARE(w.sessions.rowCount(), 0);

    ClientConfig ca, cb;
    ca.sessionName = QStringLiteral("models-a");
    cb.sessionName = QStringLiteral("models-b");
    Client a(ca), b(cb);
    QCOMPARE(test::connectSession(a, server.endpointUrl(), this), StatusCode());
    QCOMPARE(test::connectSession(b, server.endpointUrl(), this), StatusCode());
    QTRY_COMPARE(w.sessions.rowCount(), 2);
    const int rowA = rowNamed(w.sessions, "models-a");
    QVERIFY(rowA >= 0 && rowNamed(w.sessions, "models-b") >= 0);
    QCOMPARE(w.sessions.sessionId(rowA), a.sessionId());
    QCOMPARE(w.sessions.index(rowA, SessionsModel::ClientApplication).data().toString(), QStringLiteral("UA Workbench Client"));
    QCOMPARE(w.sessions.index(rowA, SessionsModel::Security).data().toString(), QStringLiteral("None"));
    QCOMPARE(w.sessions.index(rowA, SessionsModel::User).data().toString(), QStringLiteral("(anonymous)"));
    // An IPv4 peer reads as IPv4, not as the IPv4-mapped IPv6 address of a dual-stack socket.
    QVERIFY2(w.sessions.index(rowA, SessionsModel::Address).data().toString().startsWith("127.0.0.1:"),
             qPrintable(w.sessions.index(rowA, SessionsModel::Address).data().toString()));
    QVERIFY(!w.sessions.index(rowA, SessionsModel::Created).data().toString().isEmpty());
    QTRY_COMPARE(w.summary.value(SummaryModel::CurrentSessionCount), 2u);

    // The address space page: one SessionDiagnosticsObject per Session under
    // Server/ServerDiagnostics/SessionsDiagnosticsSummary, added in the server's next batch.
    AddressSpaceModel space(server.addressSpace());
    QAbstractItemModelTester spaceTester(&space, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy spaceReset(&space, &QAbstractItemModel::modelReset);
    const QModelIndex summaryFolder =
        expand(space, expand(space, expand(space, expand(space, {}, "Objects"), "Server"), "ServerDiagnostics"),
               "SessionsDiagnosticsSummary");
    QVERIFY(summaryFolder.isValid());
    QTRY_VERIFY((space.refreshStructure(), space.findFetched(a.sessionId()).isValid() && space.findFetched(b.sessionId()).isValid()));
    QCOMPARE(space.findFetched(a.sessionId()).data().toString(), QStringLiteral("models-a"));
    QCOMPARE(space.findFetched(a.sessionId()).parent(), summaryFolder);
    const QModelIndex diagnosticsOfA = expand(space, space.findFetched(a.sessionId()), "SessionDiagnostics");
    QVERIFY(diagnosticsOfA.isValid());
    // The SessionDiagnosticsDataType field by field (app-common/ValueText.h), this Session's.
    const QString diagnosticsText = diagnosticsOfA.siblingAtColumn(AddressSpaceModel::Value).data().toString();
    QVERIFY2(diagnosticsText.startsWith(QStringLiteral("{SessionId: \"%1\", SessionName: \"models-a\"")
                                            .arg(QString::fromStdString(a.sessionId().toString()))),
             qPrintable(diagnosticsText));
    QCOMPARE(diagnosticsOfA.siblingAtColumn(AddressSpaceModel::DataType).data().toString(),
             QStringLiteral("SessionDiagnosticsDataType"));
    const uint64_t cumulated = w.summary.value(SummaryModel::CumulatedSessionCount);
    QVERIFY(cumulated >= 2);

    // Five Reads on a: its request count moves by at least five.
    const quint64 before = cell(w.sessions, rowA, SessionsModel::Requests);
    for (int i = 0; i < 5; ++i) {
        test::Awaited<ServiceResult<ReadResponse>> r;
        a.readValues({NodeId(id::Server_ServerStatus_CurrentTime)}, this, r.callback());
        QVERIFY(r.wait());
        QVERIFY(r->isGood());
    }
    QTRY_VERIFY(cell(w.sessions, rowA, SessionsModel::Requests) >= before + 5);

    // A Subscription on a with one MonitoredItem: a row in the subscriptions model, notifications/s.
    SubscriptionSettings settings;
    settings.publishingIntervalMs = 100;
    test::Awaited<SubscriptionInfo> created;
    a.createSubscription(settings, this, {}, created.callback());
    QVERIFY(created.wait());
    QVERIFY(created->status.isGood());
    MonitoredItemSpec item;
    item.nodeId = NodeId(id::Server_ServerStatus_CurrentTime);
    item.settings.samplingIntervalMs = 100;
    test::Awaited<MonitoredItemsResult> items;
    a.createMonitoredItems(created->handle, {item}, this, items.callback());
    QVERIFY(items.wait());
    QVERIFY(items->status.isGood());
    QTRY_COMPARE(w.subscriptions.rowCount(), 1);
    QCOMPARE(w.subscriptions.index(0, SubscriptionsModel::Session).data().toString(), QStringLiteral("models-a"));
    QTRY_COMPARE(cell(w.subscriptions, 0, SubscriptionsModel::Items), 1ull);
    QCOMPARE(w.subscriptions.index(0, SubscriptionsModel::PublishingInterval).data(SortRole).toDouble(), 100.0);
    QTRY_VERIFY_WITH_TIMEOUT(w.subscriptions.index(0, SubscriptionsModel::NotificationsPerSecond).data(SortRole).toDouble() > 1.0, 10000);
    QTRY_COMPARE(cell(w.sessions, w.sessions.rowOfKey(a.sessionId()), SessionsModel::Subscriptions), 1ull);
    QTRY_VERIFY(cell(w.sessions, w.sessions.rowOfKey(a.sessionId()), SessionsModel::OutstandingPublishes) >= 1);

    // The administrator closes b from its row (Server::closeSession): its row goes, a's stays, and
    // b's next request is refused.
    const int rowB = rowNamed(w.sessions, "models-b");
    QCOMPARE(server.closeSession(w.sessions.sessionId(rowB)), StatusCode());
    QCOMPARE(server.closeSession(w.sessions.sessionId(rowB)), StatusCode(status::BadSessionIdInvalid));
    QTRY_COMPARE(w.sessions.rowCount(), 1);
    QCOMPARE(w.sessions.sessionId(0), a.sessionId());
    QVERIFY(removed.count() >= 1);
    QTRY_COMPARE(w.summary.value(SummaryModel::CurrentSessionCount), 1u);
    QCOMPARE(w.summary.value(SummaryModel::CumulatedSessionCount), cumulated);
    // b's object leaves the tree; a's, expanded, stays.
    QTRY_VERIFY((space.refreshStructure(), !space.findFetched(b.sessionId()).isValid()));
    QVERIFY(space.findFetched(a.sessionId()).isValid());
    QVERIFY(expand(space, space.findFetched(a.sessionId()), "SessionDiagnostics").isValid());
    QCOMPARE(spaceReset.count(), 0);
    test::Awaited<ServiceResult<ReadResponse>> refused;
    b.readValues({NodeId(id::Server_ServerStatus_CurrentTime)}, this, refused.callback());
    QVERIFY(refused.wait());
    QVERIFY2(refused->status.isBad(), refused->status.name().c_str());

    // The charts' history saw both Sessions, the Reads and the Publishes.
    QTRY_VERIFY(w.history.size() >= 5);
    QCOMPARE(w.history.maximum(DiagnosticsHistory::Sessions), 2.0);
    QVERIFY(w.history.maximum(DiagnosticsHistory::RequestsPerSecond) > 0);
    const auto active = w.history.activeServices();
    QVERIFY(std::find(active.begin(), active.end(), ServiceKind::Read) != active.end());
    QVERIFY(std::find(active.begin(), active.end(), ServiceKind::Publish) != active.end());
    QVERIFY(w.history.value(DiagnosticsHistory::RssBytes, w.history.size() - 1) > 1e6);

    // The subscription deleted: its row goes.
    test::Awaited<StatusCode> deleted;
    a.deleteSubscription(created->handle, this, deleted.callback());
    QVERIFY(deleted.wait());
    QTRY_COMPARE(w.subscriptions.rowCount(), 0);
    test::Awaited<ServiceResult<CloseSessionResponse>> closedA;
    a.closeSession(this, closedA.callback());
    QVERIFY(closedA.wait());
    QTRY_COMPARE(w.sessions.rowCount(), 0);
    QCOMPARE(reset.count(), 0);
}

void TestModelsLive::nodeOpcuaClients() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    Server server(serverConfig());
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Watch w(server);
    QSignalSpy reset(&w.sessions, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&w.sessions, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&w.sessions, &QAbstractItemModel::rowsRemoved);

    test::NodeSessions node;
    node.start(server.endpointUrl(), {{"sessions", 3}, {"prefix", "node-models-"}});
    const QJsonObject ready = node.waitReady();
    QVERIFY2(ready.value("ready").toBool(), qPrintable(ready.value("error").toString() + node.stderrTail()));
    QTRY_COMPARE(w.sessions.rowCount(), 3);
    QVERIFY(inserted.count() >= 1);
    const QJsonArray ids = ready.value("sessionIds").toArray();
    QCOMPARE(ids.size(), 3);
    for (int i = 1; i <= 3; ++i) {
        const int row = rowNamed(w.sessions, QStringLiteral("node-models-%1").arg(i));
        QVERIFY2(row >= 0, qPrintable(QString::number(i)));
        QCOMPARE(w.sessions.index(row, SessionsModel::ClientApplication).data().toString(), QStringLiteral("ModelsTestClient"));
        QCOMPARE(w.sessions.index(row, SessionsModel::Name).data(SessionsModel::SessionIdRole).toString().toLower(),
                 ids.at(i - 1).toString().toLower());
        // CreateSession and ActivateSession are Session-less; the 3 Reads are the Session's.
        QTRY_VERIFY(cell(w.sessions, row, SessionsModel::Requests) >= 3);
    }
    // The first Session's Subscription.
    QTRY_COMPARE(w.subscriptions.rowCount(), 1);
    QCOMPARE(w.subscriptions.subscriptionId(0), uint32_t(ready.value("subscriptionId").toInt()));
    QCOMPARE(w.subscriptions.index(0, SubscriptionsModel::Session).data().toString(), QStringLiteral("node-models-1"));
    QTRY_VERIFY_WITH_TIMEOUT(w.subscriptions.index(0, SubscriptionsModel::NotificationsPerSecond).data(SortRole).toDouble() > 1.0, 10000);

    QVERIFY2(node.close(), qPrintable(node.stderrTail()));
    QTRY_COMPARE(w.sessions.rowCount(), 0);
    QTRY_COMPARE(w.subscriptions.rowCount(), 0);
    QVERIFY(removed.count() >= 1);
    QCOMPARE(reset.count(), 0);
    QTRY_COMPARE(w.summary.value(SummaryModel::CurrentSessionCount), 0u);
    QVERIFY(w.summary.value(SummaryModel::CumulatedSessionCount) >= 3u);
}

UA_TEST_GUILESS_MAIN(TestModelsLive)
#include "tst_models_live.moc"
