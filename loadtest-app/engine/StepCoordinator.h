// How a LoadRunner takes part in a step that several processes run together (the ranks of an MPI
// job, loadtest-app/distributed/): which part of the step this process drives, the point where
// every process is ready to load, and the merge of every process's figures. A LoadRunner without
// a coordinator runs the whole step alone, as before.
//
// Each call is collective: every process of the run makes it once per step, in the same order
// (share, ready, combine; a sweep's anyStops between steps), whatever happened to its own part; a call blocks until every process has
// made it.
#pragma once

#include "LoadParameters.h"
#include "StepResult.h"

#include <QString>
#include <functional>

namespace ua::loadtest {

class StepCoordinator {
public:
    virtual ~StepCoordinator() = default;

    // This process's part of the step `whole` (its Sessions and, in open loop, its rate).
    virtual LoadParameters share(const LoadParameters& whole) const = 0;
    // When this process's Sessions are set up (localError empty) or its part failed before that
    // (localError says why): "" when every process is ready, so the load starts on all of them
    // together; otherwise the error that ends the step on every process, naming each process that
    // failed and why. whileWaiting is called now and then (at most every 250 ms) while the others
    // are not ready yet: this process's Sessions must not time out meanwhile.
    virtual QString ready(const QString& localError, const std::function<void()>& whileWaiting) = 0;
    // After the step: the step's result merged from every process's (RankMerge.h); the same on
    // every process.
    virtual StepResult combine(const StepResult& mine, const LoadParameters& whole) = 0;
    // Before each further step of a sweep: whether any process was asked to stop (a signal reaches
    // the processes of a job at slightly different times, some while they wait in a collective
    // call), so that all stop after the same step.
    virtual bool anyStops(bool localStop) = 0;
};

} // namespace ua::loadtest
