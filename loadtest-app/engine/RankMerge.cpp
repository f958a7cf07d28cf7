// Splitting a step between ranks and merging their results (see RankMerge.h).
#include "RankMerge.h"

#include <algorithm>

namespace ua::loadtest {

namespace {

QString hostOf(const std::vector<QString>& hosts, std::size_t rank) {
    return rank < hosts.size() && !hosts[rank].isEmpty() ? hosts[rank] : QStringLiteral("?");
}

// What a rank's CPU time per request is counted over: its answered requests, or for subscribe
// the notifications it received (LoadRunner counts the generator's CPU per value there).
double operationsOf(const StepResult& s, const LoadParameters& p) {
    if (p.scenario == Scenario::Subscribe || p.scenario == Scenario::Events) return s.valuesPerS * s.durationS;
    return double(s.answered);
}

} // namespace

LoadParameters shareOfRank(const LoadParameters& whole, int rank, int size) {
    LoadParameters p = whole;
    if (size <= 1) return p;
    p.sessions = whole.sessions / size + (rank < whole.sessions % size ? 1 : 0);
    p.targetRate = whole.sessions > 0 ? whole.targetRate * double(p.sessions) / double(whole.sessions) : 0;
    return p;
}

QString combineRankErrors(const std::vector<QString>& errors, const std::vector<QString>& hosts) {
    QStringList failed;
    bool allSame = !errors.empty();
    for (std::size_t r = 0; r < errors.size(); ++r) {
        if (errors[r].isEmpty()) {
            allSame = false;
            continue;
        }
        if (errors[r] != errors[0]) allSame = false;
        failed << QStringLiteral("rank %1 of %2 (%3): %4").arg(r).arg(errors.size()).arg(hostOf(hosts, r), errors[r]);
    }
    if (failed.isEmpty()) return {};
    if (allSame && errors.size() > 1) return QStringLiteral("every rank (%1): %2").arg(errors.size()).arg(errors[0]);
    return failed.join(QStringLiteral("; "));
}

StepResult mergeRankSteps(const std::vector<StepResult>& ranks, const std::vector<QString>& hosts, const LoadParameters& whole,
                          const std::vector<QString>& ownErrors) {
    StepResult m;
    m.sessions = whole.sessions;
    m.outstanding = whole.outstanding;
    if (ranks.empty()) return m;
    const StepResult& first = ranks.front();

    std::vector<QString> errors;
    double clientCpuMs = 0, operations = 0, fidelitySum = 0;
    int fidelitySessions = 0;
    bool clientCpuKnown = false;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const StepResult& s = ranks[r];
        errors.push_back(s.error);
        m.durationS = std::max(m.durationS, s.durationS);
        m.sent += s.sent;
        m.answered += s.answered;
        m.errors += s.errors;
        m.timeouts += s.timeouts;
        for (const auto& [status, n] : s.errorsByStatus) m.errorsByStatus[status] += n;
        m.requestsPerS += s.requestsPerS;
        m.valuesPerS += s.valuesPerS;
        m.latency.merge(s.latency);
        m.notificationsPerS += s.notificationsPerS;
        if (s.minFidelityPercent >= 0) {
            m.minFidelityPercent = m.minFidelityPercent < 0 ? s.minFidelityPercent : std::min(m.minFidelityPercent, s.minFidelityPercent);
            fidelitySum += s.meanFidelityPercent * s.sessions;  // every Session has the same items
            fidelitySessions += s.sessions;
            m.itemsBelow99 += s.itemsBelow99;
        }
        // Events (a distributed events step is refused, LoadRunner::start: sums for completeness).
        m.eventsPerS += s.eventsPerS;
        m.eventsExpected += s.eventsExpected;
        m.eventsReceived += s.eventsReceived;
        m.eventsLost = r == 0 ? s.eventsLost : (m.eventsLost < 0 || s.eventsLost < 0 ? -1 : m.eventsLost + s.eventsLost);
        m.eventOverflows += s.eventOverflows;
        m.eventsOutOfOrder += s.eventsOutOfOrder;
        m.sessionsPerS += s.sessionsPerS;
        m.serverTooBusy += s.serverTooBusy;
        m.retries += s.retries;
        m.setupS = std::max(m.setupS, s.setupS);
        m.ioThreads += s.ioThreads;
        m.pacerWakeups += s.pacerWakeups;
        if (s.clientCpuPercent > 0 || s.clientCpuMsPerOp >= 0) {
            clientCpuKnown = true;
            m.clientCpuPercent += s.clientCpuPercent;
            clientCpuMs += s.clientCpuPercent * s.durationS * 10.0;  // % of a core over the period -> ms
        }
        operations += operationsOf(s, whole);
        if (s.clientRssKb >= 0) m.clientRssKb = std::max<long>(m.clientRssKb, 0) + s.clientRssKb;
        m.generatorSaturated = m.generatorSaturated || s.generatorSaturated;
        m.connectionBroken = m.connectionBroken || s.connectionBroken;
        const QString prefix = QStringLiteral("rank %1 (%2): ").arg(r).arg(hostOf(hosts, r));
        for (const QString& w : s.warnings) m.warnings << prefix + w;

        for (std::size_t i = 0; i < s.timeline.size(); ++i) {
            const TimelineSample& t = s.timeline[i];
            if (i >= m.timeline.size()) {
                TimelineSample z = t;
                z.sessions = whole.sessions;
                z.outstanding = whole.outstanding;
                z.requestsPerS = z.valuesPerS = z.clientCpuPercent = 0;
                z.p50Us = z.p90Us = z.p99Us = z.maxUs = 0;
                z.errors = 0;
                m.timeline.push_back(z);
            }
            TimelineSample& u = m.timeline[i];
            u.requestsPerS += t.requestsPerS;
            u.valuesPerS += t.valuesPerS;
            u.errors += t.errors;
            u.clientCpuPercent += t.clientCpuPercent;
            u.p50Us = std::max(u.p50Us, t.p50Us);
            u.p90Us = std::max(u.p90Us, t.p90Us);
            u.p99Us = std::max(u.p99Us, t.p99Us);
            u.maxUs = std::max(u.maxUs, t.maxUs);
        }

        RankShare share;
        share.rank = int(r);
        share.host = hostOf(hosts, r);
        share.sessions = s.sessions;
        share.targetRate = shareOfRank(whole, int(r), int(ranks.size())).targetRate;
        share.error = r < ownErrors.size() ? ownErrors[r] : s.error;
        share.sent = s.sent;
        share.answered = s.answered;
        share.errors = s.errors;
        share.timeouts = s.timeouts;
        share.requestsPerS = s.requestsPerS;
        share.p99Us = s.p99Us;
        share.clientCpuPercent = s.clientCpuPercent;
        share.clientRssKb = s.clientRssKb;
        share.latency = s.latency;
        m.ranks.push_back(std::move(share));
    }
    const bool sameError = std::all_of(errors.begin(), errors.end(), [&](const QString& e) { return e == errors[0]; });
    m.error = sameError ? errors[0] : combineRankErrors(errors, hosts);

