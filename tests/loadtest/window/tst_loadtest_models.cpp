// The load tester window's models without a server: compareRuns() (steps matched by sessions x
// outstanding, ordered by outstanding then sessions, ratios b/a and none for unknown figures), the
// ResultsModel and CompareModel under QAbstractItemModelTester (shape, figures in ms, notes and
// warnings, ratio colors), and the SetupPanel (lists parsed, bad input refused, QSettings round trip).
#include "engine/RunComparison.h"
#include "window/CompareModel.h"
#include "window/ResultsModel.h"
#include "window/SetupPanel.h"
#include "ua/secure/SecurityPolicy.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::loadtest;

namespace {

StepResult step(int sessions, int outstanding, double requestsPerS, double p99Us) {
    StepResult s;
    s.sessions = sessions;
    s.outstanding = outstanding;
    s.durationS = 1;
    s.requestsPerS = requestsPerS;
    s.valuesPerS = requestsPerS;
    s.p50Us = p99Us / 4;
    s.p90Us = p99Us / 2;
    s.p99Us = p99Us;
    s.p999Us = p99Us * 1.5;
    s.maxUs = p99Us * 2;
    s.answered = s.sent = uint64_t(requestsPerS);
    s.clientCpuMsPerOp = 0.02;
    return s;
}

const FigureRatio* figure(const StepComparison& c, const char* name) {
    for (const FigureRatio& f : c.figures)
        if (f.figure == QLatin1String(name)) return &f;
    return nullptr;
}

template <typename T>
T* field(QWidget* w, const char* name) {
    auto* f = w->findChild<T*>(QLatin1String(name));
    if (!f) qWarning("no field %s", name);
    return f;
}

} // namespace

class TestLoadtestModels : public QObject {
    Q_OBJECT
private slots:
    void compareRunsMatchesSteps();
    void compareRunsUnknownFigures();
    void resultsModel();
    void compareModel();
    void parseStepList_data();
    void parseStepList();
    void setupPanelParameters();
    void setupPanelRefusesBadInput();
    void setupPanelSettingsRoundTrip();
};

void TestLoadtestModels::compareRunsMatchesSteps() {
    RunResult a, b;
    a.steps = {step(1, 1, 1000, 200), step(2, 1, 1800, 250), step(1, 10, 5000, 900)};
    b.steps = {step(5, 1, 4000, 400), step(2, 1, 3600, 125), step(1, 1, 1500, 100)};
    const auto rows = compareRuns(a, b);
    QCOMPARE(rows.size(), std::size_t(4));
    // Ordered by outstanding, then sessions.
    const std::pair<int, int> order[] = {{1, 1}, {2, 1}, {5, 1}, {1, 10}};
    for (std::size_t i = 0; i < 4; ++i) {
        QCOMPARE(rows[i].sessions, order[i].first);
        QCOMPARE(rows[i].outstanding, order[i].second);
    }
    QVERIFY(rows[0].inA && rows[0].inB);
    QVERIFY(!rows[2].inA && rows[2].inB);
    QVERIFY(rows[3].inA && !rows[3].inB);
    const FigureRatio* rps = figure(rows[1], "requestsPerS");
    QVERIFY(rps);
    QCOMPARE(rps->a, 1800.0);
    QCOMPARE(rps->b, 3600.0);
    QCOMPARE(rps->ratio, 2.0);
    QCOMPARE(figure(rows[1], "p99Us")->ratio, 0.5);
    QCOMPARE(figure(rows[0], "p50Us")->ratio, 0.5);
    // A step only one run has: its figures, no ratio.
    QCOMPARE(figure(rows[2], "requestsPerS")->b, 4000.0);
    QCOMPARE(figure(rows[2], "requestsPerS")->ratio, 0.0);
    QCOMPARE(figure(rows[3], "requestsPerS")->a, 5000.0);
    QCOMPARE(figure(rows[3], "requestsPerS")->ratio, 0.0);
    for (const char* name : {"valuesPerS", "p90Us", "p999Us", "maxUs", "meanUs", "errors", "timeouts", "clientCpuMsPerOp", "serverCpuMsPerOp", "serverRssKb"})
        QVERIFY2(figure(rows[0], name), name);
}

