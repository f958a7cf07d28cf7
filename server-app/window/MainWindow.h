// The administration window of ua-server: one page per tab (Server, Sessions, Subscriptions,
// Diagnostics, Address space, Certificates, Log). It owns the Server: Start creates one from the
// saved settings, Stop shuts it down gracefully and deletes it. Pages read snapshots and atomics
// only (docs/ServerApp.md); nothing here runs on the server's I/O threads.
#pragma once

#include "LiveServer.h"
#include "ServerSettings.h"

#include <QMainWindow>
#include <functional>
#include <memory>
#include <vector>

class QTabWidget;

namespace ua::serverapp {
class LogCapture;
}

namespace ua::app {

class ServerPage;
class SessionsPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(ServerSettings settings, QString configPath, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Creates and starts the server from the current settings; false (and the reason on the
    // Server page and in *error) when it cannot listen.
    bool startServer(QString* error = nullptr);
    // ServerState Shutdown for the settings' delay, then the Sessions are closed, the server
    // deleted and done called. who: for the audit lines (default: the window's administrator).
    void stopServer(std::function<void()> done = {}, const QString& who = {});
    Server* server() const { return m_server.get(); }
    LiveServer* live() const { return m_live.get(); }
    const ServerSettings& settings() const { return m_settings; }
    QTabWidget* pages() const { return m_tabs; }

signals:
    void serverStarted();
    void serverStopped();

private:
    void attachAll(LiveServer* live);
    bool saveUsers(const UserDatabase& users, QString* error);
    // The window's Historize / Stop historizing into the file's history.nodes (only that changes).
    // The node by namespace URI (nsu=...), which stays right when namespace indexes move.
    bool saveHistorized(const NodeId& node, double samplingIntervalMs, bool on, QString* error);
    void destroyServer();

    ServerSettings m_settings;
    QString m_configPath;
    serverapp::LogCapture* m_logCapture; // first: it sees the server's start-up messages
    QTabWidget* m_tabs;
    ServerPage* m_serverPage;
    std::vector<ServerView*> m_views;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<LiveServer> m_live;
    bool m_stopping = false;
};

} // namespace ua::app
