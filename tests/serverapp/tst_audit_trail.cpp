// The audit trail of the server app (issue 27 item 7): the administrator's actions and the
// server's refusals as lines of the log category "ua.audit", read through LogCapture and LogModel
// as the Log page reads them, and the Audit events of the administrator's actions as node-opcua's
// client receives them (audit_events_client.js, subscribed to the Server object's events):
// - UsersModel: added, password set, Roles set, unlocked, removed, and a refused add, each naming
//   the administrator and the user, never a password; UserStore: the lockout once, with until when;
// - a node-opcua client with an untrusted certificate: a warning with the certificate's subject and
//   thumbprint; a wrong password: a warning with the user name and the client's address, without
//   the password;
// - CertificatesModel: trust, reject, delete as lines, and a TrustListUpdatedAuditEventType for
//   each change of the trust list (OPC 10000-12 7.8.2; TrustListId the DefaultApplicationGroup's
//   TrustList, the administrator as ClientUserId);
// - Server::closeSession by the administrator: a line with the Session's name, id, user and
//   address, and an AuditSessionEventType "Session/Terminated" with its SessionId (OPC 10000-4 6.5.6).
#include "NodeSessions.h"
#include "models/AdminAudit.h"
#include "models/CertificatesModel.h"
#include "models/LogModel.h"
#include "models/UsersModel.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/common/SessionManager.h"
#include "ua/client/Client.h"
#include "ua/server/runtime/Server.h"
#include "../client/ClientTestUtil.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::serverapp;

class TestAuditTrail : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void userActionsAndLockout();
    void refusalsAndCertificateActionsWithEvents();

private:
    // The "ua.audit" lines captured so far, "<level> <message>" (e.g. "warning login of user ...").
    QStringList auditLines() const;
    // Waits until a line matches pattern; returns it (empty on timeout).
    QString waitForLine(const QString& pattern, int timeoutMs = 10000) const;

    std::unique_ptr<LogCapture> m_capture;
    std::unique_ptr<LogModel> m_log;
};

void TestAuditTrail::init() {
    m_capture = std::make_unique<LogCapture>();
    m_log = std::make_unique<LogModel>();
    m_log->attach(m_capture.get());
}

void TestAuditTrail::cleanup() {
    m_log.reset();
    m_capture.reset();
}

QStringList TestAuditTrail::auditLines() const {
    QCoreApplication::processEvents();  // the capture's queued batch
    QStringList out;
    for (int r = 0; r < m_log->rowCount(); ++r) {
        const LogRecord& record = m_log->record(r);
        if (record.category == QLatin1String("ua.audit")) out << logLevelName(record.type) + QLatin1Char(' ') + record.message;
    }
    return out;
}

QString TestAuditTrail::waitForLine(const QString& pattern, int timeoutMs) const {
    const QRegularExpression re(pattern);
    QString found;
    (void)QTest::qWaitFor([&] {
        for (const QString& l : auditLines())
            if (re.match(l).hasMatch()) {
                found = l;
                return true;
            }
        return false;
    }, timeoutMs);
    if (found.isEmpty()) qWarning("no audit line matches %s; the lines: %s", qPrintable(pattern), qPrintable(auditLines().join('\n')));
    return found;
}

