#include "window/AlarmsPanel.h"

#include "core/Connection.h"
#include "ValueText.h"
#include "models/AlarmsModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace ua::clientapp {

namespace {

QTableView* makeAlarmTable(const QString& name, QAbstractItemModel* model) {
    auto* v = new QTableView;
    v->setObjectName(name);
    v->setModel(model);
    v->setSelectionBehavior(QAbstractItemView::SelectRows);
    v->verticalHeader()->hide();
    v->verticalHeader()->setDefaultSectionSize(20);
    v->horizontalHeader()->setStretchLastSection(true);
    v->horizontalHeader()->setDefaultSectionSize(150);
    return v;
}

QPushButton* makeAlarmButton(const QString& name, const QString& text, const QString& tip) {
    auto* b = new QPushButton(text);
    b->setObjectName(name);
    b->setToolTip(tip);
    return b;
}

} // namespace

AlarmsPanel::AlarmsPanel(Connection* connection, QWidget* parent)
    : QWidget(parent),
      m_connection(connection),
      m_model(new AlarmsModel(connection, this)),
      m_filter(new AlarmsFilterModel(this)),
      m_journalFilter(new AlarmsFilterModel(this)) {
    setObjectName(QStringLiteral("alarmsPanel"));
    m_filter->setSourceModel(m_model);
    m_journalFilter->setSourceModel(m_model->journal());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);

    // The filters' labels are inside their fields: the tab must not widen the window (a narrow
    // screen, tst_client_window_smoke).
    auto* top = new QHBoxLayout;
    m_start = makeAlarmButton(QStringLiteral("alarmsSubscribe"), tr("Subscribe"), tr("Subscribe to the conditions of the Server object"));
    top->addWidget(m_start);
    auto* refresh = makeAlarmButton(QStringLiteral("alarmsRefresh"), tr("Refresh"),
                                    tr("ConditionRefresh: the server sends every retained condition again"));
    top->addWidget(refresh);
    m_minSeverity = new QSpinBox;
    m_minSeverity->setObjectName(QStringLiteral("alarmsMinSeverity"));
    m_minSeverity->setRange(0, 1000);
    m_minSeverity->setSingleStep(100);
    m_minSeverity->setPrefix(tr("Severity \u2265 "));
    m_minSeverity->setToolTip(tr("Hide the conditions and events of a lower severity (1..1000)"));
    top->addWidget(m_minSeverity);
    m_source = new QLineEdit;
    m_source->setObjectName(QStringLiteral("alarmsSourceFilter"));
    m_source->setPlaceholderText(tr("Source contains"));
    m_source->setToolTip(tr("Show the conditions and events whose source contains this text"));
    m_source->setClearButtonEnabled(true);
    m_source->setMaximumWidth(200);
    top->addWidget(m_source);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("alarmsStatus"));
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the window
    top->addWidget(m_status, 1);
    layout->addLayout(top);

    m_view = makeAlarmTable(QStringLiteral("alarmsView"), m_filter);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(AlarmsModel::Time, Qt::DescendingOrder);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_journalView = makeAlarmTable(QStringLiteral("alarmJournalView"), m_journalFilter);
    m_journalView->setAlternatingRowColors(true);

    // Two rows of actions: the comment's Methods with the Comment, then shelving, Enable, Disable
    // and the result line.
    auto* actions = new QHBoxLayout;
    auto* ack = makeAlarmButton(QStringLiteral("alarmAcknowledge"), tr("Acknowledge"), tr("Acknowledge the selected conditions (OPC 10000-9 5.7.3)"));
    auto* confirm = makeAlarmButton(QStringLiteral("alarmConfirm"), tr("Confirm"), tr("Confirm the selected conditions (OPC 10000-9 5.7.4)"));
    auto* comment = makeAlarmButton(QStringLiteral("alarmAddComment"), tr("Add comment"), tr("AddComment (OPC 10000-9 5.5.6)"));
    actions->addWidget(ack);
    actions->addWidget(confirm);
    actions->addWidget(comment);
    m_comment = new QLineEdit;
    m_comment->setObjectName(QStringLiteral("alarmComment"));
    m_comment->setPlaceholderText(tr("Comment"));
    m_comment->setToolTip(tr("Sent with Acknowledge, Confirm and Add comment"));
    actions->addWidget(m_comment, 1);
    auto* more = new QHBoxLayout;
    m_shelve = new QToolButton;
    m_shelve->setObjectName(QStringLiteral("alarmShelve"));
    m_shelve->setText(tr("Shelve"));
    m_shelve->setPopupMode(QToolButton::InstantPopup);
    auto* shelveMenu = new QMenu(m_shelve);
    QAction* timed = shelveMenu->addAction(tr("Timed shelve (for the minutes given)"));
    QAction* oneShot = shelveMenu->addAction(tr("One-shot shelve (until it goes inactive)"));
    QAction* unshelve = shelveMenu->addAction(tr("Unshelve"));
    m_shelve->setMenu(shelveMenu);
    more->addWidget(m_shelve);
    m_shelveMinutes = new QSpinBox;
    m_shelveMinutes->setObjectName(QStringLiteral("alarmShelveMinutes"));
    m_shelveMinutes->setRange(1, 24 * 60);
    m_shelveMinutes->setValue(10);
    m_shelveMinutes->setSuffix(tr(" min"));
    m_shelveMinutes->setToolTip(tr("TimedShelve's ShelvingTime (the server's MaxTimeShelved is the limit)"));
    more->addWidget(m_shelveMinutes);
    auto* enable = makeAlarmButton(QStringLiteral("alarmEnable"), tr("Enable"), tr("Enable the selected conditions (OPC 10000-9 5.5.5)"));
    auto* disable = makeAlarmButton(QStringLiteral("alarmDisable"), tr("Disable"), tr("Disable the selected conditions (OPC 10000-9 5.5.4)"));
    more->addWidget(enable);
    more->addWidget(disable);
    m_result = new QLabel;
    m_result->setObjectName(QStringLiteral("alarmMethodResult"));
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    more->addWidget(m_result, 1);

    auto* upper = new QWidget;
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->addWidget(m_view, 1);
    upperLayout->addLayout(actions);
    upperLayout->addLayout(more);
    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(new QLabel(tr("Journal: the events received")));
    lowerLayout->addWidget(m_journalView, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(upper);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(m_start, &QPushButton::clicked, this, [this] {
        if (m_model->isRunning()) m_model->stop();
        else start();
        updateStatus();
    });
    connect(refresh, &QPushButton::clicked, m_model, &AlarmsModel::refresh);
    connect(m_minSeverity, &QSpinBox::valueChanged, this, [this](int v) {
        m_filter->setMinimumSeverity(v);
        m_journalFilter->setMinimumSeverity(v);
    });
    connect(m_source, &QLineEdit::textChanged, this, [this](const QString& t) {
        m_filter->setSourceFilter(t.trimmed());
        m_journalFilter->setSourceFilter(t.trimmed());
    });
    connect(ack, &QPushButton::clicked, this, [this] { act(AlarmMethod::Acknowledge); });
    connect(confirm, &QPushButton::clicked, this, [this] { act(AlarmMethod::Confirm); });
    connect(comment, &QPushButton::clicked, this, [this] { act(AlarmMethod::AddComment); });
    connect(timed, &QAction::triggered, this, [this] { act(AlarmMethod::TimedShelve); });
    connect(oneShot, &QAction::triggered, this, [this] { act(AlarmMethod::OneShotShelve); });
    connect(unshelve, &QAction::triggered, this, [this] { act(AlarmMethod::Unshelve); });
    connect(enable, &QPushButton::clicked, this, [this] { act(AlarmMethod::Enable); });
    connect(disable, &QPushButton::clicked, this, [this] { act(AlarmMethod::Disable); });
    connect(m_view, &QWidget::customContextMenuRequested, this, &AlarmsPanel::showContextMenu);

    connect(m_model, &AlarmsModel::statusChanged, this, &AlarmsPanel::updateStatus);
    connect(m_model, &AlarmsModel::refreshCalled, this, &AlarmsPanel::updateStatus);
    connect(m_model, &AlarmsModel::refreshCompleted, this, &AlarmsPanel::updateStatus);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &AlarmsPanel::updateStatus);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &AlarmsPanel::updateStatus);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AlarmsPanel::updateStatus);
    connect(m_model, &AlarmsModel::methodFinished, this, [this](const QString& method, const QString& condition, StatusCode s) {
        m_result->setText(tr("%1 %2: %3").arg(method, condition, app::statusName(s)));
        m_result->setToolTip(QString::fromUtf8(s.description()));
    });
    connect(m_model, &AlarmsModel::eventsReceived, this, [this] {
        if (!m_sized && m_model->rowCount() > 0) {
            m_view->resizeColumnsToContents();
            m_journalView->resizeColumnsToContents();
            m_sized = true;
        }
        QScrollBar* bar = m_journalView->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 2) m_journalView->scrollToBottom();  // follow unless the user scrolled up
    });
    updateStatus();
}

