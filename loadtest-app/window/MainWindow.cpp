#include "window/MainWindow.h"

#include "engine/ProcessStats.h"
#include "engine/SweepRunner.h"
#include "window/CompareWindow.h"
#include "window/DistributedRun.h"
#include "window/RanksModel.h"
#include "window/ResultsModel.h"
#include "window/RunFiles.h"
#include "window/SetupPanel.h"
#include "window/SweepChart.h"

#include <cmath>
#include "window/SweepProgress.h"
#include "window/TimelineCharts.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

namespace ua::loadtest {

namespace {

// values/s says more than requests/s: several values per request, references, notifications.
bool valuesDiffer(const LoadParameters& p) {
    switch (p.scenario) {
    case Scenario::Read:
    case Scenario::Write: return p.valuesPerRequest > 1;
    case Scenario::Browse:
    case Scenario::Subscribe:
    case Scenario::HistoryRead:
    case Scenario::Events: return true;
    case Scenario::Connect: return false;
    }
    return true;
}

} // namespace

MainWindow::MainWindow(WindowOptions options, QWidget* parent)
    : QMainWindow(parent), m_options(std::move(options)), m_setup(new SetupPanel), m_runner(new SweepRunner(this)),
      m_distributed(new DistributedRun(this)), m_results(new ResultsModel(this)), m_ranks(new RanksModel(this)) {
    setObjectName(QStringLiteral("loadtestMainWindow"));
    setWindowTitle(tr("UA Workbench Load Tester"));
    resize(1440, 960);
    buildCentral();
    buildActions();
    {
        auto s = settings();
        m_setup->restore(*s);
        m_lastDir = s->value(QStringLiteral("lastDir")).toString();
    }
    // Before any sweep the bar counts the set-up's planned steps (issue 27 item 11).
    m_progress->setPlanned(m_setup->plannedSteps());
    connect(m_setup, &SetupPanel::changed, this, [this] { m_progress->setPlanned(m_setup->plannedSteps()); });
    connect(m_runner, &SweepRunner::stepStarted, this, &MainWindow::stepStarted);
    connect(m_runner, &SweepRunner::phaseChanged, m_progress, &SweepProgress::phaseChanged);
    connect(m_runner, &SweepRunner::sample, this, &MainWindow::sampleArrived);
    connect(m_runner, &SweepRunner::stepFinished, this, &MainWindow::stepFinished);
    connect(m_runner, &SweepRunner::finished, this, &MainWindow::sweepDone);
    connect(m_distributed, &DistributedRun::finished, this, &MainWindow::distributedDone);
    connect(m_distributed, &DistributedRun::progress, this, [this](const QString& line) { m_sampleLabel->setText(line); });
    connect(m_distributed, &DistributedRun::resultLine, this, [this](const QString& line) { statusBar()->showMessage(line); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MainWindow::stepSelected);
    setRunning(false);
    statusBar()->showMessage(tr("Set up the target and the sweep, then Start (F5). %1.").arg(machineDescription()));
}

MainWindow::~MainWindow() {
    if (m_runner->isRunning()) m_runner->stop();
    m_distributed->stop();
}

void MainWindow::buildCentral() {
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_setup);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(m_setup->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 4);
    leftLayout->addWidget(scroll, 1);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(8, 0, 8, 0);
    m_startButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Start sweep"));
    m_startButton->setObjectName(QStringLiteral("startButton"));
    m_startButton->setDefault(true);
    m_stopButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    m_stopButton->setObjectName(QStringLiteral("stopButton"));
    buttons->addWidget(m_startButton, 2);
    buttons->addWidget(m_stopButton, 1);
    leftLayout->addLayout(buttons);
    auto* dock = new QDockWidget(tr("Set-up"), this);
    dock->setObjectName(QStringLiteral("setupDock"));
    dock->setWidget(left);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    connect(m_startButton, &QPushButton::clicked, this, [this] { startSweep(); });
    connect(m_stopButton, &QPushButton::clicked, this, &MainWindow::stopSweep);

    auto* center = new QWidget;
    auto* layout = new QVBoxLayout(center);
    layout->setContentsMargins(4, 4, 4, 0);
    m_progress = new SweepProgress;
    layout->addWidget(m_progress);

    m_timeline = new TimelineCharts;
    m_stepThroughput = new SweepChart(tr("Requests/s per step"), tr("requests/s"), false);
    m_stepThroughput->setObjectName(QStringLiteral("stepThroughputChart"));
    m_stepP99 = new SweepChart(tr("p99 latency per step"), tr("ms (log)"), true);
    m_stepP99->setObjectName(QStringLiteral("stepP99Chart"));
    m_stepCpu = new SweepChart(tr("CPU per request (dashed: load tester)"), tr("µs per request"), false);
    m_stepCpu->setObjectName(QStringLiteral("stepCpuChart"));
    m_stepMemory = new SweepChart(tr("Server memory per Session"), tr("KB per Session"), false);
    m_stepMemory->setObjectName(QStringLiteral("stepMemoryChart"));
    auto* stepCharts = new QWidget;
    auto* stepRow = new QHBoxLayout(stepCharts);
    stepRow->setContentsMargins(0, 0, 0, 0);
    stepRow->addWidget(m_stepThroughput);
    stepRow->addWidget(m_stepP99);
    stepRow->addWidget(m_stepCpu);
    stepRow->addWidget(m_stepMemory);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setModel(m_results);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(22);
    m_table->horizontalHeader()->setDefaultSectionSize(64);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(ResultsModel::SessionsColumn, 64);
    m_table->setColumnWidth(ResultsModel::OutstandingColumn, 50);
    m_table->setColumnWidth(ResultsModel::RequestsPerSColumn, 72);
    m_table->setColumnWidth(ResultsModel::ValuesPerSColumn, 72);
    m_table->setColumnWidth(ResultsModel::ErrorsColumn, 54);
    m_table->setColumnWidth(ResultsModel::TimeoutsColumn, 62);
    m_table->setColumnWidth(ResultsModel::ClientCpuColumn, 80);
    m_table->setColumnWidth(ResultsModel::ServerCpuColumn, 80);
    m_table->setColumnWidth(ResultsModel::ServerRssColumn, 78);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    // Long notes wrap in a taller row instead of being cut (issue 27 item 13); a row is fitted when
    // it arrives and again when the Notes column changes width.
    m_table->setWordWrap(true);
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, m_table, [this](int section) {
        if (section == ResultsModel::NotesColumn) m_table->resizeRowsToContents();
    });

