// The main window of ua-client (issue 7 items 1-9, 11, 12), laid out like the tools users compare it
// with, with fewer clicks:
//   toolbar     Connect... (the Connect dialog), Recent (the server history: reconnect in two
//               clicks), Disconnect, Cancel (every running operation; also Esc), Refresh
//   left dock   the address space tree (drag nodes out; context menu Monitor / Call...; the
//               "Go to NodeId or browse path" field)
//   right dock  Attributes of the selected node (Value editable in place) over its References
//   center      tabs Data access (the monitored items; a drop target), Trend, History (the
//               History trend: HistoryRead of several Variables in one chart), Events, Alarms (the
//               conditions, Acknowledge/Confirm/shelve/enable, the journal; AlarmsPanel.h)
//   bottom dock the service log
//   status bar  connection state (and reconnects), the operation running
// File menu: Open/Save project (ProjectFile.h: server, monitored items, events, layout).
// Every service call goes through the Connection's Client asynchronously: nothing here waits for
// the server (docs/ClientApp.md "Responsiveness").
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through NodeId.h) before one.
#include <QHash>
#include <QMainWindow>

#include "core/ConnectionSettings.h"
#include "core/ProjectFile.h"
#include "ua/client/core/ClientCore.h"
#include "ua/types/NodeId.h"

class QAction;
class QLabel;
class QTabWidget;
class QTableView;
class QToolButton;

namespace ua::clientapp {

class AddressPanel;
class AlarmsPanel;
class CallDialog;
class ServerCertificatesDialog;
class Connection;
class DataAccessPanel;
class EventHistoryPanel;
class EventsPanel;
class HistoryTrendPanel;
class NodePanel;
class ServerHistory;
class TrendPanel;

struct WindowOptions {
    QString pkiDir;          // the client's certificate store; empty: the default (Connection)
    QString historyFile;     // the server history's INI file; empty: the user's QSettings
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(WindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    Connection* connection() const { return m_connection; }
    ServerHistory* history() const { return m_history; }
    AddressPanel* addressPanel() const { return m_address; }
    NodePanel* nodePanel() const { return m_node; }
    DataAccessPanel* dataAccess() const { return m_dataAccess; }
    TrendPanel* trend() const { return m_trend; }
    HistoryTrendPanel* historyTrend() const { return m_historyTrend; }
    EventsPanel* events() const { return m_events; }
    EventHistoryPanel* eventHistory() const { return m_eventHistory; }
    AlarmsPanel* alarms() const { return m_alarms; }
    QTabWidget* centerTabs() const { return m_tabs; }
    QTableView* logView() const { return m_logView; }

    // Connects with these settings (a password missing for a user name is asked for, or taken from
    // this run's memory). The history gets the entry once the Session is active.
    void connectTo(ConnectionSettings settings);
    // Opens the Connect dialog (window-modal, not blocking the event loop).
    void showConnectDialog();
    // Monitors the node in the Data access table (and the trend when numeric); switches to it.
    void monitor(const NodeId& node) { monitor(std::vector<NodeId>{node}); }
    void monitor(const std::vector<NodeId>& nodes);
    // Adds the nodes to the History tab (their history read at once); switches to it.
    void addToHistoryTrend(const std::vector<NodeId>& nodes);
    // Opens the Call dialog for a Method (its parent Object found by an inverse Browse).
    CallDialog* showCallDialog(const NodeId& method, const NodeId& object = {});
    // Server > Manage server certificates...: the server's trust list (ServerCertificatesDialog.h).
    ServerCertificatesDialog* showServerCertificatesDialog();

    // The workspace as a project (ProjectFile.h) and back; the project's server is connected to.
    Project project() const;
    void applyProject(const Project& project);
    bool openProject(const QString& path, QString* error = nullptr);
    bool saveProject(const QString& path, QString* error = nullptr);
    // File > Export NodeSet...: the nodes of the namespace written as NodeSet2 to path
    // (core/NodeSetCrawler.h, then the server's exporter); nodeSetExported() tells the outcome.
    void exportNodeSet(const QString& namespaceUri, const QString& path);

signals:
    // exportNodeSet() ended: Good with the node count, or why not.
    void nodeSetExported(ua::StatusCode status, int nodes, QString message);

private:
    void buildActions();
    void buildDocks();
    void fillRecentMenu();
    void stateChanged(ClientState state, StatusCode reason);
    void connectFinished(StatusCode status);
    void showConnectFailure(const QString& text, bool cancelled);
    // A modal password question (objectName "passwordDialog"); *ok false on Cancel.
    QString askPassword(const QString& title, const QString& label, bool* ok);
    void operationsChanged(int count, const QString& latest);
    void nodeSelected(const NodeId& node);
    QString passwordKey(const ConnectionSettings& s) const;
    // The connected server's ApplicationName (from its endpoint), else the settings' displayName.
    QString serverName() const;

    WindowOptions m_options;
    Connection* m_connection;
    ServerHistory* m_history;
    AddressPanel* m_address = nullptr;
    NodePanel* m_node = nullptr;
    DataAccessPanel* m_dataAccess = nullptr;
    TrendPanel* m_trend = nullptr;
    HistoryTrendPanel* m_historyTrend = nullptr;
    EventsPanel* m_events = nullptr;
    EventHistoryPanel* m_eventHistory = nullptr;
    AlarmsPanel* m_alarms = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableView* m_logView = nullptr;
    QAction* m_connectAction = nullptr;
    QAction* m_disconnectAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_refreshAction = nullptr;
    QToolButton* m_recentButton = nullptr;
    QLabel* m_stateLabel = nullptr;
    QLabel* m_operationLabel = nullptr;

    QHash<QString, QString> m_passwords;  // this run only: url + user -> password
    ConnectionSettings m_pending;         // the connectTo() in progress
    QString m_connectFailure;             // why the last connect failed, in a sentence (shown while Disconnected)
    int m_connectAttempt = 0;             // a host lookup's answer for an older attempt is ignored
    ClientState m_lastState = ClientState::Disconnected;
};

} // namespace ua::clientapp
