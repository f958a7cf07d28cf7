// node-opcua's client (a real peer) against our server, in process: connect (HEL/ACK, OPN),
// GetEndpoints, FindServers, CreateSession + ActivateSession, CloseSession, CloseSecureChannel.
#include "ua/server/Server.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

class TestNodeClient : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientTalksToOurServer();
    void nodeOpcuaClientUsesViewAndAttributeServices();
};

void TestNodeClient::nodeOpcuaClientTalksToOurServer() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.ioThreads = 2;
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("client_to_our_server.js"), server.endpointUrl()});
    QVERIFY(node.waitForStarted());
    // Our server runs on its own threads; this thread only waits for the peer.
    QTRY_VERIFY_WITH_TIMEOUT(node.state() == QProcess::NotRunning, 60000);
    const QByteArray out = node.readAllStandardOutput();
    const QJsonObject r = QJsonDocument::fromJson(out).object();
    QVERIFY2(r.value("ok").toBool(), qPrintable(QString::fromUtf8(out) + QString::fromUtf8(node.readAllStandardError().right(2000))));
    QCOMPARE(r.value("steps").toArray().size(), 6);
    const QJsonObject ep = r.value("endpoints").toArray().at(0).toObject();
    QCOMPARE(ep.value("url").toString(), server.endpointUrl());
    QCOMPARE(ep.value("mode").toString(), QString("None"));
    QCOMPARE(ep.value("tokens").toArray().at(0).toString(), QString("anonymous"));
    QCOMPARE(r.value("servers").toArray().at(0).toString(), cfg.hostName.isEmpty() ? QString() : QString("urn:localhost:UAWorkbench:Server"));
    QVERIFY(r.value("sessionId").toString().startsWith("ns=1;g="));
    QCOMPARE(node.exitCode(), 0);
    // The Session was closed by the client.
    QTRY_COMPARE(server.sessions().count(), 0);
}

void TestNodeClient::nodeOpcuaClientUsesViewAndAttributeServices() {
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.ioThreads = 2;
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("client_services.js"), server.endpointUrl()});
    QVERIFY(node.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(node.state() == QProcess::NotRunning, 90000);
    const QByteArray out = node.readAllStandardOutput();
    const QJsonObject r = QJsonDocument::fromJson(out).object();
    const QJsonObject checks = r.value("checks").toObject();
    QVERIFY2(checks.size() > 100, qPrintable(QString::fromUtf8(out.left(2000)) + QString::fromUtf8(node.readAllStandardError().right(2000))));
    for (const QString& name : checks.keys()) {
        const QJsonObject c = checks.value(name).toObject();
        QVERIFY2(c.value("ok").toBool(), qPrintable(name + ": " + c.value("detail").toString()));
    }
    QVERIFY2(r.value("ok").toBool(), qPrintable(r.value("error").toString()));
    QCOMPARE(node.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestNodeClient)
#include "tst_node_client.moc"