void TestAuditTrail::userActionsAndLockout() {
    UserDatabase initial;
    initial.maxFailedAuthenticationAttempts = 2;
    initial.lockoutSeconds = 600;
    UserStore store(initial);
    UsersModel model(store);
    model.setPasswordIterations(1000);
    model.setAudit({QStringLiteral("administrator tester"), nullptr});

    QVERIFY(model.addUser("bob", "bob-first-secret", roleBit(Role::Operator)));
    const int bob = model.rowOfKey("bob");
    QVERIFY(model.setPassword(bob, "bob-second-secret"));
    QVERIFY(model.setRoles(bob, roleBit(Role::Engineer) | roleBit(Role::Observer)));
    QVERIFY(!model.addUser("bob", "bob-third-secret", kNoRoles));  // exists: refused, a warning

    // Two wrong passwords lock bob out: one line, when it starts, with until when (UTC, ISO 8601).
    const QDateTime before = QDateTime::currentDateTimeUtc();
    QVERIFY(store.authenticate("bob", "wrong-1", Server::monotonicMs()).status.isBad());
    QVERIFY(store.authenticate("bob", "wrong-2", Server::monotonicMs()).status.isBad());
    QVERIFY(store.authenticate("bob", "bob-second-secret", Server::monotonicMs()).status.isBad());  // locked out
    const QString lockout = waitForLine("^warning user 'bob' locked out for 600 s, until (\\S+), after 2 failed logins in a row$");
    QVERIFY(!lockout.isEmpty());
    const QDateTime until = QDateTime::fromString(
        QRegularExpression("until (\\S+),").match(lockout).captured(1), Qt::ISODate);
    QVERIFY2(until.isValid() && until >= before.addSecs(599) && until <= QDateTime::currentDateTimeUtc().addSecs(601),
             qPrintable(lockout));
    QVERIFY(model.unlock(bob));
    QVERIFY(model.removeUser(model.rowOfKey("bob")));

    const QStringList expected{
        "info administrator tester: added user 'bob' (Roles: Operator)",
        "info administrator tester: set the password of user 'bob'",
        "info administrator tester: set the Roles of user 'bob' to Observer, Engineer",
        "warning administrator tester: could not add user 'bob': user bob exists",
        lockout,
        "info administrator tester: unlocked user 'bob' (was locked out)",
        "info administrator tester: removed user 'bob'",
    };
    QTRY_COMPARE(auditLines(), expected);
    for (const QString& l : auditLines()) QVERIFY2(!l.contains("secret") && !l.contains("wrong-"), qPrintable(l));
}

