// The question before an administrator's action that cuts clients off (issue 27 item 8): closing a
// Session, stopping the server while clients are connected. A modal QMessageBox named
// "confirmation" whose default button is Cancel, so Return and Esc leave everything as it is; the
// action needs its own button (doIt). Tests answer it by finding QApplication::activeModalWidget()
// from a QTimer::singleShot and clicking a button.
#pragma once

#include <QString>

class QWidget;

namespace ua::app {

// True when the user chose doIt.
bool confirmAction(QWidget* parent, const QString& title, const QString& text, const QString& doIt);

} // namespace ua::app
