#include "cli/AbSummary.h"

#include "cli/CliOutput.h"

#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <functional>

namespace ua::loadtest {

namespace {

struct FigureSpec {
    const char* key;
    const char* label;
    std::function<double(const StepResult&)> get;  // < 0: unknown
};

std::vector<FigureSpec> specs(Scenario scenario) {
    std::vector<FigureSpec> f = {
        {"requestsPerS", "req/s", [](const StepResult& s) { return s.requestsPerS; }},
        {"valuesPerS", "values/s", [](const StepResult& s) { return s.valuesPerS; }},
        {"p50Ms", "p50 ms", [](const StepResult& s) { return s.p50Us / 1000; }},
        {"p90Ms", "p90 ms", [](const StepResult& s) { return s.p90Us / 1000; }},
        {"p99Ms", "p99 ms", [](const StepResult& s) { return s.p99Us / 1000; }},
        {"p999Ms", "p99.9 ms", [](const StepResult& s) { return s.p999Us / 1000; }},
        {"maxMs", "max ms", [](const StepResult& s) { return s.maxUs / 1000; }},
        {"errors", "errors", [](const StepResult& s) { return double(s.errors); }},
        {"timeouts", "timeouts", [](const StepResult& s) { return double(s.timeouts); }},
        {"clientCpuUsPerOp", "client CPU us/op", [](const StepResult& s) { return s.clientCpuMsPerOp * 1000; }},
        {"clientCpuPercent", "client CPU %", [](const StepResult& s) { return s.clientCpuPercent; }},
        {"serverCpuUsPerOp", "server CPU us/op",
         [](const StepResult& s) { return s.serverCpuMsPerOp < 0 ? -1 : s.serverCpuMsPerOp * 1000; }},
        {"serverCpuPercent", "server CPU %", [](const StepResult& s) { return s.serverCpuPercent; }},
        {"serverRssMb", "server RSS MB", [](const StepResult& s) { return s.serverRssKb < 0 ? -1 : double(s.serverRssKb) / 1024; }},
    };
    if (scenario == Scenario::Subscribe) {
        f.push_back({"notificationsPerS", "notifications/s", [](const StepResult& s) { return s.notificationsPerS; }});
        f.push_back({"minFidelityPercent", "fidelity min %", [](const StepResult& s) { return s.minFidelityPercent; }});
        f.push_back({"meanFidelityPercent", "fidelity mean %", [](const StepResult& s) { return s.meanFidelityPercent; }});
    }
    if (scenario == Scenario::Events) {
        f.push_back({"eventsPerS", "events/s", [](const StepResult& s) { return s.eventsPerS; }});
        f.push_back({"eventsLost", "events lost", [](const StepResult& s) { return double(s.eventsLost); }});
    }
    if (scenario == Scenario::Connect) {
        f.push_back({"sessionsPerS", "sessions/s", [](const StepResult& s) { return s.sessionsPerS; }});
        f.push_back({"serverTooBusy", "too busy", [](const StepResult& s) { return double(s.serverTooBusy); }});
    }
    return f;
}

} // namespace

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<AbFigure> abFigures(Scenario scenario, const std::vector<StepResult>& a, const std::vector<StepResult>& b) {
    std::vector<AbFigure> out;
    for (const FigureSpec& spec : specs(scenario)) {
        std::vector<double> va, vb;
        for (const StepResult& s : a)
            if (s.error.isEmpty() && spec.get(s) >= 0) va.push_back(spec.get(s));
        for (const StepResult& s : b)
            if (s.error.isEmpty() && spec.get(s) >= 0) vb.push_back(spec.get(s));
        if (va.empty() || vb.empty()) continue;
        AbFigure f;
        f.key = QLatin1String(spec.key);
        f.label = QLatin1String(spec.label);
        f.a = median(va);
        f.b = median(vb);
        f.ratio = f.a != 0 ? f.b / f.a : 0;
        f.rounds = int(std::min(va.size(), vb.size()));
        out.push_back(f);
    }
    return out;
}

QJsonObject abFiguresJson(const std::vector<AbFigure>& figures) {
    QJsonArray rows;
    for (const AbFigure& f : figures)
        rows.append(QJsonObject{{"figure", f.key}, {"label", f.label}, {"a", f.a}, {"b", f.b}, {"ratio", f.ratio}, {"rounds", f.rounds}});
    return QJsonObject{{"figures", rows}};
}

QStringList abTable(const std::vector<AbFigure>& figures, const QString& labelA, const QString& labelB, int rounds) {
    const QString title = QStringLiteral("median of %1 round%2").arg(rounds).arg(rounds == 1 ? "" : "s");
    int w0 = int(title.size());
    for (const AbFigure& f : figures) w0 = std::max(w0, int(f.label.size()));
    const int wa = std::max(12, int(labelA.size())), wb = std::max(12, int(labelB.size()));
    QStringList lines;
    lines << QStringLiteral("%1  %2  %3  %4").arg(title, -w0).arg(labelA, wa).arg(labelB, wb).arg(QStringLiteral("B/A"), 7);
    if (figures.empty())
        lines << QStringLiteral("(no medians: a target has no step that ran; see its FAILED lines above)");
    for (const AbFigure& f : figures)
        lines << QStringLiteral("%1  %2  %3  %4")
                     .arg(f.label, -w0)
                     .arg(figureText(f.a), wa)
                     .arg(figureText(f.b), wb)
                     .arg(f.a != 0 ? QString::number(f.ratio, 'f', 3) : QStringLiteral("-"), 7);
    return lines;
}

} // namespace ua::loadtest
