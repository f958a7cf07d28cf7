// SweepRunner (loadtest-app/engine) against our Server in process: the steps in their order
// (outstanding ascending, sessions ascending in each), a signal per step, the stop rules cutting
// a row (and the whole sweep when a row's first step is beaten), stop(), the run's JSON round
// trip; beatenBy() on hand-made steps for each rule.
#include "engine/SweepRunner.h"

#include <QCoreApplication>

#include "ua/server/runtime/Server.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;
using namespace ua::loadtest;

namespace {

StepResult step(uint64_t sent, uint64_t answered, uint64_t errors, uint64_t timeouts, double rps, double p99) {
    StepResult s;
    s.sent = sent;
    s.answered = answered;
    s.errors = errors;
    s.timeouts = timeouts;
    s.requestsPerS = rps;
    s.p99Us = p99;
    return s;
}

} // namespace

class TestSweepRunner : public QObject {
    Q_OBJECT
    std::unique_ptr<Server> m_server;

    LoadParameters base() const {
        LoadParameters p;
        p.endpointUrl = m_server->endpointUrl();
        p.scenario = Scenario::Read;
        p.durationS = 1;
        p.warmupS = 0.5;
        return p;
    }

    RunResult runSweep(SweepRunner& sweep, const LoadParameters& p, const SweepPlan& plan, QList<QList<QVariant>>* started = nullptr,
                       int* finishedSteps = nullptr) {
        QSignalSpy stepStarted(&sweep, &SweepRunner::stepStarted);
        QSignalSpy stepFinished(&sweep, &SweepRunner::stepFinished);
        QSignalSpy finished(&sweep, &SweepRunner::finished);
        sweep.start(p, plan, QStringLiteral("ours"));
        if (!finished.wait(60'000)) {
            qWarning("the sweep did not finish");
            return {};
        }
        if (started)
            for (const auto& args : stepStarted) *started << args;
        if (finishedSteps) *finishedSteps = int(stepFinished.size());
        return finished.at(0).at(0).value<RunResult>();
    }

private slots:
    void initTestCase() {
        QLoggingCategory::setFilterRules(QStringLiteral("ua.server.*.info=false"));
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.listenAddress = QHostAddress::LocalHost;
        cfg.ioThreads = 1;
        m_server = std::make_unique<Server>(cfg);
        QVERIFY(m_server->start());
    }

    void beatenByRules() {
        const StopRules rules;  // 1 %, 10 x p99, 0.5 x throughput, broken connection
        const StepResult prev = step(1000, 1000, 0, 0, 1000, 500);
        QCOMPARE(beatenBy(step(1000, 1000, 0, 0, 900, 900), 100, &prev, rules), QString());
        // Errors and timeouts over 1 % of the requests sent (exactly 1 % is not over).
        QCOMPARE(beatenBy(step(1000, 990, 10, 0, 900, 200), 100, &prev, rules), QString());
        QCOMPARE(beatenBy(step(1000, 968, 20, 12, 900, 200), 100, &prev, rules), QStringLiteral("errors 3.2 % > 1 %"));
        // p99 over 10 x the lightest step's.
        QCOMPARE(beatenBy(step(1000, 1000, 0, 0, 900, 1000), 100, &prev, rules), QString());
        QCOMPARE(beatenBy(step(1000, 1000, 0, 0, 900, 1500), 100, &prev, rules), QStringLiteral("p99 1.500 ms > 10 x 0.100 ms"));  // one unit
        // Throughput under half the previous step's; the first step of a row has no previous.
        QCOMPARE(beatenBy(step(1000, 1000, 0, 0, 499, 200), 100, &prev, rules), QStringLiteral("throughput 499/s < 0.5 x 1000/s"));
        QCOMPARE(beatenBy(step(1000, 1000, 0, 0, 499, 200), 100, nullptr, rules), QString());
        // A broken connection, unless the rule is off.
        StepResult broken = step(1000, 1000, 0, 0, 900, 200);
        broken.connectionBroken = true;
        QCOMPARE(beatenBy(broken, 100, &prev, rules), QStringLiteral("a connection broke"));
        StopRules lenient = rules;
        lenient.brokenConnection = false;
        QCOMPARE(beatenBy(broken, 100, &prev, lenient), QString());
        // A step that did not run, or sent nothing.
        StepResult failed;
        failed.error = QStringLiteral("3 of 5 Sessions could not be set up");
        QCOMPARE(beatenBy(failed, 100, &prev, rules), QStringLiteral("did not run: 3 of 5 Sessions could not be set up"));
        QCOMPARE(beatenBy(StepResult(), 100, nullptr, rules), QStringLiteral("no request was sent"));
        // No lightest p99 yet: that rule cannot apply.
        QCOMPARE(beatenBy(step(1000, 1000, 0, 0, 900, 1e6), 0, nullptr, rules), QString());
    }

    void sweepInOrder() {
        SweepRunner sweep;
        SweepPlan plan;
        plan.sessions = {1, 2};
        plan.outstanding = {1, 4};
        // Only the order is checked here: a noisy machine must not cut the sweep short.
        plan.stopRules.maxP99Factor = 1e6;
        plan.stopRules.minThroughputFactor = 0;
        QList<QList<QVariant>> started;
        int stepsFinished = 0;
        QSignalSpy samples(&sweep, &SweepRunner::sample);
        QSignalSpy phases(&sweep, &SweepRunner::phaseChanged);
        LoadParameters p = base();
        p.serverPid = QCoreApplication::applicationPid();  // the server runs in this process
        const RunResult run = runSweep(sweep, p, plan, &started, &stepsFinished);
        QVERIFY(!sweep.isRunning());
        // Memory per Session is counted from the server's RSS before the sweep's first Sessions,
        // in every step (a server keeps what earlier steps allocated).
        QCOMPARE(run.steps.size(), std::size_t(4));
        QVERIFY(run.steps[0].serverRssBeforeKb > 0);
        for (const StepResult& s : run.steps) QCOMPARE(s.serverRssBeforeKb, run.steps[0].serverRssBeforeKb);
        QCOMPARE(sweep.stepCount(), 4);
        QCOMPARE(stepsFinished, 4);
        QCOMPARE(started.size(), 4);
        const int expected[4][4] = {{0, 4, 1, 1}, {1, 4, 2, 1}, {2, 4, 1, 4}, {3, 4, 2, 4}};
        for (int i = 0; i < 4; ++i)
            for (int k = 0; k < 4; ++k) QCOMPARE(started[i][k].toInt(), expected[i][k]);
        QCOMPARE(run.steps.size(), std::size_t(4));
        for (int i = 0; i < 4; ++i) {
            const StepResult& s = run.steps[std::size_t(i)];
            QCOMPARE(s.sessions, expected[i][2]);
            QCOMPARE(s.outstanding, expected[i][3]);
            QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
            QCOMPARE(s.sent, s.answered + s.errors + s.timeouts);
            QVERIFY(s.answered > 0);
            QVERIFY2(s.beatenBy.isEmpty(), qPrintable(s.beatenBy));
        }
        QVERIFY(samples.size() >= 4);
        QVERIFY(phases.size() >= 4 * 5);
        QCOMPARE(run.label, QStringLiteral("ours"));
        QVERIFY(run.machine.contains(QStringLiteral("core")));
        QVERIFY(!run.version.isEmpty());
        QVERIFY(run.startedUtc.isValid());
        QCOMPARE(run.plan.sessions, plan.sessions);

        // Saved and read back.
        QString error;
        const auto back = RunResult::fromJson(QJsonDocument::fromJson(QJsonDocument(run.toJson()).toJson()).object(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->toJson(), run.toJson());
        QCOMPARE(run.toCsv().count(QLatin1Char('\n')), 5);
    }

    void rowStopsWhenBeaten() {
        // Every step after the first of a row "beats" the server (throughput under 100 x the
        // previous): each row stops at its second step; the third sessions value is skipped.
        SweepRunner sweep;
        SweepPlan plan;
        plan.sessions = {1, 2, 3};
        plan.outstanding = {1, 2};
        plan.stopRules.minThroughputFactor = 100;
        plan.stopRules.maxP99Factor = 1e6;  // only the throughput rule
        LoadParameters p = base();
        p.durationS = 0.5;
        p.warmupS = 0.2;
        QList<QList<QVariant>> started;
        const RunResult run = runSweep(sweep, p, plan, &started);
        QCOMPARE(sweep.stepCount(), 6);
        QCOMPARE(run.steps.size(), std::size_t(4));
        QCOMPARE(started.size(), 4);
        QCOMPARE(started[2][0].toInt(), 3);  // (1 session, 2 outstanding) is planned step 3
        QVERIFY(run.steps[0].beatenBy.isEmpty());
        QVERIFY2(run.steps[1].beatenBy.startsWith(QStringLiteral("throughput")), qPrintable(run.steps[1].beatenBy));
        QVERIFY(run.steps[2].beatenBy.isEmpty());
        QVERIFY(run.steps[3].beatenBy.startsWith(QStringLiteral("throughput")));
        QCOMPARE(run.steps[3].sessions, 2);
        QCOMPARE(run.steps[3].outstanding, 2);
    }

    void firstStepBeatenEndsSweep() {
        // The lightest step itself beats the server (p99 over 0.5 x its own): nothing heavier runs.
        SweepRunner sweep;
        SweepPlan plan;
        plan.sessions = {1, 2};
        plan.outstanding = {1, 2};
        plan.stopRules.maxP99Factor = 0.5;
        LoadParameters p = base();
        p.durationS = 0.5;
        p.warmupS = 0.2;
        const RunResult run = runSweep(sweep, p, plan);
        QCOMPARE(run.steps.size(), std::size_t(1));
        QVERIFY2(run.steps[0].beatenBy.startsWith(QStringLiteral("p99")), qPrintable(run.steps[0].beatenBy));
        // A server that is not there: the first step does not run, and that ends the sweep too.
        LoadParameters nowhere = p;
        nowhere.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:1");
        plan.stopRules = StopRules();
        const RunResult none = runSweep(sweep, nowhere, plan);
        QCOMPARE(none.steps.size(), std::size_t(1));
        QVERIFY(none.steps[0].beatenBy.startsWith(QStringLiteral("did not run")));
    }

    void stopEndsSweep() {
        SweepRunner sweep;
        SweepPlan plan;
        plan.sessions = {1, 2, 4};
        LoadParameters p = base();
        p.durationS = 30;
        QSignalSpy finished(&sweep, &SweepRunner::finished);
        QSignalSpy stepFinished(&sweep, &SweepRunner::stepFinished);
        sweep.start(p, plan);
        QTest::qWait(1500);
        sweep.stop();
        QVERIFY(finished.wait(15'000));
        const RunResult run = finished.at(0).at(0).value<RunResult>();
        QCOMPARE(run.steps.size(), std::size_t(1));
        QVERIFY(run.steps[0].durationS < 5);
        QCOMPARE(run.label, p.endpointUrl);  // no label given
        QVERIFY(!sweep.isRunning());
    }
};

UA_TEST_GUILESS_MAIN(TestSweepRunner)
#include "tst_sweep_runner.moc"