void TestAuditTrail::refusalsAndCertificateActionsWithEvents() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), 1000);
    cfg.minSessionTimeoutMs = 1000;  // a Session that times out within the test
    cfg.admission.activationTimeoutMs = 1000;  // and one that is never activated
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const AdminAudit admin{QStringLiteral("administrator tester"), &server};
    CertificatesModel trusted(server.certificateStore(), CertificatesModel::List::Trusted);
    CertificatesModel rejected(server.certificateStore(), CertificatesModel::List::Rejected);
    trusted.link(rejected);
    trusted.setAudit(admin);
    rejected.setAudit(admin);

    // node-opcua listens to the audit events from here on.
    QProcess events;
    events.setWorkingDirectory(QStringLiteral(UA_SERVERAPP_TEST_DIR));
    events.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("audit_events_client.js"), server.endpointUrl()});
    QVERIFY(QTest::qWaitFor([&] { return events.canReadLine() || events.state() == QProcess::NotRunning; }, 60000));
    const QJsonObject ready = QJsonDocument::fromJson(events.readLine()).object();
    QVERIFY2(ready.value("ready").toBool(), qPrintable(QJsonDocument(ready).toJson() + events.readAllStandardError().right(2000)));

    // A client whose certificate is not trusted: a warning with its subject and thumbprint.
    {
        test::NodeSessions node;
        node.start(server.endpointUrl(), {{"mode", "Sign"}, {"policy", "Basic256Sha256"}, {"prefix", "audit-signed-"}});
        QVERIFY(!node.waitReady().value("ready").toBool());
        QCOMPARE(node.waitExit(), 1);
    }
    rejected.reload();
    QCOMPARE(rejected.rowCount(), 1);
    const Certificate client = rejected.certificate(0);
    const QString subject = QString::fromStdString(client.subjectName());
    const QString thumbprint = QString::fromStdString(client.thumbprintHex());
    QVERIFY(!waitForLine("^warning client certificate " + QRegularExpression::escape(subject) + " \\(SHA-1 " + thumbprint +
                         "\\) refused: BadCertificateUntrusted").isEmpty());

    // A wrong password: the user name and the client's address, never the password.
    {
        test::NodeSessions node;
        node.start(server.endpointUrl(), {{"user", "alice"}, {"password", "not-alices-pw"}, {"prefix", "audit-wrong-"}});
        QVERIFY(!node.waitReady().value("ready").toBool());
        QCOMPARE(node.waitExit(), 1);
    }
    QVERIFY(!waitForLine("^warning login of user 'alice' from 127\\.0\\.0\\.1:\\d+ refused: BadUserAccessDenied \\(Session "
                         "'audit-wrong-1'\\)$").isEmpty());

    // The administrator trusts the certificate, rejects it again, deletes it.
    QVERIFY(rejected.trust(0));
    QCOMPARE(trusted.rowCount(), 1);
    QVERIFY(trusted.reject(0));
    QCOMPARE(rejected.rowCount(), 1);
    QVERIFY(rejected.remove(0));
    const QString name = QRegularExpression::escape(subject + " (SHA-1 " + thumbprint + ")");
    QVERIFY(!waitForLine("^info administrator tester: trusted the certificate " + name + " \\(from the rejected list\\)$").isEmpty());
    QVERIFY(!waitForLine("^info administrator tester: rejected the certificate " + name +
                         " \\(moved from the trusted list to the rejected list\\)$").isEmpty());
    QVERIFY(!waitForLine("^info administrator tester: deleted the certificate " + name + " \\(from the rejected list\\)$").isEmpty());

    // The administrator closes a Session.
    test::NodeSessions victim;
    victim.start(server.endpointUrl(), {{"prefix", "audit-victim-"}});
    const QJsonObject victimReady = victim.waitReady();
    QVERIFY2(victimReady.value("ready").toBool(), qPrintable(victimReady.value("error").toString() + victim.stderrTail()));
    const QString victimId = victimReady.value("sessionIds").toArray().at(0).toString();
    NodeId sessionId;
    for (const auto& s : server.sessions().snapshot())
        if (s->sessionName.toQString() == QLatin1String("audit-victim-1")) sessionId = s->sessionId;
    QVERIFY(!sessionId.isNull());
    QVERIFY(server.closeSession(sessionId, QStringLiteral("administrator tester")).isGood());
    QVERIFY(!waitForLine("^info administrator tester: closed Session 'audit-victim-1' \\(" +
                         QRegularExpression::escape(QString::fromStdString(sessionId.toString())) +
                         "\\) of user anonymous from 127\\.0\\.0\\.1:\\d+$").isEmpty());
    QVERIFY(server.closeSession(sessionId, QStringLiteral("administrator tester")) == StatusCode(status::BadSessionIdInvalid));
    QVERIFY(!waitForLine("^warning administrator tester: closing Session .* failed: BadSessionIdInvalid").isEmpty());

    // A Session closed by its client (node-opcua's CloseSession): "Session/CloseSession".
    test::NodeSessions polite;
    polite.start(server.endpointUrl(), {{"prefix", "audit-polite-"}});
    const QJsonObject politeReady = polite.waitReady();
    QVERIFY2(politeReady.value("ready").toBool(), qPrintable(politeReady.value("error").toString() + polite.stderrTail()));
    const QString politeId = politeReady.value("sessionIds").toArray().at(0).toString();
    QVERIFY(polite.close());
    QCOMPARE(polite.waitExit(), 0);

    // A Session that goes silent past its 1 s timeout (our Client, no keep-alive): "Session/Timeout".
    ClientConfig silentConfig;
    silentConfig.requestedSessionTimeoutMs = 1000;
    silentConfig.keepAliveIntervalMs = 0;
    silentConfig.autoReconnect = false;
    Client silent(silentConfig);
    QCOMPARE(test::connectSession(silent, server.endpointUrl(), this), StatusCode());
    const QString silentId = QString::fromStdString(silent.sessionId().toString());
    QTRY_VERIFY_WITH_TIMEOUT(server.sessions().findBySessionId(silent.sessionId()) == nullptr, 10000);

    // A Session created and never activated (as a client that dies after CreateSession would leave
    // it): removed when its activation time runs out, "Session/Terminated".
    const SessionPtr unactivated = server.sessions().create(0, 60'000, Server::monotonicMs());
    QVERIFY(unactivated);
    const QString unactivatedId = QString::fromStdString(unactivated->sessionId.toString());
    QTRY_VERIFY_WITH_TIMEOUT(server.sessions().findBySessionId(unactivated->sessionId) == nullptr, 10000);

    // What node-opcua received.
    events.write("report\n");
    QVERIFY(QTest::qWaitFor([&] { return events.canReadLine() || events.state() == QProcess::NotRunning; }, 30000));
    const QJsonObject report = QJsonDocument::fromJson(events.readLine()).object();
    QVERIFY(QTest::qWaitFor([&] { return events.state() == QProcess::NotRunning; }, 30000));
    QVERIFY2(report.contains("events"), qPrintable(QJsonDocument(report).toJson() + events.readAllStandardError().right(2000)));
    QJsonArray trustList, terminated, closed, timedOut;
    for (const QJsonValue& v : report.value("events").toArray()) {
        const QJsonObject e = v.toObject();
        if (e.value("EventType").toString() == QLatin1String("ns=0;i=12561")) trustList.append(e);
        if (e.value("EventType").toString() != QLatin1String("ns=0;i=2069")) continue;  // AuditSessionEventType
        const QString source = e.value("SourceName").toString();
        (source == QLatin1String("Session/CloseSession") ? closed : source == QLatin1String("Session/Timeout") ? timedOut : terminated)
            .append(e);
    }
    const QString dump = QString::fromUtf8(QJsonDocument(report).toJson(QJsonDocument::Compact));
    qInfo("node-opcua received: %s", qPrintable(dump.left(4000)));
    // Trust and reject changed the trust list; deleting from the rejected list did not.
    QCOMPARE(trustList.size(), 2);
    for (const QJsonValue& v : trustList) {
        const QJsonObject e = v.toObject();
        QCOMPARE(e.value("SourceNode").toString(), QStringLiteral("ns=0;i=2253"));  // the Server object
        QCOMPARE(e.value("TrustListId").toString(), QStringLiteral("ns=0;i=12642"));  // DefaultApplicationGroup's
        QCOMPARE(e.value("SourceName").toString(), QStringLiteral("Security/TrustList"));
        QCOMPARE(e.value("ClientUserId").toString(), QStringLiteral("administrator tester"));
        QCOMPARE(e.value("Status").toBool(), true);
    }
    QCOMPARE(trustList.at(0).toObject().value("Message").toString(),
             "Certificate added to the trust list: " + subject + " (SHA-1 " + thumbprint + ")");
    QCOMPARE(trustList.at(1).toObject().value("Message").toString(),
             "Certificate removed from the trust list: " + subject + " (SHA-1 " + thumbprint + ")");
    // The administrator's close, and the Session never activated.
    QVERIFY2(terminated.size() == 2, qPrintable(dump));
    QCOMPARE(terminated.at(1).toObject().value("SessionId").toString(), unactivatedId);
    QVERIFY(terminated.at(1).toObject().value("Message").toString().startsWith(QStringLiteral("Session not activated")));
    const QJsonObject t = terminated.at(0).toObject();
    QCOMPARE(t.value("SourceName").toString(), QStringLiteral("Session/Terminated"));
    QCOMPARE(t.value("SourceNode").toString(), QStringLiteral("ns=0;i=2253"));
    QCOMPARE(t.value("SessionId").toString(), victimId);
    QCOMPARE(t.value("ClientUserId").toString(), QStringLiteral("administrator tester"));
    QCOMPARE(t.value("Status").toBool(), true);
    // The client's CloseSession and the timeout (OPC 10000-4 6.5.6), each with its SessionId.
    QStringList closedIds, timedOutIds;
    for (const QJsonValue& v : closed) closedIds << v.toObject().value("SessionId").toString();
    for (const QJsonValue& v : timedOut) timedOutIds << v.toObject().value("SessionId").toString();
    QVERIFY2(closedIds.contains(politeId), qPrintable(dump));
    QVERIFY2(timedOutIds == QStringList{silentId}, qPrintable(dump));
    QCOMPARE(timedOut.at(0).toObject().value("SourceNode").toString(), QStringLiteral("ns=0;i=2253"));
    QCOMPARE(timedOut.at(0).toObject().value("Message").toString(), QStringLiteral("Session timed out"));
}

UA_TEST_GUILESS_MAIN(TestAuditTrail)
#include "tst_audit_trail.moc"
