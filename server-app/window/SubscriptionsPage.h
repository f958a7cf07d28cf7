// The Subscriptions page: every Subscription (SubscriptionsModel: id, Session, publishing
// interval, items, notifications/s, queue, late publishes, overflows) from each snapshot.
#pragma once

#include "LiveServer.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace ua::serverapp {
class SubscriptionsModel;
}

namespace ua::app {

class SubscriptionsPage : public QWidget, public ServerView {
    Q_OBJECT
public:
    explicit SubscriptionsPage(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    QTableView* view() const { return m_view; }

private:
    LiveServer* m_live = nullptr;
    serverapp::SubscriptionsModel* m_model;
    QTableView* m_view;
    QLabel* m_status;
};

} // namespace ua::app
