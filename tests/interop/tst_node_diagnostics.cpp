// node-opcua's client (a real peer) reading our server's diagnostics: client_diagnostics.js opens
// and closes Sessions, reads, reads an unknown node, logs in with a wrong password, and checks that
// ServerDiagnosticsSummary, the worker Session's ReadCount (by browse path through its
// SessionDiagnosticsObject) and SessionDiagnosticsArray changed by exactly that (OPC 10000-5 6.3.3
// to 6.3.5).
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

class TestNodeDiagnostics : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientReadsDiagnostics();
};

void TestNodeDiagnostics::nodeOpcuaClientReadsDiagnostics() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.pkiDir = dir.filePath(QStringLiteral("pki"));  // the None endpoint then takes passwords (encrypted)
    cfg.security.trustAllClients = true;
    cfg.security.users.setUser("admin", "admin-pw", ua::roleBit(ua::Role::SecurityAdmin), 1000);
    cfg.security.users.setUser("alice", "alice-pw", ua::roleBit(ua::Role::Operator), 1000);
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const ua::test::NodeScriptResult node =
        ua::test::runNodeScript(QStringLiteral("client_diagnostics.js"), {server.endpointUrl(), QStringLiteral("3"), QStringLiteral("5")});
    ua::test::verifyNodeChecks(node, 15);
    if (QTest::currentTestFailed()) return;
}

UA_TEST_GUILESS_MAIN(TestNodeDiagnostics)
#include "tst_node_diagnostics.moc"
