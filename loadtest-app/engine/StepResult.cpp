// StepResult / RunResult: figures from the histogram, JSON both ways, CSV (see StepResult.h).
#include "StepResult.h"

#include <cmath>

#include "JsonFields.h"

#include <QJsonArray>
#include <algorithm>

namespace ua::loadtest {

namespace {

QJsonArray intArray(const std::vector<int>& v) {
    QJsonArray a;
    for (int x : v) a.append(x);
    return a;
}

bool readIntArray(json::Reader& r, const QString& key, std::vector<int>& out) {
    if (!r.has(key)) return true;
    const QJsonArray a = r.array(key);
    if (!r.ok()) return false;
    std::vector<int> v;
    for (const QJsonValue& x : a) {
        if (!x.isDouble() || x.toDouble() < 1 || x.toDouble() != double(int(x.toDouble()))) {
            r.fail(key, QStringLiteral("not a list of positive integers"));
            return false;
        }
        v.push_back(x.toInt());
    }
    if (v.empty()) {
        r.fail(key, QStringLiteral("empty"));
        return false;
    }
    for (std::size_t i = 1; i < v.size(); ++i)
        if (v[i] <= v[i - 1]) {
            r.fail(key, QStringLiteral("not ascending"));
            return false;
        }
    out = std::move(v);
    return true;
}

QJsonObject timelineToJson(const TimelineSample& s) {
    return QJsonObject{{QStringLiteral("tS"), s.tS},
                       {QStringLiteral("warmup"), s.warmup},
                       {QStringLiteral("sessions"), s.sessions},
                       {QStringLiteral("outstanding"), s.outstanding},
                       {QStringLiteral("requestsPerS"), s.requestsPerS},
                       {QStringLiteral("valuesPerS"), s.valuesPerS},
                       {QStringLiteral("p50Us"), s.p50Us},
                       {QStringLiteral("p90Us"), s.p90Us},
                       {QStringLiteral("p99Us"), s.p99Us},
                       {QStringLiteral("maxUs"), s.maxUs},
                       {QStringLiteral("errors"), double(s.errors)},
                       {QStringLiteral("clientCpuPercent"), s.clientCpuPercent}};
}

TimelineSample timelineFromJson(json::Reader& r) {
    TimelineSample s;
    r.get(QStringLiteral("tS"), s.tS);
    r.get(QStringLiteral("warmup"), s.warmup);
    r.getInt(QStringLiteral("sessions"), s.sessions, 0, 1e9);
    r.getInt(QStringLiteral("outstanding"), s.outstanding, 0, 1e9);
    r.get(QStringLiteral("requestsPerS"), s.requestsPerS, 0);
    r.get(QStringLiteral("valuesPerS"), s.valuesPerS, 0);
    r.get(QStringLiteral("p50Us"), s.p50Us, 0);
    r.get(QStringLiteral("p90Us"), s.p90Us, 0);
    r.get(QStringLiteral("p99Us"), s.p99Us, 0);
    r.get(QStringLiteral("maxUs"), s.maxUs, 0);
    r.getInt(QStringLiteral("errors"), s.errors, 0, 1.8e19);
    r.get(QStringLiteral("clientCpuPercent"), s.clientCpuPercent, 0);
    return s;
}

template <class Map>
QJsonObject mapToJson(const Map& m) {
    QJsonObject o;
    for (const auto& [k, v] : m) o.insert(k, double(v));
    return o;
}

template <class Map>
bool mapFromJson(json::Reader& r, const QJsonObject& o, const QString& key, Map& out, bool nonNegative) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isDouble() || (nonNegative && it.value().toDouble() < 0)) {
            r.fail(key + QLatin1Char('.') + it.key(), QStringLiteral("not a count"));
            return false;
        }
        out[it.key()] = typename Map::mapped_type(it.value().toDouble());
    }
    return true;
}

QString csvField(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))) return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

} // namespace

void StepResult::computeFigures() {
    p50Us = latency.percentile(50);
    p90Us = latency.percentile(90);
    p99Us = latency.percentile(99);
    p999Us = latency.percentile(99.9);
    maxUs = latency.max();
    meanUs = latency.mean();
    requestsPerS = durationS > 0 ? double(answered) / durationS : 0;
}

