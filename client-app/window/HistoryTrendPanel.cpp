#include "window/HistoryTrendPanel.h"

#include "ValueText.h"
#include "core/Connection.h"
#include "models/HistoryTrendModel.h"
#include "models/HistoryValuesModel.h"
#include "window/HistoryChartView.h"

#include <QAction>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPixmap>
#include <QPushButton>
#include <QRadioButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTime>
#include <QVBoxLayout>
#include <algorithm>

namespace ua::clientapp {

namespace {

QTableView* historyTable(const QString& name, QAbstractItemModel* model) {
    auto* view = new QTableView;
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(20);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return view;
}

} // namespace

HistoryTrendPanel::HistoryTrendPanel(Connection* connection, QWidget* parent)
    : QWidget(parent), m_connection(connection), m_model(new HistoryTrendModel(connection, this)),
      m_values(new HistoryValuesModel(m_model, this)) {
    setObjectName(QStringLiteral("historyTrendPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    // The settings' rows never widen the window (a narrow one cuts them at the right; issue 27 item 6).
    auto* controls = new QWidget;
    controls->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    auto* rows = new QVBoxLayout(controls);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(2);
    layout->addWidget(controls);

    // Row 1: the range.
    auto* range = new QHBoxLayout;
    m_relative = new QRadioButton(tr("Last"));
    m_relative->setObjectName(QStringLiteral("historyRelative"));
    m_relative->setChecked(true);
    m_minutes = new QSpinBox;
    m_minutes->setObjectName(QStringLiteral("historyMinutes"));
    m_minutes->setRange(1, 7 * 24 * 60);
    m_minutes->setValue(10);
    m_minutes->setSuffix(tr(" min"));
    m_cyclic = new QCheckBox(tr("update every"));
    m_cyclic->setObjectName(QStringLiteral("historyCyclic"));
    m_cyclic->setToolTip(tr("Read the last minutes again and again while this is ticked"));
    m_cyclicSeconds = new QSpinBox;
    m_cyclicSeconds->setObjectName(QStringLiteral("historyCyclicSeconds"));
    m_cyclicSeconds->setRange(1, 3600);
    m_cyclicSeconds->setValue(5);
    m_cyclicSeconds->setSuffix(tr(" s"));
    m_absolute = new QRadioButton(tr("From"));
    m_absolute->setObjectName(QStringLiteral("historyAbsolute"));
    auto* group = new QButtonGroup(this);
    group->addButton(m_relative);
    group->addButton(m_absolute);
    const QDateTime now = QDateTime::currentDateTime();
    m_from = new QDateTimeEdit(now.addSecs(-600));
    m_from->setObjectName(QStringLiteral("historyFrom"));
    m_to = new QDateTimeEdit(now);
    m_to->setObjectName(QStringLiteral("historyTo"));
    for (QDateTimeEdit* e : {m_from, m_to}) {
        e->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        e->setCalendarPopup(true);
    }
    range->addWidget(m_relative);
    range->addWidget(m_minutes);
    range->addWidget(m_cyclic);
    range->addWidget(m_cyclicSeconds);
    range->addSpacing(12);
    range->addWidget(m_absolute);
    range->addWidget(m_from);
    range->addWidget(new QLabel(tr("to")));
    range->addWidget(m_to);
    range->addStretch();
    rows->addLayout(range);

    // Row 2: what is read, the actions, the hover line.
    auto* what = new QHBoxLayout;
    what->addWidget(new QLabel(tr("Values:")));
    m_aggregate = new QComboBox;
    m_aggregate->setObjectName(QStringLiteral("historyAggregate"));
    m_aggregate->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    what->addWidget(m_aggregate);
    what->addWidget(new QLabel(tr("interval")));
    m_interval = new QDoubleSpinBox;
    m_interval->setObjectName(QStringLiteral("historyInterval"));
    m_interval->setRange(0, 86'400'000);
    m_interval->setDecimals(0);
    m_interval->setValue(10000);
    m_interval->setSuffix(tr(" ms"));
    m_interval->setToolTip(tr("The processing interval of the aggregate (0: one interval for the whole range)"));
    what->addWidget(m_interval);
    m_read = new QPushButton(tr("Read"));
    m_read->setObjectName(QStringLiteral("historyRead"));
    m_read->setToolTip(tr("Read the history of every series with these settings"));
    what->addWidget(m_read);
    auto* csv = new QPushButton(tr("Export CSV..."));
    csv->setObjectName(QStringLiteral("historyExportCsv"));
    what->addWidget(csv);
    auto* png = new QPushButton(tr("Export PNG..."));
    png->setObjectName(QStringLiteral("historyExportPng"));
    what->addWidget(png);
    what->addStretch();
    rows->addLayout(what);
    // Row 3: the hovered point (a hint until then) and the last read's outcome.
    auto* status = new QHBoxLayout;
    m_hover = new QLabel(tr("Drag Variables here from the address space (or right-click one there: Add to history trend); "
                            "hover a line for its values."));
    m_hover->setObjectName(QStringLiteral("historyHover"));
    m_hover->setStyleSheet(QStringLiteral("color: gray"));
    m_hover->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the window
    status->addWidget(m_hover, 1);
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("historyMessage"));
    status->addWidget(m_message);
    rows->addLayout(status);

    // The chart the whole width (its axes need it), over the series | the values.
    m_chart = new HistoryChartView(m_model);
    m_seriesView = historyTable(QStringLiteral("historySeries"), m_model);
    m_seriesView->setAcceptDrops(true);
    m_seriesView->setDragDropMode(QAbstractItemView::DropOnly);
    m_seriesView->setDefaultDropAction(Qt::CopyAction);
    m_seriesView->setContextMenuPolicy(Qt::CustomContextMenu);
    m_seriesView->setColumnHidden(HistoryTrendModel::NodeIdColumn, true);  // in the name's tooltip
    m_seriesView->setColumnWidth(HistoryTrendModel::NameColumn, 100);
    m_seriesView->setColumnWidth(HistoryTrendModel::CountColumn, 50);
    m_seriesView->setMinimumWidth(120);
    m_valuesView = historyTable(QStringLiteral("historyValues"), m_values);
    m_valuesView->setColumnWidth(HistoryValuesModel::SeriesColumn, 90);
    m_valuesView->setColumnWidth(HistoryValuesModel::SourceTimestampColumn,
                                 m_valuesView->fontMetrics().horizontalAdvance(QStringLiteral("2026-11-30T10:00:00.000Z")) + 16);
    m_valuesView->setColumnWidth(HistoryValuesModel::ValueColumn, 140);
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->setObjectName(QStringLiteral("historyBottomSplitter"));
    bottom->addWidget(m_seriesView);
    bottom->addWidget(m_valuesView);
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({400, 600});
    auto* vertical = new QSplitter(Qt::Vertical);
    vertical->setObjectName(QStringLiteral("historySplitter"));
    vertical->addWidget(m_chart);
    vertical->addWidget(bottom);
    vertical->setStretchFactor(0, 2);
    vertical->setStretchFactor(1, 1);
    vertical->setSizes({440, 200});
    layout->addWidget(vertical, 1);

    auto* removeKey = new QAction(tr("Remove"), m_seriesView);
    removeKey->setShortcut(QKeySequence::Delete);
    removeKey->setShortcutContext(Qt::WidgetShortcut);
    connect(removeKey, &QAction::triggered, this, &HistoryTrendPanel::removeSelected);
    m_seriesView->addAction(removeKey);
    connect(m_seriesView, &QTableView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_seriesView->indexAt(pos);
        if (!index.isValid()) return;
        if (!m_seriesView->selectionModel()->isRowSelected(index.row(), {})) m_seriesView->selectRow(index.row());
        QMenu menu(this);
        QAction* remove = menu.addAction(tr("Remove"), this, &HistoryTrendPanel::removeSelected);
        remove->setObjectName(QStringLiteral("historyRemoveAction"));
        remove->setShortcut(QKeySequence::Delete);
        menu.exec(m_seriesView->viewport()->mapToGlobal(pos));
    });

    fillAggregates();
    connect(m_model, &HistoryTrendModel::aggregatesLoaded, this, &HistoryTrendPanel::fillAggregates);
    connect(m_connection, &Connection::connectFinished, this, [this](StatusCode status) {
        if (status.isGood()) {
            m_aggregatesAsked = isVisible();
            if (m_aggregatesAsked) m_model->loadAggregates();
        }
    });
    connect(m_connection, &Connection::serverChanged, this, [this] { m_aggregatesAsked = false; });
    connect(m_read, &QPushButton::clicked, this, &HistoryTrendPanel::read);
    connect(csv, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export history values"), QStringLiteral("history.csv"),
                                                          tr("CSV files (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error)) m_message->setText(error);
    });
    connect(png, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export history chart"), QStringLiteral("history.png"),
                                                          tr("PNG images (*.png)"));
        QString error;
        if (!path.isEmpty() && !exportPng(path, &error)) m_message->setText(error);
    });
    connect(m_chart, &HistoryChartView::hoverChanged, this, [this](const QString& text) {
        m_hover->setText(text);
        m_hover->setStyleSheet(QString());
    });
    connect(m_model, &HistoryTrendModel::readFinished, this, [this](StatusCode status) {
        int bad = 0;
        for (const HistorySeries& s : m_model->series()) bad += s.status.isBad();
        if (status.isBad()) m_message->setText(tr("HistoryRead: %1").arg(app::statusName(status)));
        else if (bad > 0) m_message->setText(tr("%n series failed (the status is beside each)", nullptr, bad));
        else m_message->setText(tr("Read at %1").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
        m_message->setStyleSheet(status.isBad() || bad > 0 ? QStringLiteral("color: #b00020") : QString());
    });
    // Settings take effect for the next read (the cyclic one too); the range's widgets follow the mode.
    for (QAbstractButton* b : {static_cast<QAbstractButton*>(m_relative), static_cast<QAbstractButton*>(m_absolute),
                               static_cast<QAbstractButton*>(m_cyclic)})
        connect(b, &QAbstractButton::toggled, this, [this] { applySettings(); });
    connect(m_minutes, &QSpinBox::valueChanged, this, [this] { applySettings(); });
    connect(m_cyclicSeconds, &QSpinBox::valueChanged, this, [this] { applySettings(); });
    connect(m_from, &QDateTimeEdit::dateTimeChanged, this, [this] { applySettings(); });
    connect(m_to, &QDateTimeEdit::dateTimeChanged, this, [this] { applySettings(); });
    connect(m_aggregate, &QComboBox::currentIndexChanged, this, [this] { applySettings(); });
    connect(m_interval, &QDoubleSpinBox::valueChanged, this, [this] { applySettings(); });
    applySettings();
}

void HistoryTrendPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // The server's aggregates, once per connection, when the tab is first looked at.
    if (!m_aggregatesAsked && m_connection->state() == ClientState::Connected) {
        m_aggregatesAsked = true;
        m_model->loadAggregates();
    }
}

void HistoryTrendPanel::fillAggregates() {
    const QString current = m_aggregate->currentText();
    const QSignalBlocker block(m_aggregate);
    m_aggregate->clear();
    m_aggregate->addItem(tr("Raw"), QString());
    for (const HistoryAggregate& a : m_model->aggregates())
        m_aggregate->addItem(a.name, QString::fromStdString(a.id.toString()));
    m_aggregate->setItemData(0, tr("The values as stored (Read Raw)"), Qt::ToolTipRole);
    const int i = m_aggregate->findText(current);
    m_aggregate->setCurrentIndex(i >= 0 ? i : 0);
    m_aggregate->setToolTip(m_model->aggregatesFromServer() ? tr("Raw values, or an aggregate the server offers")
                                                            : tr("Raw values, or a standard aggregate (the server lists none)"));
    applySettings();
}

void HistoryTrendPanel::applySettings() {
    if (m_relative->isChecked()) {
        m_model->setLastMinutes(m_minutes->value());
        m_model->setCyclicUpdate(m_cyclic->isChecked() ? m_cyclicSeconds->value() : 0);
    } else {
        m_model->setTimeRange(m_from->dateTime(), m_to->dateTime());
    }
    const QString id = m_aggregate->currentData().toString();
    m_model->setAggregate(id.isEmpty() ? NodeId() : NodeId::parse(id.toStdString()).value_or(NodeId()), m_interval->value());
    updateEnabled();
}

