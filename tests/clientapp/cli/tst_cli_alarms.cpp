// `ua-client alarms`, `ack` and `confirm` (issue 31 items 3 and 4) as users run them: the built
// executable against our server in this process with two alarms (AlarmsTestServer.h:
// PumpOffNormal active from the start, TankLevel normal), and against node-opcua's server with an
// exclusive-limit alarm (tests/interop/node_alarms_server.js).
//   - alarms prints the retained conditions with their ConditionId and EventId in hex, and --json;
//   - ack with that EventId and a comment: Good (the server's condition is acknowledged with the
//     comment); with the same EventId again: Bad_EventIdUnknown (each change is a new event);
//     with the new one: Bad_ConditionBranchAlreadyAcked, exit 1; confirm: Good;
//   - bad input refused before anything is sent (exit 2); a notifier that does not exist (exit 1);
//   - against node-opcua: the level written into High, the condition listed, acknowledged and
//     confirmed, its state as alarms prints it in between (the Confirmed refusal against node-opcua
//     is in tests/client/tst_client_alarms_vs_node).
#include "../AlarmsTestServer.h"
#include "ua/client/ConditionEvent.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;

namespace {

struct AlarmsCliRun {
    int exitCode = -1;
    QString out, err;
    QString text() const { return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(exitCode).arg(out.left(3000), err.left(3000)); }
    QStringList lines() const { return out.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }
};

// The fields of the alarms line of a condition (split at two spaces), or none.
QStringList alarmsLineOf(const AlarmsCliRun& r, const QString& conditionId) {
    for (const QString& line : r.lines())
        if (line.startsWith(conditionId + QStringLiteral("  "))) return line.split(QStringLiteral("  "));
    return {};
}

// node_alarms_server.js until destroyed: "READY <port> <ns>".
class CliAlarmsNodeServer {
public:
    ~CliAlarmsNodeServer() {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10000)) m_process.kill();
    }
    QString start() {
        m_process.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
        m_process.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("node_alarms_server.js"), QStringLiteral("0")});
        if (!m_process.waitForStarted()) return QStringLiteral("node did not start");
        QByteArray out;
        if (!QTest::qWaitFor([&] { return (out += m_process.readAllStandardOutput()).contains('\n') || m_process.state() == QProcess::NotRunning; }, 90000))
            return QStringLiteral("no READY line within 90 s");
        const QList<QByteArray> words = out.trimmed().split(' ');
        if (words.size() != 3 || words[0] != "READY") return QString::fromUtf8(out + m_process.readAllStandardError().right(3000));
        port = quint16(words[1].toUInt());
        return {};
    }
    quint16 port = 0;

private:
    QProcess m_process;
};

} // namespace

class TestCliAlarms : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void alarmsPrintsTheRetainedConditions();
    void ackAndConfirm();
    void badInput_data();
    void badInput();
    void unknownNotifier();
    void againstNodeOpcua();

private:
    AlarmsCliRun run(QStringList args);
    QStringList none() const { return {QStringLiteral("--security"), QStringLiteral("none")}; }
    QString pumpId() const { return QString::fromStdString(test::AlarmsTestServer::pump().toString()); }

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    QString m_url;
};

AlarmsCliRun TestCliAlarms::run(QStringList args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
    p.setProcessEnvironment(env);
    args << QStringLiteral("--pki") << m_dir.filePath(QStringLiteral("client-pki"));
    p.start(QStringLiteral(UA_CLIENT_EXECUTABLE), args);
    AlarmsCliRun r;
    if (!p.waitForStarted()) {
        r.err = p.errorString();
        return r;
    }
    QElapsedTimer t;
    t.start();
    // Our server lives on this thread: keep its event loop turning while the client runs.
    while (p.state() != QProcess::NotRunning && t.elapsed() < 60000) QTest::qWait(20);
    if (p.state() != QProcess::NotRunning) p.kill();
    p.waitForFinished();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

void TestCliAlarms::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<Server>(test::AlarmsTestServer::config());
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    m_url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m_server->port());
}

void TestCliAlarms::cleanupTestCase() { m_server.reset(); }

