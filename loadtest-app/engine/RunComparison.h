// Two saved runs side by side (the window's Compare, the command line's `compare`): steps matched
// by (sessions, outstanding), and for each figure the ratio b / a.
#pragma once

#include "StepResult.h"

#include <QString>
#include <vector>

namespace ua::loadtest {

struct FigureRatio {
    QString figure;   // "requestsPerS", "p50Us", "p99Us", "p999Us", "maxUs", "clientCpuMsPerOp", ...
    double a = 0;
    double b = 0;
    double ratio = 0; // b / a; 0 when a is 0 or a figure is unknown (-1)
};

struct StepComparison {
    int sessions = 0;
    int outstanding = 0;
    bool inA = false, inB = false;   // a step only one run has: no ratios
    std::vector<FigureRatio> figures;
};

// Every step of a and of b, ordered by outstanding then sessions.
std::vector<StepComparison> compareRuns(const RunResult& a, const RunResult& b);

} // namespace ua::loadtest
