#include "window/NodePanel.h"

#include "ValueText.h"
#include "models/AttributesModel.h"
#include "models/ReferencesModel.h"
#include "window/ArrayEditorDialog.h"
#include "window/ValueEditorDelegate.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace ua::clientapp {

namespace {

QString nodePanelWriteHint() {
    return NodePanel::tr("Double-click the Value to write it; right-click a structure's field to add or remove it.");
}

} // namespace

NodePanel::NodePanel(Connection* connection, QWidget* parent)
    : QWidget(parent), m_attributes(new AttributesModel(connection, this)), m_references(new ReferencesModel(connection, this)) {
    setObjectName(QStringLiteral("nodePanel"));
    // Opened 460 px wide (MainWindow::resizeDocks); narrower only when the user wants the window so
    // (a window of 800 px, issue 27 item 6).
    setMinimumWidth(260);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* splitter = new QSplitter(Qt::Vertical);

    auto* attributesBox = new QWidget;
    auto* al = new QVBoxLayout(attributesBox);
    al->setContentsMargins(0, 0, 0, 0);
    al->setSpacing(2);
    auto* header = new QHBoxLayout;
    auto* title = new QLabel(tr("<b>Attributes</b>"));
    header->addWidget(title);
    header->addStretch();
    auto* refresh = new QToolButton;
    refresh->setObjectName(QStringLiteral("refreshAttributes"));
    refresh->setText(tr("Refresh"));
    refresh->setToolTip(tr("Read every attribute again"));
    header->addWidget(refresh);
    al->addLayout(header);
    m_attributesView = new QTreeView;
    m_attributesView->setObjectName(QStringLiteral("attributesView"));
    m_attributesView->setModel(m_attributes);
    auto* delegate = new ValueEditorDelegate(m_attributesView);
    m_attributesView->setItemDelegateForColumn(AttributesModel::ValueColumn, delegate);
    connect(delegate, &ValueEditorDelegate::arrayEditRequested, this, [this] { openArrayEditor(); });
    m_attributesView->setAlternatingRowColors(true);
    m_attributesView->setUniformRowHeights(true);
    m_attributesView->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                                      QAbstractItemView::SelectedClicked);
    m_attributesView->header()->setStretchLastSection(false);
    m_attributesView->header()->setSectionResizeMode(AttributesModel::AttributeColumn, QHeaderView::ResizeToContents);
    // Not Stretch: a stretched Value column elides long values (issue 27 item 6); fitValueColumn().
    m_attributesView->header()->setSectionResizeMode(AttributesModel::ValueColumn, QHeaderView::Interactive);
    m_attributesView->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_attributesView->viewport()->installEventFilter(this);
    m_attributesView->header()->setSectionResizeMode(AttributesModel::DataTypeColumn, QHeaderView::Interactive);
    m_attributesView->header()->setSectionResizeMode(AttributesModel::StatusColumn, QHeaderView::Interactive);
    m_attributesView->header()->resizeSection(AttributesModel::DataTypeColumn, 90);
    m_attributesView->header()->resizeSection(AttributesModel::StatusColumn, 85);
    m_attributesView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_attributesView, &QTreeView::customContextMenuRequested, this, &NodePanel::attributesContextMenu);
    al->addWidget(m_attributesView, 1);
    m_writeStatus = new QLabel;
    m_writeStatus->setObjectName(QStringLiteral("writeStatus"));
    m_writeStatus->setWordWrap(true);
    m_writeStatus->setText(nodePanelWriteHint());
    al->addWidget(m_writeStatus);
    splitter->addWidget(attributesBox);

    auto* referencesBox = new QWidget;
    auto* rl = new QVBoxLayout(referencesBox);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->setSpacing(2);
    rl->addWidget(new QLabel(tr("<b>References</b>")));
    m_referencesView = new QTableView;
    m_referencesView->setObjectName(QStringLiteral("referencesView"));
    m_referencesView->setModel(m_references);
    m_referencesView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_referencesView->setAlternatingRowColors(true);
    m_referencesView->verticalHeader()->hide();
    m_referencesView->verticalHeader()->setDefaultSectionSize(20);
    m_referencesView->horizontalHeader()->setStretchLastSection(true);
    m_referencesView->setToolTip(tr("Double-click a reference to go to its target"));
    rl->addWidget(m_referencesView, 1);
    splitter->addWidget(referencesBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter);

    connect(refresh, &QToolButton::clicked, this, &NodePanel::refresh);
    connect(m_attributes, &AttributesModel::loaded, this, [this] {
        m_attributesView->expand(m_attributes->valueIndex());
        fitValueColumn();
    });
    connect(m_attributes, &AttributesModel::writeFinished, this, [this](StatusCode status, const QString& message) {
        m_writeStatus->setStyleSheet(status.isGood() ? QStringLiteral("color: #1b5e20") : QStringLiteral("color: #b00020"));
        m_writeStatus->setText(status.isGood() ? tr("Write: Good") : tr("Write: %1").arg(message.isEmpty() ? app::statusName(status) : message));
    });
    connect(m_references, &ReferencesModel::loaded, this, [this] { m_referencesView->resizeColumnsToContents(); });
    connect(m_referencesView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QString target = index.data(ReferencesModel::NodeIdRole).toString();
        if (!target.isEmpty()) emit goToRequested(target);
    });
}