    // A distributed step's ranks: shown when the selected step has them.
    m_ranksTable = new QTableView;
    m_ranksTable->setObjectName(QStringLiteral("ranksTable"));
    m_ranksTable->setModel(m_ranks);
    m_ranksTable->verticalHeader()->hide();
    m_ranksTable->verticalHeader()->setDefaultSectionSize(22);
    m_ranksTable->horizontalHeader()->setStretchLastSection(true);
    m_ranksTable->setAlternatingRowColors(true);
    m_ranksTable->setVisible(false);

    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName(QStringLiteral("centerSplitter"));
    split->addWidget(m_timeline);
    split->addWidget(stepCharts);
    split->addWidget(m_table);
    split->addWidget(m_ranksTable);
    split->setChildrenCollapsible(false);
    split->setSizes({330, 330, 200});
    layout->addWidget(split, 1);
    setCentralWidget(center);

    m_sampleLabel = new QLabel;
    m_sampleLabel->setObjectName(QStringLiteral("sampleLabel"));
    statusBar()->addPermanentWidget(m_sampleLabel);
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open run..."));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, [this] {
        const QString path = askPath(false, tr("Open run"), tr("Saved runs (*.json)"), {});
        if (path.isEmpty()) return;
        QString error;
        report(openRun(path, &error), error, tr("Opened %1").arg(path));
    });
    QAction* save = file->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save run..."));
    save->setShortcut(QKeySequence::Save);
    connect(save, &QAction::triggered, this, [this] {
        const QString path = askPath(true, tr("Save run"), tr("Saved runs (*.json)"), QStringLiteral("json"));
        QString error;
        if (!path.isEmpty()) report(saveRun(path, &error), error, tr("Saved %1").arg(path));
    });
    file->addSeparator();
    QAction* csv = file->addAction(tr("Export &CSV..."));
    connect(csv, &QAction::triggered, this, [this] {
        const QString path = askPath(true, tr("Export CSV"), tr("CSV (*.csv)"), QStringLiteral("csv"));
        QString error;
        if (!path.isEmpty()) report(exportCsv(path, &error), error, tr("Exported %1").arg(path));
    });
    QAction* json = file->addAction(tr("Export &JSON..."));
    connect(json, &QAction::triggered, this, [this] {
        const QString path = askPath(true, tr("Export JSON"), tr("JSON (*.json)"), QStringLiteral("json"));
        QString error;
        if (!path.isEmpty()) report(exportJson(path, &error), error, tr("Exported %1").arg(path));
    });
    QAction* png = file->addAction(tr("Export charts &PNG..."));
    connect(png, &QAction::triggered, this, [this] {
        const QString path = askPath(true, tr("Export charts"), tr("PNG (*.png)"), QStringLiteral("png"));
        QString error;
        if (!path.isEmpty()) report(exportChartsPng(path, &error), error, tr("Exported %1").arg(path));
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    m_runActions = {save, csv, json, png};

    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    m_startAction = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Start sweep"));
    m_startAction->setObjectName(QStringLiteral("startAction"));
    m_startAction->setShortcut(Qt::Key_F5);
    connect(m_startAction, &QAction::triggered, this, [this] { startSweep(); });
    m_stopAction = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("S&top"));
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopSweep);

    QMenu* compareMenu = menuBar()->addMenu(tr("&Compare"));
    QAction* withCurrent = compareMenu->addAction(tr("Current run with a saved run..."));
    connect(withCurrent, &QAction::triggered, this, [this] {
        const QString path = askPath(false, tr("Compare with (B)"), tr("Saved runs (*.json)"), {});
        if (path.isEmpty()) return;
        QString error;
        if (auto other = loadRunJson(path, &error)) compare(m_run, *other);
        else report(false, error, {});
    });
    QAction* two = compareMenu->addAction(tr("Two saved runs..."));
    connect(two, &QAction::triggered, this, [this] {
        const QString pathA = askPath(false, tr("Compare: run A"), tr("Saved runs (*.json)"), {});
        if (pathA.isEmpty()) return;
        const QString pathB = askPath(false, tr("Compare: run B"), tr("Saved runs (*.json)"), {});
        if (pathB.isEmpty()) return;
        QString error;
        auto a = loadRunJson(pathA, &error);
        auto b = a ? loadRunJson(pathB, &error) : std::nullopt;
        if (a && b) compare(*a, *b);
        else report(false, error, {});
    });
    m_runActions << withCurrent;

    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_startAction);
    bar->addAction(m_stopAction);
    bar->addSeparator();
    bar->addAction(open);
    bar->addAction(save);
}

