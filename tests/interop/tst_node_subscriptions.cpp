// node-opcua's client (a real peer) against our server's Subscription and MonitoredItem services:
// client_subscriptions.js subscribes to demo variables through ClientSubscription,
// ClientMonitoredItem and ClientMonitoredItemGroup and checks values, counts, sequence numbers,
// revisions, bad filters, and the Server's GetMonitoredItems and ResendData Methods.
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"

#include <QtTest>
#include "TestMain.h"

class TestNodeSubscriptions : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientSubscribes();
};

void TestNodeSubscriptions::nodeOpcuaClientSubscribes() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.users.anonymousRoles |= ua::roleBit(ua::Role::Operator);  // the script writes anonymously
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const ua::test::NodeScriptResult node = ua::test::runNodeScript(QStringLiteral("client_subscriptions.js"), {server.endpointUrl()});
    ua::test::verifyNodeChecks(node, 18);
    if (QTest::currentTestFailed()) return;
    QTRY_COMPARE(server.subscriptionRegistry().subscriptionCount(), 0);
}

UA_TEST_GUILESS_MAIN(TestNodeSubscriptions)
#include "tst_node_subscriptions.moc"
