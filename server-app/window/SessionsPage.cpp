#include "SessionsPage.h"

#include "TableViews.h"

#include "models/SessionsModel.h"

#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QVBoxLayout>

namespace ua::app {

SessionsPage::SessionsPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sessionsPage"));
    m_model = new serverapp::SessionsModel(this);
    m_view = makeTableView(QStringLiteral("sessionsView"), m_model, this, serverapp::SessionsModel::Created);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &SessionsPage::showMenu);
    m_status = new QLabel;
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
}

void SessionsPage::attach(LiveServer* live) {
    if (m_live) disconnect(&m_live->poller(), nullptr, this, nullptr);
    m_live = live;
    if (!live) {
        m_model->update(DiagnosticsSnapshot{});
        m_status->setText(tr("The server is not running."));
        return;
    }
    connect(&live->poller(), &serverapp::DiagnosticsPoller::snapshotReady, this, [this](const DiagnosticsSnapshotPtr& s) {
        const int before = m_model->rowCount();
        m_model->update(s);  // shares the snapshot
        // Columns fit the rows while there are few (sizing scans rows; with hundreds the user sizes them).
        if (m_model->rowCount() != before && m_model->rowCount() <= 100) fitColumns(m_view);
        m_status->setText(tr("%n Session(s); right-click a row to close it.", nullptr, m_model->rowCount()));
    });
}

void SessionsPage::showMenu(const QPoint& pos) {
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid() || !m_live) return;
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_view->model());
    const int row = proxy->mapToSource(index).row();
    const NodeId id = m_model->sessionId(row);
    const QString name = m_model->index(row, serverapp::SessionsModel::Name).data().toString();
    QMenu menu(this);
    QAction* close = menu.addAction(tr("Close session \"%1\"").arg(name));
    close->setObjectName(QStringLiteral("closeSessionAction"));
    connect(close, &QAction::triggered, this, [this, id, name] {
        if (!m_live) return;
        const StatusCode status = m_live->closeSession(id);
        m_status->setText(status.isGood() ? tr("Closed Session \"%1\".").arg(name)
                                          : tr("Could not close \"%1\": %2").arg(name, QString::fromStdString(status.name())));
    });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
    if (!m_live) return;
    m_live->poller().pollNow();
}

} // namespace ua::app