void TestCliAlarms::alarmsPrintsTheRetainedConditions() {
    const AlarmsCliRun r = run(QStringList{QStringLiteral("alarms"), m_url} + none());
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.lines().size(), 1);  // PumpOffNormal; TankLevel is normal, not retained
    const QStringList f = alarmsLineOf(r, pumpId());
    QVERIFY2(f.size() == 8, qPrintable(r.text()));
    // ConditionId, EventId, Severity, Time, Source, Name, State, Message
    const auto summaries = m_server->conditions().summaries();
    ByteString eventId;
    for (const auto& s : summaries)
        if (s.name == "PumpOffNormal") eventId = s.eventId;
    QCOMPARE(f[1], QString::fromStdString(eventIdHex(eventId)));
    QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]+$")).match(f[1]).hasMatch());
    QCOMPARE(f[2], QStringLiteral("300"));
    QVERIFY2(QDateTime::fromString(f[3], Qt::ISODateWithMs).isValid(), qPrintable(f[3]));
    QCOMPARE(f[4], QStringLiteral("Boolean"));
    QCOMPARE(f[5], QStringLiteral("PumpOffNormal"));
    QCOMPARE(f[6], QStringLiteral("Active, Unacknowledged, Confirmed"));
    QCOMPARE(f[7], QStringLiteral("the pump is off normal"));

    const AlarmsCliRun j = run(QStringList{QStringLiteral("alarms"), m_url, QStringLiteral("--json")} + none());
    QVERIFY2(j.exitCode == 0, qPrintable(j.text()));
    const QJsonObject doc = QJsonDocument::fromJson(j.out.toUtf8()).object();
    QCOMPARE(doc.value("notifier").toString(), QStringLiteral("i=2253"));
    const QJsonArray conditions = doc.value("conditions").toArray();
    QCOMPARE(conditions.size(), 1);
    const QJsonObject c = conditions[0].toObject();
    QCOMPARE(c.value("conditionId").toString(), pumpId());
    QCOMPARE(c.value("eventId").toString(), f[1]);
    QCOMPARE(c.value("severity").toInt(), 300);
    QCOMPARE(c.value("active").toBool(), true);
    QCOMPARE(c.value("acked").toBool(), false);
    QCOMPARE(c.value("confirmed").toBool(), true);
    QCOMPARE(c.value("shelving").toString(), QStringLiteral("Unshelved"));
    QCOMPARE(c.value("eventType").toString(), QStringLiteral("i=10637"));  // OffNormalAlarmType
}

void TestCliAlarms::ackAndConfirm() {
    const QString first = alarmsLineOf(run(QStringList{QStringLiteral("alarms"), m_url} + none()), pumpId()).value(1);
    QVERIFY(!first.isEmpty());
    AlarmsCliRun r = run(QStringList{QStringLiteral("ack"), m_url, pumpId(), first, QStringLiteral("--comment"), QStringLiteral("from the command line")} + none());
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out.trimmed(), QStringLiteral("Acknowledge %1: Good").arg(pumpId()));
    bool acked = false;
    for (const auto& s : m_server->conditions().summaries())
        if (s.name == "PumpOffNormal") acked = s.acked && s.comment.text == String("from the command line") && !s.confirmed;
    QVERIFY(acked);
    // The EventId of before the acknowledgement is not the condition's latest any more.
    r = run(QStringList{QStringLiteral("ack"), m_url, pumpId(), first} + none());
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("Bad_EventIdUnknown")), qPrintable(r.text()));
    const QStringList now = alarmsLineOf(run(QStringList{QStringLiteral("alarms"), m_url} + none()), pumpId());
    QCOMPARE(now.value(6), QStringLiteral("Active, Acknowledged, Unconfirmed"));
    const QString second = now.value(1);
    QVERIFY(second != first);
    r = run(QStringList{QStringLiteral("ack"), m_url, pumpId(), second} + none());
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("Acknowledge %1: Bad_ConditionBranchAlreadyAcked").arg(pumpId())), qPrintable(r.text()));
    QVERIFY(r.out.isEmpty());
    r = run(QStringList{QStringLiteral("confirm"), m_url, pumpId(), second.toUpper(), QStringLiteral("--json")} + none());
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(j.value("method").toString(), QStringLiteral("Confirm"));
    QCOMPARE(j.value("status").toString(), QStringLiteral("Good"));
    QCOMPARE(j.value("eventId").toString(), second);
    bool confirmed = false;
    for (const auto& s : m_server->conditions().summaries())
        if (s.name == "PumpOffNormal") confirmed = s.confirmed;
    QVERIFY(confirmed);
}

