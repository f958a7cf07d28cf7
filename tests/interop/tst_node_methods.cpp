// node-opcua's client (a real peer) against our server's Method service set: client_methods.js
// browses the demo Methods, reads their Argument Properties, calls them with good and bad
// arguments, and checks that a Read is answered while a long Method runs.
#include "ua/server/Server.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

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
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("client_methods.js"), server.endpointUrl()});
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
    QVERIFY2(checks.size() >= 17, qPrintable(diagnostics));
    for (const QString& name : checks.keys()) {
        const QJsonObject c = checks.value(name).toObject();
        QVERIFY2(c.value("ok").toBool(), qPrintable(name + ": " + c.value("detail").toString()));
        qInfo("%s: %s", qPrintable(name), qPrintable(c.value("detail").toString()));
    }
    QVERIFY2(result.value("ok").toBool(), qPrintable(result.value("error").toString() + diagnostics));
    QCOMPARE(node.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestNodeMethods)
#include "tst_node_methods.moc"