std::unique_ptr<QSettings> MainWindow::settings() const {
    if (m_options.settingsFile.isEmpty()) return std::make_unique<QSettings>();
    return std::make_unique<QSettings>(m_options.settingsFile, QSettings::IniFormat);
}

QProgressBar* MainWindow::progress() const {
    return m_progress->bar();
}

bool MainWindow::isRunning() const {
    return m_runner->isRunning() || m_distributed->isRunning();
}

void MainWindow::setRunning(bool running) {
    m_startButton->setEnabled(!running);
    m_startAction->setEnabled(!running);
    m_stopButton->setEnabled(running);
    m_stopAction->setEnabled(running);
    for (QAction* a : m_runActions) a->setEnabled(!running && !m_run.steps.empty());
}

bool MainWindow::startSweep(bool quiet) {
    if (isRunning()) return false;
    QString error;
    const auto base = m_setup->parameters(&error);
    const auto plan = base ? m_setup->plan(&error) : std::nullopt;
    if (!base || !plan) {
        if (!quiet) QMessageBox::warning(this, tr("Start sweep"), error);
        statusBar()->showMessage(error);
        return false;
    }
    {
        auto s = settings();
        m_setup->save(*s);
    }
    m_base = *base;
    m_run = RunResult{};
    m_run.label = m_setup->label();
    m_run.parameters = *base;
    m_run.plan = *plan;
    m_results->clear();
    m_outstandingOrder = plan->outstanding;
    for (SweepChart* c : {m_stepThroughput, m_stepP99, m_stepCpu, m_stepMemory}) {
        c->clearSeries();
        c->setSessions(plan->sessions);
    }
    const int total = int(plan->sessions.size() * plan->outstanding.size());
    m_progress->sweepStarted(total, base->warmupS, base->durationS);
    m_timeline->startStep(tr("starting"), base->warmupS, base->durationS);
    m_sampleLabel->clear();  // the last sweep's last second is not this sweep's (issue 27 item 12)
    m_timeline->setValuesShown(valuesDiffer(*base));
    m_timeline->setTargetRate(base->targetRate);
    setWindowTitle(tr("UA Workbench Load Tester: %1").arg(m_run.label));
    m_ranks->clear();
    m_ranksTable->setVisible(false);
    DistributedSetup distributed = m_setup->distributed();
    if (!m_options.mpirun.isEmpty()) distributed.mpirun = m_options.mpirun;
    distributed.executable = m_options.loadtestExecutable;
    if (distributed.enabled()) {
        // The ranks run the sweep; this window waits for mpirun and reads the merged run at the end.
        QString why;
        if (!m_distributed->start(distributed, *base, *plan, m_run.label, &why)) {
            if (!quiet) QMessageBox::warning(this, tr("Start sweep"), why);
            statusBar()->showMessage(why);
            m_progress->sweepFinished({});
            return false;
        }
        setRunning(true);
        statusBar()->showMessage(tr("Distributed sweep of %1 over %2 processes: %3")
                                     .arg(stepsText(total))
                                     .arg(distributed.processes)
                                     .arg(m_distributed->commandLine()));
        return true;
    }
    setRunning(true);
    statusBar()->showMessage(tr("Sweep of %1 against %2; changes to the set-up apply to the next sweep").arg(stepsText(total), base->endpointUrl));
    m_runner->start(*base, *plan, m_run.label);
    return true;
}