void TestLoadtestModels::compareRunsUnknownFigures() {
    RunResult a, b;
    a.steps = {step(1, 1, 1000, 200)};
    b.steps = {step(1, 1, 1000, 200)};
    b.steps[0].serverCpuMsPerOp = 0.05;   // a's is -1: unknown
    b.steps[0].errors = 3;                // a's is 0
    a.steps[0].serverRssKb = 20000;
    b.steps[0].serverRssKb = -1;          // b's is unknown
    const auto rows = compareRuns(a, b);
    QCOMPARE(rows.size(), std::size_t(1));
    QCOMPARE(figure(rows[0], "serverCpuMsPerOp")->ratio, 0.0);
    QCOMPARE(figure(rows[0], "errors")->ratio, 0.0);
    QCOMPARE(figure(rows[0], "serverRssKb")->ratio, 0.0);
    QCOMPARE(figure(rows[0], "requestsPerS")->ratio, 1.0);
    QVERIFY(compareRuns(RunResult{}, RunResult{}).empty());
}

void TestLoadtestModels::resultsModel() {
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.addStep(step(1, 1, 12345.6, 1234));
    StepResult beaten = step(2, 1, 5000, 25000);
    beaten.beatenBy = QStringLiteral("p99 25.0 ms > 10 x 1.2 ms");
    beaten.generatorSaturated = true;
    beaten.warnings << QStringLiteral("load generator saturated: 98 % of a core per I/O thread");
    beaten.errors = 4;
    beaten.errorsByStatus[QStringLiteral("Bad_TooManySessions")] = 4;
    model.addStep(beaten);
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(ResultsModel::ColumnCount));
    auto text = [&](int row, int column) { return model.index(row, column).data().toString(); };
    QCOMPARE(text(0, ResultsModel::SessionsColumn), QStringLiteral("1"));
    QCOMPARE(text(0, ResultsModel::P99Column), QLocale().toString(1.234, 'f', 3));   // µs shown as ms
    QCOMPARE(text(1, ResultsModel::P99Column), QLocale().toString(25.0, 'f', 1));
    QCOMPARE(text(0, ResultsModel::RequestsPerSColumn), QLocale().toString(12346.0, 'f', 0));
    QCOMPARE(text(0, ResultsModel::ServerCpuColumn), QString());   // unknown (-1)
    QVERIFY(text(0, ResultsModel::NotesColumn).isEmpty());
    QVERIFY(text(1, ResultsModel::NotesColumn).contains(QLatin1String("beaten: p99 25.0 ms")));
    QVERIFY(text(1, ResultsModel::NotesColumn).contains(QLatin1String("saturated")));
    QVERIFY(!model.index(1, ResultsModel::NotesColumn).data(Qt::DecorationRole).isNull());
    QVERIFY(model.index(0, ResultsModel::NotesColumn).data(Qt::DecorationRole).isNull());
    QVERIFY(model.index(1, 0).data(Qt::ToolTipRole).toString().contains(QLatin1String("Bad_TooManySessions: 4")));
    QVERIFY(!model.index(1, 0).data(Qt::BackgroundRole).isNull());
    QCOMPARE(model.headerData(ResultsModel::P99Column, Qt::Horizontal).toString(), QStringLiteral("p99 ms"));
    QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().startsWith(QLatin1String("1 session x 1 outstanding")));  // not "1 sessions"

    // A step that failed before any answer measured nothing: no 0.000 latencies, the reason in Notes
    // (issue 27 item 12).
    StepResult failed;
    failed.sessions = 1;
    failed.outstanding = 1;
    failed.error = QStringLiteral("Bad_ConnectionRejected: 1 of 1 Sessions could not be set up");
    failed.beatenBy = QStringLiteral("did not run: ") + failed.error;
    model.addStep(failed);
    for (int c : {ResultsModel::RequestsPerSColumn, ResultsModel::ValuesPerSColumn, ResultsModel::P50Column, ResultsModel::P99Column,
                  ResultsModel::MaxColumn, ResultsModel::ClientCpuColumn})
        QCOMPARE(text(2, c), QString());
    QCOMPARE(text(2, ResultsModel::SessionsColumn), QStringLiteral("1"));
    QCOMPARE(text(2, ResultsModel::NotesColumn), QStringLiteral("failed: ") + failed.error);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    model.setSteps({step(1, 1, 1, 1), step(2, 1, 1, 1), step(5, 1, 1, 1)});
    QCOMPARE(model.rowCount(), 3);
}

