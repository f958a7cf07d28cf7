// Runs sessions_client.js (node-opcua's client holding Sessions open on our server) while the test
// thread's event loop keeps turning: start() it, wait for its "ready" line, look at the models,
// then close() it.
#pragma once

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

namespace ua::test {

class NodeSessions {
public:
    ~NodeSessions() {
        if (m_node.state() != QProcess::NotRunning) {
            m_node.kill();
            m_node.waitForFinished();
        }
    }
    void start(const QString& url, const QJsonObject& options) {
        m_node.setWorkingDirectory(QStringLiteral(UA_SERVERAPP_TEST_DIR));
        m_node.start(QStringLiteral(UA_NODE_EXECUTABLE),
                     {QStringLiteral("sessions_client.js"), url, QString::fromUtf8(QJsonDocument(options).toJson(QJsonDocument::Compact))});
    }
    // The next JSON line the script prints (empty on timeout or when it ended without one).
    QJsonObject nextLine(int timeoutMs = 60000) {
        const bool got = QTest::qWaitFor([this] { return m_node.canReadLine() || m_node.state() == QProcess::NotRunning; }, timeoutMs);
        if (!got || !m_node.canReadLine()) return {};
        return QJsonDocument::fromJson(m_node.readLine()).object();
    }
    // Waits for {"ready": true}; the line (or {"error": ...}) is returned.
    QJsonObject waitReady(int timeoutMs = 60000) {
        QJsonObject o = nextLine(timeoutMs);
        if (o.isEmpty()) o.insert("error", QStringLiteral("no ready line; stderr: ") + stderrTail());
        return o;
    }
    // Tells the script to close its Sessions; true when it printed {"closed": true} and exited 0.
    bool close(int timeoutMs = 30000) {
        m_node.write("close\n");
        const QJsonObject o = nextLine(timeoutMs);
        (void)QTest::qWaitFor([this] { return m_node.state() == QProcess::NotRunning; }, timeoutMs);
        return o.value("closed").toBool() && m_node.exitStatus() == QProcess::NormalExit && m_node.exitCode() == 0;
    }
    // Waits for the script to end (after a failure it prints {"error"} and exits 1).
    int waitExit(int timeoutMs = 60000) {
        (void)QTest::qWaitFor([this] { return m_node.state() == QProcess::NotRunning; }, timeoutMs);
        return m_node.exitStatus() == QProcess::NormalExit ? m_node.exitCode() : -1;
    }
    QString stderrTail() { return QString::fromUtf8(m_node.readAllStandardError().right(2000)); }

private:
    QProcess m_node;
};

} // namespace ua::test
