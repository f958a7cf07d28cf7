// node-opcua's client (a real peer) against our server's MaxMonitoredItemsPerCall (OPC 10000-5
// 6.3.11 OperationLimits, OPC 10000-4 5.13): client_operation_limits.js reads the published limit
// (i=11714), gets Bad_TooManyOperations from CreateMonitoredItems one item over it, and lets
// node-opcua split a larger request by it.
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/subscriptions/SubscriptionRegistry.h"

#include <QtTest>
#include "TestMain.h"

class TestNodeOperationLimits : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientMeetsMaxMonitoredItemsPerCall();
};

void TestNodeOperationLimits::nodeOpcuaClientMeetsMaxMonitoredItemsPerCall() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.subscriptions.maxMonitoredItemsPerCall = 7;
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const ua::test::NodeScriptResult node =
        ua::test::runNodeScript(QStringLiteral("client_operation_limits.js"), {server.endpointUrl(), QStringLiteral("7")});
    ua::test::verifyNodeChecks(node, 5);
    if (QTest::currentTestFailed()) return;
    // Nothing of the refused request was created, and the script deleted what it made.
    QTRY_COMPARE(server.subscriptionRegistry().itemCount(), 0u);
}

UA_TEST_GUILESS_MAIN(TestNodeOperationLimits)
#include "tst_node_operation_limits.moc"
