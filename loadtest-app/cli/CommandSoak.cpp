// `ua-loadtest soak <url> | --spawn-server [--duration S] [--report-every S] [--rate R]`: the mixed
// load of SoakRunner.h for --duration seconds (default 1800), a report line every --report-every
// seconds (default 60), then each part's result line and the verdict (docs/LoadTesterCli.md).
#include "cli/CliContext.h"
#include "cli/CliOutput.h"
#include "cli/Commands.h"

namespace ua::loadtest {

namespace {

QString clock(double s) {
    const qint64 t = qint64(s + 0.5);
    return QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

QString processText(const char* who, const ProcessSample& p, int fds) {
    return QStringLiteral("%1 rss %2 kB fds %3")
        .arg(QLatin1String(who))
        .arg(p.rssKb >= 0 ? QString::number(p.rssKb) : QStringLiteral("?"))
        .arg(fds >= 0 ? QString::number(fds) : QStringLiteral("?"));
}

// "soak  1:00  requests 61234 (read 59000 write 1500 browse 600 subscribe 1200 connect 120)
//  errors 0  server rss 52340 kB fds 31  client rss 80120 kB fds 40"
QString reportLine(const std::vector<QString>& parts, const SoakReport& r) {
    QStringList perPart;
    for (std::size_t i = 0; i < parts.size() && i < r.requests.size(); ++i)
        perPart << QStringLiteral("%1 %2").arg(parts[i]).arg(r.requests[i]);
    return QStringLiteral("soak %1  requests %2 (%3)  errors %4  %5  %6")
        .arg(clock(r.tS), 6)
        .arg(r.totalRequests())
        .arg(perPart.join(QLatin1Char(' ')))
        .arg(r.totalErrors())
        .arg(processText("server", r.server, r.serverFds), processText("client", r.client, r.clientFds));
}

} // namespace

int runSoak(CliContext& context) {
    const CliOptions& o = context.options();
    ResolvedTarget target;
    LoadParameters base;
    if (!context.resolveParameters(&target, &base)) return ExitConnectionFailed;
    const std::vector<LoadParameters> mix = soakMix(base, base.targetRate, base.durationS);
    std::vector<QString> parts;
    for (const LoadParameters& p : mix) parts.push_back(scenarioName(p.scenario));
    const SoakResult result = context.runSoak(base, base.targetRate, base.durationS, o.reportEveryS,
                                              [&parts](const SoakReport& r) { printResult(reportLine(parts, r)); });
    if (!result.error.isEmpty()) {
        printError(QStringLiteral("ua-loadtest: the soak could not run: ") + result.error);
        return ExitConnectionFailed;
    }
    for (std::size_t i = 0; i < mix.size() && i < result.steps.size(); ++i) printResult(resultLine(mix[i], result.steps[i]));
    if (result.baselineReport < 0) {
        printResult(QStringLiteral("verdict: too short for a verdict on memory (fewer than two reports)"));
        return result.unexpectedErrors ? ExitRunErrors : ExitOk;
    }
    const SoakReport& b = result.reports[std::size_t(result.baselineReport)];
    const SoakReport& e = result.reports.back();
    printResult(QStringLiteral("memory from %1 to %2: server rss %3 -> %4 kB (%5 %), fds %6 -> %7; client rss %8 -> %9 kB (%10 %), fds %11 -> %12")
                    .arg(clock(b.tS), clock(e.tS))
                    .arg(b.server.rssKb).arg(e.server.rssKb).arg(result.serverRssGrowthPercent, 0, 'f', 1)
                    .arg(b.serverFds).arg(e.serverFds)
                    .arg(b.client.rssKb).arg(e.client.rssKb).arg(result.clientRssGrowthPercent, 0, 'f', 1)
                    .arg(b.clientFds).arg(e.clientFds));
    printResult(QStringLiteral("verdict: %1  (unexpected errors %2; memory %3 (at most +%4 %); descriptors %5 (at most +%6))")
                    .arg(result.passed() ? QStringLiteral("PASSED") : QStringLiteral("FAILED"))
                    .arg(result.unexpectedErrors)
                    .arg(result.memoryFlat() ? QStringLiteral("flat") : QStringLiteral("GROWING"))
                    .arg(SoakResult::kMaxRssGrowthPercent)
                    .arg(result.descriptorsFlat() ? QStringLiteral("flat") : QStringLiteral("GROWING"))
                    .arg(SoakResult::kMaxFdGrowth));
    return result.passed() ? ExitOk : ExitRunErrors;
}

} // namespace ua::loadtest
