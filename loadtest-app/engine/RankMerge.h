// A step run by several processes (the ranks of a distributed run, docs/LoadTesterCli.md
// "Distributed runs"): how the step is split between them and how their results become one.
// Plain functions with no MPI in them, so that the merge is tested in one process.
#pragma once

#include "LoadParameters.h"
#include "StepResult.h"

#include <QString>
#include <vector>

namespace ua::loadtest {

// Rank `rank` of `size`: sessions / size Sessions, one more for the ranks below sessions % size;
// in open loop the rate in proportion to its Sessions (every Session paced alike, the ranks' rates
// summing to the whole). A rank may get 0 Sessions when sessions < size (the caller refuses that).
LoadParameters shareOfRank(const LoadParameters& whole, int rank, int size);

// One message for the ranks' errors (index = rank; empty = no error), "" when none failed:
// "rank 2 of 3 (host-b): connect to opc.tcp://...: Bad_ConnectionRejected", several joined with
// "; ", or "every rank (3): <error>" when all failed the same way.
QString combineRankErrors(const std::vector<QString>& errors, const std::vector<QString>& hosts);

// The step's result from each rank's (index = rank, hosts alike), exactly where the figures allow:
//  - counts (sent, answered, errors, timeouts, errors by status, too busy, retries, pacer wake-ups)
//    are summed, and so are the rates (requests/s, values/s, notifications/s, sessions/s: the ranks
//    measure the same period);
//  - the latency histograms are summed bucket by bucket (every rank has the same buckets) with
//    the smallest min and largest max, and the percentiles come from that sum: the same as one
//    histogram fed every rank's samples;
//  - the measured period and the set-up time are the longest rank's;
//  - the load tester's CPU % and RSS are summed over the ranks, its CPU per request is all the
//    ranks' CPU time over all their requests;
//  - the server's figures (CPU, RSS, ServerDiagnostics) are rank 0's, the only rank that reads
//    them, its CPU per request over all the ranks' requests;
//  - fidelity: the lowest minimum, the mean over every item, the items below 99 % summed;
//  - warnings are kept, each prefixed with its rank; a broken connection on any rank is one;
//  - the timeline's seconds are summed by index (rates, errors, CPU); their percentiles are the
//    highest rank's, an upper bound (the step's percentiles above are exact);
//  - an error on any rank is the step's: the ranks' error when they all have the same one (as
//    after StepCoordinator::ready() failed), else combineRankErrors;
//  - `ranks` holds each rank's share, with ownErrors[rank] as its error when given (what failed on
//    that rank itself, "" for a rank whose part was fine), else its step's error.
StepResult mergeRankSteps(const std::vector<StepResult>& ranks, const std::vector<QString>& hosts, const LoadParameters& whole,
                          const std::vector<QString>& ownErrors = {});

} // namespace ua::loadtest
