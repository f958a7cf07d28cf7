// The events scenario of the load tester (issue 31 item 5) against our Server in process: the
// Sessions' event items receive every event the server raised for the step (lost 0, expected =
// received = raised x Sessions), latency is measured per event, a where clause Severity >= S lets
// exactly the events of that Severity through, a queue too small for the rate is reported (the
// server's EventQueueOverflowEventType notifications, and lost > 0: the counting can fail), and what
// cannot run is refused with a reason: parameters out of range, a server without our demo's
// GenerateEvents, an anonymous user who may not call it, a distributed step. The arithmetic of
// the expected events is checked against counting one by one.
#include "engine/LoadRunner.h"
#include "engine/StepCoordinator.h"
#include "RunStep.h"

#include "DemoEventLoad.h"

#include "ua/server/runtime/Server.h"

#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <algorithm>
#include <memory>

using namespace ua;
using namespace ua::loadtest;

namespace {

std::unique_ptr<Server> startEventServer(const QString& pkiDir, bool demo, bool operatorAnonymous) {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 2;
    cfg.demoNamespace = demo;
    cfg.demoEventsMs = 0;  // only the load's events
    cfg.security.pkiDir = pkiDir;
    if (operatorAnonymous) cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // may call GenerateEvents
    auto server = std::make_unique<Server>(cfg);
    if (!server->start()) {
        qWarning("server did not start: %s", qPrintable(server->errorString()));
        return nullptr;
    }
    return server;
}

QString describeEvents(const StepResult& r) {
    return QStringLiteral("error '%1' warnings '%2' messages %3, %4 events/s, raised %5 (%6/s), expected %7 received %8 lost %9 "
                          "overflows %10 out of order %11, latency count %12 p50 %13 us")
        .arg(r.error, r.warnings.join(QStringLiteral("; ")))
        .arg(r.answered)
        .arg(r.eventsPerS, 0, 'f', 0)
        .arg(r.eventsRaised)
        .arg(r.eventsRaisedPerS, 0, 'f', 0)
        .arg(r.eventsExpected)
        .arg(r.eventsReceived)
        .arg(r.eventsLost)
        .arg(r.eventOverflows)
        .arg(r.eventsOutOfOrder)
        .arg(r.latency.count())
        .arg(r.p50Us);
}

// A coordinator of one process that only says a step is distributed.
class OneRankCoordinator final : public StepCoordinator {
public:
    LoadParameters share(const LoadParameters& whole) const override { return whole; }
    QString ready(const QString& localError, const std::function<void()>&) override { return localError; }
    StepResult combine(const StepResult& mine, const LoadParameters&) override { return mine; }
    bool anyStops(bool localStop) override { return localStop; }
};

} // namespace

class TestLoadEvents : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;

    LoadParameters base() const {
        LoadParameters p;
        p.endpointUrl = m_server->endpointUrl();
        p.scenario = Scenario::Events;
        p.sessions = 3;
        p.durationS = 1;
        p.warmupS = 0.3;
        p.ioThreads = 1;
        p.publishingIntervalMs = 50;
        p.eventRate = 1000;
        p.readServerDiagnostics = false;
        return p;
    }

