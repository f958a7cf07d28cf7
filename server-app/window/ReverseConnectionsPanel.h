// The Reverse Connect targets of the running server (issue 32 item 4), below the Sessions table:
// one row per configured client URL with its state, dials, connections used, failures in a row and
// last error (ReverseConnectionsModel), a line that counts the spares open and the failing targets,
// and, with nothing configured, a sentence saying how to configure it. Refreshed on the window's
// tick (DiagnosticsPoller::snapshotReady) from Server::reverseConnectStates(), a copy of a few
// fields per target under the connector's own lock: nothing on the request path.
#pragma once

#include <QGroupBox>

#include "LiveServer.h"

class QLabel;
class QTableView;

namespace ua::serverapp {
class ReverseConnectionsModel;
}

namespace ua::app {

class ReverseConnectionsPanel : public QGroupBox, public ServerView {
    Q_OBJECT
public:
    explicit ReverseConnectionsPanel(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    serverapp::ReverseConnectionsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

private:
    void refresh();
    void fitHeight();

    LiveServer* m_live = nullptr;
    serverapp::ReverseConnectionsModel* m_model;
    QTableView* m_view;
    QLabel* m_empty;    // instead of the table: nothing configured, or the server is stopped
    QLabel* m_summary;  // below the table: spares open, targets failing, the timings in use
};

} // namespace ua::app
