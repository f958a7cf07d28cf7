#include "models/DiagnosticsHistory.h"

#include <algorithm>

namespace ua::serverapp {

DiagnosticsHistory::DiagnosticsHistory(int capacity, QObject* parent)
    : QObject(parent), m_points(std::size_t(std::max(2, capacity))) {}

void DiagnosticsHistory::clear() {
    m_first = m_count = 0;
    m_recent.clear();
}

void DiagnosticsHistory::append(const DiagnosticsSnapshot& snapshot, const ProcessUsage& usage) {
    if (!m_recent.empty() && snapshot.takenMs <= m_recent.back().takenMs) return;
    // The base: the newest snapshot at least the window old (or the oldest there is).
    while (m_recent.size() > 1 && snapshot.takenMs - m_recent[1].takenMs >= m_rateWindowMs) m_recent.pop_front();
    if (!m_recent.empty()) {
        const Counters& base = m_recent.front();
        const double seconds = double(snapshot.takenMs - base.takenMs) / 1000.0;
        Point p;
        p.timeMs = snapshot.takenAt.isMin() ? 0 : (snapshot.takenAt.ticks - DateTime::kUnixEpochTicks) / DateTime::kTicksPerMs;
        double total = 0, errors = 0;
        for (std::size_t k = 0; k < kServiceKindCount; ++k) {
            // Counters are UInt32 and may wrap: the unsigned difference is right across one wrap.
            const uint32_t n = snapshot.services[k].totalCount - base.services[k].totalCount;
            const uint32_t e = snapshot.services[k].errorCount - base.services[k].errorCount;
            p.services[k] = float(double(n) / seconds);
            total += double(n);
            errors += double(e);
        }
        p.series[Sessions] = snapshot.summary.currentSessionCount;
        p.series[Subscriptions] = snapshot.summary.currentSubscriptionCount;
        p.series[RequestsPerSecond] = total / seconds;
        p.series[ErrorsPerSecond] = errors / seconds;
        p.series[CpuPercent] = cpuPercent(m_previousUsage, usage);
        p.series[RssBytes] = double(usage.rssBytes);
        if (m_count < m_points.size()) {
            m_points[(m_first + m_count) % m_points.size()] = p;
            ++m_count;
        } else {
            m_points[m_first] = p;
            m_first = (m_first + 1) % m_points.size();
        }
    }
    m_recent.push_back({snapshot.takenMs, snapshot.services});
    m_previousUsage = usage;
    if (m_count) emit pointAppended();
}

int64_t DiagnosticsHistory::timeMs(int i) const { return at(i).timeMs; }
double DiagnosticsHistory::value(Series series, int i) const { return at(i).series[series]; }
double DiagnosticsHistory::serviceRate(ServiceKind service, int i) const { return at(i).services[std::size_t(service)]; }

QList<QPointF> DiagnosticsHistory::points(Series series) const {
    QList<QPointF> out;
    out.reserve(qsizetype(m_count));
    for (int i = 0; i < size(); ++i) out.append(QPointF(double(at(i).timeMs), at(i).series[series]));
    return out;
}

QList<QPointF> DiagnosticsHistory::servicePoints(ServiceKind service) const {
    QList<QPointF> out;
    out.reserve(qsizetype(m_count));
    for (int i = 0; i < size(); ++i) out.append(QPointF(double(at(i).timeMs), at(i).services[std::size_t(service)]));
    return out;
}

double DiagnosticsHistory::maximum(Series series) const {
    double m = 0;
    for (int i = 0; i < size(); ++i) m = std::max(m, at(i).series[series]);
    return m;
}

std::vector<ServiceKind> DiagnosticsHistory::activeServices() const {
    std::vector<ServiceKind> out;
    for (std::size_t k = 0; k < kServiceKindCount; ++k)
        for (int i = 0; i < size(); ++i)
            if (at(i).services[k] > 0) {
                out.push_back(ServiceKind(k));
                break;
            }
    return out;
}

} // namespace ua::serverapp
