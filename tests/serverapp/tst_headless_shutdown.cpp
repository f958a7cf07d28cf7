// `ua-server --headless --config <file>` as a process: it prints its endpoints, and SIGTERM /
// SIGINT shut it down gracefully (ServerState Shutdown for --shutdown-delay seconds, then the
// Sessions closed and the clients told) and it exits 0. node-opcua's client (a real peer,
// headless_shutdown.js) watches ServerStatus while it happens.
#include "../interop/NodeScript.h"
#include "ServerSettings.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <csignal>

class TestHeadlessShutdown : public QObject {
    Q_OBJECT
private slots:
    void sigtermWithNodeClient();
    void sigintWaitsForTheDelay();
    void badConfigurationExits2();

private:
    // Starts ua-server headless with a configuration file in dir (port 0, 127.0.0.1); returns its
    // endpoint URL once printed ("" on failure).
    QString startServer(QProcess& server, QTemporaryDir& dir, uint32_t shutdownDelay);
};

QString TestHeadlessShutdown::startServer(QProcess& server, QTemporaryDir& dir, uint32_t shutdownDelay) {
    ua::app::ServerSettings s;
    s.hostName = QStringLiteral("127.0.0.1");
    s.port = 0;
    s.ioThreads = 2;
    s.pkiDir = dir.filePath(QStringLiteral("pki"));
    s.shutdownDelaySeconds = shutdownDelay;
    s.demoEventsMs = 0;
    const QString config = dir.filePath(QStringLiteral("ua-server.json"));
    if (!s.save(config)) return {};
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    server.setProcessEnvironment(env);
    server.start(QStringLiteral(UA_SERVER_EXECUTABLE), {QStringLiteral("--headless"), QStringLiteral("--config"), config});
    if (!server.waitForStarted()) return {};
    static const QRegularExpression listening(QStringLiteral("listening on (opc\\.tcp://\\S+)"));
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 20000 && server.state() == QProcess::Running) {
        server.waitForReadyRead(100);
        out += server.readAllStandardOutput();
        const auto m = listening.match(QString::fromUtf8(out));
        if (m.hasMatch()) return m.captured(1);
    }
    qWarning("no endpoint printed: %s %s", out.constData(), server.readAllStandardError().constData());
    return {};
}

void TestHeadlessShutdown::sigtermWithNodeClient() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    QProcess server;
    const uint32_t delay = 2;
    const QString url = startServer(server, dir, delay);
    QVERIFY(!url.isEmpty());

    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral(UA_SERVERAPP_TEST_DIR "/headless_shutdown.js"), url, QString::number(delay)});
    QVERIFY(node.waitForStarted());
    QByteArray nodeErr;
    QElapsedTimer t;
    t.start();
    while (!nodeErr.contains("SUBSCRIBED") && node.state() == QProcess::Running && t.elapsed() < 60000) {
        node.waitForReadyRead(100);
        nodeErr += node.readAllStandardError();
    }
    QVERIFY2(nodeErr.contains("SUBSCRIBED"), nodeErr.right(3000).constData());

    QElapsedTimer sinceSignal;
    sinceSignal.start();
    ::kill(pid_t(server.processId()), SIGTERM);
    QVERIFY(server.waitForFinished(int(delay) * 1000 + 6000));
    const qint64 exitMs = sinceSignal.elapsed();
    qInfo("exited %lld ms after SIGTERM (delay %u s)", exitMs, delay);
    QCOMPARE(server.exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.exitCode(), 0);
    QVERIFY2(exitMs >= qint64(delay) * 1000 - 200, "exited before the shutdown delay");
    const QByteArray out = server.readAllStandardOutput();
    QVERIFY2(out.contains("SIGTERM: shutting down in 2 s") && out.contains("shut down"), out.constData());

    QVERIFY(node.waitForFinished(40000));
    ua::test::NodeScriptResult r;
    const QByteArray nodeOut = node.readAllStandardOutput();
    r.result = QJsonDocument::fromJson(nodeOut).object();
    r.checks = r.result.value("checks").toObject();
    r.diagnostics = QString::fromUtf8(nodeOut.left(3000) + (nodeErr + node.readAllStandardError()).right(3000));
    r.exitCode = node.exitStatus() == QProcess::NormalExit ? node.exitCode() : -1;
    ua::test::verifyNodeChecks(r, 6);
}

void TestHeadlessShutdown::sigintWaitsForTheDelay() {
    QTemporaryDir dir;
    QProcess server;
    const QString url = startServer(server, dir, 1);
    QVERIFY(!url.isEmpty());
    QElapsedTimer sinceSignal;
    sinceSignal.start();
    ::kill(pid_t(server.processId()), SIGINT);
    QVERIFY(server.waitForFinished(6000));
    QCOMPARE(server.exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.exitCode(), 0);
    QVERIFY(sinceSignal.elapsed() >= 800);
    QVERIFY(server.readAllStandardOutput().contains("SIGINT: shutting down in 1 s"));
    // The audit lines of headless mode (category ua.audit, issue 27 item 7) on stderr.
    const QByteArray err = server.readAllStandardError();
    QVERIFY2(err.contains("headless: started the server on " + url.toUtf8() + " (configuration ") &&
                 err.contains("headless: SIGINT: stopping the server: ServerState Shutdown for 1 s, then its 0 Session(s) are "
                              "closed") &&
                 err.contains("headless: stopped the server"),
             err.constData());
}

void TestHeadlessShutdown::badConfigurationExits2() {
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("bad.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"endpoint":{"port":"x"}})");
    f.close();
    QProcess server;
    server.start(QStringLiteral(UA_SERVER_EXECUTABLE), {QStringLiteral("--headless"), QStringLiteral("--config"), f.fileName()});
    QVERIFY(server.waitForFinished(10000));
    QCOMPARE(server.exitCode(), 2);
    QVERIFY(server.readAllStandardError().contains("endpoint.port"));
}

UA_TEST_GUILESS_MAIN(TestHeadlessShutdown)
#include "tst_headless_shutdown.moc"