void TestCliAlarms::badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    const QString url = QStringLiteral("opc.tcp://127.0.0.1:1");  // never reached
    QTest::newRow("not hex") << QStringList{QStringLiteral("ack"), url, QStringLiteral("ns=1;s=Alarms/X"), QStringLiteral("xyz1")}
                             << QStringLiteral("is not an EventId in hex");
    QTest::newRow("odd length") << QStringList{QStringLiteral("confirm"), url, QStringLiteral("ns=1;s=Alarms/X"), QStringLiteral("abc")}
                                << QStringLiteral("is not an EventId in hex");
    QTest::newRow("no EventId") << QStringList{QStringLiteral("ack"), url, QStringLiteral("ns=1;s=Alarms/X")}
                                << QStringLiteral("usage: ua-client ack <url> <condition> <eventid>");
    QTest::newRow("bad condition") << QStringList{QStringLiteral("ack"), url, QStringLiteral("ns=x"), QStringLiteral("00")}
                                   << QStringLiteral("is not a NodeId");
    QTest::newRow("comment of ack only") << QStringList{QStringLiteral("alarms"), url, QStringLiteral("--comment"), QStringLiteral("x")}
                                         << QStringLiteral("--comment is an option of ack, confirm only");
    QTest::newRow("two notifiers") << QStringList{QStringLiteral("alarms"), url, QStringLiteral("i=2253"), QStringLiteral("i=85")}
                                   << QStringLiteral("usage: ua-client alarms <url> [notifier]");
}

void TestCliAlarms::badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    const AlarmsCliRun r = run(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(error), qPrintable(r.text()));
    QVERIFY(r.out.isEmpty());
}

void TestCliAlarms::unknownNotifier() {
    const AlarmsCliRun r = run(QStringList{QStringLiteral("alarms"), m_url, QStringLiteral("ns=1;s=NoSuchNotifier")} + none());
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("Bad_NodeIdUnknown")), qPrintable(r.text()));
}

void TestCliAlarms::againstNodeOpcua() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    CliAlarmsNodeServer node;
    const QString why = node.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QString url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(node.port);
    const QString ns = QStringLiteral("nsu=urn:ua-workbench:test:alarms;s=");
    // Normal at the start: nothing retained.
    AlarmsCliRun r = run(QStringList{QStringLiteral("alarms"), url} + none());
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QVERIFY2(r.out.isEmpty() && r.err.contains(QStringLiteral("no retained conditions")), qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("write"), url, ns + QStringLiteral("TankLevel"), QStringLiteral("85")} + none());
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    // The condition's NodeId as this Session numbers the namespace ("ns=<index>;s=TankLevelAlarm").
    QStringList f;
    QTRY_VERIFY_WITH_TIMEOUT([&] {
        r = run(QStringList{QStringLiteral("alarms"), url} + none());
        const QStringList lines = r.lines();
        f = lines.isEmpty() ? QStringList() : lines[0].split(QStringLiteral("  "));
        return f.size() == 8;
    }(), 20000);
    QVERIFY2(f[0].endsWith(QStringLiteral(";s=TankLevelAlarm")), qPrintable(r.text()));
    QCOMPARE(f[5], QStringLiteral("TankLevelAlarm"));
    QCOMPARE(f[6], QStringLiteral("Active High, Unacknowledged, Unconfirmed"));
    r = run(QStringList{QStringLiteral("ack"), url, f[0], f[1], QStringLiteral("--comment"), QStringLiteral("seen")} + none());
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out.trimmed(), QStringLiteral("Acknowledge %1: Good").arg(f[0]));
    const QStringList acked = alarmsLineOf(run(QStringList{QStringLiteral("alarms"), url} + none()), f[0]);
    QCOMPARE(acked.value(6), QStringLiteral("Active High, Acknowledged, Unconfirmed"));
    r = run(QStringList{QStringLiteral("confirm"), url, f[0], acked.value(1), QStringLiteral("--comment"), QStringLiteral("done")} + none());
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out.trimmed(), QStringLiteral("Confirm %1: Good").arg(f[0]));
    // Listed again only while node-opcua retains it, then confirmed.
    const QStringList after = alarmsLineOf(run(QStringList{QStringLiteral("alarms"), url} + none()), f[0]);
    QVERIFY2(after.isEmpty() || after.value(6) == QStringLiteral("Active High, Acknowledged, Confirmed"), qPrintable(after.join(QStringLiteral(" | "))));
}

UA_TEST_GUILESS_MAIN(TestCliAlarms)
#include "tst_cli_alarms.moc"
