// The main window of ua-loadtest (issue 8 item 2):
//   left dock   the set-up (SetupPanel: target, load, sweep lists, stop rules, server pid, label)
//               with Start / Stop
//   center      the sweep's progress (a bar over its steps, the current step and phase, time
//               left), the running step's live charts over time (TimelineCharts: requests/s and
//               values/s, p50/p99/max), the finished steps against sessions (requests/s and p99,
//               one line per outstanding value), and the results table (ResultsModel)
//   status bar  the last second's figures, including the load generator's CPU use
// With Distributed processes > 1 the sweep runs as an MPI job (DistributedRun: mpirun started here)
// and the table of ranks below the results shows each rank's share of the selected step.
// File: Open run, Save run (JSON), Export CSV / JSON / charts PNG. Compare: the current run with a
// saved one, or two saved runs (CompareWindow). A finished step selected in the table shows its
// timeline again. The SweepRunner lives in the GUI thread and never blocks it: the requests run on
// the client's I/O threads, the window gets a sample a second and a result a step.
#pragma once

#include "engine/LoadRunner.h"
#include "engine/StepResult.h"

#include <QMainWindow>
#include <QPointer>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QSettings;
class QTableView;

namespace ua::loadtest {

class CompareWindow;
class DistributedRun;
class RanksModel;
class ResultsModel;
class SetupPanel;
class SweepChart;
class SweepProgress;
class SweepRunner;
class TimelineCharts;

struct WindowOptions {
    QString settingsFile;   // the set-up remembered (INI); empty: the user's QSettings
    // A distributed sweep: the mpirun to start (empty: mpirun on PATH) and the ua-loadtest its
    // processes run (empty: this program).
    QString mpirun;
    QString loadtestExecutable;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(WindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    SetupPanel* setup() const { return m_setup; }
    SweepRunner* runner() const { return m_runner; }
    ResultsModel* results() const { return m_results; }
    QTableView* resultsView() const { return m_table; }
    // A distributed sweep: mpirun as a child process, and the selected step's ranks.
    DistributedRun* distributedRun() const { return m_distributed; }
    RanksModel* ranks() const { return m_ranks; }
    QTableView* ranksView() const { return m_ranksTable; }
    TimelineCharts* timeline() const { return m_timeline; }
    SweepChart* stepThroughputChart() const { return m_stepThroughput; }
    SweepChart* stepP99Chart() const { return m_stepP99; }
    // Cost against Sessions (a sweep at a fixed --rate): CPU per request of the server and of the
    // load tester, and the server's RSS per Session.
    SweepChart* stepCpuChart() const { return m_stepCpu; }
    SweepChart* stepMemoryChart() const { return m_stepMemory; }
    QProgressBar* progress() const;
    SweepProgress* sweepProgress() const { return m_progress; }
    QPushButton* startButton() const { return m_startButton; }
    QPushButton* stopButton() const { return m_stopButton; }
    // The current run: the one finished (or running: its finished steps so far), or opened.
    const RunResult& run() const { return m_run; }
    bool isRunning() const;

    // Starts a sweep with the set-up (in this process, or with mpirun when the set-up asks for
    // several processes); false (and a message box unless quiet) when it is invalid.
    bool startSweep(bool quiet = false);
    void stopSweep();

    bool openRun(const QString& path, QString* error = nullptr);
    bool saveRun(const QString& path, QString* error = nullptr);
    bool exportCsv(const QString& path, QString* error = nullptr);
    bool exportJson(const QString& path, QString* error = nullptr);
    bool exportChartsPng(const QString& path, QString* error = nullptr);
    // Opens the Compare window with two runs (A, B); it stays open until closed.
    CompareWindow* compare(const RunResult& a, const RunResult& b);

signals:
    void sweepFinished(const ua::loadtest::RunResult& run);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildCentral();
    void buildActions();
    void setRunning(bool running);
    void showRun(const RunResult& run);
    void plotStep(const StepResult& step);
    void stepStarted(int index, int total, int sessions, int outstanding);
    void sampleArrived(const TimelineSample& sample);
    void stepFinished(const StepResult& step);
    void sweepDone(const RunResult& run);
    void distributedDone(const RunResult& run, const QString& error, int exitCode);
    void stepSelected();
    std::unique_ptr<QSettings> settings() const;
    QString askPath(bool save, const QString& title, const QString& filter, const QString& suffix);
    void report(bool ok, const QString& error, const QString& done);

    WindowOptions m_options;
    SetupPanel* m_setup;
    SweepRunner* m_runner;
    DistributedRun* m_distributed;
    ResultsModel* m_results;
    RanksModel* m_ranks;
    QTableView* m_ranksTable = nullptr;
    TimelineCharts* m_timeline = nullptr;
    SweepChart* m_stepThroughput = nullptr;
    SweepChart* m_stepP99 = nullptr;
    SweepChart* m_stepCpu = nullptr;
    SweepChart* m_stepMemory = nullptr;
    QTableView* m_table = nullptr;
    SweepProgress* m_progress = nullptr;
    QLabel* m_sampleLabel = nullptr;
    QPushButton* m_startButton = nullptr;
    QPushButton* m_stopButton = nullptr;
    QAction* m_startAction = nullptr;
    QAction* m_stopAction = nullptr;
    QList<QAction*> m_runActions;     // need a run: save, export, compare with current
    QPointer<CompareWindow> m_compare;

    RunResult m_run;
    std::vector<int> m_outstandingOrder;  // the colors of the step charts
    LoadParameters m_base;                // of the running sweep
    QString m_lastDir;
};

} // namespace ua::loadtest
