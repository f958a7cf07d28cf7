#include "SubscriptionsPage.h"

#include "TableViews.h"

#include "models/SubscriptionsModel.h"

#include <QLabel>
#include <QVBoxLayout>

namespace ua::app {

SubscriptionsPage::SubscriptionsPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("subscriptionsPage"));
    m_model = new serverapp::SubscriptionsModel(this);
    m_view = makeTableView(QStringLiteral("subscriptionsView"), m_model, this, serverapp::SubscriptionsModel::Id);
    m_status = new QLabel;
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
}

void SubscriptionsPage::attach(LiveServer* live) {
    if (m_live) disconnect(&m_live->poller(), nullptr, this, nullptr);
    m_live = live;
    if (!live) {
        m_model->update(DiagnosticsSnapshot{});
        m_status->setText(tr("The server is not running."));
        return;
    }
    connect(&live->poller(), &serverapp::DiagnosticsPoller::snapshotReady, this, [this](const DiagnosticsSnapshotPtr& s) {
        const int before = m_model->rowCount();
        m_model->update(*s);
        // Columns fit the rows while there are few (sizing scans rows; with hundreds the user sizes them).
        if (m_model->rowCount() != before && m_model->rowCount() <= 100) fitColumns(m_view);
        m_status->setText(tr("%n Subscription(s), %1 MonitoredItems.", nullptr, m_model->rowCount()).arg(s->monitoredItems));
    });
}

} // namespace ua::app
