// The last minutes of the server's load for the server app's charts: ring buffers (default 2,400
// points: 10 minutes at 4 Hz) of requests/s per service (from the difference of successive
// DiagnosticsSnapshot::services), all requests/s, sessions, subscriptions, CPU % and RSS.
// A point needs two snapshots: the first append() only records the counters.
// Rates are averaged over a sliding window (rateWindowMs, default 1 s: the counters of the newest
// snapshot at least that old, or of the oldest kept): at 4 Hz and a low load, a rate from two
// successive snapshots is a comb of 0 and 4 x the true rate (issue 27 item 9).
#pragma once

#include "models/ProcessUsage.h"
#include "ua/server/common/DiagnosticsSnapshot.h"

#include <QList>
#include <QObject>
#include <QPointF>
#include <algorithm>
#include <array>
#include <deque>
#include <vector>

namespace ua::serverapp {

class DiagnosticsHistory : public QObject {
    Q_OBJECT
public:
    enum Series {
        Sessions,           // ServerDiagnosticsSummary.CurrentSessionCount
        Subscriptions,      // ServerDiagnosticsSummary.CurrentSubscriptionCount
        RequestsPerSecond,  // all services, requests/s
        ErrorsPerSecond,    // all services, failed requests/s (ServiceCounter errorCount)
        CpuPercent,         // of one core (ProcessUsage.h cpuPercent)
        RssBytes,           // resident set size, bytes
        SeriesCount
    };
    Q_ENUM(Series)

    explicit DiagnosticsHistory(int capacity = 2400, QObject* parent = nullptr);

    // Appends a point from snapshot and usage (after the first call). A snapshot not newer than
    // the previous one (same takenMs) is ignored.
    void append(const DiagnosticsSnapshot& snapshot, const ProcessUsage& usage);
    void clear();
    // The window rates are averaged over, ms (at least 0: 0 = from the previous snapshot).
    void setRateWindowMs(int ms) { m_rateWindowMs = std::max(0, ms); }
    int rateWindowMs() const { return m_rateWindowMs; }

    int capacity() const { return int(m_points.size()); }
    int size() const { return int(m_count); }
    // Point i, 0 the oldest, size() - 1 the newest.
    int64_t timeMs(int i) const;  // wall clock, ms since 1970-01-01 UTC (the snapshot's takenAt)
    double value(Series series, int i) const;
    double serviceRate(ServiceKind service, int i) const;  // requests/s
    // All points of a series, x = timeMs (for a QDateTimeAxis), oldest first.
    QList<QPointF> points(Series series) const;
    QList<QPointF> servicePoints(ServiceKind service) const;
    // The largest value held (0 when empty), to scale an axis.
    double maximum(Series series) const;
    // The services with a non-zero rate somewhere in the buffer, in ServiceKind order.
    std::vector<ServiceKind> activeServices() const;

signals:
    // A point was appended (the oldest dropped when full); it is point size() - 1.
    void pointAppended();

private:
    struct Point {
        int64_t timeMs = 0;
        std::array<double, SeriesCount> series{};
        std::array<float, kServiceKindCount> services{};
    };
    const Point& at(int i) const { return m_points[(m_first + std::size_t(i)) % m_points.size()]; }

    std::vector<Point> m_points;
    std::size_t m_first = 0;
    std::size_t m_count = 0;
    // The counters of the recent snapshots, oldest first: the first is the rates' base.
    struct Counters {
        int64_t takenMs = 0;
        std::array<ServiceCounterDataType, kServiceKindCount> services{};
    };
    std::deque<Counters> m_recent;
    int m_rateWindowMs = 1000;
    ProcessUsage m_previousUsage;
};

} // namespace ua::serverapp
