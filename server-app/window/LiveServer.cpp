#include "LiveServer.h"

#include "models/AdminAudit.h"

#include "ua/server/runtime/Server.h"

namespace ua::app {

LiveServer::LiveServer(Server& server, int pollMs, QObject* parent) : QObject(parent), m_server(server) {
    m_poller = new serverapp::DiagnosticsPoller(server.diagnostics(), this);
    m_history = new serverapp::DiagnosticsHistory(2400, this);
    connect(m_poller, &serverapp::DiagnosticsPoller::snapshotReady, m_history,
            [this](const DiagnosticsSnapshotPtr& s, const serverapp::ProcessUsage& usage) { m_history->append(*s, usage); });
    m_poller->setInterval(pollMs);
    m_poller->start();
}

LiveServer::~LiveServer() {
    m_poller->stop();
}

StatusCode LiveServer::closeSession(const NodeId& sessionId) {
    return m_server.closeSession(sessionId, serverapp::windowAdministrator());
}

} // namespace ua::app
