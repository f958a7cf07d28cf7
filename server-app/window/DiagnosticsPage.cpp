#include "DiagnosticsPage.h"

#include "LiveChart.h"
#include "TableViews.h"

#include "models/SummaryModel.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QSplitter>
#include <QTableView>

namespace ua::app {

namespace {
constexpr qint64 kWindowMs = 120'000;
using serverapp::DiagnosticsHistory;
}

DiagnosticsPage::DiagnosticsPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("diagnosticsPage"));
    m_summary = new serverapp::SummaryModel(this);
    m_summaryView = new QTableView;
    m_summaryView->setObjectName(QStringLiteral("summaryView"));
    m_summaryView->setModel(m_summary);
    m_summaryView->verticalHeader()->hide();
    m_summaryView->verticalHeader()->setDefaultSectionSize(m_summaryView->fontMetrics().height() + 6);
    m_summaryView->horizontalHeader()->setStretchLastSection(true);
    m_summaryView->setAlternatingRowColors(true);
    m_summaryView->setWordWrap(false);
    m_summaryView->resizeColumnToContents(serverapp::SummaryModel::Name);

    m_requests = new LiveChart(tr("Requests per second"), tr("requests/s"), kWindowMs);
    m_requests->setObjectName(QStringLiteral("requestsChart"));
    m_requests->addSeries(tr("all services"));
    m_serviceSeries.fill(-1);
    m_load = new LiveChart(tr("Sessions and Subscriptions"), tr("count"), kWindowMs);
    m_load->setObjectName(QStringLiteral("loadChart"));
    m_load->addSeries(tr("Sessions"));
    m_load->addSeries(tr("Subscriptions"));
    m_cpu = new LiveChart(tr("CPU"), tr("% of one core"), kWindowMs);
    m_cpu->setObjectName(QStringLiteral("cpuChart"));
    m_cpu->addSeries(tr("CPU %"));
    m_cpu->setMinimumMax(10);
    m_memory = new LiveChart(tr("Memory"), tr("MB resident"), kWindowMs);
    m_memory->setObjectName(QStringLiteral("memoryChart"));
    m_memory->addSeries(tr("RSS"));
    for (LiveChart* c : {m_cpu, m_memory}) c->chart()->legend()->hide();

    auto* charts = new QWidget;
    auto* grid = new QGridLayout(charts);
    grid->setContentsMargins(0, 0, 0, 0);
    // The requests chart gets the height its legend of a dozen services needs.
    grid->addWidget(m_requests, 0, 0, 1, 3);
    grid->addWidget(m_load, 1, 0);
    grid->addWidget(m_cpu, 1, 1);
    grid->addWidget(m_memory, 1, 2);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);
    m_load->chart()->legend()->setAlignment(Qt::AlignBottom);

    auto* split = new QSplitter;
    split->addWidget(m_summaryView);
    split->addWidget(charts);
    split->setStretchFactor(1, 1);
    split->setSizes({380, 900});
    auto* layout = new QGridLayout(this);
    layout->addWidget(split);
}

void DiagnosticsPage::attach(LiveServer* live) {
    if (m_live) {
        disconnect(&m_live->poller(), nullptr, this, nullptr);
        disconnect(&m_live->history(), nullptr, this, nullptr);
    }
    m_live = live;
    for (LiveChart* c : {m_requests, m_load, m_cpu, m_memory}) c->clear();
    if (!live) return;
    connect(&live->poller(), &serverapp::DiagnosticsPoller::snapshotReady, this,
            [this](const DiagnosticsSnapshotPtr& s) { m_summary->update(*s); });
    connect(&live->history(), &DiagnosticsHistory::pointAppended, this, &DiagnosticsPage::onPoint);
}

void DiagnosticsPage::onPoint() {
    const DiagnosticsHistory& h = m_live->history();
    const int i = h.size() - 1;
    if (i < 0) return;
    const qint64 t = h.timeMs(i);
    m_requests->append(0, t, h.value(DiagnosticsHistory::RequestsPerSecond, i));
    for (std::size_t k = 0; k < kServiceKindCount; ++k) {
        const double rate = h.serviceRate(ServiceKind(k), i);
        if (m_serviceSeries[k] < 0) {
            if (rate <= 0) continue;
            m_serviceSeries[k] = m_requests->addSeries(QString::fromLatin1(serviceName(ServiceKind(k))));
        }
        m_requests->append(m_serviceSeries[k], t, rate);
    }
    m_load->append(0, t, h.value(DiagnosticsHistory::Sessions, i));
    m_load->append(1, t, h.value(DiagnosticsHistory::Subscriptions, i));
    m_cpu->append(0, t, h.value(DiagnosticsHistory::CpuPercent, i));
    m_memory->append(0, t, h.value(DiagnosticsHistory::RssBytes, i) / (1024.0 * 1024.0));
    for (LiveChart* c : {m_requests, m_load, m_cpu, m_memory}) c->rescale(t);
}

} // namespace ua::app
