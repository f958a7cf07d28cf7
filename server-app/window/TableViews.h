// A sortable table view over a model (through a QSortFilterProxyModel on serverapp::SortRole),
// shared by the Sessions, Subscriptions, Certificates and Log pages.
#pragma once

#include <QSortFilterProxyModel>
#include <QAbstractButton>
#include <QList>
#include <QTableView>

namespace ua::app {

// A QTableView named objectName, showing model sorted by column sortColumn (descending when
// descending), rows not editable, whole-row selection, columns sized to their contents.
QTableView* makeTableView(const QString& objectName, QAbstractItemModel* model, QObject* proxyParent, int sortColumn = -1,
                          Qt::SortOrder order = Qt::AscendingOrder);
// Columns sized to contents now (views call it once rows have arrived; the last column stretches).
void fitColumns(QTableView* view);
// Keeps buttons that act on the selected row enabled only while view has one (issue 27 item 8:
// Delete, Reject, Remove did nothing with nothing selected). Follows selection and row changes.
void enableWithSelection(QTableView* view, const QList<QAbstractButton*>& buttons);

} // namespace ua::app
