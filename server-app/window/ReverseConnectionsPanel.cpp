#include "ReverseConnectionsPanel.h"

#include "TableViews.h"

#include "models/ReverseConnectionsModel.h"

#include "ua/server/runtime/Server.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace ua::app {

namespace {
// The table shows up to this many rows without scrolling; the Sessions table above takes the rest.
constexpr int kReverseRowsShown = 6;
} // namespace

ReverseConnectionsPanel::ReverseConnectionsPanel(QWidget* parent)
    : QGroupBox(tr("Reverse Connect: client listeners the server dials"), parent) {
    setObjectName(QStringLiteral("reverseConnectionsPanel"));
    m_model = new serverapp::ReverseConnectionsModel(this);
    // In the order of the configuration (no sort column), as the administrator wrote them.
    m_view = makeTableView(QStringLiteral("reverseConnectionsView"), m_model, this);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_empty = new QLabel;
    m_empty->setObjectName(QStringLiteral("reverseConnectionsEmpty"));
    m_empty->setWordWrap(true);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("reverseConnectionsSummary"));
    m_summary->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view);
    layout->addWidget(m_empty);
    layout->addWidget(m_summary);
    refresh();
}

void ReverseConnectionsPanel::attach(LiveServer* live) {
    if (m_live) disconnect(&m_live->poller(), nullptr, this, nullptr);
    m_live = live;
    if (live) connect(&live->poller(), &serverapp::DiagnosticsPoller::snapshotReady, this, [this] { refresh(); });
    refresh();
}

void ReverseConnectionsPanel::fitHeight() {
    const int rows = std::clamp(m_model->rowCount(), 1, kReverseRowsShown);
    m_view->setFixedHeight(m_view->horizontalHeader()->sizeHint().height() + rows * m_view->verticalHeader()->defaultSectionSize() +
                           2 * m_view->frameWidth() + m_view->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_view));
}

void ReverseConnectionsPanel::refresh() {
    Server* server = m_live ? &m_live->server() : nullptr;
    const int before = m_model->rowCount();
    m_model->update(server ? server->reverseConnectStates() : std::vector<ReverseConnector::TargetState>{});
    const int rows = m_model->rowCount();
    if (rows != before && rows > 0) {
        fitColumns(m_view);
        fitHeight();
    }
    m_view->setVisible(rows > 0);
    m_empty->setVisible(rows == 0);
    m_summary->setVisible(rows > 0);
    if (!server) {
        m_empty->setText(tr("The server is not running."));
        return;
    }
    if (rows == 0) {
        m_empty->setText(tr("No reverse connections configured: add client URLs under \"Reverse Connect to\" in the Server "
                            "page's configuration (they apply at the next start) or start with --reverse-connect URL."));
        return;
    }
    int open = 0, failing = 0;
    for (int r = 0; r < rows; ++r) {
        const ReverseConnector::TargetState* t = m_model->state(r);
        open += t->spareOpen ? 1 : 0;
        failing += !t->valid || t->failures > 0 ? 1 : 0;
    }
    const ReverseConnectConfig& c = server->config().reverseConnect;
    m_summary->setText(tr("%n client listener(s): %1 with a spare open, %2 failing. A spare waits %3 s for the client's "
                          "Hello; a failed dial is retried after %4 s, doubled up to %5 s.",
                          nullptr, rows)
                           .arg(open)
                           .arg(failing)
                           .arg(double(c.helloTimeoutMs) / 1000.0)
                           .arg(double(c.retryMinMs) / 1000.0)
                           .arg(double(c.retryMaxMs) / 1000.0));
}

} // namespace ua::app
