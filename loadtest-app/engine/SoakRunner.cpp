#include "SoakRunner.h"

#include "LoadRunner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <numeric>

namespace ua::loadtest {

std::vector<LoadParameters> soakMix(const LoadParameters& base, double readRate, double durationS) {
    auto part = [&](Scenario s, int sessions, int outstanding) {
        LoadParameters p = base;
        p.scenario = s;
        p.sessions = sessions;
        p.outstanding = outstanding;
        p.durationS = durationS;
        p.warmupS = 1;
        p.targetRate = 0;
        p.ioThreads = 1;
        return p;
    };
    std::vector<LoadParameters> mix;
    LoadParameters read = part(Scenario::Read, 4, 4);
    read.valuesPerRequest = 10;
    read.targetRate = readRate;
    mix.push_back(read);
    LoadParameters write = part(Scenario::Write, 2, 2);
    write.valuesPerRequest = 5;
    write.targetRate = std::max(1.0, readRate / 4);
    mix.push_back(write);
    LoadParameters browse = part(Scenario::Browse, 1, 1);
    browse.targetRate = std::max(1.0, readRate / 20);
    mix.push_back(browse);
    LoadParameters subscribe = part(Scenario::Subscribe, 2, 1);
    subscribe.monitoredItems = 100;
    subscribe.samplingIntervalMs = 10;
    subscribe.publishingIntervalMs = 100;
    mix.push_back(subscribe);
    mix.push_back(part(Scenario::Connect, 1, 1));
    return mix;
}

int openFileDescriptors(qint64 pid) {
    if (pid < 0) return -1;
    const QDir dir(pid == 0 ? QStringLiteral("/proc/self/fd") : QStringLiteral("/proc/%1/fd").arg(pid));
    if (!dir.exists()) return -1;
    const QStringList entries = dir.entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
    if (entries.isEmpty()) return -1;  // not readable (another user's process)
    // Listing /proc/self/fd opens one descriptor for the listing itself.
    return int(entries.size()) - (pid == 0 ? 1 : 0);
}

uint64_t SoakReport::totalRequests() const { return std::accumulate(requests.begin(), requests.end(), uint64_t(0)); }
uint64_t SoakReport::totalErrors() const { return std::accumulate(errors.begin(), errors.end(), uint64_t(0)); }

bool SoakResult::memoryFlat() const {
    return baselineReport >= 0 && serverRssGrowthPercent <= kMaxRssGrowthPercent && clientRssGrowthPercent <= kMaxRssGrowthPercent;
}

bool SoakResult::descriptorsFlat() const {
    return baselineReport >= 0 && serverFdGrowth <= kMaxFdGrowth && clientFdGrowth <= kMaxFdGrowth;
}

void SoakResult::judge() {
    unexpectedErrors = 0;
    for (const StepResult& s : steps) unexpectedErrors += s.errors + s.timeouts + (s.connectionBroken ? 1 : 0);
    baselineReport = -1;
    if (reports.size() < 2) return;
    const double quarter = reports.back().tS / 4;
    for (std::size_t i = 0; i + 1 < reports.size(); ++i) {
        if (reports[i].tS >= quarter) {
            baselineReport = int(i);
            break;
        }
    }
    if (baselineReport < 0) baselineReport = int(reports.size()) - 2;
    const SoakReport& b = reports[std::size_t(baselineReport)];
    const SoakReport& e = reports.back();
    auto growth = [](long from, long to) { return from > 0 && to > 0 ? 100.0 * double(to - from) / double(from) : 0.0; };
    serverRssGrowthPercent = growth(b.server.rssKb, e.server.rssKb);
    clientRssGrowthPercent = growth(b.client.rssKb, e.client.rssKb);
    serverFdGrowth = b.serverFds >= 0 && e.serverFds >= 0 ? e.serverFds - b.serverFds : 0;
    clientFdGrowth = b.clientFds >= 0 && e.clientFds >= 0 ? e.clientFds - b.clientFds : 0;
}

struct SoakRunner::Impl {
    SoakRunner* q;
    std::vector<std::unique_ptr<LoadRunner>> runners;
    std::vector<bool> done;
    SoakResult result;
    SoakReport current;     // the interval being counted
    QTimer reportTimer;
    QElapsedTimer clock;
    qint64 serverPid = 0;
    bool running = false;
    bool lastTaken = false;