    // The percentiles of the summed histogram; computeFigures() would also set requests/s from
    // answered / duration, where the ranks' own rates (answered inside their period) are summed.
    const double requestsPerS = m.requestsPerS;
    m.computeFigures();
    m.requestsPerS = requestsPerS;
    if (fidelitySessions > 0) m.meanFidelityPercent = std::max(m.minFidelityPercent, fidelitySum / fidelitySessions);
    else m.meanFidelityPercent = m.minFidelityPercent;
    m.setupSessionsPerS = m.setupS > 0 ? double(m.sessions) / m.setupS : 0;
    m.clientCpuMsPerOp = clientCpuKnown && operations > 0 ? clientCpuMs / operations : -1;

    // The server: rank 0 reads its figures (the others do not know its process).
    m.eventsRaised = first.eventsRaised;
    m.eventsRaisedPerS = first.eventsRaisedPerS;
    m.serverCpuPercent = first.serverCpuPercent;
    m.serverRssKb = first.serverRssKb;
    m.serverRssBeforeKb = first.serverRssBeforeKb;
    m.serverDiagnostics = first.serverDiagnostics;
    if (first.serverCpuPercent >= 0 && operations > 0)
        m.serverCpuMsPerOp = first.serverCpuPercent * first.durationS * 10.0 / operations;
    return m;
}

} // namespace ua::loadtest
