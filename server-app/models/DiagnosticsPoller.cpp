#include "models/DiagnosticsPoller.h"

#include <QElapsedTimer>
#include <QPointer>
#include <algorithm>

namespace ua::serverapp {

// A request unanswered this long (ms) is given up, so that a lost answer does not stop polling.
static constexpr int64_t kGiveUpMs = 5000;

DiagnosticsPoller::DiagnosticsPoller(SnapshotSource source, QObject* parent)
    : QObject(parent), m_source(std::move(source)) {
    qRegisterMetaType<ua::DiagnosticsSnapshotPtr>();
    qRegisterMetaType<ua::serverapp::ProcessUsage>();
    m_timer.setInterval(250);
    connect(&m_timer, &QTimer::timeout, this, &DiagnosticsPoller::pollNow);
}

void DiagnosticsPoller::setInterval(int ms) {
    m_baseInterval = std::max(10, ms);
    m_timer.setInterval(m_baseInterval);
}
void DiagnosticsPoller::start() {
    m_timer.start();
    pollNow();
}
void DiagnosticsPoller::stop() { m_timer.stop(); }

void DiagnosticsPoller::pollNow() {
    QElapsedTimer clock;
    clock.start();
    const int64_t now = clock.msecsSinceReference();
    if (m_outstanding && now - m_askedMs < kGiveUpMs) return;
    m_outstanding = true;
    m_askedMs = now;
    QPointer<DiagnosticsPoller> self(this);
    m_source(this, m_timer.interval() * 4 / 5, [self](DiagnosticsSnapshotPtr s) {
        if (self) self->deliver(std::move(s));
    });
}

void DiagnosticsPoller::deliver(DiagnosticsSnapshotPtr snapshot) {
    m_outstanding = false;
    if (!snapshot || snapshot == m_latest) return;
    if (m_latest && snapshot->takenMs < m_latest->takenMs) return;  // an older answer, late
    m_latest = std::move(snapshot);
    const std::size_t slowdown = std::clamp<std::size_t>(
        (m_latest->sessions.size() + kSessionsPerInterval - 1) / kSessionsPerInterval, 1, kMaxSlowdown);
    if (m_timer.interval() != m_baseInterval * int(slowdown)) m_timer.setInterval(m_baseInterval * int(slowdown));
    m_usage = sampleProcessUsage();
    emit snapshotReady(m_latest, m_usage);
}

} // namespace ua::serverapp
