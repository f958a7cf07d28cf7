// Runs a node-opcua script of tests/interop (node <script> <args...>, working directory
// UA_INTEROP_DIR) while the calling thread's event loop keeps turning (our server may live on it),
// and checks the one JSON object it prints: {ok, checks: {name: {ok, detail}}, error?, ...}.
#pragma once

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

namespace ua::test {

struct NodeScriptResult {
    QJsonObject result;       // the printed object (empty when none was printed)
    QJsonObject checks;       // result["checks"]
    QString diagnostics;      // the start of stdout and the end of stderr, for failure messages
    int exitCode = -1;
};

// Waits up to timeoutMs for the script, then kills it.
inline NodeScriptResult runNodeScript(const QString& script, const QStringList& args, int timeoutMs = 90000) {
    NodeScriptResult r;
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), QStringList{script} + args);
    if (!node.waitForStarted()) {
        r.diagnostics = QStringLiteral("node did not start: ") + node.errorString();
        return r;
    }
    QElapsedTimer t;
    t.start();
    while (node.state() != QProcess::NotRunning && t.elapsed() < timeoutMs) QTest::qWait(50);
    if (node.state() != QProcess::NotRunning) node.kill();
    node.waitForFinished();
    const QByteArray out = node.readAllStandardOutput();
    r.diagnostics = QString::fromUtf8(out.left(3000)) + QString::fromUtf8(node.readAllStandardError().right(3000));
    r.result = QJsonDocument::fromJson(out).object();
    r.checks = r.result.value("checks").toObject();
    r.exitCode = node.exitStatus() == QProcess::NormalExit ? node.exitCode() : -1;
    return r;
}

// Fails the current test unless the script reported at least minChecks checks, every one ok, and
// exited with 0. Logs each check's detail. Callers return when QTest::currentTestFailed().
inline void verifyNodeChecks(const NodeScriptResult& r, int minChecks) {
    QVERIFY2(r.checks.size() >= minChecks, qPrintable(r.diagnostics));
    for (const QString& name : r.checks.keys()) {
        const QJsonObject c = r.checks.value(name).toObject();
        qInfo("%s: %s", qPrintable(name), qPrintable(c.value("detail").toString().left(300)));
        QVERIFY2(c.value("ok").toBool(), qPrintable(name + ": " + c.value("detail").toString()));
    }
    QVERIFY2(r.result.value("ok").toBool(), qPrintable(r.result.value("error").toString() + r.diagnostics));
    QCOMPARE(r.exitCode, 0);
}

} // namespace ua::test
