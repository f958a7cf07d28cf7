#include "window/EventHistoryPanel.h"

#include "core/Connection.h"
#include "ValueText.h"
#include "models/EventHistoryModel.h"
#include "models/NodeIdMime.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace ua::clientapp {

EventHistoryPanel::EventHistoryPanel(Connection* connection, QWidget* parent)
    : QWidget(parent), m_connection(connection), m_model(new EventHistoryModel(connection, this)) {
    setObjectName(QStringLiteral("eventHistoryPanel"));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Notifier:")));
    m_notifier = new QLineEdit(QStringLiteral("i=2253"));
    m_notifier->setObjectName(QStringLiteral("eventHistoryNotifier"));
    m_notifier->setToolTip(tr("An Object whose events the server keeps (i=2253 is the Server object)"));
    m_notifier->setMaximumWidth(260);
    top->addWidget(m_notifier);
    top->addWidget(new QLabel(tr("the last")));
    m_minutes = new QSpinBox;
    m_minutes->setObjectName(QStringLiteral("eventHistoryMinutes"));
    m_minutes->setRange(1, 60 * 24 * 31);
    m_minutes->setValue(60);
    m_minutes->setSuffix(tr(" min"));
    top->addWidget(m_minutes);
    m_read = new QPushButton(tr("Read"));
    m_read->setObjectName(QStringLiteral("eventHistoryRead"));
    top->addWidget(m_read);
    top->addStretch(1);
    // On a line of its own, wrapped: a long status does not widen the window (it must fit 800 px).
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("eventHistoryStatus"));
    m_status->setWordWrap(true);

    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("eventHistoryView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);

    const auto readNow = [this] { read(m_notifier->text(), m_minutes->value()); };
    connect(m_read, &QPushButton::clicked, this, readNow);
    connect(m_notifier, &QLineEdit::returnPressed, this, readNow);
    connect(m_model, &EventHistoryModel::readFinished, this, &EventHistoryPanel::finished);
}

bool EventHistoryPanel::read(const QString& notifier, int minutes) {
    const NodeIdConverter converter = m_connection->client() ? m_connection->client()->nodeIdConverter() : NodeIdConverter();
    const std::optional<NodeId> node = parseUserNodeId(notifier.trimmed(), converter);
    if (!node) {
        m_status->setText(tr("%1 is not a NodeId").arg(notifier));
        return false;
    }
    m_notifier->setText(notifier.trimmed());
    m_minutes->setValue(minutes);
    const QDateTime to = QDateTime::currentDateTimeUtc();
    m_read->setEnabled(false);
    m_status->setText(tr("reading ..."));
    m_model->read(*node, to.addSecs(-60 * qint64(minutes)), to);
    return true;
}

void EventHistoryPanel::finished() {
    m_read->setEnabled(true);
    const StatusCode s = m_model->status();
    const int n = m_model->rowCount();
    QString text;
    if (s.isBad())
        text = tr("%1 (%n event(s) before it)", nullptr, n).arg(app::statusName(s));
    else if (s.base() == status::GoodMoreData.code)
        text = tr("%n event(s), and more on the server (Good_MoreData)", nullptr, n);
    else
        text = n == 0 ? tr("no events in that range (%1)").arg(app::statusName(s))
                      : tr("%n event(s) in %1 request(s)", nullptr, n).arg(m_model->requests());
    m_status->setText(text);
    m_status->setStyleSheet(s.isBad() ? QStringLiteral("color: #b00020") : QString());
    if (n > 0 && n <= 1000) m_view->resizeColumnsToContents();
}

} // namespace ua::clientapp
