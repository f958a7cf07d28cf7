// The StepCoordinator of a distributed run (engine/StepCoordinator.h) over the ranks of an MPI job:
// each rank drives shareOfRank() of a step, the load starts when every rank has set up its
// Sessions (a rank that could not fails the step on every rank, its error named), and every rank
// gets the step merged from all ranks' results (mergeRankSteps), so that a sweep's stop rules take
// the same decision everywhere.
#pragma once

#include "distributed/Ranks.h"
#include "engine/StepCoordinator.h"

namespace ua::loadtest {

class DistributedSteps : public StepCoordinator {
public:
    explicit DistributedSteps(Ranks& ranks) : m_ranks(ranks) {}

    LoadParameters share(const LoadParameters& whole) const override;
    QString ready(const QString& localError, const std::function<void()>& whileWaiting) override;
    StepResult combine(const StepResult& mine, const LoadParameters& whole) override;
    bool anyStops(bool localStop) override;

private:
    Ranks& m_ranks;
    QString m_ownError;    // this step: this rank's error given to ready()
    QString m_readyError;  // ... and what ready() returned
};

} // namespace ua::loadtest
