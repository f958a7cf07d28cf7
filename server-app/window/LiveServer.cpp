#include "LiveServer.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/Server.h"

namespace ua::app {

namespace {

// PLACEHOLDER(diag): until Server::diagnostics() lands from branch `diag`, a snapshot of the
// Sessions from SessionManager::snapshot() (names, ids, channels; no counters).
void placeholderSnapshot(Server& server, QObject* receiver, std::function<void(DiagnosticsSnapshotPtr)> done) {
    auto s = std::make_shared<DiagnosticsSnapshot>();
    s->takenMs = Server::monotonicMs();
    s->takenAt = DateTime::now();
    for (const auto& session : server.sessions().snapshot()) {
        SessionSnapshot row;
        row.diagnostics.sessionId = session->sessionId;
        row.diagnostics.sessionName = session->sessionName;
        row.channelId = session->channelId.load();
        row.activated = session->activated.load();
        s->sessions.push_back(std::move(row));
    }
    s->summary.currentSessionCount = uint32_t(s->sessions.size());
    s->summary.currentSubscriptionCount = uint32_t(server.subscriptionRegistry().subscriptionCount());
    s->channels = server.channelCount.load();
    QMetaObject::invokeMethod(receiver, [done = std::move(done), s] { done(s); }, Qt::QueuedConnection);
}

} // namespace

LiveServer::LiveServer(Server& server, int pollMs, QObject* parent) : QObject(parent), m_server(server) {
    m_poller = new serverapp::DiagnosticsPoller(
        [&server](QObject* receiver, int, std::function<void(DiagnosticsSnapshotPtr)> done) {
            placeholderSnapshot(server, receiver, std::move(done));
        },
        this);
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
    // PLACEHOLDER(diag): Server::closeSession lands from branch `diag`.
    Q_UNUSED(sessionId);
    return status::BadNotImplemented;
}

} // namespace ua::app

namespace ua {
// PLACEHOLDER(diag): the names come with ServerDiagnostics from branch `diag`; the placeholder
// snapshot has no service counters, so this is never called.
const char* serviceName(ServiceKind) { return "service"; }
} // namespace ua
