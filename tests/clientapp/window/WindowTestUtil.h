// Helpers for the window tests: choosing a context-menu action while QMenu::exec() runs, and
// reading a table's column.
#pragma once

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QTimer>
#include <QtTest>

namespace ua::test {

// Opens view's context menu at index (customContextMenuRequested) and triggers the action named
// actionName in it; false when the menu or the action did not appear.
inline bool chooseContextAction(QAbstractItemView* view, const QModelIndex& index, const QString& actionName) {
    bool found = false;
    QTimer::singleShot(100, view, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu) return;
        if (auto* action = menu->findChild<QAction*>(actionName)) {
            found = true;
            menu->close();
            action->trigger();
        } else {
            menu->close();
        }
    });
    view->scrollTo(index);
    emit view->customContextMenuRequested(view->visualRect(index).center());
    return found;
}

inline QStringList columnTexts(const QAbstractItemModel* model, int column) {
    QStringList out;
    for (int r = 0; r < model->rowCount(); ++r) out << model->index(r, column).data().toString();
    return out;
}

} // namespace ua::test
