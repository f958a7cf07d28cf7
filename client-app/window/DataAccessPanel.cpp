#include "window/DataAccessPanel.h"

#include "ValueText.h"
#include "models/MonitoredItemsModel.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace ua::clientapp {

DataAccessPanel::DataAccessPanel(Connection* connection, QWidget* parent)
    : QWidget(parent), m_model(new MonitoredItemsModel(connection, this)) {
    setObjectName(QStringLiteral("dataAccessPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Publishing interval:")));
    m_publishing = new QDoubleSpinBox;
    m_publishing->setObjectName(QStringLiteral("publishingInterval"));
    m_publishing->setRange(0, 3'600'000);
    m_publishing->setDecimals(0);
    m_publishing->setSuffix(tr(" ms"));
    m_publishing->setValue(m_model->subscriptionSettings().publishingIntervalMs);
    m_publishing->setKeyboardTracking(false);
    top->addWidget(m_publishing);
    m_revised = new QLabel;
    m_revised->setObjectName(QStringLiteral("revisedPublishingInterval"));
    top->addWidget(m_revised);
    top->addStretch();
    auto* hint = new QLabel(tr("Drag nodes here from the address space, or right-click a Variable there and choose Monitor."));
    hint->setStyleSheet(QStringLiteral("color: gray"));
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a hint never widens the window
    top->addWidget(hint);
    layout->addLayout(top);

    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("dataAccessView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setAcceptDrops(true);
    m_view->setDragDropMode(QAbstractItemView::DropOnly);
    m_view->setDefaultDropAction(Qt::CopyAction);
    m_view->setDropIndicatorShown(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(20);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnWidth(MonitoredItemsModel::DisplayNameColumn, 110);
    m_view->setColumnWidth(MonitoredItemsModel::NodeIdColumn, 145);
    // Wide enough for a Double's shortest exact text (up to 17 digits and an exponent).
    m_view->setColumnWidth(MonitoredItemsModel::ValueColumn, 165);
    m_view->setColumnWidth(MonitoredItemsModel::DataTypeColumn, 60);
    m_view->setColumnWidth(MonitoredItemsModel::StatusColumn, 50);
    m_view->setColumnWidth(MonitoredItemsModel::SourceTimestampColumn, 175);
    m_view->setColumnWidth(MonitoredItemsModel::ServerTimestampColumn, 175);
    layout->addWidget(m_view, 1);

    auto* remove = new QAction(tr("Remove"), m_view);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, &DataAccessPanel::removeSelected);
    m_view->addAction(remove);

    connect(m_publishing, &QDoubleSpinBox::valueChanged, this, [this](double ms) { m_model->setPublishingInterval(ms); });
    connect(m_model, &MonitoredItemsModel::subscriptionChanged, this, [this](StatusCode status, double revised) {
        m_revised->setText(status.isGood() ? tr("revised %1 ms").arg(revised) : app::statusName(status));
    });
    connect(m_view, &QTableView::customContextMenuRequested, this, &DataAccessPanel::contextMenu);
}

void DataAccessPanel::addNodes(const std::vector<NodeId>& nodes) {
    m_model->addNodes(nodes);
}

void DataAccessPanel::setPublishingInterval(double ms) {
    m_publishing->setValue(ms);  // valueChanged: the model modifies the subscription
}

void DataAccessPanel::removeSelected() {
    std::vector<int> rows;
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows()) rows.push_back(i.row());
    std::sort(rows.rbegin(), rows.rend());
    for (int r : rows) m_model->removeRows(r, 1);
}

void DataAccessPanel::contextMenu(const QPoint& pos) {
    const QModelIndex index = m_view->indexAt(pos);
    QMenu menu(this);
    if (index.isValid()) {
        const int row = index.row();
        if (!m_view->selectionModel()->isRowSelected(row, {})) m_view->selectRow(row);
        QAction* settings = menu.addAction(tr("Settings..."), this, [this, row] { editSettings(row); });
        settings->setObjectName(QStringLiteral("itemSettingsAction"));
        QAction* trend = menu.addAction(tr("Show in trend"));
        trend->setCheckable(true);
        trend->setChecked(m_model->trendAt(row));
        connect(trend, &QAction::toggled, this, [this, row](bool on) { m_model->setTrend(row, on); });
        QAction* remove = menu.addAction(tr("Remove"), this, &DataAccessPanel::removeSelected);
        remove->setObjectName(QStringLiteral("removeItemAction"));
    }
    menu.addSeparator();
    menu.addAction(tr("Publishing interval..."), this, [this] { m_publishing->setFocus(); m_publishing->selectAll(); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void DataAccessPanel::editSettings(int row) {
    if (row < 0 || row >= m_model->rowCount()) return;
    const std::vector<ProjectItem> items = m_model->items();
    const ProjectItem& item = items[std::size_t(row)];
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("itemSettingsDialog"));
    dialog->setWindowTitle(tr("Monitored item: %1").arg(m_model->displayNameAt(row)));
    auto* form = new QFormLayout(dialog);
    auto* sampling = new QDoubleSpinBox;
    sampling->setRange(-1, 3'600'000);
    sampling->setDecimals(0);
    sampling->setSuffix(tr(" ms"));
    sampling->setSpecialValueText(tr("publishing interval (-1)"));
    sampling->setValue(item.samplingIntervalMs);
    auto* queue = new QSpinBox;
    queue->setRange(0, 100'000);
    queue->setValue(int(item.queueSize));
    auto* deadbandType = new QComboBox;
    deadbandType->addItems({tr("None"), tr("Absolute"), tr("Percent")});
    deadbandType->setCurrentIndex(int(item.deadbandType));
    auto* deadband = new QDoubleSpinBox;
    deadband->setRange(0, 1e12);
    deadband->setDecimals(3);
    deadband->setValue(item.deadbandValue);
    form->addRow(tr("Sampling interval:"), sampling);
    form->addRow(tr("Queue size:"), queue);
    form->addRow(tr("Deadband:"), deadbandType);
    form->addRow(tr("Deadband value:"), deadband);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    const uint32_t handle = m_model->clientHandleAt(row);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [=, this] {
        const int r = m_model->rowOfClientHandle(handle);  // rows may have moved meanwhile
        if (r >= 0)
            m_model->setItemSettings(r, sampling->value(), uint32_t(queue->value()), uint32_t(deadbandType->currentIndex()),
                                     deadband->value());
        dialog->accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    dialog->open();
}

} // namespace ua::clientapp
