// The summary of an A/B run (`ua-loadtest ab`): for each figure the median over the rounds of
// each target and the ratio B/A. Steps that could not run are left out; a figure either target
// does not have (server CPU of an unknown process, fidelity outside subscribe) is left out too.
#pragma once

#include "engine/StepResult.h"

#include <QJsonObject>
#include <QString>
#include <vector>

namespace ua::loadtest {

struct AbFigure {
    QString key;      // "requestsPerS", "p99Us", ... (the StepResult JSON key)
    QString label;    // "req/s", "p99 ms", ...
    double a = 0;     // median of A (in the label's unit)
    double b = 0;     // median of B
    double ratio = 0; // b / a; 0 when a is 0
    int rounds = 0;   // rounds that ran on both sides
};

// The median of values (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> values);
// The figures of the scenario, medians of a's and b's steps.
std::vector<AbFigure> abFigures(Scenario scenario, const std::vector<StepResult>& a, const std::vector<StepResult>& b);
// {"figures": [{"figure", "label", "a", "b", "ratio"}, ...]}.
QJsonObject abFiguresJson(const std::vector<AbFigure>& figures);
// The table printed after the rounds: a header "figure  <labelA>  <labelB>  B/A", a row per figure.
QStringList abTable(const std::vector<AbFigure>& figures, const QString& labelA, const QString& labelB, int rounds);

} // namespace ua::loadtest
