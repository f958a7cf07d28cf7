// The load tester's command line (loadtest-app/cli) as users run it: the built ua-loadtest
// executable as a process, against node-opcua's benchmark server (tests/interop/
// node_bench_server.js, started here) and against our headless ua-server spawned by the tool
// (--spawn-server, ab's spawn:PATH), and compare on a saved sweep. Each case checks the result lines, the JSON and the
// documented exit code (0 ok, 1 errors, 2 usage, 3 no connection). Short steps (1-2 s): the
// figures are checked for consistency, not for speed.
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <csignal>

namespace {

const QString kNodeCounter = QStringLiteral("nsu=urn:ua-workbench:node-opcua-bench-server;s=Counter");

struct CliRun {
    int exitCode = -1;
    bool crashed = false;
    QString out, err;
    QString text() const { return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(exitCode).arg(out.left(3000), err.right(3000)); }
};

// The figure after `name` in a result line ("req/s 12345" -> 12345); -1 when absent.
double figure(const QString& line, const QString& name) {
    const QRegularExpression re(QRegularExpression::escape(name) + QStringLiteral(" ([0-9.]+)"));
    const auto m = re.match(line);
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

// The lines of out that are result lines ("<scenario> <S>x<K>  req/s ...").
QStringList resultLines(const QString& out) {
    QStringList lines;
    static const QRegularExpression re(QStringLiteral("^(round \\d+  [AB]  )?[a-z]+(-\\d+)? \\d+x\\d+  "));
    for (const QString& l : out.split(QLatin1Char('\n')))
        if (re.match(l).hasMatch()) lines << l;
    return lines;
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestLoadtestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void usageErrors();
    void unreachableEndpoint();
    void readNode();
    void subscribeNode();
    void readAndWriteSpawnedServer();
    void eventsSpawnedServer();
    void sweepTwoSteps();
    void abTwoRounds();
    void sigtermStopsCleanly();
    void soakSpawnedServer();

private:
    CliRun run(const QStringList& args, int timeoutMs = 60000);
    void waitNodeReady();

    QTemporaryDir m_dir;
    QProcess m_node;
    QString m_nodeUrl;
    qint64 m_nodePid = 0;
};

CliRun TestLoadtestCli::run(const QStringList& args, int timeoutMs) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(UA_LOADTEST_EXECUTABLE), args);
    CliRun r;
    if (!p.waitForStarted()) {
        r.err = p.errorString();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("(killed after %1 ms) ").arg(timeoutMs);
    }
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = r.crashed ? -1 : p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err += QString::fromUtf8(p.readAllStandardError());
    return r;
}

void TestLoadtestCli::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QVERIFY(QFileInfo(QStringLiteral(UA_SERVER_EXECUTABLE)).isExecutable());
    // node-opcua's server starts meanwhile (seconds; more on a busy machine): the cases that do not
    // need it run first.
    m_node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    m_node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("node_bench_server.js"), QStringLiteral("0")});
    QVERIFY(m_node.waitForStarted());
    m_nodePid = m_node.processId();
}

void TestLoadtestCli::waitNodeReady() {
    if (!m_nodeUrl.isEmpty()) return;
    QElapsedTimer t;
    t.start();
    QByteArray out;
    static const QRegularExpression ready(QStringLiteral("READY (\\d+)"));
    while (t.elapsed() < 120000 && m_node.state() == QProcess::Running) {
        m_node.waitForReadyRead(100);
        out += m_node.readAllStandardOutput();
        const auto m = ready.match(QString::fromUtf8(out));
        if (m.hasMatch()) {
            m_nodeUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m.captured(1));
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("node_bench_server.js not ready: ") + QString::fromUtf8(m_node.readAllStandardError().right(2000))));
}

void TestLoadtestCli::cleanupTestCase() {
    if (m_node.state() == QProcess::NotRunning) return;
    m_node.closeWriteChannel();
    if (!m_node.waitForFinished(5000)) m_node.kill();
    m_node.waitForFinished();
}

