// The sweep (see SweepRunner.h): steps in order, each judged by the stop rules (beatenBy).
#include "SweepRunner.h"

#include "ProcessStats.h"
#include "StepCoordinator.h"

#include "ua/Version.h"

namespace ua::loadtest {

namespace {

// Latencies in the notes in one unit, ms, with the digits of the window's latency columns
// ("p99 1.500 ms > 10 x 0.100 ms", not "1.5 ms > 10 x 100 us": issue 27 item 13).
QString ms(double us) {
    const double v = us / 1000.0;
    return QStringLiteral("%1 ms").arg(v, 0, 'f', v >= 100 ? 0 : v >= 10 ? 1 : 3);
}

} // namespace

QString beatenBy(const StepResult& step, double lightestP99Us, const StepResult* previous, const StopRules& rules) {
    if (!step.error.isEmpty()) return QStringLiteral("did not run: %1").arg(step.error);
    if (rules.brokenConnection && step.connectionBroken) return QStringLiteral("a connection broke");
    if (step.sent == 0) return QStringLiteral("no request was sent");
    const double failed = double(step.errors + step.timeouts) / double(step.sent);
    if (failed > rules.maxErrorFraction)
        return QStringLiteral("errors %1 % > %2 %").arg(failed * 100, 0, 'f', 1).arg(rules.maxErrorFraction * 100, 0, 'g', 3);
    // Events: lost ones count as errors of the events expected.
    if (step.eventsLost > 0 && step.eventsExpected > 0) {
        const double lost = double(step.eventsLost) / double(step.eventsExpected);
        if (lost > rules.maxErrorFraction)
            return QStringLiteral("events lost %1 % > %2 %").arg(lost * 100, 0, 'f', 1).arg(rules.maxErrorFraction * 100, 0, 'g', 3);
    }
    if (lightestP99Us > 0 && step.p99Us > rules.maxP99Factor * lightestP99Us)
        return QStringLiteral("p99 %1 > %2 x %3").arg(ms(step.p99Us)).arg(rules.maxP99Factor, 0, 'g', 3).arg(ms(lightestP99Us));
    if (previous && step.requestsPerS < rules.minThroughputFactor * previous->requestsPerS)
        return QStringLiteral("throughput %1/s < %2 x %3/s")
            .arg(step.requestsPerS, 0, 'f', 0)
            .arg(rules.minThroughputFactor, 0, 'g', 3)
            .arg(previous->requestsPerS, 0, 'f', 0);
    return {};
}

struct SweepRunner::Impl {
    SweepRunner* q;
    LoadRunner runner;
    LoadParameters base;
    RunResult run;
    bool running = false;
    bool stopRequested = false;
    std::size_t row = 0, column = 0;     // outstanding index, sessions index
    double lightestP99Us = 0;
    bool haveLightest = false;
    std::optional<StepResult> previous;  // in this row
    long idleRssKb = -1;                 // the server's RSS before the first step's Sessions
    StepCoordinator* coordinator = nullptr;  // a sweep run by several processes

    explicit Impl(SweepRunner* s) : q(s) {}

    int total() const { return int(run.plan.sessions.size() * run.plan.outstanding.size()); }

    void next() {
        if (row >= run.plan.outstanding.size()) return finish();
        if (coordinator && !run.steps.empty()) stopRequested = coordinator->anyStops(stopRequested);
        if (stopRequested) return finish();
        LoadParameters p = base;
        p.sessions = run.plan.sessions[column];
        p.outstanding = run.plan.outstanding[row];
        emit q->stepStarted(int(row * run.plan.sessions.size() + column), total(), p.sessions, p.outstanding);
        runner.start(p);
    }

    void stepDone(StepResult step) {
        // The server's memory per Session is counted from its RSS before the sweep's first
        // Sessions: a server keeps much of what earlier (smaller) steps allocated, so the growth
        // over one step alone says little about what a Session costs.
        if (idleRssKb < 0) idleRssKb = step.serverRssBeforeKb;
        else if (step.serverRssBeforeKb >= 0) step.serverRssBeforeKb = idleRssKb;
        if (!haveLightest && step.error.isEmpty()) {
            lightestP99Us = step.p99Us;
            haveLightest = true;
        }
        step.beatenBy = beatenBy(step, lightestP99Us, previous ? &*previous : nullptr, run.plan.stopRules);
        run.steps.push_back(step);
        emit q->stepFinished(step);
        const bool firstOfRow = column == 0;
        if (!step.beatenBy.isEmpty()) {
            if (firstOfRow) row = run.plan.outstanding.size();  // the larger outstanding values too
            else ++row;
            column = 0;
            previous.reset();
        } else if (++column == run.plan.sessions.size()) {
            ++row;
            column = 0;
            previous.reset();
        } else {
            previous = step;
        }
        next();
    }

    void finish() {
        running = false;
        const RunResult done = run;  // a slot may start another sweep
        emit q->finished(done);
    }
};

SweepRunner::SweepRunner(QObject* parent) : QObject(parent), d(std::make_unique<Impl>(this)) {
    connect(&d->runner, &LoadRunner::phaseChanged, this, &SweepRunner::phaseChanged);
    connect(&d->runner, &LoadRunner::sample, this, &SweepRunner::sample);
    connect(&d->runner, &LoadRunner::finished, this, [this](const StepResult& r) {
        if (d->running) d->stepDone(r);
    });
}

SweepRunner::~SweepRunner() = default;

void SweepRunner::start(const LoadParameters& base, const SweepPlan& plan, const QString& label) {
    if (d->running) return;
    d->base = base;
    d->run = RunResult();
    d->run.label = label.isEmpty() ? base.endpointUrl : label;
    d->run.machine = machineDescription();
    d->run.version = QStringLiteral(UA_WORKBENCH_VERSION);
    d->run.startedUtc = QDateTime::currentDateTimeUtc();
    d->run.parameters = base;
    d->run.parameters.password.clear();
    d->run.plan = plan;
    d->row = d->column = 0;
    d->lightestP99Us = 0;
    d->haveLightest = false;
    d->previous.reset();
    d->stopRequested = false;
    d->running = true;
    if (plan.sessions.empty() || plan.outstanding.empty()) {
        QMetaObject::invokeMethod(this, [this] { d->finish(); }, Qt::QueuedConnection);
        return;
    }
    d->next();
}

void SweepRunner::stop() {
    if (!d->running) return;
    d->stopRequested = true;
    d->runner.stop();
}

bool SweepRunner::isRunning() const { return d->running; }

bool SweepRunner::wasStopped() const { return d->stopRequested; }

int SweepRunner::stepCount() const { return d->total(); }

void SweepRunner::setCoordinator(StepCoordinator* coordinator) {
    if (d->running) return;
    d->coordinator = coordinator;
    d->runner.setCoordinator(coordinator);
}

} // namespace ua::loadtest