void TestLoadtestModels::compareModel() {
    RunResult a, b;
    a.label = QStringLiteral("old");
    b.label = QStringLiteral("new");
    a.steps = {step(1, 1, 1000, 200), step(2, 1, 2000, 200), step(5, 1, 3000, 300)};
    b.steps = {step(1, 1, 2000, 400), step(2, 1, 2040, 202)};
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(a, b);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), CompareModel::FirstFigureColumn + 3 * int(CompareModel::figures().size()));
    const int rpsRatio = CompareModel::column(QStringLiteral("requestsPerS"), CompareModel::Side::Ratio);
    const int p99Ratio = CompareModel::column(QStringLiteral("p99Us"), CompareModel::Side::Ratio);
    const int rpsA = CompareModel::column(QStringLiteral("requestsPerS"), CompareModel::Side::A);
    const int rpsB = CompareModel::column(QStringLiteral("requestsPerS"), CompareModel::Side::B);
    QVERIFY(rpsRatio > 0 && p99Ratio > 0);
    QCOMPARE(model.index(0, rpsA).data().toString(), QLocale().toString(1000.0, 'f', 0));
    QCOMPARE(model.index(0, rpsB).data().toString(), QLocale().toString(2000.0, 'f', 0));
    QCOMPARE(model.index(0, rpsRatio).data().toString(), QStringLiteral("%1x").arg(QLocale().toString(2.0, 'f', 2)));
    QCOMPARE(model.index(0, rpsRatio).data(Qt::UserRole).toDouble(), 2.0);
    // Twice the requests/s is better; twice the p99 is worse; 2 % is neither.
    QCOMPARE(model.index(0, rpsRatio).data(CompareModel::VerdictRole).toInt(), 1);
    QCOMPARE(model.index(0, p99Ratio).data(CompareModel::VerdictRole).toInt(), -1);
    QCOMPARE(model.index(1, rpsRatio).data(CompareModel::VerdictRole).toInt(), 0);
    QVERIFY(!model.index(0, rpsRatio).data(Qt::ForegroundRole).isNull());
    QVERIFY(model.index(1, rpsRatio).data(Qt::ForegroundRole).isNull());
    QCOMPARE(model.index(2, rpsRatio).data().toString(), QStringLiteral("only in A"));
    QVERIFY(model.index(2, rpsB).data().toString().isEmpty());
    QVERIFY(model.headerData(rpsRatio, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QLatin1String("new / old")));
    model.setRuns(RunResult{}, RunResult{});
    QCOMPARE(model.rowCount(), 0);
}

void TestLoadtestModels::parseStepList_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("expected");   // empty: refused
    QTest::newRow("sweep") << "1,2,5,10,20" << QList<int>{1, 2, 5, 10, 20};
    QTest::newRow("spaces") << " 1, 2 ,10" << QList<int>{1, 2, 10};
    // Sorted and de-duplicated, as docs/LoadTesterWindow.md says (issue 27 item 13).
    QTest::newRow("order") << "10,1,2" << QList<int>{1, 2, 10};
    QTest::newRow("duplicates") << "1,2,2" << QList<int>{1, 2};
    QTest::newRow("both") << "5,2,1,2" << QList<int>{1, 2, 5};
    QTest::newRow("zero") << "0,1" << QList<int>{};
    QTest::newRow("negative") << "-1" << QList<int>{};
    QTest::newRow("empty") << " , " << QList<int>{};
    QTest::newRow("word") << "1,two" << QList<int>{};
}

void TestLoadtestModels::parseStepList() {
    QFETCH(QString, text);
    QFETCH(QList<int>, expected);
    const auto parsed = ua::loadtest::parseStepList(text);
    if (expected.isEmpty()) {
        QVERIFY(!parsed);
        return;
    }
    QVERIFY(parsed);
    QCOMPARE(QList<int>(parsed->begin(), parsed->end()), expected);
}