void MainWindow::stopSweep() {
    if (m_distributed->isRunning()) {
        statusBar()->showMessage(tr("Stopping the distributed sweep: mpirun ends every process"));
        m_distributed->stop();
        return;
    }
    if (!m_runner->isRunning()) return;
    statusBar()->showMessage(tr("Stopping: the step ends now, no more steps run"));
    m_runner->stop();
}

void MainWindow::distributedDone(const RunResult& run, const QString& error, int exitCode) {
    if (!error.isEmpty()) {
        m_progress->sweepFinished(m_run.steps);
        setRunning(false);
        statusBar()->showMessage(error);
        emit sweepFinished(m_run);
        return;
    }
    sweepDone(run);
    if (exitCode != 0) statusBar()->showMessage(tr("Finished (mpirun exit code %1: see the steps' notes)").arg(exitCode));
}

void MainWindow::stepStarted(int index, int total, int sessions, int outstanding) {
    m_progress->stepStarted(index, total, sessions, outstanding);
    m_timeline->startStep(tr("step %1 of %2, %3").arg(index + 1).arg(total).arg(stepTitle(sessions, outstanding)), m_base.warmupS,
                          m_base.durationS);
}

void MainWindow::sampleArrived(const TimelineSample& s) {
    m_progress->sampleAt(s.tS);
    m_timeline->addSample(s);
    m_sampleLabel->setText(tr("last second: %1 req/s, p99 %2 ms, %3 errors, load generator CPU %4 % of a core")
                               .arg(formatRate(s.requestsPerS), formatMs(s.p99Us))
                               .arg(s.errors)
                               .arg(s.clientCpuPercent, 0, 'f', 0));
}

void MainWindow::plotStep(const StepResult& step) {
    if (!step.error.isEmpty()) return;
    auto at = std::find(m_outstandingOrder.begin(), m_outstandingOrder.end(), step.outstanding);
    if (at == m_outstandingOrder.end()) at = m_outstandingOrder.insert(std::upper_bound(m_outstandingOrder.begin(), m_outstandingOrder.end(), step.outstanding), step.outstanding);
    const QPen pen(seriesColor(int(at - m_outstandingOrder.begin())), 2);
    const QString name = tr("outstanding %1").arg(step.outstanding);
    m_stepThroughput->addPoint(name, pen, step.sessions, step.requestsPerS);
    m_stepP99->addPoint(name, pen, step.sessions, step.p99Us / 1000);
    // The server's line is named as in the other charts; the load tester's, dashed, is left out of
    // the legend (the title says which is which), so the legend fits.
    if (step.serverCpuMsPerOp >= 0) m_stepCpu->addPoint(name, pen, step.sessions, step.serverCpuMsPerOp * 1000);
    if (step.clientCpuMsPerOp >= 0) {
        QPen dashed = pen;
        dashed.setStyle(Qt::DashLine);
        const QString loadTester = tr("load tester, %1").arg(name);
        m_stepCpu->addPoint(loadTester, dashed, step.sessions, step.clientCpuMsPerOp * 1000);
        m_stepCpu->setLegendShown(loadTester, false);
    }
    // Memory given back (a negative growth) is drawn as 0: the axis starts there.
    if (const double kb = step.serverKbPerSession(); std::isfinite(kb)) m_stepMemory->addPoint(name, pen, step.sessions, std::max(0.0, kb));
}

void MainWindow::stepFinished(const StepResult& step) {
    m_run.steps.push_back(step);
    m_results->addStep(step);
    m_table->resizeRowToContents(m_results->rowCount() - 1);
    m_progress->stepFinished();
    plotStep(step);
    if (!step.beatenBy.isEmpty())
        statusBar()->showMessage(tr("%1 beat the server: %2").arg(stepTitle(step.sessions, step.outstanding), step.beatenBy));
    m_table->scrollToBottom();
}

