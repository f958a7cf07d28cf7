// node-opcua's client (a real peer) against our server's alarm conditions (OPC 10000-9):
// client_alarms.js receives the events of an ExclusiveLevelAlarm on the demo's writable Double
// (with the ConditionId), Acknowledges, Confirms, runs ConditionRefresh and ConditionRefresh2,
// shelves, disables and enables it, and checks every Method's status code; a second event item on
// the demo's Demo folder (a notifier with HasEventSource to the input) gets the condition too.
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

class TestNodeAlarms : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientHandlesOurAlarms();
};

void TestNodeAlarms::nodeOpcuaClientHandlesOurAlarms() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.alarmPollMs = 20;
    cfg.security.users.anonymousRoles |= ua::roleBit(ua::Role::Operator);  // writes the input, calls the Methods
    ua::AlarmDefinition a;
    a.name = "TankLevel";
    a.namespaceUri = "urn:ua-workbench:demo";
    a.input = ua::NodeId(0, ua::String("Demo.Scalars.Double"));
    a.kind = ua::AlarmKind::ExclusiveLevel;
    a.high = 10;
    a.highHigh = 20;
    a.severity = 600;
    cfg.alarms.push_back(a);
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QCOMPARE(server.conditions().size(), std::size_t(1));
    const auto space = server.addressSpace().snapshot();
    const int demo = space->namespaceIndex("urn:ua-workbench:demo");
    QVERIFY(demo > 0);
    const QString input = QStringLiteral("ns=%1;s=Demo.Scalars.Double").arg(demo);
    const ua::test::NodeScriptResult node =
        ua::test::runNodeScript(QStringLiteral("client_alarms.js"), {server.endpointUrl(), QStringLiteral("ns=1;s=Alarms/TankLevel"), input,
                                                                    QStringLiteral("ns=%1;s=Demo").arg(demo)});
    ua::test::verifyNodeChecks(node, 34);
    if (QTest::currentTestFailed()) return;
    const auto s = server.conditions().summaries();
    QCOMPARE(s.size(), std::size_t(1));
    QVERIFY(!s[0].active);  // the script wrote 5 at the end
    QVERIFY(s[0].retain);   // and did not acknowledge that
}

UA_TEST_GUILESS_MAIN(TestNodeAlarms)
#include "tst_node_alarms.moc"
