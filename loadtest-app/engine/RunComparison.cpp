#include "RunComparison.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ua::loadtest {

namespace {

using Key = std::pair<int, int>;  // (outstanding, sessions): the order of the result

// The figures compared, in the order they are listed; -1 marks an unknown figure (server CPU and
// RSS without a server pid).
std::vector<std::pair<QString, double>> figuresOf(const StepResult& s) {
    return {
        {QStringLiteral("requestsPerS"), s.requestsPerS},
        {QStringLiteral("valuesPerS"), s.valuesPerS},
        {QStringLiteral("p50Us"), s.p50Us},
        {QStringLiteral("p90Us"), s.p90Us},
        {QStringLiteral("p99Us"), s.p99Us},
        {QStringLiteral("p999Us"), s.p999Us},
        {QStringLiteral("maxUs"), s.maxUs},
        {QStringLiteral("meanUs"), s.meanUs},
        {QStringLiteral("errors"), double(s.errors)},
        {QStringLiteral("timeouts"), double(s.timeouts)},
        {QStringLiteral("clientCpuMsPerOp"), s.clientCpuMsPerOp},
        {QStringLiteral("serverCpuMsPerOp"), s.serverCpuMsPerOp},
        {QStringLiteral("serverRssKb"), double(s.serverRssKb)},
    };
}

// The first step of each (outstanding, sessions): a run holds each point once; should one repeat,
// the first measurement is the one compared.
std::map<Key, const StepResult*> index(const RunResult& run) {
    std::map<Key, const StepResult*> out;
    for (const StepResult& s : run.steps) out.emplace(Key{s.outstanding, s.sessions}, &s);
    return out;
}

} // namespace

std::vector<StepComparison> compareRuns(const RunResult& a, const RunResult& b) {
    const auto stepsA = index(a);
    const auto stepsB = index(b);
    std::map<Key, StepComparison> rows;
    for (const auto* steps : {&stepsA, &stepsB})
        for (const auto& [key, step] : *steps) {
            StepComparison& c = rows[key];
            c.outstanding = key.first;
            c.sessions = key.second;
        }
    for (auto& [key, c] : rows) {
        const auto ia = stepsA.find(key);
        const auto ib = stepsB.find(key);
        c.inA = ia != stepsA.end();
        c.inB = ib != stepsB.end();
        const auto fa = c.inA ? figuresOf(*ia->second) : std::vector<std::pair<QString, double>>{};
        const auto fb = c.inB ? figuresOf(*ib->second) : std::vector<std::pair<QString, double>>{};
        const auto& names = c.inA ? fa : fb;
        for (std::size_t i = 0; i < names.size(); ++i) {
            FigureRatio r;
            r.figure = names[i].first;
            r.a = c.inA ? fa[i].second : 0;
            r.b = c.inB ? fb[i].second : 0;
            // A ratio only when both runs measured the figure and a's is not 0.
            if (c.inA && c.inB && r.a > 0 && r.b >= 0) r.ratio = r.b / r.a;
            c.figures.push_back(std::move(r));
        }
    }
    std::vector<StepComparison> out;
    out.reserve(rows.size());
    for (auto& [key, c] : rows) out.push_back(std::move(c));
    return out;
}

} // namespace ua::loadtest
