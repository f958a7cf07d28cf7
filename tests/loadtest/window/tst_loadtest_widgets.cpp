// Parts of the load tester's window without a server (issue 27 items 11-13): the progress row before
// a sweep (the set-up's planned steps, not "0 of 1") and after one whose steps failed (it says they
// failed, and why, not "skipped (the server was beaten)"); the live charts before any run (titles
// without a step, count axes whose tick labels differ); the per-step charts cleared for a new run;
// the file name the save and export dialogs suggest.
#include "window/RunFiles.h"
#include "window/SweepChart.h"
#include "window/SweepProgress.h"
#include "window/TimelineCharts.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QProgressBar>
#include <QSet>
#include <QValueAxis>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::loadtest;

class TestLoadtestWidgets : public QObject {
    Q_OBJECT
private slots:
    void progressBeforeASweep();
    void progressAfterFailedSteps();
    void chartTitlesBeforeAnyRun();
    void countAxisLabelsDiffer_data();
    void countAxisLabelsDiffer();
    void perStepChartsStartEmpty();
    void suggestedFileNames();
};

void TestLoadtestWidgets::progressBeforeASweep() {
    SweepProgress progress;
    progress.setPlanned(15);
    QCOMPARE(progress.bar()->maximum(), 15);
    QCOMPARE(progress.bar()->value(), 0);
    QCOMPARE(progress.bar()->text(), QStringLiteral("0 of 15 steps"));
    QVERIFY(progress.text().contains(QStringLiteral("15 steps planned")));
    progress.setPlanned(0);  // lists not valid
    QVERIFY(progress.text().contains(QStringLiteral("not valid")));
    // Once a sweep ran, its summary stays: the planned count of the next one does not replace it.
    progress.sweepStarted(2, 0, 1);
    progress.setPlanned(7);
    QCOMPARE(progress.bar()->maximum(), 2);
}

void TestLoadtestWidgets::progressAfterFailedSteps() {
    SweepProgress progress;
    progress.sweepStarted(4, 0.5, 1);
    StepResult failed;
    failed.sessions = 1;
    failed.outstanding = 1;
    failed.error = QStringLiteral("Bad_ConnectionRejected");
    progress.stepStarted(0, 4, 1, 1);
    progress.stepFinished();
    progress.sweepFinished({failed});
    QCOMPARE(progress.bar()->value(), progress.bar()->maximum());
    QCOMPARE(progress.text(), QStringLiteral("Sweep finished: 1 step, it failed: Bad_ConnectionRejected; 3 not run"));
    QVERIFY(!progress.text().contains(QStringLiteral("beaten")));

    // Steps that ran, and the rest skipped by the stop rules or Stop: said as before.
    SweepProgress ran;
    ran.sweepStarted(4, 0.5, 1);
    StepResult ok;
    ok.sessions = 1;
    ok.outstanding = 1;
    ran.sweepFinished({ok, ok});
    QCOMPARE(ran.text(), QStringLiteral("Sweep finished: 2 steps, 2 skipped (the server was beaten, or Stop)"));
    SweepProgress mixed;
    mixed.sweepStarted(3, 0.5, 1);
    mixed.sweepFinished({ok, failed, failed});
    QCOMPARE(mixed.text(), QStringLiteral("Sweep finished: 3 steps, 2 failed: Bad_ConnectionRejected"));
}

void TestLoadtestWidgets::chartTitlesBeforeAnyRun() {
    TimelineCharts charts;
    QCOMPARE(charts.throughputView()->chart()->title(), QStringLiteral("Throughput"));
    QCOMPARE(charts.latencyView()->chart()->title(), QStringLiteral("Latency"));
    charts.startStep(QStringLiteral("step 1 of 2, 1 session x 1 outstanding"), 1, 3);
    QCOMPARE(charts.throughputView()->chart()->title(), QStringLiteral("Throughput: step 1 of 2, 1 session x 1 outstanding"));
    QCOMPARE(charts.latencyView()->chart()->title(), QStringLiteral("Latency: step 1 of 2, 1 session x 1 outstanding"));
}

void TestLoadtestWidgets::countAxisLabelsDiffer_data() {
    QTest::addColumn<double>("top");
    QTest::newRow("nothing yet") << 0.0;
    QTest::newRow("below one") << 0.4;
    QTest::newRow("one") << 1.0;
    QTest::newRow("two") << 2.0;
    QTest::newRow("a few") << 7.0;
    QTest::newRow("many") << 12345.0;
}

// The tick labels as the axis prints them (its label format, printf-style) are all different.
void TestLoadtestWidgets::countAxisLabelsDiffer() {
    QFETCH(double, top);
    QValueAxis axis;
    fitCountAxis(&axis, top);
    QCOMPARE(axis.min(), 0.0);
    QVERIFY(axis.max() >= top);
    const int ticks = axis.tickCount();
    QVERIFY(ticks >= 2);
    QSet<QString> labels;
    for (int i = 0; i < ticks; ++i) {
        const double v = axis.min() + (axis.max() - axis.min()) * i / (ticks - 1);
        labels.insert(QString::asprintf(axis.labelFormat().toLatin1().constData(), v));
    }
    QVERIFY2(labels.size() == ticks, qPrintable(QStringList(labels.values()).join(QStringLiteral(", "))));
}

void TestLoadtestWidgets::perStepChartsStartEmpty() {
    SweepChart chart(QStringLiteral("Requests/s per step"), QStringLiteral("requests/s"), false);
    chart.setSessions({1, 2, 5});
    chart.addPoint(QStringLiteral("outstanding 1"), QPen(Qt::blue), 1, 100);
    chart.addPoint(QStringLiteral("outstanding 1"), QPen(Qt::blue), 5, 300);
    QCOMPARE(chart.totalPoints(), 2);
    chart.clearSeries();
    chart.setSessions({1, 2});
    QCOMPARE(chart.totalPoints(), 0);
    QCOMPARE(chart.seriesCount(), 0);
    // Nothing of the old run is left in the scene: the chart holds no series at all.
    QCOMPARE(chart.chart()->series().size(), qsizetype(0));
}

void TestLoadtestWidgets::suggestedFileNames() {
    RunResult run;
    run.label = QStringLiteral("ours");
    run.parameters.scenario = Scenario::Read;
    run.parameters.valuesPerRequest = 1;
    run.startedUtc = QDateTime(QDate(2026, 11, 30), QTime(10, 0), Qt::UTC);
    QCOMPARE(suggestedFileName(run, QStringLiteral("csv")), QStringLiteral("ours-read-1-20261130-1000.csv"));
    run.label = QStringLiteral("opc.tcp://127.0.0.1:4840");  // the default label: the endpoint
    QCOMPARE(suggestedFileName(run, QStringLiteral("json")), QStringLiteral("opc.tcp-127.0.0.1-4840-read-1-20261130-1000.json"));
    RunResult empty;
    empty.parameters.scenario = Scenario::Browse;
    QCOMPARE(suggestedFileName(empty, QStringLiteral("png")), QStringLiteral("run-browse.png"));
}

UA_TEST_MAIN(TestLoadtestWidgets)
#include "tst_loadtest_widgets.moc"
