// What the pages of the window show while the server runs: the Server, the DiagnosticsPoller that
// asks it for a snapshot four times a second, and the DiagnosticsHistory the charts draw from.
// Created by MainWindow when the server starts, destroyed when it stops; pages get it through
// ServerView::attach and drop every pointer into it on attach(nullptr).
#pragma once

#include "models/DiagnosticsHistory.h"
#include "models/DiagnosticsPoller.h"

#include "ua/types/StatusCode.h"

#include <QObject>

#include <functional>

namespace ua {
class NodeId;
class Server;
}

namespace ua::app {

class LiveServer : public QObject {
    Q_OBJECT
public:
    // Polls every pollMs (the views refresh at that rate).
    explicit LiveServer(Server& server, int pollMs = 250, QObject* parent = nullptr);
    ~LiveServer() override;

    Server& server() const { return m_server; }
    serverapp::DiagnosticsPoller& poller() const { return *m_poller; }
    serverapp::DiagnosticsHistory& history() const { return *m_history; }
    // Server::closeSession by the window's administrator (an audit line and an AuditSessionEventType
    // "Session/Terminated"): Good, or Bad_SessionIdInvalid when the Session has gone already.
    StatusCode closeSession(const NodeId& sessionId);

private:
    Server& m_server;
    serverapp::DiagnosticsPoller* m_poller;
    serverapp::DiagnosticsHistory* m_history;
};

// Writes a Variable historized (or no longer) from the window, sampled every samplingIntervalMs, into
// the configuration file's history.nodes (MainWindow::saveHistorized); false and *error when the
// file cannot be written.
using SaveHistorized = std::function<bool(const NodeId& node, double samplingIntervalMs, bool on, QString* error)>;

// A page of the window that shows something of a running server.
class ServerView {
public:
    virtual ~ServerView() = default;
    // live: the running server, or nullptr once it has stopped (drop models built on it).
    virtual void attach(LiveServer* live) = 0;
};

} // namespace ua::app