QJsonObject StepResult::toJson() const {
    QJsonObject o;
    o.insert(QStringLiteral("sessions"), sessions);
    o.insert(QStringLiteral("outstanding"), outstanding);
    o.insert(QStringLiteral("durationS"), durationS);
    if (!error.isEmpty()) o.insert(QStringLiteral("error"), error);
    o.insert(QStringLiteral("sent"), double(sent));
    o.insert(QStringLiteral("answered"), double(answered));
    o.insert(QStringLiteral("errors"), double(errors));
    o.insert(QStringLiteral("timeouts"), double(timeouts));
    o.insert(QStringLiteral("errorsByStatus"), mapToJson(errorsByStatus));
    o.insert(QStringLiteral("requestsPerS"), requestsPerS);
    o.insert(QStringLiteral("valuesPerS"), valuesPerS);
    o.insert(QStringLiteral("latency"), latency.toJson());
    o.insert(QStringLiteral("p50Us"), p50Us);
    o.insert(QStringLiteral("p90Us"), p90Us);
    o.insert(QStringLiteral("p99Us"), p99Us);
    o.insert(QStringLiteral("p999Us"), p999Us);
    o.insert(QStringLiteral("maxUs"), maxUs);
    o.insert(QStringLiteral("meanUs"), meanUs);
    o.insert(QStringLiteral("notificationsPerS"), notificationsPerS);
    o.insert(QStringLiteral("minFidelityPercent"), minFidelityPercent);
    o.insert(QStringLiteral("meanFidelityPercent"), meanFidelityPercent);
    o.insert(QStringLiteral("itemsBelow99"), itemsBelow99);
    if (eventsLost >= 0 || eventsPerS > 0 || eventOverflows > 0) {
        o.insert(QStringLiteral("eventsPerS"), eventsPerS);
        o.insert(QStringLiteral("eventsRaised"), double(eventsRaised));
        o.insert(QStringLiteral("eventsRaisedPerS"), eventsRaisedPerS);
        o.insert(QStringLiteral("eventsExpected"), double(eventsExpected));
        o.insert(QStringLiteral("eventsReceived"), double(eventsReceived));
        o.insert(QStringLiteral("eventsLost"), double(eventsLost));
        o.insert(QStringLiteral("eventOverflows"), double(eventOverflows));
        o.insert(QStringLiteral("eventsOutOfOrder"), double(eventsOutOfOrder));
    }
    o.insert(QStringLiteral("sessionsPerS"), sessionsPerS);
    o.insert(QStringLiteral("serverTooBusy"), double(serverTooBusy));
    o.insert(QStringLiteral("retries"), double(retries));
    o.insert(QStringLiteral("setupS"), setupS);
    o.insert(QStringLiteral("setupSessionsPerS"), setupSessionsPerS);
    o.insert(QStringLiteral("ioThreads"), ioThreads);
    o.insert(QStringLiteral("pacerWakeups"), double(pacerWakeups));
    o.insert(QStringLiteral("clientCpuMsPerOp"), clientCpuMsPerOp);
    o.insert(QStringLiteral("clientCpuPercent"), clientCpuPercent);
    o.insert(QStringLiteral("clientRssKb"), double(clientRssKb));
    o.insert(QStringLiteral("generatorSaturated"), generatorSaturated);
    o.insert(QStringLiteral("serverCpuMsPerOp"), serverCpuMsPerOp);
    o.insert(QStringLiteral("serverCpuPercent"), serverCpuPercent);
    o.insert(QStringLiteral("serverRssKb"), double(serverRssKb));
    o.insert(QStringLiteral("serverRssBeforeKb"), double(serverRssBeforeKb));
    if (std::isfinite(serverKbPerSession())) o.insert(QStringLiteral("serverKbPerSession"), serverKbPerSession());
    if (serverDiagnostics)
        o.insert(QStringLiteral("serverDiagnostics"),
                 QJsonObject{{QStringLiteral("after"), mapToJson(serverDiagnostics->after)},
                             {QStringLiteral("delta"), mapToJson(serverDiagnostics->delta)}});
    o.insert(QStringLiteral("connectionBroken"), connectionBroken);
    if (!beatenBy.isEmpty()) o.insert(QStringLiteral("beatenBy"), beatenBy);
    o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(warnings));
    QJsonArray t;
    for (const TimelineSample& s : timeline) t.append(timelineToJson(s));
    o.insert(QStringLiteral("timeline"), t);
    if (!ranks.empty()) {
        QJsonArray a;
        for (const RankShare& r : ranks) a.append(r.toJson());
        o.insert(QStringLiteral("ranks"), a);
    }
    return o;
}