void TestLoadtestCli::usageErrors() {
    CliRun r = run({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("ua-loadtest ab")) && r.out.contains(QStringLiteral("Exit codes")), qPrintable(r.text()));

    struct Case {
        QStringList args;
        const char* message;
    };
    const QString url = QStringLiteral("opc.tcp://127.0.0.1:1");  // never contacted: usage errors come first
    const QList<Case> cases = {
        {{QStringLiteral("runn"), url}, "unknown command \"runn\""},
        {{QStringLiteral("run")}, "usage: ua-loadtest run <opc.tcp://host:port>"},
        {{QStringLiteral("run"), QStringLiteral("http://x:1")}, "not an opc.tcp://host:port URL"},
        {{QStringLiteral("run"), url, QStringLiteral("--scenario"), QStringLiteral("fly")}, "expected read, write, browse, subscribe, connect, history-read or events"},
        {{QStringLiteral("run"), url, QStringLiteral("--sessions"), QStringLiteral("1,2")}, "lists are for sweep"},
        {{QStringLiteral("sweep"), url, QStringLiteral("--sessions"), QStringLiteral("5,x")}, "expected whole numbers > 0"},
        {{QStringLiteral("run"), url, QStringLiteral("--duration"), QStringLiteral("0")}, "expected seconds > 0"},
        {{QStringLiteral("run"), url, QStringLiteral("--browse-node"), QStringLiteral("garbage")}, "not a NodeId"},
        {{QStringLiteral("run"), url, QStringLiteral("--counter-node"), QStringLiteral("nsu=urn:x")}, "not a NodeId"},
        {{QStringLiteral("run"), url, QStringLiteral("--history-node"), QStringLiteral("Sine")}, "not a NodeId"},
        {{QStringLiteral("run"), url, QStringLiteral("--history-values"), QStringLiteral("0")}, "expected a whole number from 1 to 100000"},
        {{QStringLiteral("run"), url, QStringLiteral("--history-values"), QStringLiteral("100001")}, "expected a whole number from 1 to 100000"},
        {{QStringLiteral("run"), url, QStringLiteral("--history-span"), QStringLiteral("0")}, "expected seconds > 0"},
        {{QStringLiteral("run"), url, QStringLiteral("--history-span"), QStringLiteral("nan")}, "expected seconds > 0"},
        {{QStringLiteral("run"), url, QStringLiteral("--bogus")}, "unknown option --bogus"},
        {{QStringLiteral("run"), url, QStringLiteral("--rounds"), QStringLiteral("2")}, "--rounds is an option of ab only"},
        {{QStringLiteral("run"), url, QStringLiteral("--spawn-server")}, "not both"},
        {{QStringLiteral("run"), url, QStringLiteral("--security"), QStringLiteral("Rot13")}, "expected None, Basic256Sha256"},
        {{QStringLiteral("run"), url, QStringLiteral("--password"), QStringLiteral("x")}, "--password needs --user"},
        {{QStringLiteral("ab"), QStringLiteral("--a"), url}, "ab needs --a and --b"},
        {{QStringLiteral("ab"), QStringLiteral("--a"), url, QStringLiteral("--b"), QStringLiteral("nowhere")}, "expected opc.tcp://host:port, spawn or spawn:PATH"},
        {{QStringLiteral("compare"), QStringLiteral("a.json")}, "usage: ua-loadtest compare"},
        {{QStringLiteral("run"), url, QStringLiteral("--scenario"), QStringLiteral("connect"), QStringLiteral("--rate"), QStringLiteral("10")},
         "--rate (the open loop) applies to read, write, browse and history-read"},
        {{QStringLiteral("soak"), url, QStringLiteral("--scenario"), QStringLiteral("read")}, "--scenario is an option of run, sweep, ab only"},
        {{QStringLiteral("soak"), url, QStringLiteral("--report-every"), QStringLiteral("0.5")}, "expected seconds >= 1"},
        {{QStringLiteral("run"), url, QStringLiteral("--report-every"), QStringLiteral("5")}, "--report-every is an option of soak only"},
    };
    for (const Case& c : cases) {
        r = run(c.args);
        QVERIFY2(r.exitCode == 2, qPrintable(c.args.join(' ') + "\n" + r.text()));
        QVERIFY2(r.err.contains(QLatin1String(c.message)), qPrintable(c.args.join(' ') + "\n" + r.text()));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.text()));
    }
}

