#include "cli/CliContext.h"

#include "cli/CliOutput.h"
#include "SignalWatcher.h"
#include "distributed/DistributedSteps.h"
#include "engine/LoadRunner.h"
#include "engine/ProcessStats.h"
#include "engine/SweepRunner.h"
#include "ua/Version.h"

#include <QEventLoop>
#include <csignal>

namespace ua::loadtest {

CliContext::CliContext(CliOptions options, Ranks* ranks, QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_ranks(ranks) {
    auto* signals_ = new app::SignalWatcher(this);
    connect(signals_, &app::SignalWatcher::received, this, &CliContext::onSignal);
    if (m_ranks && m_ranks->size() > 1) {
        m_distributed = std::make_unique<DistributedSteps>(*m_ranks);
        if (!reporting()) {
            m_options.quiet = true;
            stopReporting();
        }
    }
}

bool CliContext::reporting() const { return !m_ranks || m_ranks->rank() == 0; }

void CliContext::describeRanks(RunResult* run) const {
    if (!m_distributed) return;
    QStringList hosts;  // in order of first appearance, with their rank counts
    std::map<QString, int> counts;
    for (const QString& h : m_ranks->hosts())
        if (counts[h]++ == 0) hosts << h;
    for (QString& h : hosts) h += QStringLiteral(" (%1)").arg(counts[h]);
    run->machine += QStringLiteral("; %1 ranks on %2").arg(m_ranks->size()).arg(hosts.join(QStringLiteral(", ")));
}

CliContext::~CliContext() = default;

void CliContext::onSignal(int number) {
    const char* name = number == SIGINT ? "SIGINT" : "SIGTERM";
    if (m_stopRequested) {
        printError(QStringLiteral("ua-loadtest: %1 again: still closing the Sessions").arg(QLatin1String(name)));
        return;
    }
    m_stopRequested = true;
    if (reporting())  // every rank of a distributed run gets it (mpirun passes it on): rank 0 says so
        printError(QStringLiteral("ua-loadtest: %1: stopping (the step ends now, the Sessions close)").arg(QLatin1String(name)));
    if (m_sweep) m_sweep->stop();
    else if (m_soak) m_soak->stop();
    else if (m_runner) m_runner->stop();
}

void CliContext::progress(const QString& line) const {
    if (!m_options.quiet) printError(line);
}

bool CliContext::resolve(const CliTarget& target, ResolvedTarget* out, QString* error) {
    out->label = target.label;
    if (!target.spawn) {
        out->url = target.url;
        out->pid = target.pid;
        if (out->label.isEmpty()) out->label = target.url;
        return true;
    }
    auto server = std::make_unique<SpawnedServer>();
    progress(QStringLiteral("starting %1 ...").arg(target.serverExecutable.isEmpty() ? QStringLiteral("ua-server") : target.serverExecutable));
    if (!server->start(target.serverExecutable, {}, 20000, error)) return false;
    out->url = server->endpointUrl();
    out->pid = server->pid();
    if (out->label.isEmpty()) out->label = QStringLiteral("ua-server (spawned)");
    progress(QStringLiteral("ua-server pid %1 listening on %2").arg(out->pid).arg(out->url));
    m_servers.push_back(std::move(server));
    return true;
}

void CliContext::watch(LoadRunner* runner) {
    connect(runner, &LoadRunner::phaseChanged, this, [this](LoadRunner::Phase phase) {
        if (phase != LoadRunner::Phase::Idle && phase != LoadRunner::Phase::Measuring && phase != LoadRunner::Phase::WarmingUp)
            progress(QStringLiteral("  %1").arg(phaseText(phase)));
    });
    connect(runner, &LoadRunner::sample, this, [this](const TimelineSample& s) { progress(progressLine(s)); });
}

bool CliContext::resolveParameters(ResolvedTarget* target, LoadParameters* p) {
    QString error;
    bool resolved = true;
    if (reporting()) {
        resolved = resolve(m_options.target, target, &error);
        if (!resolved) printError(QStringLiteral("ua-loadtest: cannot start the server: ") + error);
    }
    if (m_distributed) {
        // Rank 0's endpoint ("" when it could not start its server) for the ranks told to spawn.
        const QString rankZeroUrl = QString::fromUtf8(m_ranks->broadcast(resolved ? target->url.toUtf8() : QByteArray()));
        if (rankZeroUrl.isEmpty()) return false;
        if (!reporting()) {
            const CliTarget& mine = m_options.target;
            target->url = mine.spawn ? rankZeroUrl : mine.url;
            target->pid = 0;  // the server's figures are rank 0's
            target->label = mine.label.isEmpty() ? target->url : mine.label;
        }
    }
    if (!resolved) return false;
    *p = m_options.parameters;
    p->endpointUrl = target->url;
    p->serverPid = target->pid;
    if (!reporting()) p->readServerDiagnostics = false;  // rank 0 reads them for the whole run
    return true;
}

StepResult CliContext::runStep(const LoadParameters& p) {
    StepResult result;
    if (m_stopRequested) {
        result.sessions = p.sessions;
        result.outstanding = p.outstanding;
        result.error = QStringLiteral("stopped");
        return result;
    }
    LoadRunner runner;
    runner.setCoordinator(m_distributed.get());
    QEventLoop loop;
    bool done = false;
    watch(&runner);
    connect(&runner, &LoadRunner::finished, &loop, [&](const StepResult& r) {
        result = r;
        done = true;
        loop.quit();
    });
    progress(QStringLiteral("%1 %2x%3 against %4: %5 s warm-up, %6 s measured%7")
                 .arg(stepName(p))
                 .arg(p.sessions)
                 .arg(p.outstanding)
                 .arg(p.endpointUrl)
                 .arg(p.warmupS)
                 .arg(p.durationS)
                 .arg(m_distributed ? QStringLiteral(" by %1 ranks (the progress lines are rank 0's share)").arg(m_ranks->size())
                                    : QString()));
    m_runner = &runner;
    runner.start(p);
    if (!done) loop.exec();
    m_runner = nullptr;
    return result;
}

RunResult CliContext::runSweep(const LoadParameters& base, const SweepPlan& plan, const QString& label,
                               const std::function<void(const StepResult&)>& onStep) {
    SweepRunner sweep;
    sweep.setCoordinator(m_distributed.get());
    QEventLoop loop;
    RunResult run;
    bool done = false;
    connect(&sweep, &SweepRunner::stepStarted, this, [this, &base](int index, int total, int sessions, int outstanding) {
        progress(QStringLiteral("step %1/%2: %3 %4x%5").arg(index + 1).arg(total).arg(stepName(base)).arg(sessions).arg(outstanding));
    });
    connect(&sweep, &SweepRunner::phaseChanged, this, [this](LoadRunner::Phase phase) {
        if (phase != LoadRunner::Phase::Idle && phase != LoadRunner::Phase::Measuring && phase != LoadRunner::Phase::WarmingUp)
            progress(QStringLiteral("  %1").arg(phaseText(phase)));
    });
    connect(&sweep, &SweepRunner::sample, this, [this](const TimelineSample& s) { progress(progressLine(s)); });
    connect(&sweep, &SweepRunner::stepFinished, this, [&onStep](const StepResult& s) { onStep(s); });
    connect(&sweep, &SweepRunner::finished, &loop, [&](const RunResult& r) {
        run = r;
        done = true;
        loop.quit();
    });
    if (m_stopRequested) return newRun(base, label);
    m_sweep = &sweep;
    sweep.start(base, plan, label);
    if (!done) loop.exec();
    m_sweep = nullptr;
    m_stopRequested = m_stopRequested || sweep.wasStopped();  // another rank's stop stops this one too
    return run;
}

SoakResult CliContext::runSoak(const LoadParameters& base, double readRate, double durationS, double reportEveryS,
                               const std::function<void(const SoakReport&)>& onReport) {
    SoakResult result;
    if (m_stopRequested) {
        result.error = QStringLiteral("stopped");
        return result;
    }
    SoakRunner soak;
    QEventLoop loop;
    bool done = false;
    connect(&soak, &SoakRunner::report, this, [&onReport](const SoakReport& r) { onReport(r); });
    connect(&soak, &SoakRunner::finished, &loop, [&](const SoakResult& r) {
        result = r;
        done = true;
        loop.quit();
    });
    progress(QStringLiteral("soak against %1: %2 s, a report every %3 s").arg(base.endpointUrl).arg(durationS).arg(reportEveryS));
    m_soak = &soak;
    soak.start(base, readRate, durationS, reportEveryS);
    if (!done) loop.exec();
    m_soak = nullptr;
    return result;
}

RunResult CliContext::newRun(const LoadParameters& p, const QString& label) {
    RunResult run;
    run.label = label.isEmpty() ? p.endpointUrl : label;
    run.machine = machineDescription();
    run.version = QStringLiteral(UA_WORKBENCH_VERSION);
    run.startedUtc = QDateTime::currentDateTimeUtc();
    run.parameters = p;
    run.plan.sessions = {p.sessions};
    run.plan.outstanding = {p.outstanding};
    return run;
}

int exitCodeOf(const std::vector<StepResult>& steps) {
    bool anyRan = false, anyErrors = false;
    for (const StepResult& s : steps) {
        if (!s.error.isEmpty()) continue;
        anyRan = true;
        anyErrors = anyErrors || s.errors > 0 || s.timeouts > 0 || s.connectionBroken || s.eventsLost > 0 ||
                    s.eventOverflows > 0 || s.eventsOutOfOrder > 0;
    }
    if (!anyRan) return ExitConnectionFailed;
    return anyErrors ? ExitRunErrors : ExitOk;
}

} // namespace ua::loadtest