QJsonObject RankShare::toJson() const {
    QJsonObject o{{QStringLiteral("rank"), rank},
                  {QStringLiteral("host"), host},
                  {QStringLiteral("sessions"), sessions},
                  {QStringLiteral("targetRate"), targetRate},
                  {QStringLiteral("sent"), double(sent)},
                  {QStringLiteral("answered"), double(answered)},
                  {QStringLiteral("errors"), double(errors)},
                  {QStringLiteral("timeouts"), double(timeouts)},
                  {QStringLiteral("requestsPerS"), requestsPerS},
                  {QStringLiteral("p99Us"), p99Us},
                  {QStringLiteral("clientCpuPercent"), clientCpuPercent},
                  {QStringLiteral("clientRssKb"), double(clientRssKb)},
                  {QStringLiteral("latency"), latency.toJson()}};
    if (!error.isEmpty()) o.insert(QStringLiteral("error"), error);
    return o;
}

std::optional<RankShare> RankShare::fromJson(const QJsonObject& o, QString* error) {
    RankShare s;
    json::Reader r(o, QStringLiteral("rank"));
    r.getInt(QStringLiteral("rank"), s.rank, 0, 1e9);
    r.get(QStringLiteral("host"), s.host);
    r.getInt(QStringLiteral("sessions"), s.sessions, 0, 1e9);
    r.get(QStringLiteral("targetRate"), s.targetRate, 0);
    r.get(QStringLiteral("error"), s.error);
    r.getInt(QStringLiteral("sent"), s.sent, 0, 1.8e19);
    r.getInt(QStringLiteral("answered"), s.answered, 0, 1.8e19);
    r.getInt(QStringLiteral("errors"), s.errors, 0, 1.8e19);
    r.getInt(QStringLiteral("timeouts"), s.timeouts, 0, 1.8e19);
    r.get(QStringLiteral("requestsPerS"), s.requestsPerS, 0);
    r.get(QStringLiteral("p99Us"), s.p99Us, 0);
    r.get(QStringLiteral("clientCpuPercent"), s.clientCpuPercent, 0);
    r.getInt(QStringLiteral("clientRssKb"), s.clientRssKb, -1, 1e15);
    if (r.has(QStringLiteral("latency"))) s.latency = LatencyHistogram::fromJson(r.object(QStringLiteral("latency")));
    if (!r.ok()) {
        if (error) *error = r.error();
        return std::nullopt;
    }
    return s;
}