void TestLoadtestCli::unreachableEndpoint() {
    QTcpServer probe;  // a port that nobody listens on
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    const CliRun r = run({QStringLiteral("run"), QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port), QStringLiteral("--duration"),
                          QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--timeout"),
                          QStringLiteral("2000")});
    QVERIFY2(r.exitCode == 3, qPrintable(r.text()));
    QVERIFY2(r.out.contains(QStringLiteral("read-1 1x1  FAILED: ")), qPrintable(r.text()));
    // A server that cannot be spawned: exit 3 as well.
    const CliRun s = run({QStringLiteral("run"), QStringLiteral("--spawn-server=") + m_dir.filePath(QStringLiteral("no-such-server"))});
    QVERIFY2(s.exitCode == 3 && s.err.contains(QStringLiteral("cannot start the server")), qPrintable(s.text()));
}

void TestLoadtestCli::readNode() {
    waitNodeReady();
    QVERIFY(!m_nodeUrl.isEmpty());
    const QString json = m_dir.filePath(QStringLiteral("read-node.json"));
    const CliRun r = run({QStringLiteral("run"), m_nodeUrl, QStringLiteral("--values"), QStringLiteral("10"), QStringLiteral("--sessions"),
                          QStringLiteral("2"), QStringLiteral("--outstanding"), QStringLiteral("2"), QStringLiteral("--duration"),
                          QStringLiteral("2"), QStringLiteral("--warmup"), QStringLiteral("0.5"), QStringLiteral("--server-pid"),
                          QString::number(m_nodePid), QStringLiteral("--label"), QStringLiteral("node-opcua"), QStringLiteral("--json"), json});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QStringList lines = resultLines(r.out);
    QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("read-10 2x2  ")), qPrintable(r.text()));
    const double reqPerS = figure(lines[0], QStringLiteral("req/s")), valuesPerS = figure(lines[0], QStringLiteral("values/s"));
    QVERIFY2(reqPerS > 0, qPrintable(lines[0]));
    QVERIFY2(std::abs(valuesPerS - 10 * reqPerS) <= 10, qPrintable(lines[0]));  // both printed rounded
    QVERIFY2(figure(lines[0], QStringLiteral("server")) > 0, qPrintable(lines[0]));  // its pid was given
    QVERIFY2(r.err.contains(QStringLiteral("measuring")), qPrintable(r.text()));    // progress on stderr

    const QJsonObject run = readJson(json);
    QCOMPARE(run.value("label").toString(), QStringLiteral("node-opcua"));
    QCOMPARE(run.value("parameters").toObject().value("endpointUrl").toString(), m_nodeUrl);
    const QJsonArray steps = run.value("steps").toArray();
    QCOMPARE(steps.size(), 1);
    const QJsonObject step = steps[0].toObject();
    const qint64 sent = step.value("sent").toInteger(), answered = step.value("answered").toInteger();
    QVERIFY2(answered > 0, qPrintable(QJsonDocument(step).toJson()));
    QCOMPARE(sent, answered + step.value("errors").toInteger() + step.value("timeouts").toInteger());
    QCOMPARE(step.value("sessions").toInt(), 2);
    QCOMPARE(step.value("outstanding").toInt(), 2);
    QVERIFY(std::abs(step.value("valuesPerS").toDouble() - 10 * step.value("requestsPerS").toDouble()) < 1e-6 * step.value("valuesPerS").toDouble() + 1e-9);
    QVERIFY(step.value("serverCpuMsPerOp").toDouble() > 0);
    QVERIFY(step.value("serverRssKb").toInteger() > 0);
}

