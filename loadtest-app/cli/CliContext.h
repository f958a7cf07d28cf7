// What the commands share: the options, the stop request (SIGINT / SIGTERM), the servers they
// spawned (stopped when the context goes), and running a step or a sweep to its end. A step runs
// in a nested event loop on the main thread (the LoadRunner never blocks it; the requests go on
// the client's I/O threads), so each command is plain sequential code that returns its exit code.
#pragma once

#include "cli/CliOptions.h"
#include "engine/SoakRunner.h"
#include "engine/SpawnedServer.h"
#include "engine/StepResult.h"

#include <QObject>
#include <functional>
#include <memory>
#include <vector>

namespace ua::loadtest {

class DistributedSteps;
class LoadRunner;
class Ranks;
class SweepRunner;

// A target ready to be driven: its endpoint and, when known, its server's process id.
struct ResolvedTarget {
    QString url;
    qint64 pid = 0;
    QString label;
};

class CliContext : public QObject {
    Q_OBJECT
public:
    // ranks: the processes of a distributed run (distributed/Ranks.h; nullptr or one: this one
    // alone). With several, each step is split between them and merged (DistributedSteps), and only
    // rank 0 prints progress, result lines and warnings and writes the JSON.
    explicit CliContext(CliOptions options, Ranks* ranks = nullptr, QObject* parent = nullptr);
    ~CliContext() override;

    const CliOptions& options() const { return m_options; }
    // Whether this process reports the run: the only one, or rank 0 of a distributed run.
    bool reporting() const;
    // A distributed run: "3 ranks on host-a (2), host-b (1)" added to run->machine.
    void describeRanks(RunResult* run) const;
    bool stopRequested() const { return m_stopRequested; }

    // A URL as it is; spawn starts our headless server on a free port (kept running until the
    // context goes). false and *error when the server could not be started.
    bool resolve(const CliTarget& target, ResolvedTarget* out, QString* error);

    // The options' target resolved (spawned if asked) and the options' parameters aimed at it;
    // false after printing why it could not be started. A distributed run: rank 0 resolves its
    // target (only it spawns a server, only it knows the server's process) and every rank whose
    // target is --spawn-server drives rank 0's endpoint (collective).
    bool resolveParameters(ResolvedTarget* target, LoadParameters* p);

    // Runs one step to its end (or until a stop request) and returns its result.
    StepResult runStep(const LoadParameters& p);
    // Runs a sweep to its end; onStep gets each step as it finishes.
    RunResult runSweep(const LoadParameters& base, const SweepPlan& plan, const QString& label,
                       const std::function<void(const StepResult&)>& onStep);

    // Runs a soak (SoakRunner.h) to its end or a stop request; onReport gets each report.
    SoakResult runSoak(const LoadParameters& base, double readRate, double durationS, double reportEveryS,
                       const std::function<void(const SoakReport&)>& onReport);
    // A progress line on stderr (not with --quiet).
    void progress(const QString& line) const;
    // A RunResult shell for this tool and machine: label, machine, version, start time, parameters.
    static RunResult newRun(const LoadParameters& p, const QString& label);

private:
    void watch(LoadRunner* runner);
    void onSignal(int number);

    CliOptions m_options;
    Ranks* m_ranks = nullptr;
    std::unique_ptr<DistributedSteps> m_distributed;  // with several ranks
    bool m_stopRequested = false;
    std::vector<std::unique_ptr<SpawnedServer>> m_servers;
    LoadRunner* m_runner = nullptr;   // the step running now
    SweepRunner* m_sweep = nullptr;   // the sweep running now
    SoakRunner* m_soak = nullptr;     // the soak running now
};

// The exit code of steps that ran: ExitConnectionFailed when none could run (each has an error),
// ExitRunErrors when one had errors, timeouts, a broken connection, or (events) lost, overflowed or
// out-of-order events, else ExitOk.
int exitCodeOf(const std::vector<StepResult>& steps);

} // namespace ua::loadtest
