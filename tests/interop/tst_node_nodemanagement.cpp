// node-opcua's client through our server's NodeManagement service set (OPC 10000-4 5.8):
// client_nodemanagement.js adds, browses, reads, writes and deletes nodes and references as a
// ConfigureAdmin user, is refused as an Observer, and sees the audit events of each request.
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;

class TestNodeNodeManagement : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaAddsAndDeletesNodes();
};

void TestNodeNodeManagement::nodeOpcuaAddsAndDeletesNodes() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.security.trustAllClients = true;
    cfg.security.users.setUser("admin", "admin-pw", roleBit(Role::ConfigureAdmin), 1000);
    cfg.security.users.setUser("viewer", "viewer-pw", roleBit(Role::Observer), 1000);
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const auto liveNodes = [&server] {  // removed nodes leave an empty slot behind (AddressSpace::removeNode)
        std::size_t n = 0;
        for (const Node& node : server.addressSpace().snapshot()->nodes()) n += !node.nodeId.isNull();
        return n;
    };
    const std::size_t nodesBefore = liveNodes();
    const test::NodeScriptResult node = test::runNodeScript(QStringLiteral("client_nodemanagement.js"), {server.endpointUrl()});
    test::verifyNodeChecks(node, 9);
    if (QTest::currentTestFailed()) return;
    // Everything added was deleted again (the client's Sessions' diagnostics nodes are gone too).
    QTRY_COMPARE(liveNodes(), nodesBefore);
}

UA_TEST_GUILESS_MAIN(TestNodeNodeManagement)
#include "tst_node_nodemanagement.moc"