void TestLoadtestCli::subscribeNode() {
    waitNodeReady();
    QVERIFY(!m_nodeUrl.isEmpty());
    const QString json = m_dir.filePath(QStringLiteral("subscribe-node.json"));
    const CliRun r = run({QStringLiteral("run"), m_nodeUrl, QStringLiteral("--scenario"), QStringLiteral("subscribe"), QStringLiteral("--items"),
                          // The namespace index form (node-opcua's own namespace is index 1).
                          QStringLiteral("5"), QStringLiteral("--counter-node"), QStringLiteral("ns=1;s=Counter"), QStringLiteral("--duration"), QStringLiteral("3"),
                          QStringLiteral("--warmup"), QStringLiteral("1"), QStringLiteral("--json"), json});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QStringList lines = resultLines(r.out);
    QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("subscribe-5 1x1  ")), qPrintable(r.text()));
    QVERIFY2(figure(lines[0], QStringLiteral("notifications/s")) > 0, qPrintable(lines[0]));
    const double minFidelity = figure(lines[0], QStringLiteral("fidelity min"));
    QVERIFY2(minFidelity > 0 && minFidelity <= 100, qPrintable(lines[0]));
    const QJsonObject step = readJson(json).value("steps").toArray().at(0).toObject();
    QVERIFY(step.value("notificationsPerS").toDouble() > 0);
    QVERIFY(step.value("meanFidelityPercent").toDouble() >= step.value("minFidelityPercent").toDouble());
    QVERIFY(step.value("minFidelityPercent").toDouble() > 0);
    // node-opcua sends a null PublishTime: no latency is recorded from it (not centuries).
    QVERIFY2(step.value("maxUs").toDouble() < 60e6, qPrintable(QString::number(step.value("maxUs").toDouble())));
}

void TestLoadtestCli::readAndWriteSpawnedServer() {
    const QString json = m_dir.filePath(QStringLiteral("read-spawned.json"));
    CliRun r = run({QStringLiteral("run"), QStringLiteral("--spawn-server=") + QStringLiteral(UA_SERVER_EXECUTABLE), QStringLiteral("--sessions"),
                    QStringLiteral("2"), QStringLiteral("--duration"), QStringLiteral("1.5"), QStringLiteral("--warmup"), QStringLiteral("0.5"),
                    QStringLiteral("--json"), json});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QStringList lines = resultLines(r.out);
    QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("read-1 2x1  ")), qPrintable(r.text()));
    QVERIFY2(figure(lines[0], QStringLiteral("server")) > 0 && lines[0].contains(QStringLiteral(" MB")), qPrintable(lines[0]));
    // "server X us/op Y % Z MB": the server's share of a core, printed also when no request was made.
    const QRegularExpressionMatch cpu = QRegularExpression(QStringLiteral("server [0-9.]+ us/op ([0-9.]+) % [0-9.]+ MB")).match(lines[0]);
    QVERIFY2(cpu.hasMatch() && cpu.captured(1).toDouble() > 0, qPrintable(lines[0]));
    const QJsonObject step = readJson(json).value("steps").toArray().at(0).toObject();
    QVERIFY(step.value("serverCpuMsPerOp").toDouble() > 0);
    QVERIFY(step.value("serverRssKb").toInteger() > 1000);
    // The server's RSS before the step's Sessions, and their cost each, also on the result line.
    QVERIFY(step.value("serverRssBeforeKb").toInteger() > 1000);
    QVERIFY(step.contains("serverKbPerSession"));
    QVERIFY2(QRegularExpression(QStringLiteral("[0-9.]+ MB \\(-?[0-9.]+ KB/Session\\)")).match(lines[0]).hasMatch(), qPrintable(lines[0]));
    QVERIFY(step.value("answered").toInteger() > 0);
    QVERIFY(step.contains("serverDiagnostics"));  // our server exposes ServerDiagnosticsSummary

    // Anonymous Sessions may write the benchmark variables on the spawned server (Operator Role).
    r = run({QStringLiteral("run"), QStringLiteral("--spawn-server=") + QStringLiteral(UA_SERVER_EXECUTABLE), QStringLiteral("--scenario"),
             QStringLiteral("write"), QStringLiteral("--values"), QStringLiteral("10"), QStringLiteral("--duration"), QStringLiteral("1"),
             QStringLiteral("--warmup"), QStringLiteral("0")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    lines = resultLines(r.out);
    QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("write-10 1x1  ")), qPrintable(r.text()));
    QVERIFY2(figure(lines[0], QStringLiteral("req/s")) > 0 && figure(lines[0], QStringLiteral("errors")) == 0, qPrintable(lines[0]));
}