void HistoryTrendPanel::updateEnabled() {
    const bool relative = m_relative->isChecked();
    m_minutes->setEnabled(relative);
    m_cyclic->setEnabled(relative);
    m_cyclicSeconds->setEnabled(relative);
    m_from->setEnabled(!relative);
    m_to->setEnabled(!relative);
    m_interval->setEnabled(m_aggregate->currentIndex() > 0);
}

void HistoryTrendPanel::addNodes(const std::vector<NodeId>& nodes) {
    applySettings();
    m_model->addNodes(nodes);
}

void HistoryTrendPanel::setTimeRange(const QDateTime& start, const QDateTime& end) {
    m_from->setDateTime(start.toLocalTime());
    m_to->setDateTime(end.toLocalTime());
    m_absolute->setChecked(true);
    applySettings();
}

void HistoryTrendPanel::setLastMinutes(int minutes, int updateEverySeconds) {
    m_minutes->setValue(minutes);
    if (updateEverySeconds > 0) m_cyclicSeconds->setValue(updateEverySeconds);
    m_cyclic->setChecked(updateEverySeconds > 0);
    m_relative->setChecked(true);
    applySettings();
}

bool HistoryTrendPanel::setAggregate(const QString& name, double processingIntervalMs) {
    const int i = name.isEmpty() ? 0 : m_aggregate->findText(name, Qt::MatchFixedString);
    if (i < 0) return false;
    m_aggregate->setCurrentIndex(i);
    m_interval->setValue(processingIntervalMs);
    applySettings();
    return true;
}

