// A distributed sweep from the load tester's window (docs/LoadTesterWindow.md "Distributed
// runs"), offscreen: the host list as an Open MPI hostfile, the mpirun command line built from the
// set-up (the password never in it), the ranks table (RanksModel) under QAbstractItemModelTester,
// and a real sweep through the set-up panel's fields: Processes 3 starts mpirun with 3 ranks of the
// built ua-loadtest against our Server in this process, and the window shows the merged steps and,
// for the selected one, each rank's share. Skipped (that case only) without MPI.
#include "cli/CliOptions.h"
#include "ua/server/runtime/Server.h"
#include "window/DistributedRun.h"
#include "window/MainWindow.h"
#include "window/RanksModel.h"
#include "window/ResultsModel.h"
#include "window/SetupPanel.h"

#include <QAbstractItemModelTester>
#include <QDoubleSpinBox>
#include <QJsonDocument>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;
using namespace ua::loadtest;

class TestLoadtestDistributed : public QObject {
    Q_OBJECT
private slots:
    void hostListAsHostfile();
    void mpirunArgumentsFollowTheSetUp();
    void ranksModel();
    void windowRunsADistributedSweep();
};

void TestLoadtestDistributed::hostListAsHostfile() {
    QCOMPARE(*hostfileText(QStringLiteral("gen-a:4, gen-b\ngen-c:1")), QStringLiteral("gen-a slots=4\ngen-b\ngen-c slots=1\n"));
    QCOMPARE(*hostfileText(QStringLiteral("  10.0.0.5:2  ")), QStringLiteral("10.0.0.5 slots=2\n"));
    QString error;
    QVERIFY(!hostfileText(QStringLiteral("gen-a:x"), &error));
    QVERIFY2(error.contains(QStringLiteral("gen-a:x")), qPrintable(error));
    QVERIFY(!hostfileText(QStringLiteral("gen-a:0")));
    QVERIFY(!hostfileText(QStringLiteral(":3")));
    QVERIFY(!hostfileText(QStringLiteral(" , ")));
}

void TestLoadtestDistributed::mpirunArgumentsFollowTheSetUp() {
    DistributedSetup d;
    d.processes = 4;
    d.executable = QStringLiteral("/opt/ua/ua-loadtest");
    LoadParameters p;
    p.endpointUrl = QStringLiteral("opc.tcp://server:4840");
    p.scenario = Scenario::Write;
    p.valuesPerRequest = 10;
    p.targetRate = 2500;
    p.userName = QStringLiteral("op");
    p.password = QStringLiteral("secret");
    SweepPlan plan;
    plan.sessions = {4, 40};
    plan.outstanding = {1, 10};
    plan.stopRules.maxErrorFraction = 0.05;
    const QStringList a = mpirunArguments(d, p, plan, QStringLiteral("ours"), QStringLiteral("/tmp/hosts"), QStringLiteral("/tmp/out.json"));
    auto after = [&a](const char* option) {
        const qsizetype i = a.indexOf(QLatin1String(option));
        return i >= 0 && i + 1 < a.size() ? a[i + 1] : QStringLiteral("(missing)");
    };
    QCOMPARE(after("-np"), QStringLiteral("4"));
    QCOMPARE(after("--hostfile"), QStringLiteral("/tmp/hosts"));
    QVERIFY(!a.contains(QStringLiteral("--oversubscribe")));
    // The program, then the command and the target, then its options.
    const qsizetype program = a.indexOf(QStringLiteral("/opt/ua/ua-loadtest"));
    QVERIFY(program > 0);
    QCOMPARE(a[program + 1], QStringLiteral("sweep"));
    QCOMPARE(a[program + 2], QStringLiteral("opc.tcp://server:4840"));
    QCOMPARE(after("--sessions"), QStringLiteral("4,40"));
    QCOMPARE(after("--outstanding"), QStringLiteral("1,10"));
    QCOMPARE(after("--scenario"), QStringLiteral("write"));
    QCOMPARE(after("--values"), QStringLiteral("10"));
    QCOMPARE(after("--rate"), QStringLiteral("2500"));
    QCOMPARE(after("--user"), QStringLiteral("op"));
    QCOMPARE(after("--max-errors"), QStringLiteral("5"));
    QCOMPARE(after("--label"), QStringLiteral("ours"));
    QCOMPARE(after("--json"), QStringLiteral("/tmp/out.json"));
    // The password travels in the environment, forwarded to every rank with -x.
    QVERIFY(!a.contains(QStringLiteral("secret")));
    QCOMPARE(after("-x"), QStringLiteral("UA_PASSWORD"));
    // What the ranks parse is the set-up: every field the window sets comes back.
    QString error;
    qputenv("UA_PASSWORD", "secret");  // as mpirun -x hands it to each rank
    const auto parsed = parseCliOptions(a.mid(program), &error);
    qunsetenv("UA_PASSWORD");
    QVERIFY2(parsed, qPrintable(error));
    QCOMPARE(parsed->command, QStringLiteral("sweep"));
    QCOMPARE(parsed->target.url, p.endpointUrl);
    QCOMPARE(parsed->plan.sessions, plan.sessions);
    QCOMPARE(parsed->plan.outstanding, plan.outstanding);
    QCOMPARE(parsed->plan.stopRules.maxErrorFraction, plan.stopRules.maxErrorFraction);
    QCOMPARE(parsed->plan.stopRules.maxP99Factor, plan.stopRules.maxP99Factor);
    LoadParameters back = parsed->parameters;
    LoadParameters want = p;
    QCOMPARE(back.password, QStringLiteral("secret"));  // from UA_PASSWORD, not the arguments
    back.endpointUrl = want.endpointUrl;          // the target, compared above
    back.sessions = want.sessions;                // the plan's lists, compared above
    back.outstanding = want.outstanding;
    QCOMPARE(QJsonDocument(back.toJson()).toJson(), QJsonDocument(want.toJson()).toJson());
    QCOMPARE(parsed->jsonFile, QStringLiteral("/tmp/out.json"));
    // This machine only: no hostfile, more ranks than cores allowed.
    const QStringList local = mpirunArguments(d, p, plan, {}, {}, QStringLiteral("/tmp/out.json"));
    QVERIFY(local.contains(QStringLiteral("--oversubscribe")) && !local.contains(QStringLiteral("--hostfile")));
}