private slots:
    void initTestCase() {
        QLoggingCategory::setFilterRules(QStringLiteral("ua.server.*.info=false"));
        qRegisterMetaType<StepResult>();
        QVERIFY(m_dir.isValid());
        m_server = startEventServer(m_dir.filePath(QStringLiteral("pki")), true, true);
        QVERIFY(m_server);
    }

    // expectedCount / lastExpected against counting the Sequences one by one.
    void expectedArithmetic() {
        for (int severity : {1, 2, 500, 999, 1000})
            for (const auto& [first, last] : {std::pair<uint64_t, uint64_t>{1, 1}, {1, 999}, {1, 1000}, {998, 2003}, {5, 4},
                                              {1000, 1000}, {999, 999}, {12345, 15678}, {1, 5000}, {3, 1002}}) {
                uint64_t count = 0, lastOne = 0;
                for (uint64_t k = first; k <= last; ++k)
                    if (events::severityOf(k) >= severity) {
                        ++count;
                        lastOne = k;
                    }
                QCOMPARE(events::expectedCount(first, last, severity), count);
                QCOMPARE(events::lastExpected(first, last, severity), lastOne);
            }
        // Each Severity once in every 1000 consecutive Sequences, as the demo raises them.
        for (uint64_t from : {uint64_t(1), uint64_t(617), uint64_t(123'456'789)}) {
            std::vector<int> seen(1001, 0);
            for (uint64_t k = from; k < from + 1000; ++k) {
                QCOMPARE(events::severityOf(k), int(DemoEventLoadManager::severityOf(k)));
                ++seen[std::size_t(events::severityOf(k))];
            }
            QCOMPARE(std::count(seen.begin() + 1, seen.end(), 1), std::ptrdiff_t(1000));
        }
        // Spread out: of 100 consecutive Sequences, about a fifth have Severity >= 801.
        int high = 0;
        for (uint64_t k = 5000; k < 5100; ++k) high += events::severityOf(k) >= 801 ? 1 : 0;
        QVERIFY2(high >= 15 && high <= 25, qPrintable(QString::number(high)));
    }

    // Every event raised for the step reaches every Session's item: nothing lost, overflowed or out
    // of order; the rates and the latency are figures of the events.
    void deliversEveryEvent() {
        const StepResult r = runTestStep(base());
        QVERIFY2(r.error.isEmpty(), qPrintable(describeEvents(r)));
        QVERIFY2(r.eventsRaised > 0, qPrintable(describeEvents(r)));
        QCOMPARE(r.eventsExpected, r.eventsRaised * 3);
        QCOMPARE(r.eventsReceived, r.eventsExpected);
        QCOMPARE(r.eventsLost, int64_t(0));
        QCOMPARE(r.eventOverflows, uint64_t(0));
        QCOMPARE(r.eventsOutOfOrder, uint64_t(0));
        QVERIFY2(r.eventsPerS > 0, qPrintable(describeEvents(r)));
        QCOMPARE(r.eventsPerS, r.valuesPerS);
        QVERIFY(r.eventsRaisedPerS > 0);
        // Latency per event received in the period: as many as events counted there.
        QCOMPARE(double(r.latency.count()), std::round(r.eventsPerS * r.durationS));
        QVERIFY(r.p50Us > 0 && r.p50Us <= r.p99Us && r.p99Us <= r.maxUs);
        QCOMPARE(r.sent, r.answered + r.errors + r.timeouts);
        QCOMPARE(r.errors, uint64_t(0));
        QVERIFY(!r.connectionBroken);
        QCOMPARE(stepShape(base()), QStringLiteral("events-1000"));
    }

    // Severity >= 501: the items let through exactly the events of Severity 501..1000 (the runner
    // counts those it expects by the Sequence; any other event would be "more than raised"): half.
    void whereClauseOnSeverity() {
        LoadParameters p = base();
        p.eventMinSeverity = 501;
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.isEmpty(), qPrintable(describeEvents(r)));
        QCOMPARE(r.eventsLost, int64_t(0));
        QCOMPARE(r.eventsReceived, r.eventsExpected);
        // Half of any 1000 consecutive Sequences pass: of n raised, n / 2 +- 500 per Session.
        const double perSession = double(r.eventsExpected) / 3;
        QVERIFY2(std::abs(perSession - double(r.eventsRaised) / 2) <= 500, qPrintable(describeEvents(r)));
        QVERIFY(r.eventsExpected < r.eventsRaised * 3);
        QCOMPARE(stepShape(p), QStringLiteral("events-1000-sev501"));
    }

    // A queue of 5 events published every 2 s at 2,000 events a second must overflow: the server says
    // so (EventQueueOverflowEventType) and the runner counts the events lost.
    void overflowIsReported() {
        LoadParameters p = base();
        p.sessions = 1;
        p.eventRate = 2000;
        p.eventQueueSize = 5;
        p.publishingIntervalMs = 2000;
        p.durationS = 2.5;
        p.warmupS = 0;
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.isEmpty(), qPrintable(describeEvents(r)));
        QVERIFY2(r.eventOverflows > 0, qPrintable(describeEvents(r)));
        QVERIFY2(r.eventsLost > 0, qPrintable(describeEvents(r)));
        QCOMPARE(int64_t(r.eventsReceived) + r.eventsLost, int64_t(r.eventsExpected));
        QVERIFY(!r.warnings.isEmpty());
    }

    // eventRate 0: nothing is called; the events the server raises by itself are measured, none here,
    // and the loss is unknown.
    void serverOwnEvents() {
        LoadParameters p = base();
        p.eventRate = 0;
        p.durationS = 0.5;
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.isEmpty(), qPrintable(describeEvents(r)));
        QCOMPARE(r.eventsLost, int64_t(-1));
        QCOMPARE(r.eventsRaised, uint64_t(0));
        QCOMPARE(r.eventsPerS, 0.0);
    }

    // Out of range before anything is sent.
    void refusedParameters() {
        auto refused = [&](LoadParameters p, const char* what) {
            const StepResult r = runTestStep(p);
            QVERIFY2(!r.error.isEmpty(), what);
            QCOMPARE(r.sent, uint64_t(0));
        };
        LoadParameters p = base();
        p.eventRate = 1'000'001;
        refused(p, "eventRate 1000001");
        p = base();
        p.eventMinSeverity = 0;
        refused(p, "eventMinSeverity 0");
        p.eventMinSeverity = 1001;
        refused(p, "eventMinSeverity 1001");
        p = base();
        p.eventQueueSize = 0;
        refused(p, "eventQueueSize 0");
        p = base();
        p.targetRate = 100;
        refused(p, "open loop");
    }

    // Servers that cannot serve it: no demo namespace (named), GenerateEvents not allowed to
    // anonymous users (the status and what to do).
    void serversWithoutGenerateEvents() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        {
            const auto bare = startEventServer(dir.filePath(QStringLiteral("pki1")), false, true);
            QVERIFY(bare);
            LoadParameters p = base();
            p.endpointUrl = bare->endpointUrl();
            const StepResult r = runTestStep(p);
            QVERIFY2(r.error.contains(QStringLiteral("urn:ua-workbench:demo")), qPrintable(r.error));
        }
        const auto strict = startEventServer(dir.filePath(QStringLiteral("pki2")), true, false);
        QVERIFY(strict);
        LoadParameters p = base();
        p.endpointUrl = strict->endpointUrl();
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.contains(QStringLiteral("Bad_UserAccessDenied")) && r.error.contains(QStringLiteral("Operator")),
                 qPrintable(r.error));
    }

    // A distributed events step is refused (the rate is the server's, one for every process).
    void distributedIsRefused() {
        OneRankCoordinator coordinator;
        LoadRunner runner;
        runner.setCoordinator(&coordinator);
        QSignalSpy finished(&runner, &LoadRunner::finished);
        runner.start(base());
        QVERIFY(finished.wait(10000));
        const StepResult r = finished.at(0).at(0).value<StepResult>();
        QVERIFY2(r.error.contains(QStringLiteral("one process")), qPrintable(r.error));
    }
};

UA_TEST_GUILESS_MAIN(TestLoadEvents)
#include "tst_load_events.moc"
