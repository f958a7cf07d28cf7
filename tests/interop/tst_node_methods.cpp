// node-opcua's client (a real peer) against our server's Method service set: client_methods.js
// browses the demo Methods, reads their Argument Properties, calls them with good and bad
// arguments, and checks that a Read is answered while a long Method runs.
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"

#include <QtTest>
#include "TestMain.h"

class TestNodeMethods : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientCallsMethods();
};

void TestNodeMethods::nodeOpcuaClientCallsMethods() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.users.anonymousRoles |= ua::roleBit(ua::Role::Operator);  // Operator may call Methods
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const ua::test::NodeScriptResult node = ua::test::runNodeScript(QStringLiteral("client_methods.js"), {server.endpointUrl()});
    ua::test::verifyNodeChecks(node, 17);
    if (QTest::currentTestFailed()) return;
}

UA_TEST_GUILESS_MAIN(TestNodeMethods)
#include "tst_node_methods.moc"
