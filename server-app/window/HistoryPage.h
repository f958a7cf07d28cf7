// The History page (issue 30 item 1): the nodes whose history the server keeps (HistoryModel:
// sampled or not, values, oldest and newest, interval, limits), the database file and its size,
// and "Stop historizing" for the chosen rows. A node is historized from the Address space page's
// context menu ("Historize"). Both write the change into ua-server.json's history.nodes (through
// setSaveHistorized's function), so that it lasts across restarts (docs/History.md).
#pragma once

#include "LiveServer.h"

#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace ua::serverapp {
class HistoryModel;
}

namespace ua::app {

class HistoryPage : public QWidget, public ServerView {
    Q_OBJECT
public:
    explicit HistoryPage(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    QTableView* view() const { return m_view; }
    serverapp::HistoryModel* model() const { return m_model; }
    void setSaveHistorized(SaveHistorized save) { m_saveHistorized = std::move(save); }
    // "Stop historizing" of the chosen rows (after the button; for tests).
    void stopChosen();

private:
    void refreshed();

    SaveHistorized m_saveHistorized;
    LiveServer* m_live = nullptr;
    serverapp::HistoryModel* m_model = nullptr;
    QTableView* m_view;
    QLabel* m_status;
    QPushButton* m_stop;
    QTimer m_timer;
};

} // namespace ua::app