// The events scenario against our spawned ua-server: its GenerateEvents raises 2,000 events a
// second for two Sessions; none is lost (exit 0), and the JSON holds the event figures.
void TestLoadtestCli::eventsSpawnedServer() {
    const QString json = m_dir.filePath(QStringLiteral("events-spawned.json"));
    const CliRun r = run({QStringLiteral("run"), QStringLiteral("--spawn-server=") + QStringLiteral(UA_SERVER_EXECUTABLE),
                          QStringLiteral("--scenario"), QStringLiteral("events"), QStringLiteral("--event-rate"), QStringLiteral("2000"),
                          QStringLiteral("--sessions"), QStringLiteral("2"), QStringLiteral("--publishing"), QStringLiteral("50"),
                          QStringLiteral("--duration"), QStringLiteral("1.5"), QStringLiteral("--warmup"), QStringLiteral("0.5"),
                          QStringLiteral("--json"), json});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QStringList lines = resultLines(r.out);
    QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("events-2000 2x1  ")), qPrintable(r.text()));
    QVERIFY2(figure(lines[0], QStringLiteral("events/s")) > 0 && lines[0].contains(QStringLiteral("lost 0  overflows 0")),
             qPrintable(lines[0]));
    const QJsonObject step = readJson(json).value("steps").toArray().at(0).toObject();
    QVERIFY2(step.value("eventsRaised").toInteger() > 0, qPrintable(QJsonDocument(step).toJson()));
    QCOMPARE(step.value("eventsExpected").toInteger(), 2 * step.value("eventsRaised").toInteger());
    QCOMPARE(step.value("eventsReceived").toInteger(), step.value("eventsExpected").toInteger());
    QCOMPARE(step.value("eventsLost").toInteger(), qint64(0));
    QCOMPARE(readJson(json).value("parameters").toObject().value("eventRate").toInteger(), qint64(2000));
}

void TestLoadtestCli::sweepTwoSteps() {
    // --spawn-server without a path: the ua-server of the build tree (../server-app/ from ua-loadtest).
    const QString json = m_dir.filePath(QStringLiteral("sweep.json"));
    const CliRun r = run({QStringLiteral("sweep"), QStringLiteral("--spawn-server"), QStringLiteral("--sessions"), QStringLiteral("1,2"),
                          QStringLiteral("--outstanding"), QStringLiteral("1"), QStringLiteral("--duration"), QStringLiteral("1"),
                          QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--no-stop"), QStringLiteral("--json"), json});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QStringList lines = resultLines(r.out);
    QVERIFY2(lines.size() == 2, qPrintable(r.text()));
    QVERIFY2(lines[0].startsWith(QStringLiteral("read-1 1x1  ")) && lines[1].startsWith(QStringLiteral("read-1 2x1  ")), qPrintable(r.text()));
    QCOMPARE(readJson(json).value("steps").toArray().size(), 2);

    // compare: the saved sweep against itself, every ratio 1.
    const CliRun c = run({QStringLiteral("compare"), json, json});
    QVERIFY2(c.exitCode == 0, qPrintable(c.text()));
    QVERIFY2(c.out.contains(QRegularExpression(QStringLiteral("\\n1x1 +a +b +b/a\\n"))) &&
                 c.out.contains(QRegularExpression(QStringLiteral("\\n2x1 +a +b +b/a\\n"))),
             qPrintable(c.text()));
    QVERIFY2(c.out.contains(QRegularExpression(QStringLiteral("\\n  requestsPerS +[0-9.]+ +[0-9.]+ +1.000\\n"))), qPrintable(c.text()));
    QVERIFY2(!c.err.contains(QStringLiteral("different scenarios")), qPrintable(c.text()));
    // The same run without the server's figures (as without a server pid: -1) and as a write run:
    // unknown figures print "-" (not -1.00), and a warning says the scenarios differ.
    QJsonObject other = readJson(json);
    QJsonArray steps = other.value("steps").toArray();
    for (qsizetype i = 0; i < steps.size(); ++i) {
        QJsonObject s = steps[i].toObject();
        s.insert("serverCpuMsPerOp", -1);
        steps[i] = s;
    }
    other.insert("steps", steps);
    QJsonObject parameters = other.value("parameters").toObject();
    parameters.insert("scenario", "write");
    other.insert("parameters", parameters);
    const QString otherFile = m_dir.filePath(QStringLiteral("other.json"));
    QFile o(otherFile);
    QVERIFY(o.open(QIODevice::WriteOnly));
    o.write(QJsonDocument(other).toJson());
    o.close();
    const CliRun d = run({QStringLiteral("compare"), json, otherFile});
    QVERIFY2(d.exitCode == 0, qPrintable(d.text()));
    QVERIFY2(d.out.contains(QRegularExpression(QStringLiteral("\\n  serverCpuMsPerOp +[0-9.]+ +- +-\\n"))), qPrintable(d.text()));
    QVERIFY2(d.err.contains(QStringLiteral("different scenarios")), qPrintable(d.text()));
    QCOMPARE(run({QStringLiteral("compare"), json, m_dir.filePath(QStringLiteral("missing.json"))}).exitCode, 2);
    // Valid JSON that is not a run (an array): said so, usage error.
    const QString array = m_dir.filePath(QStringLiteral("array.json"));
    QFile f(array);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("[]");
    f.close();
    const CliRun bad = run({QStringLiteral("compare"), json, array});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QStringLiteral("not a saved run")), qPrintable(bad.text()));
}

