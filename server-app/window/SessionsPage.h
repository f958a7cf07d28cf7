// The Sessions page: every open Session (SessionsModel: name, client application, address,
// security, user, created, last contact, requests, errors, subscriptions, outstanding Publishes),
// refreshed from each DiagnosticsSnapshot; the context menu's "Close session" calls
// Server::closeSession.
#pragma once

#include "LiveServer.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace ua::serverapp {
class SessionsModel;
}

namespace ua::app {

class SessionsPage : public QWidget, public ServerView {
    Q_OBJECT
public:
    explicit SessionsPage(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    QTableView* view() const { return m_view; }
    serverapp::SessionsModel* model() const { return m_model; }

private:
    void showMenu(const QPoint& pos);

    LiveServer* m_live = nullptr;
    serverapp::SessionsModel* m_model;
    QTableView* m_view;
    QLabel* m_status;
};

} // namespace ua::app
