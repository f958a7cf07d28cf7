#include "TableViews.h"

#include "models/KeyedTableModel.h"

#include <QHeaderView>

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

} // namespace ua::app