std::optional<StepResult> StepResult::fromJson(const QJsonObject& o, QString* error) {
    StepResult s;
    json::Reader r(o, QStringLiteral("step"));
    r.getInt(QStringLiteral("sessions"), s.sessions, 0, 1e9);
    r.getInt(QStringLiteral("outstanding"), s.outstanding, 0, 1e9);
    r.get(QStringLiteral("durationS"), s.durationS, 0);
    r.get(QStringLiteral("error"), s.error);
    r.getInt(QStringLiteral("sent"), s.sent, 0, 1.8e19);
    r.getInt(QStringLiteral("answered"), s.answered, 0, 1.8e19);
    r.getInt(QStringLiteral("errors"), s.errors, 0, 1.8e19);
    r.getInt(QStringLiteral("timeouts"), s.timeouts, 0, 1.8e19);
    if (r.ok() && s.sent != s.answered + s.errors + s.timeouts)
        r.fail(QStringLiteral("sent"), QStringLiteral("%1 != answered + errors + timeouts (%2)")
                                           .arg(s.sent).arg(s.answered + s.errors + s.timeouts));
    mapFromJson(r, r.object(QStringLiteral("errorsByStatus")), QStringLiteral("errorsByStatus"), s.errorsByStatus, true);
    r.get(QStringLiteral("requestsPerS"), s.requestsPerS, 0);
    r.get(QStringLiteral("valuesPerS"), s.valuesPerS, 0);
    if (r.has(QStringLiteral("latency"))) s.latency = LatencyHistogram::fromJson(r.object(QStringLiteral("latency")));
    r.get(QStringLiteral("p50Us"), s.p50Us, 0);
    r.get(QStringLiteral("p90Us"), s.p90Us, 0);
    r.get(QStringLiteral("p99Us"), s.p99Us, 0);
    r.get(QStringLiteral("p999Us"), s.p999Us, 0);
    r.get(QStringLiteral("maxUs"), s.maxUs, 0);
    r.get(QStringLiteral("meanUs"), s.meanUs, 0);
    r.get(QStringLiteral("notificationsPerS"), s.notificationsPerS, 0);
    r.get(QStringLiteral("minFidelityPercent"), s.minFidelityPercent, -1);
    r.get(QStringLiteral("meanFidelityPercent"), s.meanFidelityPercent, -1);
    r.getInt(QStringLiteral("itemsBelow99"), s.itemsBelow99, 0, 1e9);
    r.get(QStringLiteral("eventsPerS"), s.eventsPerS, 0);
    r.getInt(QStringLiteral("eventsRaised"), s.eventsRaised, 0, 1.8e19);
    r.get(QStringLiteral("eventsRaisedPerS"), s.eventsRaisedPerS, 0);
    r.getInt(QStringLiteral("eventsExpected"), s.eventsExpected, 0, 1.8e19);
    r.getInt(QStringLiteral("eventsReceived"), s.eventsReceived, 0, 1.8e19);
    r.getInt(QStringLiteral("eventsLost"), s.eventsLost, -1, 9.2e18);
    r.getInt(QStringLiteral("eventOverflows"), s.eventOverflows, 0, 1.8e19);
    r.getInt(QStringLiteral("eventsOutOfOrder"), s.eventsOutOfOrder, 0, 1.8e19);
    r.get(QStringLiteral("sessionsPerS"), s.sessionsPerS, 0);
    r.getInt(QStringLiteral("serverTooBusy"), s.serverTooBusy, 0, 1.8e19);
    r.getInt(QStringLiteral("retries"), s.retries, 0, 1.8e19);
    r.get(QStringLiteral("setupS"), s.setupS, 0);
    r.get(QStringLiteral("setupSessionsPerS"), s.setupSessionsPerS, 0);
    r.getInt(QStringLiteral("ioThreads"), s.ioThreads, 0, 256);
    if (r.has(QStringLiteral("pacerWakeups"))) r.getInt(QStringLiteral("pacerWakeups"), s.pacerWakeups, 0, 1.8e19);
    r.get(QStringLiteral("clientCpuMsPerOp"), s.clientCpuMsPerOp, -1);
    r.get(QStringLiteral("clientCpuPercent"), s.clientCpuPercent, 0);
    r.getInt(QStringLiteral("clientRssKb"), s.clientRssKb, -1, 1e15);
    r.get(QStringLiteral("generatorSaturated"), s.generatorSaturated);
    r.get(QStringLiteral("serverCpuMsPerOp"), s.serverCpuMsPerOp, -1);
    r.get(QStringLiteral("serverCpuPercent"), s.serverCpuPercent, -1);
    r.getInt(QStringLiteral("serverRssKb"), s.serverRssKb, -1, 1e15);
    if (r.has(QStringLiteral("serverRssBeforeKb"))) r.getInt(QStringLiteral("serverRssBeforeKb"), s.serverRssBeforeKb, -1, 1e15);
    if (r.has(QStringLiteral("serverDiagnostics"))) {
        const QJsonObject d = r.object(QStringLiteral("serverDiagnostics"));
        ServerDiagnostics diag;
        json::Reader dr(d, QStringLiteral("step.serverDiagnostics"));
        mapFromJson(dr, dr.object(QStringLiteral("after")), QStringLiteral("after"), diag.after, false);
        mapFromJson(dr, dr.object(QStringLiteral("delta")), QStringLiteral("delta"), diag.delta, false);
        r.failWith(dr.error());
        s.serverDiagnostics = std::move(diag);
    }
    r.get(QStringLiteral("connectionBroken"), s.connectionBroken);
    r.get(QStringLiteral("beatenBy"), s.beatenBy);
    for (const QJsonValue& w : r.array(QStringLiteral("warnings"))) {
        if (!w.isString()) {
            r.fail(QStringLiteral("warnings"), QStringLiteral("not a list of strings"));
            break;
        }
        s.warnings << w.toString();
    }
    for (const QJsonValue& t : r.array(QStringLiteral("timeline"))) {
        if (!t.isObject()) {
            r.fail(QStringLiteral("timeline"), QStringLiteral("not a list of objects"));
            break;
        }
        const QJsonObject to = t.toObject();
        json::Reader tr(to, QStringLiteral("step.timeline[%1]").arg(s.timeline.size()));
        s.timeline.push_back(timelineFromJson(tr));
        r.failWith(tr.error());
    }
    for (const QJsonValue& v : r.array(QStringLiteral("ranks"))) {
        QString rankError;
        const auto share = RankShare::fromJson(v.toObject(), &rankError);
        if (!v.isObject() || !share) {
            r.fail(QStringLiteral("ranks[%1]").arg(s.ranks.size()), v.isObject() ? rankError : QStringLiteral("not an object"));
            break;
        }
        s.ranks.push_back(*share);
    }
    if (!r.ok()) {
        if (error) *error = r.error();
        return std::nullopt;
    }
    return s;
}

