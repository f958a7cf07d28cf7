// The Log page: the server's log messages (LogCapture -> LogModel), filtered by LogFilterModel
// on a minimum level, a category and a search text. Newest at the bottom, followed while the view
// is scrolled to the end.
#pragma once

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTableView;

namespace ua::serverapp {
class LogCapture;
class LogFilterModel;
class LogModel;
}

namespace ua::app {

class LogPage : public QWidget {
    Q_OBJECT
public:
    // capture: where the records come from (lives as long as the page).
    explicit LogPage(serverapp::LogCapture* capture, QWidget* parent = nullptr);
    QTableView* view() const { return m_view; }

private:
    serverapp::LogModel* m_model;
    serverapp::LogFilterModel* m_filter;
    QTableView* m_view;
    QComboBox* m_level;
    QComboBox* m_category;
    QLineEdit* m_search;
};

} // namespace ua::app