void TestLoadtestDistributed::ranksModel() {
    RanksModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    StepResult step;
    for (int r = 0; r < 3; ++r) {
        RankShare share;
        share.rank = r;
        share.host = QStringLiteral("gen-%1").arg(r);
        share.sessions = 2 - (r == 2);
        share.answered = uint64_t(100 * (r + 1));
        share.errors = r == 1 ? 3 : 0;
        share.requestsPerS = 50.0 * (r + 1);
        if (r == 2) share.error = QStringLiteral("connect to x: Bad_ConnectionRejected");
        step.ranks.push_back(share);
    }
    model.setStep(step);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(RanksModel::ColumnCount));
    QCOMPARE(model.index(1, RanksModel::HostColumn).data().toString(), QStringLiteral("gen-1"));
    QCOMPARE(model.index(2, RanksModel::SessionsColumn).data().toInt(), 1);
    QCOMPARE(model.index(2, RanksModel::AnsweredColumn).data().toString(), QStringLiteral("300"));
    QCOMPARE(model.index(1, RanksModel::FailedColumn).data().toString(), QStringLiteral("3"));
    QCOMPARE(model.index(2, RanksModel::ErrorColumn).data().toString(), QStringLiteral("connect to x: Bad_ConnectionRejected"));
    QVERIFY(model.index(2, RanksModel::RankColumn).data(Qt::ForegroundRole).isValid());  // a failed rank stands out
    QVERIFY(!model.index(0, RanksModel::RankColumn).data(Qt::ForegroundRole).isValid());
    QCOMPARE(model.headerData(RanksModel::HostColumn, Qt::Horizontal).toString(), QStringLiteral("Host"));
    model.setStep(StepResult());
    QCOMPARE(model.rowCount(), 0);
}

