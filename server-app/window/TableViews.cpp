#include "TableViews.h"

#include "models/KeyedTableModel.h"

#include <QHeaderView>
#include <QItemSelectionModel>

namespace ua::app {

QTableView* makeTableView(const QString& objectName, QAbstractItemModel* model, QObject* proxyParent, int sortColumn,
                          Qt::SortOrder order) {
    auto* proxy = new QSortFilterProxyModel(proxyParent);
    proxy->setSortRole(serverapp::SortRole);
    proxy->setSourceModel(model);
    auto* view = new QTableView;
    view->setObjectName(objectName);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(sortColumn, order);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    return view;
}

void fitColumns(QTableView* view) {
    view->resizeColumnsToContents();
}

void enableWithSelection(QTableView* view, const QList<QAbstractButton*>& buttons) {
    auto update = [view, buttons] {
        const bool selected = view->selectionModel() && view->selectionModel()->hasSelection() && view->currentIndex().isValid();
        for (QAbstractButton* b : buttons) b->setEnabled(selected);
    };
    QObject::connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, view, update);
    QObject::connect(view->selectionModel(), &QItemSelectionModel::currentChanged, view, update);
    QObject::connect(view->model(), &QAbstractItemModel::rowsRemoved, view, update);
    QObject::connect(view->model(), &QAbstractItemModel::modelReset, view, update);
    update();
}

} // namespace ua::app