void TestLoadtestCli::abTwoRounds() {
    waitNodeReady();
    QVERIFY(!m_nodeUrl.isEmpty());
    const QString json = m_dir.filePath(QStringLiteral("ab.json"));
    const CliRun r = run({QStringLiteral("ab"), QStringLiteral("--a"), QStringLiteral("spawn:") + QStringLiteral(UA_SERVER_EXECUTABLE),
                          QStringLiteral("--b"), m_nodeUrl, QStringLiteral("--b-pid"), QString::number(m_nodePid), QStringLiteral("--a-label"),
                          QStringLiteral("ours"), QStringLiteral("--b-label"), QStringLiteral("node-opcua"), QStringLiteral("--rounds"),
                          QStringLiteral("2"), QStringLiteral("--sessions"), QStringLiteral("2"), QStringLiteral("--duration"),
                          QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0.5"), QStringLiteral("--json"), json});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QStringList lines = resultLines(r.out);
    QVERIFY2(lines.size() == 4, qPrintable(r.text()));
    QVERIFY2(lines[0].startsWith(QStringLiteral("round 1  A  read-1 2x1")) && lines[1].startsWith(QStringLiteral("round 1  B  ")) &&
                 lines[2].startsWith(QStringLiteral("round 2  A  ")) && lines[3].startsWith(QStringLiteral("round 2  B  ")),
             qPrintable(r.text()));
    // The medians: a header naming both targets and the ratio, a req/s row whose ratio is B/A.
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("median of 2 rounds +ours +node-opcua +B/A"))), qPrintable(r.text()));
    const QRegularExpression row(QStringLiteral("\\nreq/s +([0-9.]+) +([0-9.]+) +([0-9.]+)"));
    const auto m = row.match(r.out);
    QVERIFY2(m.hasMatch(), qPrintable(r.text()));
    QVERIFY2(std::abs(m.captured(3).toDouble() - m.captured(2).toDouble() / m.captured(1).toDouble()) < 0.01 * m.captured(3).toDouble() + 0.002,
             qPrintable(m.captured(0)));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\nserver CPU us/op +[0-9.]+ +[0-9.]+ +[0-9.]+"))), qPrintable(r.text()));

    const QJsonObject doc = readJson(json);
    QCOMPARE(doc.value("rounds").toInt(), 2);
    QCOMPARE(doc.value("a").toObject().value("steps").toArray().size(), 2);
    QCOMPARE(doc.value("b").toObject().value("steps").toArray().size(), 2);
    QCOMPARE(doc.value("b").toObject().value("label").toString(), QStringLiteral("node-opcua"));
    bool found = false;
    for (const QJsonValue v : doc.value("medians").toObject().value("figures").toArray()) {
        const QJsonObject f = v.toObject();
        if (f.value("figure").toString() != QLatin1String("requestsPerS")) continue;
        found = true;
        QVERIFY(f.value("a").toDouble() > 0 && f.value("b").toDouble() > 0);
        QVERIFY(std::abs(f.value("ratio").toDouble() - f.value("b").toDouble() / f.value("a").toDouble()) < 1e-9);
    }
    QVERIFY(found);
}

