// Server::shutdown(): the orderly end of a server (OPC 10000-5 6.3.1 ServerType, 12.6 ServerState,
// 12.10 ServerStatusDataType; OPC 10000-4 5.7.2.1 for the requests of a terminated Session;
// OPC 10000-6 7.1.5 for the ERR that ends a connection). See Server.h for the behaviour.
//
// Threads. shutdown() runs on the Server's thread and only sets the ServerStatus values; the
// countdown and the closing run on the accept thread, which hands each I/O thread its part
// (Subscriptions of the Sessions homed there, then its connections) and waits for it. Nothing here
// is on the request path: the only cost while running is CreateSession's load of the state.
#include "ua/server/runtime/Server.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/runtime/ServerConnection.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include <QLoggingCategory>
#include <QThread>
#include <QTimer>

namespace ua {

Q_LOGGING_CATEGORY(lcShutdown, "ua.server.shutdown", QtInfoMsg)

namespace {
constexpr int kCloseWaitMs = 2500;  // how long connections get to close after their ERR
constexpr int kPollMs = 20;
} // namespace

void Server::shutdown(uint32_t seconds, const QString& reason) {
    if (m_shutdownState != ShutdownState::None) return;
    m_shutdownState = ShutdownState::CountingDown;
    ServerRuntimeState& rt = *m_runtime;
    rt.shutdownReason.store(std::make_shared<const LocalizedText>(LocalizedText{String("en"), String::fromQString(reason)}));
    rt.secondsTillShutdown.store(seconds);
    rt.state.store(int32_t(ServerState::Shutdown));
    qCInfo(lcShutdown, "shutting down in %u s: %s", seconds, qPrintable(reason));
    if (!m_acceptThread) {  // not started: nothing to close
        QMetaObject::invokeMethod(this, [this] { shutdownDone(); }, Qt::QueuedConnection);
        return;
    }
    // The countdown runs on the accept thread, next to the session expiry timer, so that a busy
    // GUI thread cannot delay it.
    QMetaObject::invokeMethod(m_acceptContext, [this, reason] {
        auto* timer = new QTimer(m_acceptContext);
        timer->setInterval(1000);
        timer->setTimerType(Qt::PreciseTimer);  // a coarse timer may fire 5 % early: 2 s would last 1.9 s
        const auto tick = [this, timer, reason] {
            ServerRuntimeState& r = *m_runtime;
            const uint32_t left = r.secondsTillShutdown.load();
            if (left > 0) r.secondsTillShutdown.store(left - 1);
            if (left > 1) return;
            timer->stop();
            timer->deleteLater();
            finishShutdown(reason);
        };
        connect(timer, &QTimer::timeout, m_acceptContext, tick);
        if (m_runtime->secondsTillShutdown.load() == 0) {
            timer->deleteLater();
            finishShutdown(reason);
            return;
        }
        timer->start();
    }, Qt::QueuedConnection);
}

void Server::finishShutdown(const QString& reason) {
    stopListening();  // no new connections
    // Sessions first, so that no request creates a Subscription behind our back: each is closed
    // (its requests get Bad_SessionIdInvalid from now on). Then on each I/O thread the
    // Subscriptions homed there end, where their parked Publish requests are; those of Sessions
    // closed earlier, which still run out their lifetime, too.
    const std::vector<SessionPtr> sessions = m_sessions.snapshot();
    for (const SessionPtr& s : sessions) {
        m_sessions.remove(s, SessionEnd::ClosedByServer);
        // OPC 10000-4 6.5.6: a Session ended by a shutdown is "Session/Terminated".
        auditSessionEnded(audit(), AuditSessionEnd::Terminated, s->sessionId, std::string(),
                          "Session closed by the server's shutdown: " + reason.toStdString());
    }
    std::size_t subscribed = 0;
    for (QObject* ctx : m_threadContexts) {
        QMetaObject::invokeMethod(ctx, [&subscribed] {
            SubscriptionScheduler* home = SubscriptionScheduler::current();
            if (!home) return;
            const int64_t now = SubscriptionScheduler::clockUs();
            const std::vector<std::shared_ptr<SubscriptionOwner>> homed = home->sessions();
            for (const auto& owner : homed) {
                auto* ss = static_cast<SessionSubscriptions*>(owner.get());  // the only owners
                subscribed += ss->count() > 0;
                ss->closeAll(status::BadShutdown, status::BadSessionClosed, now);
            }
            home->reschedule();
        }, Qt::BlockingQueuedConnection);
    }
    // Then the connections, each on its thread: the Publish responses just posted there go out
    // first (same event queue), then the ERR.
    const std::string why = "the server has shut down" + (reason.isEmpty() ? std::string() : ": " + reason.toStdString());
    for (QObject* ctx : m_threadContexts) {
        QMetaObject::invokeMethod(ctx, [ctx, why] {
            for (ServerConnection* c : ctx->findChildren<ServerConnection*>(Qt::FindDirectChildrenOnly))
                c->closeWithError(status::BadServerHalted, why.substr(0, 4096));
        }, Qt::QueuedConnection);
    }
    qCInfo(lcShutdown, "closed %zu sessions; ended the subscriptions of %zu; closing %d connections", sessions.size(), subscribed,
           channelCount.load());
    // Done when every connection has gone (each deletes itself once its peer closed, or after 2 s).
    auto* poll = new QTimer(m_acceptContext);
    poll->setInterval(kPollMs);
    const int64_t deadline = monotonicMs() + kCloseWaitMs;
    connect(poll, &QTimer::timeout, m_acceptContext, [this, poll, deadline] {
        if (channelCount.load() > 0 && monotonicMs() < deadline) return;
        poll->stop();
        poll->deleteLater();
        QMetaObject::invokeMethod(this, [this] { shutdownDone(); }, Qt::QueuedConnection);
    });
    poll->start();
}

void Server::resetShutdown() {
    m_shutdownState = ShutdownState::None;
    m_runtime->state.store(int32_t(ServerState::Running));
    m_runtime->secondsTillShutdown.store(0);
    m_runtime->shutdownReason.store(nullptr);
}

void Server::shutdownDone() {
    if (m_shutdownState != ShutdownState::CountingDown) return;
    m_shutdownState = ShutdownState::Finished;
    qCInfo(lcShutdown, "shutdown finished");
    emit shutdownFinished();
}

} // namespace ua
