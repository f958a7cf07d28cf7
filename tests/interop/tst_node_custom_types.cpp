// node-opcua's client reads and writes the values of custom DataTypes our server imported from
// data/custom-types.NodeSet2.xml (issue 29 item 3): it decodes them with the DataTypeDefinitions it
// reads from our server, and encodes new ones with them (client_custom_types.js).
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"

#include <QtTest>
#include "TestMain.h"

class TestNodeCustomTypes : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaReadsAndWritesCustomStructures();
};

void TestNodeCustomTypes::nodeOpcuaReadsAndWritesCustomStructures() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.nodeSetFiles = {QStringLiteral(UA_INTEROP_DIR "/data/custom-types.NodeSet2.xml")};
    cfg.security.users.anonymousRoles |= ua::roleBit(ua::Role::Operator);  // anonymous writes Values, as in the demo
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const ua::test::NodeScriptResult node = ua::test::runNodeScript(QStringLiteral("client_custom_types.js"), {server.endpointUrl()});
    ua::test::verifyNodeChecks(node, 8);
}

UA_TEST_GUILESS_MAIN(TestNodeCustomTypes)
#include "tst_node_custom_types.moc"
