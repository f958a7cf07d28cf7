#include "window/EventsPanel.h"

#include "core/Connection.h"
#include "ValueText.h"
#include "models/EventsModel.h"
#include "models/NodeIdMime.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace ua::clientapp {

EventsPanel::EventsPanel(Connection* connection, QWidget* parent)
    : QWidget(parent), m_connection(connection), m_model(new EventsModel(connection, 1000, this)) {
    setObjectName(QStringLiteral("eventsPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Notifier:")));
    m_notifier = new QLineEdit(QStringLiteral("i=2253"));
    m_notifier->setObjectName(QStringLiteral("eventNotifier"));
    m_notifier->setToolTip(tr("An Object with SubscribeToEvents (i=2253 is the Server object)"));
    m_notifier->setMaximumWidth(260);
    top->addWidget(m_notifier);
    m_fields = new QToolButton;
    m_fields->setObjectName(QStringLiteral("eventFields"));
    m_fields->setText(tr("Fields"));
    m_fields->setPopupMode(QToolButton::InstantPopup);
    m_fields->setMenu(new QMenu(m_fields));
    top->addWidget(m_fields);
    m_start = new QPushButton(tr("Subscribe"));
    m_start->setObjectName(QStringLiteral("eventsSubscribe"));
    top->addWidget(m_start);
    auto* clear = new QPushButton(tr("Clear"));
    top->addWidget(clear);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("eventsStatus"));
    // A long status must not widen the window: cut at the edge (the whole text in its tooltip).
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    top->addWidget(m_status, 1);
    layout->addLayout(top);

    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("eventsView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(20);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setDefaultSectionSize(170);
    layout->addWidget(m_view, 1);
    fillFieldsMenu();

    connect(m_notifier, &QLineEdit::returnPressed, this, [this] { subscribe(m_notifier->text()); });
    connect(m_start, &QPushButton::clicked, this, [this] {
        if (m_model->isRunning()) {
            m_model->stop();
            updateStatus();
        } else {
            subscribe(m_notifier->text());
        }
    });
    connect(clear, &QPushButton::clicked, m_model, &EventsModel::clear);
    connect(m_model, &EventsModel::statusChanged, this, &EventsPanel::updateStatus);
    connect(m_model, &EventsModel::notifierReset, this, [this](const NodeId& notifier) {
        m_notifier->setText(QString::fromStdString(notifier.toString()));
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &EventsPanel::updateStatus);
    // Columns fit the first events (again after the fields change: a model reset).
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_sized = false; });
    connect(m_model, &EventsModel::eventsReceived, this, [this] {
        if (!m_sized) {
            m_view->resizeColumnsToContents();
            m_sized = true;
        }
        QScrollBar* bar = m_view->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 2) m_view->scrollToBottom();  // follow unless the user scrolled up
        updateStatus();
    });
}

bool EventsPanel::subscribe(const QString& text, const QStringList& fields) {
    const NodeIdConverter converter = m_connection->client() ? m_connection->client()->nodeIdConverter() : NodeIdConverter();
    const std::optional<NodeId> node = parseUserNodeId(text.trimmed(), converter);
    if (!node) {
        m_status->setText(tr("%1 is not a NodeId").arg(text));
        m_status->setToolTip(m_status->text());
        return false;
    }
    m_notifier->setText(text.trimmed());
    if (!fields.isEmpty()) {
        m_model->setFields(fields);
        fillFieldsMenu();
    }
    m_model->setNotifier(*node);
    if (!m_model->isRunning()) m_model->start();
    updateStatus();
    return true;
}

void EventsPanel::setFields(const QStringList& fields) {
    m_model->setFields(fields);
    fillFieldsMenu();
}

void EventsPanel::setNotifierText(const QString& text) {
    m_notifier->setText(text);
}

QString EventsPanel::notifierText() const {
    const NodeIdConverter converter = m_connection->client() ? m_connection->client()->nodeIdConverter() : NodeIdConverter();
    return persistentNodeId(m_model->notifier(), converter);
}

void EventsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!m_model->isRunning() && m_connection->state() == ClientState::Connected) subscribe(m_notifier->text());
}

void EventsPanel::connected() {
    if (isVisible() && !m_model->isRunning()) subscribe(m_notifier->text());
}

void EventsPanel::fillFieldsMenu() {
    QMenu* menu = m_fields->menu();
    menu->clear();
    const QStringList selected = m_model->fields();
    for (const QString& f : EventsModel::availableFields()) {
        QAction* a = menu->addAction(f);
        a->setCheckable(true);
        a->setChecked(selected.contains(f));
        connect(a, &QAction::toggled, this, [this, f](bool on) {
            QStringList fields = m_model->fields();
            if (on && !fields.contains(f)) {
                // Keep the order of availableFields().
                QStringList ordered;
                for (const QString& x : EventsModel::availableFields())
                    if (fields.contains(x) || x == f) ordered << x;
                fields = ordered;
            } else if (!on) {
                fields.removeAll(f);
            }
            if (fields.isEmpty()) return;
            m_model->setFields(fields);
        });
    }
}

void EventsPanel::updateStatus() {
    m_start->setText(m_model->isRunning() ? tr("Stop") : tr("Subscribe"));
    if (!m_model->isRunning()) {
        m_status->setText(tr("not subscribed"));
        m_status->setToolTip(m_status->text());
        return;
    }
    const StatusCode s = m_model->status();
    m_status->setText(s.isGood() ? tr("%1 event(s)").arg(m_model->rowCount()) : app::statusName(s));
    m_status->setToolTip(m_status->text());
}

} // namespace ua::clientapp