void HistoryTrendPanel::read() {
    applySettings();
    if (m_absolute->isChecked() && m_from->dateTime() >= m_to->dateTime()) {
        m_message->setText(tr("From must be before To"));
        m_message->setStyleSheet(QStringLiteral("color: #b00020"));
        return;
    }
    m_model->read();
}

void HistoryTrendPanel::removeSelected() {
    std::vector<int> rows;
    for (const QModelIndex& i : m_seriesView->selectionModel()->selectedRows()) rows.push_back(i.row());
    std::sort(rows.rbegin(), rows.rend());
    for (int r : rows) m_model->removeRows(r, 1);
}

bool HistoryTrendPanel::exportCsv(const QString& path, QString* error) {
    QSaveFile file(path);
    const QByteArray csv = m_values->toCsv().toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(csv) != csv.size() || !file.commit()) {
        if (error) *error = tr("Not exported: %1: %2").arg(path, file.errorString());
        return false;
    }
    m_message->setText(tr("%n value(s) written to %1", nullptr, m_values->rowCount()).arg(path));
    m_message->setStyleSheet(QString());
    return true;
}

bool HistoryTrendPanel::exportPng(const QString& path, QString* error) {
    const QPixmap pixmap = m_chart->grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        if (error) *error = tr("Not exported: %1").arg(path);
        return false;
    }
    m_message->setText(tr("Chart written to %1").arg(path));
    m_message->setStyleSheet(QString());
    return true;
}

QString HistoryTrendPanel::hoverText() const {
    return m_chart->hoverText();
}

} // namespace ua::clientapp