void MainWindow::sweepDone(const RunResult& run) {
    m_run = run;
    if (m_results->steps().size() != run.steps.size()) showRun(run);
    m_progress->sweepFinished(run.steps);
    setRunning(false);
    statusBar()->showMessage(tr("Finished. File > Save run keeps it for a comparison later."));
    emit sweepFinished(run);
}

void MainWindow::showRun(const RunResult& run) {
    m_results->setSteps(run.steps);
    m_outstandingOrder = run.plan.outstanding;
    std::vector<int> sessions = run.plan.sessions;
    for (const StepResult& s : run.steps) sessions.push_back(s.sessions);
    for (SweepChart* c : {m_stepThroughput, m_stepP99, m_stepCpu, m_stepMemory}) {
        c->clearSeries();
        c->setSessions(sessions);
    }
    for (const StepResult& s : run.steps) plotStep(s);
    m_table->resizeRowsToContents();
    if (!run.steps.empty()) m_table->selectRow(int(run.steps.size()) - 1);
}

void MainWindow::stepSelected() {
    if (isRunning()) return;
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) return;
    const StepResult& s = m_results->step(current.row());
    m_ranks->setStep(s);
    m_ranksTable->setVisible(!s.ranks.empty());
    m_ranksTable->resizeColumnsToContents();
    m_timeline->setTimeline(stepTitle(s.sessions, s.outstanding), s.timeline, m_run.parameters.warmupS, s.durationS);
}

bool MainWindow::openRun(const QString& path, QString* error) {
    if (isRunning()) {
        if (error) *error = tr("A sweep is running");
        return false;
    }
    auto run = loadRunJson(path, error);
    if (!run) return false;
    m_run = std::move(*run);
    m_setup->apply(m_run.parameters, m_run.plan, m_run.label);
    m_timeline->setValuesShown(valuesDiffer(m_run.parameters));
    m_timeline->setTargetRate(m_run.parameters.targetRate);
    m_progress->showText(tr("Opened %1: %2").arg(QFileInfo(path).fileName(), runSummary(m_run)));
    setWindowTitle(tr("UA Workbench Load Tester: %1").arg(QFileInfo(path).fileName()));
    showRun(m_run);
    setRunning(false);
    return true;
}

bool MainWindow::saveRun(const QString& path, QString* error) {
    return saveRunJson(m_run, path, error);
}

bool MainWindow::exportCsv(const QString& path, QString* error) {
    return saveRunCsv(m_run, path, error);
}

bool MainWindow::exportJson(const QString& path, QString* error) {
    return saveRunJson(m_run, path, error);
}

bool MainWindow::exportChartsPng(const QString& path, QString* error) {
    const QImage image = renderGrid({m_timeline->throughputView(), m_timeline->latencyView(), m_stepThroughput, m_stepP99, m_stepCpu, m_stepMemory}, 2);
    if (image.isNull() || !image.save(path, "PNG")) {
        if (error) *error = tr("%1: could not write the image").arg(path);
        return false;
    }
    return true;
}

CompareWindow* MainWindow::compare(const RunResult& a, const RunResult& b) {
    if (!m_compare) {
        m_compare = new CompareWindow(this);
        m_compare->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_compare->setRuns(a, b);
    m_compare->show();
    m_compare->raise();
    return m_compare;
}

QString MainWindow::askPath(bool save, const QString& title, const QString& filter, const QString& suffix) {
    QFileDialog dialog(this, title, m_lastDir, filter);
    dialog.setAcceptMode(save ? QFileDialog::AcceptSave : QFileDialog::AcceptOpen);
    dialog.setFileMode(save ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    if (!suffix.isEmpty()) dialog.setDefaultSuffix(suffix);
    // Save and export suggest a name (label, scenario, start time) rather than an empty field.
    if (save && !suffix.isEmpty()) dialog.selectFile(suggestedFileName(m_run, suffix));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
    const QString path = dialog.selectedFiles().constFirst();
    m_lastDir = QFileInfo(path).absolutePath();
    settings()->setValue(QStringLiteral("lastDir"), m_lastDir);
    return path;
}

void MainWindow::report(bool ok, const QString& error, const QString& done) {
    if (ok) statusBar()->showMessage(done, 8000);
    else QMessageBox::warning(this, windowTitle(), error);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_runner->isRunning()) m_runner->stop();
    m_distributed->stop();
    auto s = settings();
    m_setup->save(*s);
    event->accept();
}

} // namespace ua::loadtest
