// A sweep (guide/benchmarks.md "Sweeps"): the steps sessions x outstanding of a SweepPlan, each
// with its warm-up, run one after the other with a LoadRunner. Order: for each outstanding value
// (ascending), the sessions values ascending. A step that beats the server (StopRules) stops that
// row (the larger sessions values of this outstanding value are skipped); when the first step of
// a row beats it, the larger outstanding values are skipped too. Lives in the caller's thread and
// never blocks it.
#pragma once

#include "LoadRunner.h"
#include "StepResult.h"

#include <QObject>
#include <memory>

namespace ua::loadtest {

// Why `step` beats the server given the lightest step's p99 (µs) and the previous step of the same
// row (nullptr for the first): "" when it does not, else the rule, e.g. "errors 3.2 % > 1 %".
QString beatenBy(const StepResult& step, double lightestP99Us, const StepResult* previous, const StopRules& rules);

class SweepRunner : public QObject {
    Q_OBJECT
public:
    explicit SweepRunner(QObject* parent = nullptr);
    ~SweepRunner() override;

    // Starts the sweep; base gives everything but sessions and outstanding. Returns at once.
    void start(const LoadParameters& base, const SweepPlan& plan, const QString& label = {});
    void stop();   // ends the current step early and runs no more; finished() follows
    bool isRunning() const;
    // Whether the last sweep ended because a stop was asked (here, or on another process of a
    // distributed sweep), not because its steps ran or the server was beaten.
    bool wasStopped() const;
    int stepCount() const;   // steps planned (before any is skipped)
    // A sweep run by several processes together (LoadRunner::setCoordinator): each step is merged
    // before the stop rules judge it, so every process takes the same next step.
    void setCoordinator(StepCoordinator* coordinator);

signals:
    void stepStarted(int index, int total, int sessions, int outstanding);
    void phaseChanged(ua::loadtest::LoadRunner::Phase phase);
    void sample(const ua::loadtest::TimelineSample& sample);
    void stepFinished(const ua::loadtest::StepResult& result);
    void finished(const ua::loadtest::RunResult& run);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace ua::loadtest