bool NodePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_attributesView->viewport() && event->type() == QEvent::Resize) fitValueColumn();
    return QWidget::eventFilter(watched, event);
}

void NodePanel::fitValueColumn() {
    QHeaderView* header = m_attributesView->header();
    const int others = header->sectionSize(AttributesModel::AttributeColumn) + header->sectionSize(AttributesModel::DataTypeColumn) +
                       header->sectionSize(AttributesModel::StatusColumn);
    // (QTreeView makes sizeHintForColumn protected; QAbstractItemView's is public and virtual.)
    const int contents = static_cast<const QAbstractItemView*>(m_attributesView)->sizeHintForColumn(AttributesModel::ValueColumn);
    header->resizeSection(AttributesModel::ValueColumn, std::max(contents, m_attributesView->viewport()->width() - others));
}

void NodePanel::setNode(const NodeId& node) {
    m_writeStatus->setStyleSheet({});
    m_writeStatus->setText(nodePanelWriteHint());
    m_attributes->setNode(node);
    m_references->setNode(node);
}

void NodePanel::refresh() {
    m_attributes->refresh();
    m_references->refresh();
}

bool NodePanel::editValue() {
    const QModelIndex value = m_attributes->valueIndex();
    if (!value.isValid()) return false;
    const QModelIndex cell = value.siblingAtColumn(AttributesModel::ValueColumn);
    m_attributesView->setCurrentIndex(cell);
    m_attributesView->edit(cell);
    return true;
}

void NodePanel::attributesContextMenu(const QPoint& pos) {
    QMenu menu(this);
    fillStructureMenu(&menu, m_attributesView->indexAt(pos));
    if (!menu.isEmpty()) menu.exec(m_attributesView->viewport()->mapToGlobal(pos));
}

void NodePanel::fillStructureMenu(QMenu* menu, const QModelIndex& at) {
    if (!at.isValid()) return;
    const QPersistentModelIndex row(at.siblingAtColumn(AttributesModel::AttributeColumn));
    const int edits = m_attributes->structureEdits(row);
    const QString name = row.data().toString();
    if (edits & AttributesModel::AddField) {
        QAction* a = menu->addAction(tr("Add field %1").arg(name));
        a->setObjectName(QStringLiteral("addFieldAction"));
        connect(a, &QAction::triggered, this, [this, row] { if (row.isValid()) m_attributes->setFieldPresent(row, true); });
    }
    if (edits & AttributesModel::RemoveField) {
        QAction* a = menu->addAction(tr("Remove field %1").arg(name));
        a->setObjectName(QStringLiteral("removeFieldAction"));
        connect(a, &QAction::triggered, this, [this, row] { if (row.isValid()) m_attributes->setFieldPresent(row, false); });
    }
    // A union's row, or the row of the field a union holds: which field it holds.
    QPersistentModelIndex unionRow;
    if (edits & AttributesModel::ChooseUnionField) unionRow = row;
    else if (m_attributes->structureEdits(row.parent()) & AttributesModel::ChooseUnionField) unionRow = row.parent();
    if (unionRow.isValid()) {
        QMenu* choose = menu->addMenu(tr("Choose union field"));
        choose->setObjectName(QStringLiteral("chooseUnionFieldMenu"));
        const QStringList fields = unionRow.data(AttributesModel::UnionFieldsRole).toStringList();
        const int chosen = unionRow.data(AttributesModel::UnionChoiceRole).toInt();
        for (int i = -1; i < int(fields.size()); ++i) {
            QAction* a = choose->addAction(i < 0 ? tr("(none)") : fields[i]);
            a->setObjectName(i < 0 ? QStringLiteral("unionNoneAction") : QStringLiteral("unionFieldAction_%1").arg(fields[i]));
            a->setCheckable(true);
            a->setChecked(i == chosen);
            if (i == chosen) continue;  // holds it already
            connect(a, &QAction::triggered, this, [this, unionRow, i] { if (unionRow.isValid()) m_attributes->setUnionChoice(unionRow, i); });
        }
    }
    if (edits & (AttributesModel::AddElement | AttributesModel::RemoveElement)) {
        if (!menu->isEmpty()) menu->addSeparator();
        const bool element = edits & AttributesModel::RemoveElement;
        if (edits & AttributesModel::AddElement) {
            QAction* a = menu->addAction(element ? tr("Insert element after %1").arg(name) : tr("Add element"));
            a->setObjectName(QStringLiteral("addElementAction"));
            connect(a, &QAction::triggered, this, [this, row] { if (row.isValid()) m_attributes->insertArrayElement(row); });
        }
        if (element) {
            QAction* a = menu->addAction(tr("Remove element %1").arg(name));
            a->setObjectName(QStringLiteral("removeElementAction"));
            connect(a, &QAction::triggered, this, [this, row] { if (row.isValid()) m_attributes->removeArrayElement(row); });
        }
    }
}

ArrayEditorDialog* NodePanel::openArrayEditor() {
    if (!m_attributes->valueIndex().isValid()) return nullptr;
    auto* dialog = new ArrayEditorDialog(m_attributes, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

} // namespace ua::clientapp