void TestLoadtestDistributed::windowRunsADistributedSweep() {
    if (!UA_WITH_MPI) QSKIP("ua-loadtest was built without MPI (apt-get install openmpi-bin libopenmpi-dev)");
    ServerConfig cfg;  // the benchmark variables ns=1;i=1000.. on a free port of this machine
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toUtf8());  // the ranks' certificate store
    // ./test.sh --asan: no leak check in the ranks, whose Open MPI leaks at MPI_Finalize from plugins
    // it has unloaded (tests/loadtest/cli/tst_loadtest_mpi.cpp); this process read its options already.
    const QByteArray asan = qgetenv("ASAN_OPTIONS");
    qputenv("ASAN_OPTIONS", (asan.isEmpty() ? QByteArray() : asan + ':') + "detect_leaks=0");
    WindowOptions options;
    options.settingsFile = dir.filePath(QStringLiteral("settings.ini"));
    options.mpirun = QStringLiteral(UA_MPIEXEC);
    options.loadtestExecutable = QStringLiteral(UA_LOADTEST_EXECUTABLE);
    MainWindow window(options);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    SetupPanel* setup = window.setup();
    auto* hosts = setup->findChild<QLineEdit*>(QStringLiteral("mpiHosts"));
    auto* processes = setup->findChild<QSpinBox*>(QStringLiteral("mpiProcesses"));
    QVERIFY(hosts && processes);
    QVERIFY(!hosts->isEnabled());  // one process: no hosts to give
    setup->findChild<QLineEdit*>(QStringLiteral("endpointUrl"))->setText(server.endpointUrl());
    setup->findChild<QLineEdit*>(QStringLiteral("sessionsList"))->setText(QStringLiteral("2,3"));
    setup->findChild<QLineEdit*>(QStringLiteral("outstandingList"))->setText(QStringLiteral("1"));
    setup->findChild<QDoubleSpinBox*>(QStringLiteral("durationS"))->setValue(1);
    setup->findChild<QDoubleSpinBox*>(QStringLiteral("warmupS"))->setValue(0.3);
    processes->setValue(3);
    QVERIFY(hosts->isEnabled());
    // 2 Sessions cannot be split over 3 processes: refused before anything starts.
    QVERIFY(!window.startSweep(true));
    QVERIFY(!window.isRunning());
    setup->findChild<QLineEdit*>(QStringLiteral("sessionsList"))->setText(QStringLiteral("3,5"));

    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    QVERIFY(window.startSweep(true));
    QVERIFY(window.isRunning());
    QVERIFY(!window.startButton()->isEnabled());
    QVERIFY2(finished.wait(120000), "the distributed sweep did not end");
    QVERIFY(!window.isRunning());
    const RunResult& run = window.run();
    QVERIFY2(run.steps.size() == 2, qPrintable(QStringLiteral("%1 steps; status: %2").arg(run.steps.size()).arg(window.statusBar()->currentMessage())));
    QCOMPARE(window.results()->rowCount(), 2);
    QVERIFY2(run.machine.contains(QStringLiteral("3 ranks on")), qPrintable(run.machine));
    QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Finished.")),
             qPrintable(window.statusBar()->currentMessage()));  // mpirun exited with 0
    const int sessions[] = {3, 5};
    for (int s = 0; s < 2; ++s) {
        const StepResult& step = run.steps[std::size_t(s)];
        QVERIFY2(step.error.isEmpty(), qPrintable(step.error));
        QCOMPARE(step.sessions, sessions[s]);
        QCOMPARE(step.ranks.size(), std::size_t(3));
        uint64_t answered = 0;
        int rankSessions = 0;
        for (const RankShare& r : step.ranks) {
            QVERIFY(r.answered > 0);
            answered += r.answered;
            rankSessions += r.sessions;
        }
        QCOMPARE(answered, step.answered);
        QCOMPARE(rankSessions, step.sessions);
    }
    // The last step is selected: its ranks are shown, 2, 2 and 1 Sessions.
    QTRY_VERIFY(window.ranksView()->isVisible());
    RanksModel* ranks = window.ranks();
    QCOMPARE(ranks->rowCount(), 3);
    QCOMPARE(ranks->index(0, RanksModel::SessionsColumn).data().toInt(), 2);
    QCOMPARE(ranks->index(2, RanksModel::SessionsColumn).data().toInt(), 1);
    QCOMPARE(ranks->index(1, RanksModel::AnsweredColumn).data().toString(), QString::number(run.steps[1].ranks[1].answered));
    // The first step selected: its own ranks (1 Session each).
    window.resultsView()->selectRow(0);
    QTRY_COMPARE(ranks->index(0, RanksModel::SessionsColumn).data().toInt(), 1);
    server.stop();
}

UA_TEST_MAIN(TestLoadtestDistributed)
#include "tst_loadtest_distributed.moc"
