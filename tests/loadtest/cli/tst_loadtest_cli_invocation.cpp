// Which invocations of ua-loadtest run the command line and which open the window
// (ua::loadtest::isCommandLineInvocation): a value of an option is never taken for a command.
// Also the pure parts of the command line: option parsing (CliOptions.h) and the A/B medians
// (AbSummary.h).
#include "cli/AbSummary.h"
#include "cli/CliContext.h"
#include "cli/CliOptions.h"
#include "cli/CliOutput.h"
#include "cli/CommandLine.h"
#include "ua/secure/SecurityPolicy.h"

#include <QtTest>
#include "TestMain.h"
#include <string>
#include <vector>

using namespace ua;
using namespace ua::loadtest;

namespace {

bool isCli(std::vector<std::string> args) {
    args.insert(args.begin(), "ua-loadtest");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return isCommandLineInvocation(int(args.size()), argv.data());
}

std::optional<CliOptions> parse(QStringList args, QString* error = nullptr) {
    QString e;
    args.prepend(QStringLiteral("ua-loadtest"));
    return parseCliOptions(args, error ? error : &e);
}

StepResult step(double reqPerS, double p99Us, double serverCpuMsPerOp = -1) {
    StepResult s;
    s.requestsPerS = reqPerS;
    s.valuesPerS = reqPerS;
    s.p99Us = p99Us;
    s.serverCpuMsPerOp = serverCpuMsPerOp;
    return s;
}

const AbFigure* find(const std::vector<AbFigure>& figures, const char* key) {
    for (const AbFigure& f : figures)
        if (f.key == QLatin1String(key)) return &f;
    return nullptr;
}

} // namespace

