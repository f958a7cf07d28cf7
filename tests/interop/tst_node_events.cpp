// node-opcua's client (a real peer) subscribing to events on our server's Server object:
// client_events.js checks the selected fields of demo events and audit events, the whereClause
// (Severity > 500 Or OfType AuditEventType) and the statuses of bad EventFilters.
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

class TestNodeEvents : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientReceivesEvents();
};

void TestNodeEvents::nodeOpcuaClientReceivesEvents() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.demoEventsMs = 100;
    cfg.security.pkiDir = dir.filePath(QStringLiteral("pki"));  // the password is encrypted on the None endpoint
    cfg.security.users.setUser("alice", "alice-pw", ua::roleBit(ua::Role::Operator), 2000);
    cfg.security.users.anonymousRoles |= ua::roleBit(ua::Role::Operator);  // calls Methods/GenerateEvent
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(!server.events().hasSubscribers());
    const ua::test::NodeScriptResult node = ua::test::runNodeScript(QStringLiteral("client_events.js"), {server.endpointUrl()});
    ua::test::verifyNodeChecks(node, 19);
    if (QTest::currentTestFailed()) return;
    // About half of the demo events have Severity > 500: the others were raised but filtered out.
    const int received = node.result.value("demoEvents").toInt();
    qInfo("demo events received %d, events raised while subscribed %llu", received,
          static_cast<unsigned long long>(server.events().raisedCount()));
    QVERIFY(server.events().raisedCount() > uint64_t(received));
    QTRY_VERIFY(!server.events().hasSubscribers());
}

UA_TEST_GUILESS_MAIN(TestNodeEvents)
#include "tst_node_events.moc"
