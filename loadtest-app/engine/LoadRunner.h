// Runs one step (LoadParameters) against a server: opens the Sessions (at most connectWindow
// establishments at once), runs the warm-up and then the measured period, waits for the requests
// still in flight, reads the server's figures, closes the Sessions, and emits finished().
//
// Threads: the LoadRunner lives in the caller's thread (the window's or the command line's main
// thread) and never blocks it; the requests are sent and answered on the ua::Client I/O threads
// (LoadParameters::ioThreads, shared by all Sessions, callbacks with context nullptr), and are
// recorded there without locks; the runner's thread collects a TimelineSample once a second.
#pragma once

#include "StepResult.h"

#include <QObject>
#include <memory>

namespace ua::loadtest {

class StepCoordinator;

class LoadRunner : public QObject {
    Q_OBJECT
public:
    enum class Phase { Idle, Connecting, WarmingUp, Measuring, Draining, Closing };
    Q_ENUM(Phase)

    explicit LoadRunner(QObject* parent = nullptr);
    ~LoadRunner() override;

    // Starts a step; returns at once. Invalid parameters or a step already running: finished()
    // follows (queued) with StepResult::error set.
    void start(const LoadParameters& parameters);
    // Ends the measurement now (or the connecting); finished() follows with what was measured.
    void stop();
    bool isRunning() const;
    Phase phase() const;
    // A step run by several processes together (StepCoordinator.h; nullptr: alone, the default):
    // start() drives this process's share, the load starts when every process has set up its
    // Sessions, and finished() gives the merged result. Not owned; set between steps.
    void setCoordinator(StepCoordinator* coordinator);

signals:
    void phaseChanged(ua::loadtest::LoadRunner::Phase phase);
    void sample(const ua::loadtest::TimelineSample& sample);
    void finished(const ua::loadtest::StepResult& result);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace ua::loadtest
