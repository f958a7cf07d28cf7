// The JSON of saved runs (loadtest-app/engine): LoadParameters, StepResult and RunResult round
// trips with every field set, the password never written, and bad input refused with an error
// naming the field. Also the CSV and StepResult::computeFigures.
#include "engine/ProcessStats.h"
#include "engine/StepResult.h"

#include <QJsonDocument>
#include <cmath>
#include <QThread>
#include <algorithm>
#include <QtTest>
#include "TestMain.h"

using namespace ua::loadtest;

namespace {

LoadParameters sampleParameters() {
    LoadParameters p;
    p.endpointUrl = QStringLiteral("opc.tcp://plc:4841/x");
    p.securityPolicyUri = QStringLiteral("http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256");
    p.securityMode = ua::MessageSecurityMode::SignAndEncrypt;
    p.userName = QStringLiteral("op");
    p.password = QStringLiteral("secret");
    p.pkiDir = QStringLiteral("/tmp/pki");
    p.trustServer = false;
    p.scenario = Scenario::Subscribe;
    p.valuesPerRequest = 100;
    p.sessions = 20;
    p.outstanding = 10;
    p.durationS = 7.5;
    p.warmupS = 0.5;
    p.targetRate = 1234.5;
    p.requestTimeoutMs = 2500;
    p.ioThreads = 3;
    p.connectWindow = 8;
    p.variableNamespaceUri = QStringLiteral("urn:bench");
    p.firstVariableId = 2000;
    p.variableCount = 500;
    p.browseNode = QStringLiteral("i=85");
    p.counterNode = QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Simulation.Ramp");
    p.monitoredItems = 50;
    p.samplingIntervalMs = 20;
    p.publishingIntervalMs = 250;
    p.queueSize = 7;
    p.publishRequests = 6;
    p.eventRate = 12345;
    p.eventMinSeverity = 250;
    p.eventQueueSize = 777;
    p.serverPid = 4242;
    p.readServerDiagnostics = false;
    return p;
}

StepResult sampleStep(int sessions, int outstanding) {
    StepResult s;
    s.sessions = sessions;
    s.outstanding = outstanding;
    s.durationS = 2.0;
    s.sent = 1000;
    s.answered = 990;
    s.errors = 7;
    s.timeouts = 3;
    s.errorsByStatus = {{QStringLiteral("Bad_TooManyOperations"), 7}, {QStringLiteral("Bad_Timeout"), 3}};
    for (int i = 1; i <= 990; ++i) s.latency.record(100 + i);
    s.computeFigures();
    s.valuesPerS = 49'500;
    s.notificationsPerS = 12.5;
    s.minFidelityPercent = 97.5;
    s.meanFidelityPercent = 99.25;
    s.itemsBelow99 = 2;
    s.eventsPerS = 45'000;
    s.eventsRaised = 9000;
    s.eventsRaisedPerS = 4500;
    s.eventsExpected = 90'000;
    s.eventsReceived = 89'990;
    s.eventsLost = 10;
    s.eventOverflows = 1;
    s.eventsOutOfOrder = 2;
    s.sessionsPerS = 3.5;
    s.serverTooBusy = 4;
    s.retries = 5;
    s.setupS = 95.25;
    s.setupSessionsPerS = 10.5;
    s.ioThreads = 2;
    s.clientCpuMsPerOp = 0.0123;
    s.clientCpuPercent = 87.5;
    s.clientRssKb = 34567;
    s.generatorSaturated = true;
    s.serverCpuMsPerOp = 0.045;
    s.serverCpuPercent = 150;
    s.serverRssKb = 99999;
    s.serverRssBeforeKb = 59999;
    s.serverDiagnostics = ServerDiagnostics{{{QStringLiteral("currentSessionCount"), 21}}, {{QStringLiteral("cumulatedSessionCount"), 20}}};
    s.connectionBroken = true;
    s.beatenBy = QStringLiteral("errors 1.0 % > 1 %, \"quoted\"");
    s.warnings = {QStringLiteral("the generator saturated")};
    TimelineSample t;
    t.tS = -0.5;
    t.warmup = true;
    t.sessions = sessions;
    t.outstanding = outstanding;
    t.requestsPerS = 480;
    t.valuesPerS = 48000;
    t.p50Us = 110;
    t.p90Us = 190;
    t.p99Us = 300;
    t.maxUs = 1200;
    t.errors = 2;
    t.clientCpuPercent = 55;
    s.timeline.push_back(t);
    t.tS = 0.5;
    t.warmup = false;
    s.timeline.push_back(t);
    return s;
}

// Through text, as a saved file would be.
QJsonObject viaText(const QJsonObject& o) { return QJsonDocument::fromJson(QJsonDocument(o).toJson()).object(); }

} // namespace

