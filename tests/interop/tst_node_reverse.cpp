// Reverse Connect with node-opcua in both roles (OPC 10000-6 7.1.3; issue 32 item 1):
// - node-opcua's client listens (ClientReverseConnect), our server dials it, sends ReverseHello,
//   and node-opcua opens two Sessions one after the other over the spares our server keeps
//   (client_reverse.js);
// - our client listens (ReverseListener), node-opcua's server dials it (its ReverseConnectManager,
//   node_reverse_server.js), and our client connects, reads and connects again.
#include "../client/ClientTestUtil.h"
#include "ua/client/channel/ReverseListener.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"
#include "TestServerConfig.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>
#include "TestMain.h"

namespace {

// Waits for a line of the process's stdout starting with prefix; its words after it.
QStringList waitForLine(QProcess& p, const QString& prefix, QByteArray& seen, int timeoutMs = 90000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs && p.state() != QProcess::NotRunning) {
        seen += p.readAllStandardOutput();
        for (const QByteArray& line : seen.split('\n'))
            if (line.startsWith(prefix.toUtf8()) && seen.contains(line + '\n'))
                return QString::fromUtf8(line).split(QLatin1Char(' '), Qt::SkipEmptyParts).mid(1);
        QTest::qWait(20);
    }
    return {};
}

} // namespace

class TestNodeReverse : public QObject {
    Q_OBJECT
private slots:
    void nodeClientOverOurServersReverseConnections();
    void ourClientOverNodeServersReverseConnections();
};

void TestNodeReverse::nodeClientOverOurServersReverseConnections() {
    using namespace ua;
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("client_reverse.js"), QStringLiteral("0")});
    QVERIFY(node.waitForStarted());
    QByteArray out;
    const QStringList listening = waitForLine(node, QStringLiteral("LISTENING "), out);
    QVERIFY2(listening.size() == 1, qPrintable(out + node.readAllStandardError()));

    Server server(test::reverseDialingServerConfig(quint16(listening[0].toUInt())));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    node.write((server.endpointUrl() + QLatin1Char(' ') + server.applicationUri() + QLatin1Char('\n')).toUtf8());

    QVERIFY(QTest::qWaitFor([&] { return node.state() == QProcess::NotRunning; }, 90000));
    out += node.readAllStandardOutput();
    const QByteArray err = node.readAllStandardError();
    const QList<QByteArray> lines = out.trimmed().split('\n');
    const QJsonObject result = QJsonDocument::fromJson(lines.last()).object();
    const QJsonObject checks = result.value("checks").toObject();
    for (const QString& name : checks.keys()) {
        const QJsonObject c = checks.value(name).toObject();
        qInfo("%s: %s", qPrintable(name), qPrintable(c.value("detail").toString()));
        QVERIFY2(c.value("ok").toBool(), qPrintable(name + ": " + c.value("detail").toString()));
    }
    QVERIFY2(checks.size() == 6, qPrintable(out + err.right(3000)));
    QVERIFY2(result.value("ok").toBool(), qPrintable(result.value("error").toString() + err.right(3000)));
    QCOMPARE(node.exitCode(), 0);
    QVERIFY(server.reverseConnectStates()[0].used >= 2);
    server.stop();
}

void TestNodeReverse::ourClientOverNodeServersReverseConnections() {
    using namespace ua;
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ReverseListener listener;
    QVERIFY(listener.listen(QHostAddress::LocalHost, 0));
    const quint16 nodePort = test::freeLocalPort();  // node-opcua's own endpoint
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE),
               {QStringLiteral("node_reverse_server.js"), QStringLiteral("opc.tcp://127.0.0.1:%1").arg(listener.port()),
                QString::number(nodePort)});
    QVERIFY(node.waitForStarted());
    QByteArray out;
    const QStringList ready = waitForLine(node, QStringLiteral("READY "), out);
    QVERIFY2(ready.size() == 3, qPrintable(out + node.readAllStandardError().right(3000)));
    const QString endpointUrl = ready[1];
    const QString serverUri = ready[2];

    ClientConfig cc;
    cc.reverseListener = &listener;
    cc.reverseServerUri = serverUri;
    Client client(cc);
    QCOMPARE(test::connectSession(client, endpointUrl, this), status::Good);
    test::Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(id::Server_ServerStatus_State), NodeId(id::Server_ServerArray)}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QCOMPARE(r->response.results.size(), std::size_t(2));
    QCOMPARE(r->response.results[0].status, status::Good);
    const Variant& servers = r->response.results[1].value;
    const auto* uris = servers.get<Array<String>>();
    QVERIFY(uris && !uris->empty());
    QCOMPARE((*uris)[0].toQString(), serverUri);

    test::Awaited<StatusCode> d;
    client.disconnectFromServer(this, d.callback());
    QVERIFY(d.wait());
    QCOMPARE(test::connectSession(client, endpointUrl, this), status::Good);
    QVERIFY(listener.handedOver() >= 2);
    client.disconnectFromServer(this, d.callback());
    node.closeWriteChannel();
    QVERIFY(node.waitForFinished(20000));
}

UA_TEST_GUILESS_MAIN(TestNodeReverse)
#include "tst_node_reverse.moc"