QJsonObject RunResult::toJson() const {
    QJsonObject o;
    o.insert(QStringLiteral("label"), label);
    o.insert(QStringLiteral("machine"), machine);
    o.insert(QStringLiteral("version"), version);
    o.insert(QStringLiteral("startedUtc"), startedUtc.toUTC().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("parameters"), parameters.toJson());
    o.insert(QStringLiteral("plan"),
             QJsonObject{{QStringLiteral("sessions"), intArray(plan.sessions)},
                         {QStringLiteral("outstanding"), intArray(plan.outstanding)},
                         {QStringLiteral("stopRules"),
                          QJsonObject{{QStringLiteral("maxErrorFraction"), plan.stopRules.maxErrorFraction},
                                      {QStringLiteral("maxP99Factor"), plan.stopRules.maxP99Factor},
                                      {QStringLiteral("minThroughputFactor"), plan.stopRules.minThroughputFactor},
                                      {QStringLiteral("brokenConnection"), plan.stopRules.brokenConnection}}}});
    QJsonArray steps;
    for (const StepResult& s : this->steps) steps.append(s.toJson());
    o.insert(QStringLiteral("steps"), steps);
    return o;
}

std::optional<RunResult> RunResult::fromJson(const QJsonObject& o, QString* error) {
    RunResult run;
    json::Reader r(o, QStringLiteral("run"));
    auto failed = [&]() -> std::optional<RunResult> {
        if (error) *error = r.error();
        return std::nullopt;
    };
    r.get(QStringLiteral("label"), run.label);
    r.get(QStringLiteral("machine"), run.machine);
    r.get(QStringLiteral("version"), run.version);
    QString started;
    r.get(QStringLiteral("startedUtc"), started);
    if (!started.isEmpty()) {
        run.startedUtc = QDateTime::fromString(started, Qt::ISODateWithMs);
        if (!run.startedUtc.isValid()) r.fail(QStringLiteral("startedUtc"), QStringLiteral("not an ISO 8601 time"));
        run.startedUtc = run.startedUtc.toUTC();
    }
    if (!r.ok()) return failed();
    if (!r.has(QStringLiteral("parameters"))) {
        r.fail(QStringLiteral("parameters"), QStringLiteral("missing"));
        return failed();
    }
    QString perr;
    const auto params = LoadParameters::fromJson(r.object(QStringLiteral("parameters")), &perr);
    if (!r.ok()) return failed();
    if (!params) {
        r.failWith(QStringLiteral("run.") + perr);
        return failed();
    }
    run.parameters = *params;
    const QJsonObject plan = r.object(QStringLiteral("plan"));
    json::Reader pr(plan, QStringLiteral("run.plan"));
    readIntArray(pr, QStringLiteral("sessions"), run.plan.sessions);
    readIntArray(pr, QStringLiteral("outstanding"), run.plan.outstanding);
    const QJsonObject rules = pr.object(QStringLiteral("stopRules"));
    json::Reader rr(rules, QStringLiteral("run.plan.stopRules"));
    rr.get(QStringLiteral("maxErrorFraction"), run.plan.stopRules.maxErrorFraction, 0, 1);
    rr.get(QStringLiteral("maxP99Factor"), run.plan.stopRules.maxP99Factor, 0);
    rr.get(QStringLiteral("minThroughputFactor"), run.plan.stopRules.minThroughputFactor, 0);
    rr.get(QStringLiteral("brokenConnection"), run.plan.stopRules.brokenConnection);
    pr.failWith(rr.error());
    r.failWith(pr.error());
    if (!r.ok()) return failed();
    const QJsonArray steps = r.array(QStringLiteral("steps"));
    for (int i = 0; r.ok() && i < steps.size(); ++i) {
        if (!steps.at(i).isObject()) {
            r.fail(QStringLiteral("steps[%1]").arg(i), QStringLiteral("not an object"));
            break;
        }
        QString serr;
        auto step = StepResult::fromJson(steps.at(i).toObject(), &serr);
        if (!step) {
            r.failWith(QStringLiteral("run.steps[%1]: %2").arg(i).arg(serr));
            break;
        }
        run.steps.push_back(std::move(*step));
    }
    if (!r.ok()) return failed();
    return run;
}