class TestLoadResultsJson : public QObject {
    Q_OBJECT
private slots:
    void scenarioNames() {
        for (Scenario s : {Scenario::Read, Scenario::Write, Scenario::Browse, Scenario::Subscribe, Scenario::Connect,
                           Scenario::HistoryRead, Scenario::Events})
            QCOMPARE(scenarioFromName(scenarioName(s)), std::optional<Scenario>(s));
        QCOMPARE(scenarioName(Scenario::Events), QStringLiteral("events"));
        QCOMPARE(scenarioName(Scenario::Subscribe), QStringLiteral("subscribe"));
        QVERIFY(!scenarioFromName(QStringLiteral("Read")));
        QVERIFY(!scenarioFromName(QString()));
    }

    void parametersRoundTrip() {
        const LoadParameters p = sampleParameters();
        const QJsonObject o = viaText(p.toJson());
        QVERIFY(!o.contains(QStringLiteral("password")));
        QVERIFY(!QJsonDocument(o).toJson().contains("secret"));
        QCOMPARE(o.value(QStringLiteral("securityMode")).toString(), QStringLiteral("SignAndEncrypt"));
        QCOMPARE(o.value(QStringLiteral("scenario")).toString(), QStringLiteral("subscribe"));
        QString error;
        const auto back = LoadParameters::fromJson(o, &error);
        QVERIFY2(back, qPrintable(error));
        LoadParameters expected = p;
        expected.password.clear();
        QCOMPARE(back->toJson(), expected.toJson());
        QCOMPARE(back->password, QString());
        QCOMPARE(back->serverPid, qint64(4242));
        QCOMPARE(back->securityMode, ua::MessageSecurityMode::SignAndEncrypt);
        QCOMPARE(back->queueSize, uint32_t(7));
        QCOMPARE(back->publishRequests, uint32_t(6));
        QCOMPARE(back->eventRate, 12345u);
        QCOMPARE(back->eventMinSeverity, 250);
        QCOMPARE(back->eventQueueSize, 777u);
        // An empty object gives the defaults; a password given on input is taken.
        const auto defaults = LoadParameters::fromJson(QJsonObject{{QStringLiteral("password"), QStringLiteral("pw")}});
        QVERIFY(defaults);
        QCOMPARE(defaults->toJson(), LoadParameters().toJson());
        QCOMPARE(defaults->password, QStringLiteral("pw"));
        for (const char* mode : {"None", "Sign", "SignAndEncrypt"}) {
            const auto m = LoadParameters::fromJson(QJsonObject{{QStringLiteral("securityMode"), QString::fromLatin1(mode)}});
            QVERIFY(m);
            QCOMPARE(m->toJson().value(QStringLiteral("securityMode")).toString(), QString::fromLatin1(mode));
        }
    }