void AlarmsPanel::start() {
    m_model->start();
    updateStatus();
}

void AlarmsPanel::connected() {
    if (isVisible() && !m_model->isRunning()) start();
}

void AlarmsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!m_model->isRunning() && m_connection->state() == ClientState::Connected) start();
}

bool AlarmsPanel::selectRow(int modelRow) {
    const QModelIndex i = m_filter->mapFromSource(m_model->index(modelRow, 0));
    if (!i.isValid()) return false;
    m_view->selectionModel()->select(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->setCurrentIndex(i);
    return true;
}

QList<int> AlarmsPanel::selectedRows() const {
    QList<int> rows;
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows()) rows << m_filter->mapToSource(i).row();
    std::sort(rows.begin(), rows.end());
    return rows;
}

int AlarmsPanel::act(AlarmMethod method) {
    const QList<int> rows = selectedRows();
    if (rows.isEmpty()) {
        m_result->setText(tr("Select a condition first"));
        return 0;
    }
    int calls = 0;
    for (int row : rows)
        calls += m_model->callMethod(row, method, m_comment->text(), m_shelveMinutes->value() * 60000.0) ? 1 : 0;
    if (calls) m_result->setText(tr("%1 ...").arg(QLatin1String(alarmMethodName(method))));
    return calls;
}

