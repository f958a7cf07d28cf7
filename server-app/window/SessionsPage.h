// The Sessions page: every open Session (SessionsModel: name, client application, address,
// security, user, created, last contact, requests, errors, subscriptions, outstanding Publishes),
// refreshed from each DiagnosticsSnapshot; the context menu's "Close session" calls
// Server::closeSession. The filter field above the table keeps the rows whose name, client
// application, address, security or user contains its text (case-insensitive). Below it the
// Reverse Connect targets (ReverseConnectionsPanel): how the clients that listen reach the server.
#pragma once

#include "LiveServer.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace ua::serverapp {
class SessionsModel;
}

namespace ua::app {

class ReverseConnectionsPanel;

class SessionsPage : public QWidget, public ServerView {
    Q_OBJECT
public:
    explicit SessionsPage(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }
    // Filters the rows (as typing text into the filter field does).
    void setFilterText(const QString& text);
    // Sorts by a column, named as in SessionsModel::Column ("Requests", "Name", ...); false when no
    // column has that name.
    bool sortBy(const QString& column, Qt::SortOrder order);
    serverapp::SessionsModel* model() const { return m_model; }
    ReverseConnectionsPanel* reverseConnections() const { return m_reverse; }

private:
    void showMenu(const QPoint& pos);
    void showCount();

    LiveServer* m_live = nullptr;
    serverapp::SessionsModel* m_model;
    QTableView* m_view;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QLabel* m_status;
    ReverseConnectionsPanel* m_reverse;
};

} // namespace ua::app