double StepResult::serverKbPerSession() const {
    if (serverRssKb < 0 || serverRssBeforeKb < 0 || sessions <= 0) return std::nan("");
    return double(serverRssKb - serverRssBeforeKb) / double(sessions);
}

QString RunResult::toCsv() const {
    QString csv = QStringLiteral(
        "scenario,sessions,outstanding,requestsPerS,valuesPerS,p50Us,p90Us,p99Us,p999Us,maxUs,sent,answered,errors,"
        "timeouts,clientCpuMsPerOp,serverCpuMsPerOp,clientRssKb,serverRssKb,beatenBy,serverKbPerSession\n");
    const QString scenario = scenarioName(parameters.scenario);
    for (const StepResult& s : steps) {
        const QStringList row{scenario,
                              QString::number(s.sessions),
                              QString::number(s.outstanding),
                              QString::number(s.requestsPerS, 'f', 1),
                              QString::number(s.valuesPerS, 'f', 1),
                              QString::number(s.p50Us, 'f', 0),
                              QString::number(s.p90Us, 'f', 0),
                              QString::number(s.p99Us, 'f', 0),
                              QString::number(s.p999Us, 'f', 0),
                              QString::number(s.maxUs, 'f', 0),
                              QString::number(s.sent),
                              QString::number(s.answered),
                              QString::number(s.errors),
                              QString::number(s.timeouts),
                              QString::number(s.clientCpuMsPerOp, 'g', 4),
                              QString::number(s.serverCpuMsPerOp, 'g', 4),
                              QString::number(s.clientRssKb),
                              QString::number(s.serverRssKb),
                              csvField(s.beatenBy),
                              std::isfinite(s.serverKbPerSession()) ? QString::number(s.serverKbPerSession(), 'f', 1) : QString()};
        csv += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

std::optional<std::vector<int>> parseStepList(const QString& text) {
    std::vector<int> out;
    for (const QString& part : text.split(QLatin1Char(','))) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 1 || n > 1'000'000) return std::nullopt;
        out.push_back(n);
    }
    // "5,2,1,2" is 1,2,5 (issue 27 item 13; docs/LoadTesterWindow.md): the order of the steps is the
    // engine's anyway, and a value twice would run the same step twice.
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace ua::loadtest
