// node-opcua's client (a real peer) subscribing to events on our server's Server object:
// client_events.js checks the selected fields of demo events and audit events, the whereClause
// (Severity > 500 Or OfType AuditEventType) and the statuses of bad EventFilters.
#include "ua/server/Server.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

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
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("client_events.js"), server.endpointUrl()});
    QVERIFY(node.waitForStarted());
    QElapsedTimer t;
    t.start();
    while (node.state() != QProcess::NotRunning && t.elapsed() < 90000) QTest::qWait(50);
    if (node.state() != QProcess::NotRunning) node.kill();
    node.waitForFinished();
    const QByteArray out = node.readAllStandardOutput();
    const QString diagnostics = QString::fromUtf8(out.left(3000)) + QString::fromUtf8(node.readAllStandardError().right(3000));
    const QJsonObject result = QJsonDocument::fromJson(out).object();
    const QJsonObject checks = result.value("checks").toObject();
    QVERIFY2(checks.size() >= 19, qPrintable(diagnostics));
    for (const QString& name : checks.keys()) {
        const QJsonObject c = checks.value(name).toObject();
        qInfo("%s: %s", qPrintable(name), qPrintable(c.value("detail").toString().left(300)));
        QVERIFY2(c.value("ok").toBool(), qPrintable(name + ": " + c.value("detail").toString()));
    }
    QVERIFY2(result.value("ok").toBool(), qPrintable(result.value("error").toString() + diagnostics));
    QCOMPARE(node.exitCode(), 0);
    // About half of the demo events have Severity > 500: the others were raised but filtered out.
    const int received = result.value("demoEvents").toInt();
    qInfo("demo events received %d, events raised while subscribed %llu", received,
          static_cast<unsigned long long>(server.events().raisedCount()));
    QVERIFY(server.events().raisedCount() > uint64_t(received));
    QTRY_VERIFY(!server.events().hasSubscribers());
}

QTEST_GUILESS_MAIN(TestNodeEvents)
#include "tst_node_events.moc"
