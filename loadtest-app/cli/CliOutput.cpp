#include "cli/CliOutput.h"

#include <QFile>
#include <QJsonDocument>
#include <QStringList>
#include <cmath>
#include <cstdio>

namespace ua::loadtest {

namespace {

bool g_resultsToStderr = false;
bool g_reporting = true;

void write(std::FILE* f, const QString& line) {
    const QByteArray b = line.toUtf8();
    std::fwrite(b.constData(), 1, std::size_t(b.size()), f);
    std::fputc('\n', f);
    std::fflush(f);
}

QString rate(double perS) { return QString::number(perS, 'f', perS < 100 ? 1 : 0); }

} // namespace

void printLine(const QString& line) {
    if (g_reporting) write(stdout, line);
}
void printError(const QString& line) { write(stderr, line); }
void sendResultsToStderr() { g_resultsToStderr = true; }
void stopReporting() { g_reporting = false; }
void printResult(const QString& line) {
    if (g_reporting) write(g_resultsToStderr ? stderr : stdout, line);
}

QString figureText(double v) {
    const double m = std::abs(v);
    if (m == 0) return QStringLiteral("0");
    return QString::number(v, 'f', m >= 100 ? 0 : m >= 10 ? 1 : m >= 1 ? 2 : 3);
}

QString msText(double us) {
    const double ms = us / 1000.0;
    if (ms < 1) return QString::number(ms, 'f', 3);
    if (ms < 10) return QString::number(ms, 'f', 2);
    if (ms < 100) return QString::number(ms, 'f', 1);
    return QString::number(ms, 'f', 0);
}

QString stepName(const LoadParameters& p) { return stepShape(p); }

QString resultLine(const LoadParameters& p, const StepResult& s) {
    const QString head = QStringLiteral("%1 %2x%3").arg(stepName(p)).arg(s.sessions).arg(s.outstanding);
    if (!s.error.isEmpty()) return QStringLiteral("%1  FAILED: %2").arg(head, s.error);
    QStringList parts{head};
    parts << QStringLiteral("req/s %1").arg(rate(s.requestsPerS)) << QStringLiteral("values/s %1").arg(rate(s.valuesPerS));
    if (s.latency.count() == 0)  // nothing answered (or no PublishTime to time notifications by)
        parts << QStringLiteral("p50 -  p90 -  p99 -  p99.9 -  max - ms");
    else
        parts << QStringLiteral("p50 %1  p90 %2  p99 %3  p99.9 %4  max %5 ms")
                     .arg(msText(s.p50Us), msText(s.p90Us), msText(s.p99Us), msText(s.p999Us), msText(s.maxUs));
    parts << QStringLiteral("errors %1").arg(s.errors) << QStringLiteral("timeouts %1").arg(s.timeouts);
    parts << QStringLiteral("client %1 us/op %2 %")
                 .arg(s.clientCpuMsPerOp >= 0 ? QString::number(s.clientCpuMsPerOp * 1000, 'f', 1) : QStringLiteral("-"))
                 .arg(s.clientCpuPercent, 0, 'f', 0);
    if (s.serverCpuMsPerOp >= 0 || s.serverRssKb >= 0)
        parts << QStringLiteral("server %1 us/op %2 % %3 MB")
                     .arg(s.serverCpuMsPerOp >= 0 ? QString::number(s.serverCpuMsPerOp * 1000, 'f', 1) : QStringLiteral("?"),
                          s.serverCpuPercent >= 0 ? QString::number(s.serverCpuPercent, 'f', 1) : QStringLiteral("?"),
                          s.serverRssKb >= 0 ? QString::number(double(s.serverRssKb) / 1024.0, 'f', 1) : QStringLiteral("?"))
                 + (std::isfinite(s.serverKbPerSession()) ? QStringLiteral(" (%1 KB/Session)").arg(s.serverKbPerSession(), 0, 'f', 1)
                                                          : QString());
    if (p.scenario == Scenario::Subscribe)
        parts << QStringLiteral("notifications/s %1  fidelity min %2 % mean %3 % (%4 items < 99 %)")
                     .arg(rate(s.notificationsPerS))
                     .arg(s.minFidelityPercent, 0, 'f', 1)
                     .arg(s.meanFidelityPercent, 0, 'f', 1)
                     .arg(s.itemsBelow99);
    if (p.scenario == Scenario::Events)
        parts << QStringLiteral("events/s %1  raised/s %2  lost %3  overflows %4%5")
                     .arg(rate(s.eventsPerS))
                     .arg(s.eventsRaised > 0 ? rate(s.eventsRaisedPerS) : QStringLiteral("-"))
                     .arg(s.eventsLost >= 0 ? QString::number(s.eventsLost) : QStringLiteral("?"))
                     .arg(s.eventOverflows)
                     .arg(s.eventsOutOfOrder > 0 ? QStringLiteral("  out-of-order %1").arg(s.eventsOutOfOrder) : QString());
    if (p.scenario == Scenario::Connect)
        parts << QStringLiteral("sessions/s %1  too-busy %2  retries %3").arg(rate(s.sessionsPerS)).arg(s.serverTooBusy).arg(s.retries);
    else if (s.setupS > 0)
        parts << QStringLiteral("set-up %1 s (%2 sessions/s)").arg(s.setupS, 0, 'f', 1).arg(s.setupSessionsPerS, 0, 'f', 1);
    if (!s.errorsByStatus.empty()) {
        QStringList e;
        for (const auto& [status, n] : s.errorsByStatus) e << QStringLiteral("%1 %2").arg(status).arg(n);
        parts << QStringLiteral("[%1]").arg(e.join(QStringLiteral(", ")));
    }
    if (s.connectionBroken) parts << QStringLiteral("BROKEN connection");
    if (!s.beatenBy.isEmpty()) parts << QStringLiteral("beaten-by: %1").arg(s.beatenBy);
    return parts.join(QStringLiteral("  "));
}

QString phaseText(LoadRunner::Phase phase) {
    switch (phase) {
    case LoadRunner::Phase::Idle: return QStringLiteral("idle");
    case LoadRunner::Phase::Connecting: return QStringLiteral("connecting");
    case LoadRunner::Phase::WarmingUp: return QStringLiteral("warming up");
    case LoadRunner::Phase::Measuring: return QStringLiteral("measuring");
    case LoadRunner::Phase::Draining: return QStringLiteral("draining the requests in flight");
    case LoadRunner::Phase::Closing: return QStringLiteral("closing");
    }
    return {};
}

QString progressLine(const TimelineSample& t) {
    return QStringLiteral("  %1 %2 s  %3 req/s  %4 values/s  p99 %5 ms  errors %6  client %7 %")
        .arg(t.warmup ? QStringLiteral("warm-up") : QStringLiteral("measuring"))
        .arg(t.tS, 0, 'f', 0)
        .arg(rate(t.requestsPerS), rate(t.valuesPerS), msText(t.p99Us))
        .arg(t.errors)
        .arg(t.clientCpuPercent, 0, 'f', 0);
}

void printWarnings(const StepResult& step) {
    if (!g_reporting) return;
    for (const QString& w : step.warnings) printError(QStringLiteral("warning: ") + w);
    if (step.generatorSaturated && step.warnings.isEmpty())
        printError(QStringLiteral("warning: the load generator saturated (client CPU %1 % of one core): add --io-threads or "
                                  "run it on another machine")
                       .arg(step.clientCpuPercent, 0, 'f', 0));
}

bool writeJson(const QString& path, const QJsonObject& document, QString* error) {
    const QByteArray bytes = QJsonDocument(document).toJson(QJsonDocument::Indented);
    if (path == QLatin1String("-")) {
        std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
        std::fflush(stdout);
        return true;
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size()) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace ua::loadtest
