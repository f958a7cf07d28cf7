// Asks the server for a DiagnosticsSnapshot every intervalMs (default 250 ms) and hands it, with a
// sample of the process's CPU time and RSS (ProcessUsage.h), to the models and charts of the
// server app. Lives on the GUI thread; the snapshot is collected by ServerDiagnostics on the
// server's threads (ServerDiagnostics::requestSnapshot) and delivered here queued, so nothing in
// the window runs on or locks the request path. At most one request is outstanding: a tick that
// finds the previous one unanswered is skipped (a slow collection never piles up requests).
#pragma once

#include "models/ProcessUsage.h"
#include "ua/server/common/DiagnosticsSnapshot.h"

#include <QObject>
#include <QTimer>
#include <functional>

namespace ua {
class ServerDiagnostics;
}

namespace ua::serverapp {

class DiagnosticsPoller : public QObject {
    Q_OBJECT
public:
    // How a snapshot is asked for: call done (queued to receiver's thread) with a snapshot at most
    // maxAgeMs old. ServerDiagnostics::requestSnapshot in the app; a hand-made source in tests.
    using SnapshotSource = std::function<void(QObject* receiver, int maxAgeMs,
                                              std::function<void(DiagnosticsSnapshotPtr)> done)>;

    explicit DiagnosticsPoller(SnapshotSource source, QObject* parent = nullptr);
    // Polls diagnostics.requestSnapshot (defined in DiagnosticsPollerServer.cpp).
    explicit DiagnosticsPoller(ServerDiagnostics& diagnostics, QObject* parent = nullptr);

    // Polling period, ms (default 250), up to kSessionsPerInterval Sessions. A snapshot costs the
    // server's I/O threads and the GUI thread in proportion to the Sessions, so above that the
    // period grows with them (1 s by default at 1,000 Sessions, as the window measured in issue 6),
    // up to kMaxSlowdown times (5 s from 4,751 Sessions on: with 5,000 Sessions each refresh still
    // costs the GUI thread tens of ms, docs/Scalability.md "Sessions and MonitoredItems").
    // The snapshot asked for may be up to 4/5 of the period old.
    static constexpr std::size_t kSessionsPerInterval = 250;
    static constexpr int kMaxSlowdown = 20;
    void setInterval(int ms);
    int baseInterval() const { return m_baseInterval; }
    int interval() const { return m_timer.interval(); }  // the period in use
    void start();
    void stop();
    bool isActive() const { return m_timer.isActive(); }
    // Asks at once (unless a request is outstanding).
    void pollNow();

    DiagnosticsSnapshotPtr latest() const { return m_latest; }
    ProcessUsage latestUsage() const { return m_usage; }

signals:
    // A snapshot newer than the previous one, and the process's usage sampled when it arrived.
    void snapshotReady(ua::DiagnosticsSnapshotPtr snapshot, ua::serverapp::ProcessUsage usage);

private:
    void deliver(DiagnosticsSnapshotPtr snapshot);

    SnapshotSource m_source;
    QTimer m_timer;
    int m_baseInterval = 250;
    bool m_outstanding = false;
    int64_t m_askedMs = 0;
    DiagnosticsSnapshotPtr m_latest;
    ProcessUsage m_usage;
};

} // namespace ua::serverapp