    void parametersRefused_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("sessions 0") << "sessions" << QJsonValue(0);
        QTest::newRow("sessions fractional") << "sessions" << QJsonValue(1.5);
        QTest::newRow("sessions text") << "sessions" << QJsonValue(QStringLiteral("3"));
        QTest::newRow("outstanding 0") << "outstanding" << QJsonValue(0);
        QTest::newRow("valuesPerRequest 0") << "valuesPerRequest" << QJsonValue(0);
        QTest::newRow("valuesPerRequest 10001") << "valuesPerRequest" << QJsonValue(10001);
        QTest::newRow("durationS negative") << "durationS" << QJsonValue(-1);
        QTest::newRow("warmupS negative") << "warmupS" << QJsonValue(-0.1);
        QTest::newRow("targetRate negative") << "targetRate" << QJsonValue(-5);
        QTest::newRow("scenario unknown") << "scenario" << QJsonValue(QStringLiteral("hammer"));
        QTest::newRow("securityMode unknown") << "securityMode" << QJsonValue(QStringLiteral("Encrypt"));
        QTest::newRow("securityMode number") << "securityMode" << QJsonValue(3);
        QTest::newRow("endpointUrl number") << "endpointUrl" << QJsonValue(4840);
        QTest::newRow("trustServer text") << "trustServer" << QJsonValue(QStringLiteral("yes"));
        QTest::newRow("ioThreads -1") << "ioThreads" << QJsonValue(-1);
        QTest::newRow("ioThreads 257") << "ioThreads" << QJsonValue(257);
        QTest::newRow("eventRate -1") << "eventRate" << QJsonValue(-1);
        QTest::newRow("eventRate 1000001") << "eventRate" << QJsonValue(1000001);
        QTest::newRow("eventMinSeverity 0") << "eventMinSeverity" << QJsonValue(0);
        QTest::newRow("eventMinSeverity 1001") << "eventMinSeverity" << QJsonValue(1001);
        QTest::newRow("eventQueueSize 0") << "eventQueueSize" << QJsonValue(0);
    }
    void parametersRefused() {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QJsonObject o = LoadParameters().toJson();
        o.insert(key, value);
        QString error;
        QVERIFY(!LoadParameters::fromJson(o, &error));
        QVERIFY2(error.contains(key), qPrintable(error));
        // The edges that are allowed.
        QVERIFY(LoadParameters::fromJson(QJsonObject{{QStringLiteral("valuesPerRequest"), 10000}}));
        QVERIFY(LoadParameters::fromJson(QJsonObject{{QStringLiteral("valuesPerRequest"), 1}, {QStringLiteral("durationS"), 0},
                                                     {QStringLiteral("warmupS"), 0}}));
    }

    void computeFigures() {
        StepResult s;
        s.durationS = 2;
        s.answered = 1000;
        for (int i = 1; i <= 1000; ++i) s.latency.record(i);
        s.computeFigures();
        QCOMPARE(s.requestsPerS, 500.0);
        QCOMPARE(s.p50Us, s.latency.percentile(50));
        QCOMPARE(s.p999Us, s.latency.percentile(99.9));
        QCOMPARE(s.maxUs, 1000.0);
        QCOMPARE(s.meanUs, 500.5);
        StepResult none;
        none.computeFigures();
        QCOMPARE(none.requestsPerS, 0.0);
    }

    void stepRoundTrip() {
        const StepResult s = sampleStep(20, 10);
        QString error;
        const auto back = StepResult::fromJson(viaText(s.toJson()), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->toJson(), s.toJson());
        QVERIFY(back->latency == s.latency);
        QCOMPARE(back->timeline.size(), std::size_t(2));
        QCOMPARE(back->timeline[0].warmup, true);
        QCOMPARE(back->timeline[1].p99Us, 300.0);
        QVERIFY(back->serverDiagnostics);
        QCOMPARE(back->serverDiagnostics->after.at(QStringLiteral("currentSessionCount")), qint64(21));
        QCOMPARE(back->errorsByStatus.at(QStringLiteral("Bad_Timeout")), uint64_t(3));
        QCOMPARE(back->beatenBy, s.beatenBy);
        QCOMPARE(back->setupS, 95.25);
        QCOMPARE(back->setupSessionsPerS, 10.5);
        QCOMPARE(back->ioThreads, 2);
        QCOMPARE(back->eventsLost, int64_t(10));
        QCOMPARE(back->eventsReceived, uint64_t(89'990));
        QCOMPARE(back->eventsRaisedPerS, 4500.0);
        // Not an events step: no event figures written, and read back as unknown.
        StepResult read = sampleStep(1, 1);
        read.eventsPerS = 0;
        read.eventsLost = -1;
        read.eventOverflows = 0;
        QVERIFY(!read.toJson().contains(QStringLiteral("eventsLost")));
        QCOMPARE(StepResult::fromJson(read.toJson())->eventsLost, int64_t(-1));
        // The server's growth over the step's Sessions.
        QCOMPARE(back->serverRssBeforeKb, 59999L);
        QCOMPARE(back->serverKbPerSession(), 40000.0 / double(s.sessions));
        QCOMPARE(s.toJson().value(QStringLiteral("serverKbPerSession")).toDouble(), 40000.0 / double(s.sessions));
        // Saved before the set-up figures existed: 0.
        QJsonObject old = s.toJson();
        old.remove(QStringLiteral("setupS"));
        old.remove(QStringLiteral("setupSessionsPerS"));
        old.remove(QStringLiteral("ioThreads"));
        const auto oldBack = StepResult::fromJson(old);
        QVERIFY(oldBack);
        QCOMPARE(oldBack->setupS, 0.0);
        QCOMPARE(oldBack->setupSessionsPerS, 0.0);
        // Saved before the RSS before the step was kept: no figure per Session.
        QJsonObject older = s.toJson();
        older.remove(QStringLiteral("serverRssBeforeKb"));
        const auto olderBack = StepResult::fromJson(older);
        QVERIFY(olderBack);
        QVERIFY(std::isnan(olderBack->serverKbPerSession()));
        // Without diagnostics: stays absent.
        StepResult plain = sampleStep(1, 1);
        plain.serverDiagnostics.reset();
        const QJsonObject po = plain.toJson();
        QVERIFY(!po.contains(QStringLiteral("serverDiagnostics")));
        QVERIFY(!StepResult::fromJson(po)->serverDiagnostics);
    }

    void stepRefused() {
        const QJsonObject good = sampleStep(1, 1).toJson();
        auto refused = [&](const QString& key, const QJsonValue& v) {
            QJsonObject o = good;
            o.insert(key, v);
            QString error;
            const bool ok = StepResult::fromJson(o, &error).has_value();
            return !ok && !error.isEmpty();
        };
        QVERIFY(refused(QStringLiteral("sent"), 5));  // sent != answered + errors + timeouts
        QVERIFY(refused(QStringLiteral("answered"), -1));
        QVERIFY(refused(QStringLiteral("p99Us"), QStringLiteral("fast")));
        QVERIFY(refused(QStringLiteral("timeline"), QJsonArray{1, 2}));
        QVERIFY(refused(QStringLiteral("timeline"), QJsonArray{QJsonObject{{QStringLiteral("requestsPerS"), QStringLiteral("x")}}}));
        QVERIFY(refused(QStringLiteral("errorsByStatus"), QJsonObject{{QStringLiteral("Bad_Timeout"), QStringLiteral("x")}}));
        QVERIFY(refused(QStringLiteral("warnings"), QJsonArray{1}));
        QVERIFY(refused(QStringLiteral("serverDiagnostics"), 3));
        QVERIFY(refused(QStringLiteral("connectionBroken"), 1));
        QVERIFY(refused(QStringLiteral("setupS"), -1));
        QVERIFY(refused(QStringLiteral("setupSessionsPerS"), QStringLiteral("fast")));
    }

    void ioThreadsFollowTheSessions() {
        // 0 (the default): one I/O thread per 100 Sessions, at most the cores, at least 1.
        const int cores = std::max(1, QThread::idealThreadCount());
        LoadParameters p;
        QCOMPARE(p.ioThreads, 0);
        p.sessions = 1;
        QCOMPARE(p.resolvedIoThreads(), 1);
        p.sessions = 100;
        QCOMPARE(p.resolvedIoThreads(), 1);
        p.sessions = 101;
        QCOMPARE(p.resolvedIoThreads(), std::min(2, cores));
        p.sessions = 1000;
        QCOMPARE(p.resolvedIoThreads(), std::min(10, cores));
        p.sessions = 100'000;
        QCOMPARE(p.resolvedIoThreads(), cores);
        p.ioThreads = 3;  // given: taken as it is
        QCOMPARE(p.resolvedIoThreads(), 3);
        QVERIFY(LoadParameters::fromJson(QJsonObject{{QStringLiteral("ioThreads"), 0}}));
    }

    void runRoundTripAndCsv() {
        RunResult run;
        run.label = QStringLiteral("ours");
        run.machine = machineDescription();
        run.version = QStringLiteral("0.1.0");
        run.startedUtc = QDateTime(QDate(2026, 11, 30), QTime(13, 10, 5, 250), Qt::UTC);
        run.parameters = sampleParameters();
        run.plan.sessions = {1, 2, 5};
        run.plan.outstanding = {1, 10};
        run.plan.stopRules.maxErrorFraction = 0.02;
        run.plan.stopRules.maxP99Factor = 5;
        run.plan.stopRules.minThroughputFactor = 0.4;
        run.plan.stopRules.brokenConnection = false;
        run.steps = {sampleStep(1, 1), sampleStep(2, 1)};
        QString error;
        const auto back = RunResult::fromJson(viaText(run.toJson()), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->startedUtc, run.startedUtc);
        QCOMPARE(back->plan.sessions, run.plan.sessions);
        QCOMPARE(back->plan.outstanding, run.plan.outstanding);
        QCOMPARE(back->plan.stopRules.maxP99Factor, 5.0);
        QCOMPARE(back->plan.stopRules.brokenConnection, false);
        QCOMPARE(back->steps.size(), std::size_t(2));
        QVERIFY(!back->toJson().value(QStringLiteral("parameters")).toObject().contains(QStringLiteral("password")));
        RunResult expected = run;
        expected.parameters.password.clear();
        QCOMPARE(back->toJson(), expected.toJson());

        const QStringList lines = run.toCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("scenario,sessions,outstanding,requestsPerS,valuesPerS,p50Us")));
        QVERIFY(lines[0].endsWith(QStringLiteral(",beatenBy,serverKbPerSession")));
        QVERIFY(lines[2].startsWith(QStringLiteral("subscribe,2,1,495.0,49500.0,")));
        // A quoted CSV field, then the server's KB per Session: (99,999 - 59,999) KB / 2 Sessions.
        QVERIFY2(lines[2].endsWith(QStringLiteral("\"errors 1.0 % > 1 %, \"\"quoted\"\"\",20000.0")), qPrintable(lines[2]));
    }

    void runRefused() {
        RunResult run;
        run.steps = {sampleStep(1, 1)};
        const QJsonObject good = run.toJson();
        QVERIFY(RunResult::fromJson(good));
        auto refusedWith = [&](QJsonObject o, const char* expect) {
            QString error;
            if (RunResult::fromJson(o, &error)) return false;
            if (!error.contains(QLatin1String(expect))) qWarning("error: %s", qPrintable(error));
            return error.contains(QLatin1String(expect));
        };
        QJsonObject o = good;
        o.remove(QStringLiteral("parameters"));
        QVERIFY(refusedWith(o, "parameters"));
        o = good;
        QJsonObject p = o.value(QStringLiteral("parameters")).toObject();
        p.insert(QStringLiteral("sessions"), 0);
        o.insert(QStringLiteral("parameters"), p);
        QVERIFY(refusedWith(o, "sessions"));
        o = good;
        o.insert(QStringLiteral("plan"), QJsonObject{{QStringLiteral("sessions"), QJsonArray{2, 1}}});
        QVERIFY(refusedWith(o, "not ascending"));
        o.insert(QStringLiteral("plan"), QJsonObject{{QStringLiteral("outstanding"), QJsonArray{0}}});
        QVERIFY(refusedWith(o, "outstanding"));
        o = good;
        o.insert(QStringLiteral("steps"), QJsonArray{QJsonObject{{QStringLiteral("sent"), 3}}});
        QVERIFY(refusedWith(o, "steps[0]"));
        o = good;
        o.insert(QStringLiteral("startedUtc"), QStringLiteral("yesterday"));
        QVERIFY(refusedWith(o, "startedUtc"));
        o = good;
        o.insert(QStringLiteral("steps"), 5);
        QVERIFY(refusedWith(o, "steps"));
    }

    void machine() {
        const QString m = machineDescription();
        QVERIFY2(m.contains(QStringLiteral("core")), qPrintable(m));
        QVERIFY(logicalCores() >= 1);
        const ProcessSample self = sampleProcess(0);
        QVERIFY(self.cpuMs >= 0);
        QVERIFY(self.rssKb > 0);
        QCOMPARE(sampleProcess(QCoreApplication::applicationPid()).rssKb > 0, true);
        const ProcessSample none = sampleProcess(999'999'999);
        QCOMPARE(none.cpuMs, -1.0);
        QCOMPARE(none.rssKb, -1L);
    }
};

UA_TEST_GUILESS_MAIN(TestLoadResultsJson)
#include "tst_load_results_json.moc"