void TestLoadtestCli::sigtermStopsCleanly() {
    // A long step stopped by SIGTERM during the measurement: the result line and the JSON are still
    // there, with what was measured, and the spawned server is gone.
    const QString json = m_dir.filePath(QStringLiteral("stopped.json"));
    QProcess p;
    p.start(QStringLiteral(UA_LOADTEST_EXECUTABLE), {QStringLiteral("run"), QStringLiteral("--spawn-server=") + QStringLiteral(UA_SERVER_EXECUTABLE),
                                                     QStringLiteral("--duration"), QStringLiteral("60"), QStringLiteral("--warmup"),
                                                     QStringLiteral("0"), QStringLiteral("--json"), json});
    QVERIFY(p.waitForStarted());
    QElapsedTimer t;
    t.start();
    QByteArray err;
    while (!err.contains("measuring") && t.elapsed() < 30000 && p.state() == QProcess::Running) {
        p.waitForReadyRead(100);
        err += p.readAllStandardError();
    }
    QVERIFY2(err.contains("measuring"), err.constData());
    ::kill(pid_t(p.processId()), SIGTERM);
    QVERIFY2(p.waitForFinished(15000), "ua-loadtest did not stop within 15 s of SIGTERM");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(resultLines(out).size() == 1, qPrintable(out));
    const QJsonObject step = readJson(json).value("steps").toArray().at(0).toObject();
    QVERIFY2(step.value("answered").toInteger() > 0, qPrintable(QJsonDocument(step).toJson()));
    QVERIFY(step.value("durationS").toDouble() < 30);
}

void TestLoadtestCli::soakSpawnedServer() {
    // A short soak: a report line per second, each part's result line, the memory line, the verdict.
    CliRun r = run({QStringLiteral("soak"), QStringLiteral("--spawn-server=") + QStringLiteral(UA_SERVER_EXECUTABLE), QStringLiteral("--duration"),
                    QStringLiteral("4"), QStringLiteral("--report-every"), QStringLiteral("1"), QStringLiteral("--rate"), QStringLiteral("100"),
                    QStringLiteral("--quiet")});
    // Four seconds are mostly warm-up: on a busy machine the Sessions are still being set up when
    // the quarter-of-the-run memory baseline is taken, and the memory part of the verdict can fail
    // (seen: server RSS +20 % from 0:01 to 0:05). What is checked: no error, and the exit status
    // is the verdict's (0 exactly when PASSED; the verdict itself is tested in tst_soak_runner).
    const bool passed = r.out.contains(QStringLiteral("verdict: PASSED"));
    QVERIFY2(passed || r.out.contains(QStringLiteral("verdict: FAILED")), qPrintable(r.text()));
    QVERIFY2((r.exitCode == 0) == passed, qPrintable(r.text()));
    QVERIFY2(r.out.contains(QStringLiteral("(unexpected errors 0;")), qPrintable(r.text()));
    const QStringList out = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList reports = out.filter(QRegularExpression(QStringLiteral("^soak +\\d+:\\d\\d  requests \\d+ \\(read \\d+ write \\d+ browse \\d+ subscribe \\d+ connect \\d+\\)  errors 0  server rss \\d+ kB fds \\d+  client rss \\d+ kB fds \\d+$")));
    QVERIFY2(reports.size() >= 3, qPrintable(r.text()));
    const QStringList results = resultLines(r.out);
    QVERIFY2(results.size() == 5, qPrintable(r.text()));
    for (const QString& line : results) QVERIFY2(figure(line, QStringLiteral("errors")) == 0 && figure(line, QStringLiteral("req/s")) > 0, qPrintable(line));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("memory from .* server rss \\d+ -> \\d+ kB"))), qPrintable(r.text()));
}

UA_TEST_GUILESS_MAIN(TestLoadtestCli)
#include "tst_loadtest_cli.moc"
