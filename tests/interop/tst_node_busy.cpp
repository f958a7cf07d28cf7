// node-opcua's client meets our admission control (ua/server/AdmissionConfig.h): while the one
// handshake our server admits is held by a raw channel (until two Hellos were refused), node-opcua's
// Hellos are answered ERR Bad_TcpServerTooBusy (OPC 10000-6 7.1.5); its connection strategy backs
// off and tries again, and once the slot is free it connects, creates a Session and reads
// (client_busy_server.js).
#include "../common/TestServerConfig.h"
#include "../transport/RawClient.h"
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"

#include <QTimer>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

class TestNodeBusy : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaRetriesAfterTooBusy();
    void nodeOpcuaClosesAnUnactivatedSession();
};

void TestNodeBusy::nodeOpcuaRetriesAfterTooBusy() {
    ServerConfig cfg = localServerConfig();
    cfg.admission.maxHandshakes = 1;
    cfg.admission.busyDelayMs = 50;
    Server server(cfg);
    QVERIFY(server.start());
    RawClient holder;  // holds the only handshake until node-opcua has been refused twice
    QVERIFY(holder.connectTo(server.port()) && holder.openChannel());
    QCOMPARE(server.admission().handshakes(), 1);
    QTimer release;
    connect(&release, &QTimer::timeout, this, [&] {
        if (server.admission().counters().busyChannels.load() < 2) return;
        holder.socket().abort();
        release.stop();
    });
    release.start(20);
    const NodeScriptResult r = runNodeScript(QStringLiteral("client_busy_server.js"),
                                             {QStringLiteral("opc.tcp://localhost:%1").arg(server.port())}, 60000);
    verifyNodeChecks(r, 2);
    if (QTest::currentTestFailed()) return;
    QVERIFY(server.admission().counters().busyChannels.load() >= 2);
    QTRY_COMPARE(server.sessions().count(), 0);
}

void TestNodeBusy::nodeOpcuaClosesAnUnactivatedSession() {
    // node-opcua closes a Session whose ActivateSession failed (CloseSession before activation on
    // the channel of its CreateSession, OPC 10000-4 5.7.4.1; client_close_unactivated.js). Our
    // server serves that CloseSession, so the Session ends closed, not aborted when the channel
    // goes (it answered Bad_SessionNotActivated before, and the Session stayed until then).
    ServerConfig cfg = localServerConfig();
    cfg.security.allowAnonymous = false;
    cfg.admission.activationTimeoutMs = 120'000;
    Server server(cfg);
    QVERIFY(server.start());
    const NodeScriptResult r = runNodeScript(QStringLiteral("client_close_unactivated.js"),
                                             {QStringLiteral("opc.tcp://localhost:%1").arg(server.port())}, 60000);
    verifyNodeChecks(r, 1);
    if (QTest::currentTestFailed()) return;
    auto& counters = server.diagnostics().counters();
    QCOMPARE(counters.cumulatedSessions.load(), 1u);  // node-opcua created one Session
    QTRY_COMPARE(server.sessions().count(), 0);
    QCOMPARE(counters.sessionAborts.load(), 0u);       // closed by its client, not aborted
    QCOMPARE(counters.sessionTimeouts.load(), 0u);
}

UA_TEST_GUILESS_MAIN(TestNodeBusy)
#include "tst_node_busy.moc"