void TestLoadtestModels::setupPanelParameters() {
    SetupPanel panel;
    field<QLineEdit>(&panel, "endpointUrl")->setText(QStringLiteral("opc.tcp://127.0.0.1:4999"));
    field<QLineEdit>(&panel, "sessionsList")->setText(QStringLiteral("1, 2"));
    field<QLineEdit>(&panel, "outstandingList")->setText(QStringLiteral("1,10,100"));
    field<QComboBox>(&panel, "scenario")->setCurrentIndex(field<QComboBox>(&panel, "scenario")->findData(int(Scenario::Write)));
    field<QSpinBox>(&panel, "valuesPerRequest")->setValue(100);
    field<QDoubleSpinBox>(&panel, "durationS")->setValue(1);
    field<QDoubleSpinBox>(&panel, "warmupS")->setValue(0.5);
    field<QDoubleSpinBox>(&panel, "maxErrorsPercent")->setValue(2);
    field<QSpinBox>(&panel, "serverPid")->setValue(4242);
    QString error;
    const auto p = panel.parameters(&error);
    QVERIFY2(p, qPrintable(error));
    QCOMPARE(p->endpointUrl, QStringLiteral("opc.tcp://127.0.0.1:4999"));
    QCOMPARE(p->scenario, Scenario::Write);
    QCOMPARE(p->valuesPerRequest, 100);
    QCOMPARE(p->durationS, 1.0);
    QCOMPARE(p->warmupS, 0.5);
    QCOMPARE(p->serverPid, qint64(4242));
    QCOMPARE(p->reverseListenPort, quint16(0));  // dial the server
    QCOMPARE(p->targetRate, 0.0);
    QCOMPARE(p->securityMode, MessageSecurityMode::None);
    const auto plan = panel.plan(&error);
    QVERIFY(plan);
    QCOMPARE(plan->sessions, (std::vector<int>{1, 2}));
    QCOMPARE(plan->outstanding, (std::vector<int>{1, 10, 100}));
    QCOMPARE(plan->stopRules.maxErrorFraction, 0.02);
    QCOMPARE(panel.plannedSteps(), 6);
    QCOMPARE(panel.label(), QStringLiteral("opc.tcp://127.0.0.1:4999"));   // no label: the endpoint
    // Open loop and a secure policy.
    field<QRadioButton>(&panel, "openLoop")->setChecked(true);
    field<QDoubleSpinBox>(&panel, "targetRate")->setValue(2500);
    auto* policy = field<QComboBox>(&panel, "securityPolicy");
    policy->setCurrentIndex(policy->findText(QStringLiteral("Basic256Sha256")));
    const auto secure = panel.parameters();
    QVERIFY(secure);
    QCOMPARE(secure->targetRate, 2500.0);
    QCOMPARE(secure->securityPolicyUri, QString::fromLatin1(kSecurityPolicyBasic256Sha256));
    QCOMPARE(secure->securityMode, MessageSecurityMode::SignAndEncrypt);
    // Reverse Connect: the port the server dials, and back into the field from saved parameters.
    field<QSpinBox>(&panel, "reverseListenPort")->setValue(4843);
    QCOMPARE(panel.parameters()->reverseListenPort, quint16(4843));
    LoadParameters loaded = *panel.parameters();
    loaded.reverseListenPort = 4850;
    panel.apply(loaded, *panel.plan(), QString());
    QCOMPARE(field<QSpinBox>(&panel, "reverseListenPort")->value(), 4850);
    QCOMPARE(panel.parameters()->reverseListenPort, quint16(4850));
}

void TestLoadtestModels::setupPanelRefusesBadInput() {
    SetupPanel panel;
    QString error;
    field<QLineEdit>(&panel, "sessionsList")->setText(QStringLiteral("0"));
    QVERIFY(!panel.parameters(&error));
    QVERIFY(error.startsWith(QLatin1String("Sessions")));
    QCOMPARE(panel.plannedSteps(), 0);
    field<QLineEdit>(&panel, "sessionsList")->setText(QStringLiteral("1"));
    field<QLineEdit>(&panel, "endpointUrl")->setText(QStringLiteral("http://localhost"));
    QVERIFY(!panel.plan(&error));
    QVERIFY(error.contains(QLatin1String("opc.tcp://")));
}

void TestLoadtestModels::setupPanelSettingsRoundTrip() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    {
        SetupPanel panel;
        field<QLineEdit>(&panel, "endpointUrl")->setText(QStringLiteral("opc.tcp://10.0.0.7:4840"));
        field<QLineEdit>(&panel, "sessionsList")->setText(QStringLiteral("1,4"));
        field<QLineEdit>(&panel, "password")->setText(QStringLiteral("secret"));
        field<QLineEdit>(&panel, "runLabel")->setText(QStringLiteral("ours"));
        field<QComboBox>(&panel, "scenario")->setCurrentIndex(field<QComboBox>(&panel, "scenario")->findData(int(Scenario::Browse)));
        field<QDoubleSpinBox>(&panel, "durationS")->setValue(7.5);
        field<QRadioButton>(&panel, "openLoop")->setChecked(true);
        field<QCheckBox>(&panel, "brokenConnection")->setChecked(false);
        panel.save(settings);
    }
    settings.sync();
    SetupPanel restored;
    restored.restore(settings);
    const auto p = restored.parameters();
    QVERIFY(p);
    QCOMPARE(p->endpointUrl, QStringLiteral("opc.tcp://10.0.0.7:4840"));
    QCOMPARE(p->scenario, Scenario::Browse);
    QCOMPARE(p->durationS, 7.5);
    QVERIFY(p->targetRate > 0);
    QVERIFY(p->password.isEmpty());   // never remembered
    QVERIFY(!restored.plan()->stopRules.brokenConnection);
    QCOMPARE(restored.plan()->sessions, (std::vector<int>{1, 4}));
    QCOMPARE(restored.label(), QStringLiteral("ours"));
    QVERIFY(!settings.allKeys().join(QLatin1Char(' ')).contains(QLatin1String("password")));
}

UA_TEST_MAIN(TestLoadtestModels)
#include "tst_loadtest_models.moc"
