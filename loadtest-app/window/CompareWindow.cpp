#include "window/CompareWindow.h"

#include "window/CompareModel.h"
#include "window/SweepChart.h"
#include "window/SweepProgress.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QPushButton>
#include <QShortcut>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace ua::loadtest {

QString runSummary(const RunResult& run) {
    const LoadParameters& p = run.parameters;
    QString shape = stepShape(p);
    shape += p.targetRate > 0 ? QObject::tr(", open loop %1 req/s").arg(p.targetRate) : QObject::tr(", closed loop");
    QStringList parts{run.label, shape};
    if (run.startedUtc.isValid()) parts << run.startedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    parts << p.endpointUrl;
    if (!run.machine.isEmpty()) parts << run.machine;
    parts << stepsText(int(run.steps.size()));
    return parts.join(QStringLiteral(" · "));
}

CompareWindow::CompareWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), m_runA(new QLabel), m_runB(new QLabel), m_model(new CompareModel(this)),
      m_table(new QTableView), m_throughput(new SweepChart(tr("Requests/s per step"), tr("requests/s"), false)),
      m_p99(new SweepChart(tr("p99 latency per step"), tr("ms (log)"), true)) {
    setObjectName(QStringLiteral("compareWindow"));
    setWindowTitle(tr("Compare runs"));
    resize(1300, 820);
    auto* layout = new QVBoxLayout(this);
    for (QLabel* l : {m_runA, m_runB}) {
        l->setTextFormat(Qt::RichText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(l);
    }
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(22);
    m_table->horizontalHeader()->setDefaultSectionSize(68);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setColumnWidth(CompareModel::SessionsColumn, 58);
    m_table->setColumnWidth(CompareModel::OutstandingColumn, 48);
    m_split = new QSplitter(Qt::Vertical);
    auto* split = m_split;
    split->addWidget(m_table);
    auto* charts = new QWidget;
    auto* row = new QHBoxLayout(charts);
    row->setContentsMargins(0, 0, 0, 0);
    m_throughput->setObjectName(QStringLiteral("compareThroughputChart"));
    m_p99->setObjectName(QStringLiteral("compareP99Chart"));
    row->addWidget(m_throughput);
    row->addWidget(m_p99);
    split->addWidget(charts);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    // A window of its own closes like one (issue 27 item 13): a Close button, Esc and Ctrl+W.
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("closeCompareButton"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QWidget::close);
    layout->addWidget(buttons);
    for (const QKeySequence& keys : {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_W)}) {
        auto* shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WindowShortcut);
        connect(shortcut, &QShortcut::activated, this, &QWidget::close);
    }
}

void CompareWindow::setRuns(const RunResult& a, const RunResult& b) {
    m_model->setRuns(a, b);
    // The table as tall as its rows (within reason), the charts get the rest.
    const int rowsHeight = m_table->horizontalHeader()->sizeHint().height() + m_model->rowCount() * m_table->verticalHeader()->defaultSectionSize() +
                           m_table->horizontalScrollBar()->sizeHint().height() + 2 * m_table->frameWidth() + 4;
    const int total = std::max(400, height() - 80);   // the window less the two lines above
    const int tableHeight = std::clamp(rowsHeight, 120, total * 3 / 5);
    m_split->setSizes({tableHeight, total - tableHeight});
    m_runA->setText(QStringLiteral("<b>A</b>&nbsp; %1").arg(runSummary(a).toHtmlEscaped()));
    m_runB->setText(QStringLiteral("<b>B</b>&nbsp; %1").arg(runSummary(b).toHtmlEscaped()));
    setWindowTitle(tr("Compare: %1 (A) and %2 (B)").arg(m_model->labelA(), m_model->labelB()));
    std::set<int> outstanding;
    std::vector<int> sessions;
    for (const RunResult* run : {&a, &b})
        for (const StepResult& s : run->steps) {
            outstanding.insert(s.outstanding);
            sessions.push_back(s.sessions);
        }
    for (SweepChart* c : {m_throughput, m_p99}) {
        c->clearSeries();
        c->setSessions(sessions);
    }
    for (const RunResult* run : {&a, &b})
        for (const StepResult& s : run->steps) {
            if (!s.error.isEmpty()) continue;
            const int color = int(std::distance(outstanding.begin(), outstanding.find(s.outstanding)));
            // B: dashed and darker, so that equal figures still show both lines.
            QPen pen(run == &a ? seriesColor(color) : seriesColor(color).darker(150), 2, run == &a ? Qt::SolidLine : Qt::DashLine);
            const QString name = tr("%1, outstanding %2").arg(run == &a ? QStringLiteral("A") : QStringLiteral("B")).arg(s.outstanding);
            m_throughput->addPoint(name, pen, s.sessions, s.requestsPerS);
            m_p99->addPoint(name, pen, s.sessions, s.p99Us / 1000);
        }
}

} // namespace ua::loadtest