    SoakReport takeReport() {
        SoakReport r = current;
        r.tS = double(clock.elapsed()) / 1000.0;
        r.server = serverPid > 0 ? sampleProcess(serverPid) : ProcessSample{};
        r.serverFds = serverPid > 0 ? openFileDescriptors(serverPid) : -1;
        r.client = sampleProcess(0);
        r.clientFds = openFileDescriptors(0);
        std::fill(current.requests.begin(), current.requests.end(), 0);
        std::fill(current.errors.begin(), current.errors.end(), 0);
        return r;
    }

    // The last report is of the load, taken when the first part ends its measured period (before
    // any Session closes), so that the verdict compares like with like.
    void lastReport() {
        if (lastTaken || !result.error.isEmpty()) return;
        lastTaken = true;
        reportTimer.stop();
        const SoakReport last = takeReport();
        result.reports.push_back(last);
        emit q->report(last);
    }

    void partFinished(std::size_t i, StepResult step) {
        // The server's CPU time is of the whole mix, not of one part: not reported per part.
        step.serverCpuMsPerOp = -1;
        step.serverCpuPercent = -1;
        result.steps[i] = step;
        done[i] = true;
        if (!step.error.isEmpty() && result.error.isEmpty()) {
            result.error = QStringLiteral("%1: %2").arg(result.parts[i], step.error);
            for (auto& r : runners) r->stop();  // the mix is incomplete: end the others
        }
        if (std::all_of(done.begin(), done.end(), [](bool b) { return b; })) finish();
    }

    void finish() {
        lastReport();
        running = false;
        result.judge();
        emit q->finished(result);
    }
};

SoakRunner::SoakRunner(QObject* parent) : QObject(parent), d(std::make_unique<Impl>()) {
    d->q = this;
    connect(&d->reportTimer, &QTimer::timeout, this, [this] {
        const SoakReport r = d->takeReport();
        d->result.reports.push_back(r);
        emit report(r);
    });
}

SoakRunner::~SoakRunner() = default;

void SoakRunner::start(const LoadParameters& base, double readRate, double durationS, double reportEveryS) {
    if (d->running) return;
    d->running = true;
    d->lastTaken = false;
    d->result = SoakResult{};
    d->runners.clear();
    d->serverPid = base.serverPid;
    const std::vector<LoadParameters> mix = soakMix(base, readRate, durationS);
    d->done.assign(mix.size(), false);
    d->result.steps.resize(mix.size());
    d->current.requests.assign(mix.size(), 0);
    d->current.errors.assign(mix.size(), 0);
    for (const LoadParameters& p : mix) d->result.parts.push_back(scenarioName(p.scenario));
    d->clock.start();
    d->reportTimer.start(int(std::max(1.0, reportEveryS) * 1000));
    for (std::size_t i = 0; i < mix.size(); ++i) {
        auto runner = std::make_unique<LoadRunner>();
        connect(runner.get(), &LoadRunner::sample, this, [this, i](const TimelineSample& s) {
            if (s.warmup) return;
            d->current.requests[i] += uint64_t(s.requestsPerS + 0.5);  // samples are one second long
            d->current.errors[i] += s.errors;
        });
        connect(runner.get(), &LoadRunner::phaseChanged, this, [this](LoadRunner::Phase phase) {
            if (phase == LoadRunner::Phase::Draining || phase == LoadRunner::Phase::Closing) d->lastReport();
        });
        connect(runner.get(), &LoadRunner::finished, this, [this, i](const StepResult& step) { d->partFinished(i, step); });
        d->runners.push_back(std::move(runner));
    }
    for (std::size_t i = 0; i < mix.size(); ++i) d->runners[i]->start(mix[i]);
}

void SoakRunner::stop() {
    for (auto& r : d->runners) r->stop();
}

} // namespace ua::loadtest
