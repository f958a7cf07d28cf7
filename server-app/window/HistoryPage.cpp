#include "HistoryPage.h"

#include "TableViews.h"

#include "models/AdminAudit.h"
#include "models/HistoryModel.h"

#include "ua/server/history/HistoryManager.h"
#include "ua/server/runtime/Server.h"

#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace ua::app {

HistoryPage::HistoryPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("historyPage"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("historyStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stop = new QPushButton(tr("Stop historizing"));
    m_stop->setObjectName(QStringLiteral("stopHistorizingButton"));
    m_stop->setToolTip(tr("Stop sampling the chosen nodes; what was stored stays readable"));
    connect(m_stop, &QPushButton::clicked, this, &HistoryPage::stopChosen);
    m_view = new QTableView;  // replaced once a server runs (makeTableView needs the model)
    auto* tools = new QHBoxLayout;
    tools->addWidget(m_status, 1);
    tools->addWidget(m_stop);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addLayout(tools);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_model && isVisible()) m_model->refresh();
    });
    attach(nullptr);
}

void HistoryPage::attach(LiveServer* live) {
    m_timer.stop();
    m_live = live;
    QTableView* old = m_view;
    delete m_model;
    m_model = new serverapp::HistoryModel(live ? &live->server() : nullptr, this);
    m_view = makeTableView(QStringLiteral("historyView"), m_model, this, serverapp::HistoryModel::NodeId);
    // replaceWidget hands back the old widget's layout item, which is then ours to delete.
    delete layout()->replaceWidget(old, m_view);
    delete old;
    connect(m_model, &serverapp::HistoryModel::refreshed, this, &HistoryPage::refreshed);
    const bool on = live && live->server().history();
    m_stop->setEnabled(on);
    if (!live) m_status->setText(tr("The server is not running."));
    else if (!on) m_status->setText(tr("History is off (\"history\": {\"enabled\": false} in ua-server.json)."));
    else {
        m_status->setText(tr("Database %1").arg(m_model->databasePath()));
        m_model->refresh();
        m_timer.start(2000);
    }
}

void HistoryPage::refreshed() {
    if (!m_model) return;
    quint64 values = 0, events = 0;
    int sampled = 0, notifiers = 0;
    for (const auto& r : m_model->rows()) {
        if (r.events) {
            events += r.values;
            ++notifiers;
            continue;
        }
        values += r.values;
        sampled += r.historizing;
    }
    const QLocale locale;
    m_status->setText(tr("%1 nodes sampled, %2 values kept; %3 events of %4 notifier(s). Database %5: %6.")
                          .arg(sampled)
                          .arg(locale.toString(values))
                          .arg(locale.toString(events))
                          .arg(notifiers)
                          .arg(m_model->databasePath(), locale.formattedDataSize(m_model->databaseBytes())));
    if (m_model->rowCount() <= 100) fitColumns(m_view);
}

void HistoryPage::stopChosen() {
    if (!m_live || !m_model) return;
    const serverapp::AdminAudit audit{serverapp::windowAdministrator(), &m_live->server()};
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(m_view->model());
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows()) {
        const QModelIndex source = proxy ? proxy->mapToSource(i) : i;
        const serverapp::HistoryRow& row = m_model->rows()[std::size_t(source.row())];
        if (row.events) continue;  // a notifier's events: kept as ua-server.json's history.events says
        const QString text = row.nodeId;
        const auto id = ua::NodeId::parse(text.toStdString());
        if (!id) continue;
        HistorizedNode h;
        h.node = *id;
        const StatusCode s = m_live->server().setHistorized(h, false);
        audit.line(s.isGood(), tr("stopped historizing %1").arg(text), tr("%1 still historized").arg(text),
                   QString::fromStdString(s.name()));
        // Out of the configuration file too.
        QString error;
        if (s.isGood() && m_saveHistorized && !m_saveHistorized(*id, 0, false, &error))
            qWarning("stopped historizing %s, but the configuration file still lists it: %s", qPrintable(text), qPrintable(error));
    }
    m_model->refresh();
}

} // namespace ua::app
