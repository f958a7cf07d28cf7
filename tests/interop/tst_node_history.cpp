// node-opcua's client (a real peer) against our server's Historical Access (issue 30 items 1, 2,
// 4): client_history.js reads the raw history the server samples from the demo signals into its
// SQLite file, with ContinuationPoints, bounds and the Bad_ statuses of OPC 10000-4 5.11.3 and
// OPC 10000-11, and updates it as an Engineer (insert, replace, update, delete, Read Modified).
#include "NodeScript.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

namespace {

// Our server on a free port of 127.0.0.1 with its history in dir, every client certificate trusted,
// and the Server object's events kept.
ua::ServerConfig historyServerConfig(const QTemporaryDir& dir) {
    using namespace ua;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.security.trustAllClients = true;
    cfg.history.databasePath = dir.filePath("history.sqlite");
    cfg.history.eventNotifiers.emplace_back().node = NodeId(id::Server);
    return cfg;
}

} // namespace

class TestNodeHistory : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientReadsAndUpdatesHistory();
    void nodeOpcuaClientReadsEventHistory();
};

void TestNodeHistory::nodeOpcuaClientReadsAndUpdatesHistory() {
    using namespace ua;
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    ServerConfig cfg = historyServerConfig(dir);  // with the Server object's events: the updates' audit events
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);
    cfg.security.users.setUser("engineer", "engineer-pw", roleBit(Role::Engineer), 1000);
    cfg.demoUpdateRateMs = 100;
    cfg.history.durabilityMs = 500;
    for (const char* name : {"Demo.Simulation.Ramp", "Demo.Simulation.Sine"}) {
        HistorizedNode h;
        h.node = NodeId(0, String(name));
        h.namespaceUri = "urn:ua-workbench:demo";
        h.samplingIntervalMs = 100;
        cfg.history.nodes.push_back(h);
    }
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const test::NodeScriptResult node = test::runNodeScript(QStringLiteral("client_history.js"), {server.endpointUrl()});
    if (node.result.contains("error")) qInfo("%s", qPrintable(node.result.value("error").toString()));
    test::verifyNodeChecks(node, 22);
}

void TestNodeHistory::nodeOpcuaClientReadsEventHistory() {
    using namespace ua;
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    const ServerConfig cfg = historyServerConfig(dir);
    constexpr int kEvents = 5;
    {
        Server first(cfg);
        QVERIFY2(first.start(), qPrintable(first.errorString()));
        QVERIFY(first.events().hasSubscribers());  // the history wants every event
        // Raised before the restart below: they must come back from the file.
        const int64_t base = DateTime::now().ticks - 10'000'000;  // a second ago, one a millisecond
        for (int k = 1; k <= kEvents; ++k) {
            auto e = makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "HistoryTest", "history event " + std::to_string(k),
                               uint16_t(100 * k));
            e->set("Time", Variant(DateTime{base + k * 10'000}));
            first.events().raise(std::move(e));
        }
        first.stop();
    }
    Server again(cfg);
    QVERIFY2(again.start(), qPrintable(again.errorString()));
    const test::NodeScriptResult node =
        test::runNodeScript(QStringLiteral("client_event_history.js"), {again.endpointUrl(), QString::number(kEvents)});
    if (node.result.contains("error")) qInfo("%s", qPrintable(node.result.value("error").toString()));
    test::verifyNodeChecks(node, 10);
}

UA_TEST_GUILESS_MAIN(TestNodeHistory)
#include "tst_node_history.moc"
