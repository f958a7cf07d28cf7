#include "SessionsPage.h"

#include "Confirmation.h"
#include "ReverseConnectionsPanel.h"
#include "TableViews.h"

#include "models/SessionsModel.h"

#include <QLabel>
#include <QLineEdit>
#include <QMetaEnum>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QVBoxLayout>

namespace ua::app {

SessionsPage::SessionsPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sessionsPage"));
    m_model = new serverapp::SessionsModel(this);
    m_view = makeTableView(QStringLiteral("sessionsView"), m_model, this, serverapp::SessionsModel::Created);
    m_proxy = static_cast<QSortFilterProxyModel*>(m_view->model());
    m_proxy->setFilterRole(serverapp::SessionsModel::FilterRole);
    m_proxy->setFilterKeyColumn(0);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &SessionsPage::showMenu);
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("sessionsFilter"));
    m_filter->setPlaceholderText(tr("Filter by session, client, address, security or user"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        showCount();
    });
    m_status = new QLabel;
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_reverse = new ReverseConnectionsPanel);
}

void SessionsPage::attach(LiveServer* live) {
    if (m_live) disconnect(&m_live->poller(), nullptr, this, nullptr);
    m_live = live;
    m_reverse->attach(live);
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
        showCount();
    });
}

void SessionsPage::showCount() {
    if (!m_live) return;
    const int all = m_model->rowCount();
    if (m_filter->text().isEmpty())
        m_status->setText(tr("%n Session(s); right-click a row to close it.", nullptr, all));
    else
        m_status->setText(tr("%1 of %n Session(s) match the filter; right-click a row to close it.", nullptr, all)
                              .arg(m_proxy->rowCount()));
}

void SessionsPage::setFilterText(const QString& text) { m_filter->setText(text); }

bool SessionsPage::sortBy(const QString& column, Qt::SortOrder order) {
    const QMetaEnum e = QMetaEnum::fromType<serverapp::SessionsModel::Column>();
    bool ok = false;
    const int c = e.keyToValue(column.toLatin1().constData(), &ok);
    if (!ok || c < 0 || c >= serverapp::SessionsModel::ColumnCount) return false;
    m_view->sortByColumn(c, order);
    return true;
}

void SessionsPage::showMenu(const QPoint& pos) {
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid() || !m_live) return;
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_view->model());
    const int row = proxy->mapToSource(index).row();
    const NodeId id = m_model->sessionId(row);
    const QString name = m_model->index(row, serverapp::SessionsModel::Name).data().toString();
    const QString address = m_model->index(row, serverapp::SessionsModel::Address).data().toString();
    const QString client = m_model->index(row, serverapp::SessionsModel::ClientApplication).data().toString();
    QMenu menu(this);
    // Two Sessions may share a name: the client's address tells them apart (issue 27 item 8).
    QAction* close = menu.addAction(address.isEmpty() ? tr("Close session \"%1\"").arg(name)
                                                      : tr("Close session \"%1\" from %2").arg(name, address));
    close->setObjectName(QStringLiteral("closeSessionAction"));
    connect(close, &QAction::triggered, this, [this, id, name, address, client] {
        if (!m_live) return;
        // Closing cuts a client off: asked first, Cancel the default.
        const QString who = client.isEmpty() ? address : tr("%1 at %2").arg(client, address);
        if (!confirmAction(this, tr("Close session"),
                           tr("Close Session \"%1\" of %2 (SessionId %3)? The client loses its Subscriptions and "
                              "must create a new Session.")
                               .arg(name, who, QString::fromStdString(id.toString())),
                           tr("Close session")))
            return;
        if (!m_live) return;  // stopped while the question was open
        const StatusCode status = m_live->closeSession(id);
        m_status->setText(status.isGood() ? tr("Closed Session \"%1\".").arg(name)
                                          : tr("Could not close \"%1\": %2").arg(name, QString::fromStdString(status.name())));
    });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
    if (!m_live) return;
    m_live->poller().pollNow();
}

} // namespace ua::app