class TstLoadtestCliInvocation : public QObject {
    Q_OBJECT
private slots:
    void commandsRunTheCommandLine() {
        QVERIFY(isCli({"run", "opc.tcp://h:4840"}));
        QVERIFY(isCli({"sweep", "--spawn-server", "--sessions", "1,2"}));
        QVERIFY(isCli({"--quiet", "ab", "--a", "spawn", "--b", "opc.tcp://h:4840"}));
        QVERIFY(isCli({"--label", "ours", "run", "opc.tcp://h:4840"}));  // --label's value is not the command
        QVERIFY(isCli({"compare", "a.json", "b.json"}));
        QVERIFY(isCli({"--help"}));
        QVERIFY(isCli({"--version"}));
        QVERIFY(isCli({"rnu", "opc.tcp://h:4840"}));  // a misspelt command: the command line says so
    }
    void windowOptionsOpenTheWindow() {
        QVERIFY(!isCli({}));
        QVERIFY(!isCli({"--endpoint", "opc.tcp://h:4840"}));
        QVERIFY(!isCli({"--label", "ours"}));
        QVERIFY(!isCli({"--open", "saved"}));
        QVERIFY(!isCli({"--open", "run.json"}));
        QVERIFY(!isCli({"run.json"}));
        QVERIFY(!isCli({"-platform", "offscreen"}));
        QVERIFY(!isCli({"--screenshots", "shots", "--endpoint", "opc.tcp://h:4840"}));
        QVERIFY(!isCli({"--server-pid", "42", "--compare-label", "theirs"}));
    }
    void optionsFillTheParameters() {
        const auto o = parse({"run", "opc.tcp://h:4840", "--scenario", "write", "--values=100", "--sessions", "20", "--outstanding", "10",
                              "--duration", "7.5", "--warmup", "0", "--rate", "500", "--timeout", "900", "--io-threads", "2",
                              "--security", "Basic256Sha256", "--pki", "/tmp/p", "--first-id", "5000", "--variables", "50",
                              "--items", "7", "--sampling", "20", "--publishing", "250", "--publish-requests", "10",
                              "--keepalive-count", "5", "--lifetime-count", "30", "--server-pid", "99", "--json", "-"});
        QVERIFY(o);
        const LoadParameters& p = o->parameters;
        QCOMPARE(o->command, QStringLiteral("run"));
        QCOMPARE(o->target.url, QStringLiteral("opc.tcp://h:4840"));
        QCOMPARE(o->target.pid, qint64(99));
        QCOMPARE(p.scenario, Scenario::Write);
        QCOMPARE(p.valuesPerRequest, 100);
        QCOMPARE(p.sessions, 20);
        QCOMPARE(p.outstanding, 10);
        QCOMPARE(p.durationS, 7.5);
        QCOMPARE(p.warmupS, 0.0);
        QCOMPARE(p.targetRate, 500.0);
        QCOMPARE(p.requestTimeoutMs, 900u);
        QCOMPARE(p.ioThreads, 2);
        QCOMPARE(p.securityPolicyUri, QString::fromLatin1(kSecurityPolicyBasic256Sha256));
        QCOMPARE(p.securityMode, MessageSecurityMode::SignAndEncrypt);  // a secure policy without --mode
        QCOMPARE(p.pkiDir, QStringLiteral("/tmp/p"));
        QCOMPARE(p.firstVariableId, 5000u);
        QCOMPARE(p.variableCount, 50);
        QCOMPARE(p.monitoredItems, 7);
        QCOMPARE(p.samplingIntervalMs, 20.0);
        QCOMPARE(p.publishingIntervalMs, 250.0);
        QCOMPARE(p.publishRequests, 10u);
        QCOMPARE(o->jsonFile, QStringLiteral("-"));
        QVERIFY(parse({"run", "opc.tcp://h:4840"})->parameters.publishRequests == 0u);  // the client's rule
        QCOMPARE(p.maxKeepAliveCount, 5u);
        QCOMPARE(p.lifetimeCount, 30u);
        QCOMPARE(parse({"run", "opc.tcp://h:4840"})->parameters.lifetimeCount, 60u);
        QVERIFY(!parse({"run", "opc.tcp://h:4840", "--lifetime-count", "0"}));
        QVERIFY(!parse({"run", "opc.tcp://h:4840", "--keepalive-count", "nan"}));
        QString bad;
        QVERIFY(!parse({"run", "opc.tcp://h:4840", "--publish-requests", "-1"}, &bad));
        QVERIFY2(bad.contains(QStringLiteral("--publish-requests")), qPrintable(bad));

        const auto sign = parse({"run", "opc.tcp://h:4840", "--mode", "Sign"});
        QVERIFY(sign);
        QCOMPARE(sign->parameters.securityPolicyUri, QString::fromLatin1(kSecurityPolicyBasic256Sha256));
        QCOMPARE(sign->parameters.securityMode, MessageSecurityMode::Sign);
        QString error;
        QVERIFY(!parse({"run", "opc.tcp://h:4840", "--security", "None", "--mode", "Sign"}, &error));
        QVERIFY2(error.contains(QStringLiteral("--security None goes with --mode None")), qPrintable(error));
    }
    void sweepAndAbOptions() {
        const auto s = parse({"sweep", "--spawn-server=/opt/ua-server", "--sessions", "1,2,5,10", "--outstanding", "1,10,100", "--max-errors", "2"});
        QVERIFY(s);
        QVERIFY(s->target.spawn);
        QCOMPARE(s->target.serverExecutable, QStringLiteral("/opt/ua-server"));
        QCOMPARE(s->plan.sessions, (std::vector<int>{1, 2, 5, 10}));
        QCOMPARE(s->plan.outstanding, (std::vector<int>{1, 10, 100}));
        QCOMPARE(s->plan.stopRules.maxErrorFraction, 0.02);

        const auto ab = parse({"ab", "--a-pid", "7", "--a", "opc.tcp://x:1", "--b", "spawn:/opt/other/ua-server", "--rounds", "5",
                               "--b-counter-node", "ns=1;s=Counter"});
        QVERIFY(ab);
        QCOMPARE(ab->a.url, QStringLiteral("opc.tcp://x:1"));
        QCOMPARE(ab->a.pid, qint64(7));  // given before --a, kept
        QVERIFY(ab->b.spawn);
        QCOMPARE(ab->b.serverExecutable, QStringLiteral("/opt/other/ua-server"));
        QCOMPARE(ab->b.counterNode, QStringLiteral("ns=1;s=Counter"));
        QCOMPARE(ab->rounds, 5);

        QCOMPARE(*parseStepList(QStringLiteral("1,1")), (std::vector<int>{1}));  // de-duplicated
        QCOMPARE(*parseStepList(QStringLiteral("5,2,1,2")), (std::vector<int>{1, 2, 5}));  // sorted
        QVERIFY(!parseStepList(QStringLiteral("0,1")));
        QVERIFY(!parseStepList(QStringLiteral("")));
        QCOMPARE(*parseStepList(QStringLiteral("1, 20,300")), (std::vector<int>{1, 20, 300}));
    }
    // The events scenario's options, their defaults and refusals, its result line and exit code.
    void eventsOptions() {
        const auto o = parse({"run", "opc.tcp://h:4840", "--scenario", "events", "--sessions", "10", "--event-rate", "15000",
                              "--event-min-severity", "700", "--event-queue-size", "2000", "--publishing", "20"});
        QVERIFY(o);
        const LoadParameters& p = o->parameters;
        QCOMPARE(p.scenario, Scenario::Events);
        QCOMPARE(p.sessions, 10);
        QCOMPARE(p.eventRate, 15000u);
        QCOMPARE(p.eventMinSeverity, 700);
        QCOMPARE(p.eventQueueSize, 2000u);
        QCOMPARE(p.publishingIntervalMs, 20.0);
        QCOMPARE(stepShape(p), QStringLiteral("events-15000-sev700"));
        const auto d = parse({"run", "opc.tcp://h:4840", "--scenario=EVENTS"});
        QVERIFY(d);
        QCOMPARE(d->parameters.eventRate, 1000u);
        QCOMPARE(d->parameters.eventMinSeverity, 1);
        QCOMPARE(d->parameters.eventQueueSize, 10000u);
        QCOMPARE(stepShape(d->parameters), QStringLiteral("events-1000"));
        QCOMPARE(parse({"run", "opc.tcp://h:4840", "--scenario", "events", "--event-rate", "0"})->parameters.eventRate, 0u);
        QCOMPARE(parse({"run", "opc.tcp://h:4840", "--event-rate", "1000000"})->parameters.eventRate, 1000000u);
        const struct {
            QStringList args;
            const char* message;
        } refused[] = {
            {{"--event-rate", "1000001"}, "--event-rate 1000001: expected events a second from 0 to 1000000"},
            {{"--event-rate", "-1"}, "expected events a second"},
            {{"--event-rate", "1e3"}, "expected events a second"},
            {{"--event-rate", "4294967296"}, "expected events a second"},
            {{"--event-min-severity", "0"}, "expected a Severity from 1 to 1000"},
            {{"--event-min-severity", "1001"}, "expected a Severity from 1 to 1000"},
            {{"--event-queue-size", "0"}, "expected a whole number > 0"},
            {{"--scenario", "events", "--rate", "100"}, "(events: --event-rate)"},
        };
        for (const auto& r : refused) {
            QString error;
            QVERIFY2(!parse(QStringList{"run", "opc.tcp://h:4840"} + r.args, &error), qPrintable(r.args.join(' ')));
            QVERIFY2(error.contains(QLatin1String(r.message)), qPrintable(error));
        }
        QString soakError;
        QVERIFY(!parse({"soak", "opc.tcp://h:4840", "--event-rate", "10"}, &soakError));
        QVERIFY2(soakError.contains(QStringLiteral("--event-rate is an option of run, sweep, ab only")), qPrintable(soakError));

        StepResult s;
        s.sessions = 10;
        s.outstanding = 1;
        s.eventsPerS = 149000;
        s.eventsRaised = 150000;
        s.eventsRaisedPerS = 15000;
        s.eventsLost = 0;
        const QString line = resultLine(o->parameters, s);
        QVERIFY2(line.startsWith(QStringLiteral("events-15000-sev700 10x1  ")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("events/s 149000  raised/s 15000  lost 0  overflows 0")), qPrintable(line));
        QCOMPARE(exitCodeOf({s}), int(ExitOk));
        s.eventsLost = 3;
        QCOMPARE(exitCodeOf({s}), int(ExitRunErrors));
        s.eventsLost = -1;  // unknown: the server's own events
        QVERIFY2(resultLine(o->parameters, s).contains(QStringLiteral("lost ?")), qPrintable(resultLine(o->parameters, s)));
        QCOMPARE(exitCodeOf({s}), int(ExitOk));
        s.eventOverflows = 1;
        QCOMPARE(exitCodeOf({s}), int(ExitRunErrors));
    }
    void abMediansAndRatios() {
        QCOMPARE(median({}), 0.0);
        QCOMPARE(median({3, 1, 2}), 2.0);
        QCOMPARE(median({4, 1, 3, 2}), 2.5);
        // A: 100, 300, 200 req/s (median 200); B: 50, 70, 1000 (median 70, the outlier ignored).
        // Server CPU known for A only: no such figure.
        std::vector<StepResult> a{step(100, 1000, 0.01), step(300, 3000, 0.01), step(200, 2000, 0.01)};
        std::vector<StepResult> b{step(50, 500), step(70, 700), step(1000, 100)};
        StepResult failed = step(999999, 1);
        failed.error = QStringLiteral("connect: Bad_Timeout");
        b.push_back(failed);  // a round that could not run is not a figure
        const auto figures = abFigures(Scenario::Read, a, b);
        const AbFigure* rps = find(figures, "requestsPerS");
        QVERIFY(rps);
        QCOMPARE(rps->a, 200.0);
        QCOMPARE(rps->b, 70.0);
        QCOMPARE(rps->ratio, 70.0 / 200.0);
        QCOMPARE(rps->rounds, 3);
        const AbFigure* p99 = find(figures, "p99Ms");
        QVERIFY(p99);
        QCOMPARE(p99->a, 2.0);  // ms
        QCOMPARE(p99->b, 0.5);
        QVERIFY(!find(figures, "serverCpuUsPerOp"));
        QVERIFY(!find(figures, "minFidelityPercent"));  // not a subscribe step
        const QStringList table = abTable(figures, QStringLiteral("ours"), QStringLiteral("node-opcua"), 3);
        QVERIFY2(table[0].startsWith(QStringLiteral("median of 3 rounds")) && table[0].endsWith(QStringLiteral("B/A")), qPrintable(table[0]));
        QVERIFY2(table.filter(QRegularExpression(QStringLiteral("^req/s +200 +70.0 +0.350$"))).size() == 1, qPrintable(table.join('\n')));
    }
};

UA_TEST_GUILESS_MAIN(TstLoadtestCliInvocation)
#include "tst_loadtest_cli_invocation.moc"