void AlarmsPanel::showContextMenu(const QPoint& pos) {
    if (!m_view->indexAt(pos).isValid()) return;
    QMenu menu(this);
    const std::pair<AlarmMethod, QString> items[] = {
        {AlarmMethod::Acknowledge, tr("Acknowledge")},  {AlarmMethod::Confirm, tr("Confirm")},
        {AlarmMethod::AddComment, tr("Add comment")},   {AlarmMethod::TimedShelve, tr("Timed shelve")},
        {AlarmMethod::OneShotShelve, tr("One-shot shelve")}, {AlarmMethod::Unshelve, tr("Unshelve")},
        {AlarmMethod::Enable, tr("Enable")},            {AlarmMethod::Disable, tr("Disable")},
    };
    for (const auto& [method, text] : items) {
        QAction* a = menu.addAction(text);
        a->setObjectName(QStringLiteral("alarm%1").arg(QLatin1String(alarmMethodName(method))));
        connect(a, &QAction::triggered, this, [this, method = method] { act(method); });
    }
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void AlarmsPanel::updateStatus() {
    m_start->setText(m_model->isRunning() ? tr("Stop") : tr("Subscribe"));
    if (!m_model->isRunning()) {
        m_status->setText(tr("not subscribed"));
    } else if (m_model->status().isBad()) {
        m_status->setText(app::statusName(m_model->status()));
    } else {
        QString text = tr("%n condition(s)", nullptr, m_model->rowCount());
        const StatusCode r = m_model->refreshStatus();
        if (r.isBad() && r != StatusCode(status::BadWaitingForInitialData)) text += tr(", ConditionRefresh: %1").arg(app::statusName(r));
        m_status->setText(text);
    }
    m_status->setToolTip(m_status->text());
}

} // namespace ua::clientapp
