// node-opcua's client (a real peer) against our server, in process: connect (HEL/ACK, OPN),
// GetEndpoints, FindServers, CreateSession + ActivateSession, CloseSession, CloseSecureChannel.
#include "ua/server/runtime/Server.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QElapsedTimer>
#include <QProcess>
#include <QtTest>
#include "TestMain.h"

namespace {

struct NodeRun {
    QJsonObject result;   // the script's JSON line
    QString diagnostics;  // its output, for failure messages
    int exitCode = -1;
};

// Starts our server on a free port and runs a node-opcua client script against it.
NodeRun runAgainstOurServer(const QString& script, int timeoutMs, ua::Server** keep = nullptr) {
    NodeRun run;
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");  // resolvable without /etc/hosts (minimal roots)
    cfg.ioThreads = 2;
    cfg.security.users.anonymousRoles |= ua::roleBit(ua::Role::Operator);  // client_services.js writes anonymously
    auto* server = new ua::Server(cfg);
    if (!server->start()) {
        run.diagnostics = server->errorString();
        delete server;
        return run;
    }
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {script, server->endpointUrl()});
    if (node.waitForStarted()) {
        // Our server runs on its own threads; this thread only waits for the peer.
        QElapsedTimer t;
        t.start();
        while (node.state() != QProcess::NotRunning && t.elapsed() < timeoutMs) QTest::qWait(50);
    }
    if (node.state() != QProcess::NotRunning) node.kill();
    node.waitForFinished();
    const QByteArray out = node.readAllStandardOutput();
    run.result = QJsonDocument::fromJson(out).object();
    run.diagnostics = QString::fromUtf8(out.left(2000)) + QString::fromUtf8(node.readAllStandardError().right(2000));
    run.exitCode = node.exitCode();
    if (keep) *keep = server;
    else delete server;
    return run;
}

} // namespace

class TestNodeClient : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientTalksToOurServer();
    void nodeOpcuaClientUsesViewAndAttributeServices();
};

void TestNodeClient::nodeOpcuaClientTalksToOurServer() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ua::Server* server = nullptr;
    const NodeRun run = runAgainstOurServer(QStringLiteral("client_to_our_server.js"), 60000, &server);
    std::unique_ptr<ua::Server> owner(server);
    QVERIFY(server);
    const QJsonObject& r = run.result;
    QVERIFY2(r.value("ok").toBool(), qPrintable(run.diagnostics));
    QCOMPARE(r.value("steps").toArray().size(), 6);
    const QJsonObject ep = r.value("endpoints").toArray().at(0).toObject();
    QCOMPARE(ep.value("url").toString(), server->endpointUrl());
    QCOMPARE(ep.value("mode").toString(), QString("None"));
    QCOMPARE(ep.value("tokens").toArray().at(0).toString(), QString("anonymous"));
    QCOMPARE(r.value("servers").toArray().at(0).toString(), QString("urn:127.0.0.1:UAWorkbench:Server"));
    QVERIFY(r.value("sessionId").toString().startsWith("ns=1;g="));
    QCOMPARE(run.exitCode, 0);
    // The Session was closed by the client.
    QTRY_COMPARE(server->sessions().count(), 0);
}

void TestNodeClient::nodeOpcuaClientUsesViewAndAttributeServices() {
    const NodeRun run = runAgainstOurServer(QStringLiteral("client_services.js"), 90000);
    const QJsonObject checks = run.result.value("checks").toObject();
    QVERIFY2(checks.size() > 100, qPrintable(run.diagnostics));
    for (const QString& name : checks.keys()) {
        const QJsonObject c = checks.value(name).toObject();
        QVERIFY2(c.value("ok").toBool(), qPrintable(name + ": " + c.value("detail").toString()));
    }
    QVERIFY2(run.result.value("ok").toBool(), qPrintable(run.result.value("error").toString()));
    QCOMPARE(run.exitCode, 0);
}

UA_TEST_GUILESS_MAIN(TestNodeClient)
#include "tst_node_client.moc"
