// LoadParameters: scenario names and the JSON form of saved runs and --json (see LoadParameters.h).
#include "LoadParameters.h"

#include "JsonFields.h"

#include <QJsonArray>
#include <QThread>
#include <iterator>
#include <algorithm>

namespace ua::loadtest {

namespace {

const char* const kScenarioNames[] = {"read", "write", "browse", "subscribe", "connect", "history-read", "events"};

QString modeName(MessageSecurityMode m) {
    switch (m) {
    case MessageSecurityMode::None: return QStringLiteral("None");
    case MessageSecurityMode::Sign: return QStringLiteral("Sign");
    case MessageSecurityMode::SignAndEncrypt: return QStringLiteral("SignAndEncrypt");
    default: return QStringLiteral("Invalid");
    }
}

std::optional<MessageSecurityMode> modeFromName(const QString& s) {
    if (s == QLatin1String("None")) return MessageSecurityMode::None;
    if (s == QLatin1String("Sign")) return MessageSecurityMode::Sign;
    if (s == QLatin1String("SignAndEncrypt")) return MessageSecurityMode::SignAndEncrypt;
    return std::nullopt;
}

} // namespace

QString scenarioName(Scenario s) { return QString::fromLatin1(kScenarioNames[int(s)]); }

std::optional<Scenario> scenarioFromName(const QString& name) {
    for (int i = 0; i < int(std::size(kScenarioNames)); ++i)
        if (name == QLatin1String(kScenarioNames[i])) return Scenario(i);
    return std::nullopt;
}

QString stepShape(const LoadParameters& p) {
    switch (p.scenario) {
    case Scenario::Read:
    case Scenario::Write: return QStringLiteral("%1-%2").arg(scenarioName(p.scenario)).arg(p.valuesPerRequest);
    case Scenario::Subscribe: return QStringLiteral("subscribe-%1").arg(p.monitoredItems);
    case Scenario::HistoryRead:
        return QStringLiteral("history-read-%1x%2").arg(p.valuesPerRequest).arg(p.historyValuesPerNode);
    case Scenario::Events:
        return p.eventMinSeverity > 1 ? QStringLiteral("events-%1-sev%2").arg(p.eventRate).arg(p.eventMinSeverity)
                                      : QStringLiteral("events-%1").arg(p.eventRate);
    case Scenario::Browse:
    case Scenario::Connect: break;
    }
    return scenarioName(p.scenario);
}

namespace events {

uint64_t expectedCount(uint64_t first, uint64_t last, int minSeverity) {
    if (last < first) return 0;
    const int s = std::clamp(minSeverity, 1, 1000);
    // Each Severity once in every 1000 consecutive Sequences; the rest counted one by one.
    const uint64_t n = last - first + 1;
    uint64_t count = n / 1000 * uint64_t(1001 - s);
    uint64_t k = first + n / 1000 * 1000;
    for (uint64_t i = 0; i < n % 1000; ++i, ++k) count += severityOf(k) >= s ? 1 : 0;
    return count;
}

uint64_t lastExpected(uint64_t first, uint64_t last, int minSeverity) {
    if (last < first) return 0;
    const int s = std::clamp(minSeverity, 1, 1000);
    // Severity 1000 is among any 1000 consecutive Sequences: at most 1000 steps back.
    for (uint64_t k = last;; --k) {
        if (severityOf(k) >= s) return k;
        if (k == first || last - k >= 1000) return 0;
    }
}

} // namespace events

int LoadParameters::resolvedIoThreads() const {
    if (ioThreads > 0) return ioThreads;
    const int wanted = (std::max(1, sessions) + kSessionsPerIoThread - 1) / kSessionsPerIoThread;
    return std::clamp(wanted, 1, std::max(1, QThread::idealThreadCount()));
}

QJsonObject LoadParameters::toJson() const {
    QJsonObject o;
    o.insert(QStringLiteral("endpointUrl"), endpointUrl);
    o.insert(QStringLiteral("securityPolicyUri"), securityPolicyUri);
    o.insert(QStringLiteral("securityMode"), modeName(securityMode));
    o.insert(QStringLiteral("userName"), userName);  // the password is never written
    o.insert(QStringLiteral("pkiDir"), pkiDir);
    o.insert(QStringLiteral("trustServer"), trustServer);
    o.insert(QStringLiteral("reverseListenPort"), int(reverseListenPort));
    o.insert(QStringLiteral("scenario"), scenarioName(scenario));
    o.insert(QStringLiteral("valuesPerRequest"), valuesPerRequest);
    o.insert(QStringLiteral("sessions"), sessions);
    o.insert(QStringLiteral("outstanding"), outstanding);
    o.insert(QStringLiteral("durationS"), durationS);
    o.insert(QStringLiteral("warmupS"), warmupS);
    o.insert(QStringLiteral("targetRate"), targetRate);
    o.insert(QStringLiteral("requestTimeoutMs"), double(requestTimeoutMs));
    o.insert(QStringLiteral("ioThreads"), ioThreads);
    o.insert(QStringLiteral("connectWindow"), connectWindow);
    o.insert(QStringLiteral("variableNamespaceUri"), variableNamespaceUri);
    o.insert(QStringLiteral("firstVariableId"), double(firstVariableId));
    o.insert(QStringLiteral("variableCount"), variableCount);
    o.insert(QStringLiteral("browseNode"), browseNode);
    o.insert(QStringLiteral("counterNode"), counterNode);
    o.insert(QStringLiteral("monitoredItems"), monitoredItems);
    o.insert(QStringLiteral("samplingIntervalMs"), samplingIntervalMs);
    o.insert(QStringLiteral("publishingIntervalMs"), publishingIntervalMs);
    o.insert(QStringLiteral("queueSize"), double(queueSize));
    o.insert(QStringLiteral("publishRequests"), double(publishRequests));
    o.insert(QStringLiteral("maxKeepAliveCount"), double(maxKeepAliveCount));
    o.insert(QStringLiteral("lifetimeCount"), double(lifetimeCount));
    o.insert(QStringLiteral("historyNodes"), QJsonArray::fromStringList(historyNodes));
    o.insert(QStringLiteral("historyValuesPerNode"), historyValuesPerNode);
    o.insert(QStringLiteral("historySpanS"), historySpanS);
    o.insert(QStringLiteral("eventRate"), double(eventRate));
    o.insert(QStringLiteral("eventMinSeverity"), eventMinSeverity);
    o.insert(QStringLiteral("eventQueueSize"), double(eventQueueSize));
    o.insert(QStringLiteral("serverPid"), double(serverPid));
    o.insert(QStringLiteral("readServerDiagnostics"), readServerDiagnostics);
    return o;
}

std::optional<LoadParameters> LoadParameters::fromJson(const QJsonObject& o, QString* error) {
    LoadParameters p;
    json::Reader r(o, QStringLiteral("parameters"));
    r.get(QStringLiteral("endpointUrl"), p.endpointUrl);
    r.get(QStringLiteral("securityPolicyUri"), p.securityPolicyUri);
    QString mode = modeName(p.securityMode);
    r.get(QStringLiteral("securityMode"), mode);
    if (const auto m = modeFromName(mode)) p.securityMode = *m;
    else r.fail(QStringLiteral("securityMode"), QStringLiteral("\"%1\" is not None, Sign or SignAndEncrypt").arg(mode));
    r.get(QStringLiteral("userName"), p.userName);
    r.get(QStringLiteral("password"), p.password);  // accepted on input (a command line's file), never written
    r.get(QStringLiteral("pkiDir"), p.pkiDir);
    r.get(QStringLiteral("trustServer"), p.trustServer);
    QString scenario = scenarioName(p.scenario);
    r.get(QStringLiteral("scenario"), scenario);
    if (const auto s = scenarioFromName(scenario)) p.scenario = *s;
    else r.fail(QStringLiteral("scenario"), QStringLiteral("\"%1\" is not read, write, browse, subscribe, connect, history-read or events").arg(scenario));
    r.getInt(QStringLiteral("valuesPerRequest"), p.valuesPerRequest, 1, 10000);
    r.getInt(QStringLiteral("sessions"), p.sessions, 1, 1e6);
    r.getInt(QStringLiteral("outstanding"), p.outstanding, 1, 1e6);
    r.get(QStringLiteral("durationS"), p.durationS, 0, 1e7);
    r.get(QStringLiteral("warmupS"), p.warmupS, 0, 1e7);
    r.get(QStringLiteral("targetRate"), p.targetRate, 0, 1e9);
    r.getInt(QStringLiteral("requestTimeoutMs"), p.requestTimeoutMs, 1, 4294967295.0);
    r.getInt(QStringLiteral("reverseListenPort"), p.reverseListenPort, 0, 65535);
    r.getInt(QStringLiteral("ioThreads"), p.ioThreads, 0, 256);
    r.getInt(QStringLiteral("connectWindow"), p.connectWindow, 1, 1e6);
    r.get(QStringLiteral("variableNamespaceUri"), p.variableNamespaceUri);
    r.getInt(QStringLiteral("firstVariableId"), p.firstVariableId, 0, 4294967295.0);
    r.getInt(QStringLiteral("variableCount"), p.variableCount, 1, 1e7);
    r.get(QStringLiteral("browseNode"), p.browseNode);
    r.get(QStringLiteral("counterNode"), p.counterNode);
    r.getInt(QStringLiteral("monitoredItems"), p.monitoredItems, 1, 1e7);
    r.get(QStringLiteral("samplingIntervalMs"), p.samplingIntervalMs, 0, 1e9);
    r.get(QStringLiteral("publishingIntervalMs"), p.publishingIntervalMs, 0, 1e9);
    r.getInt(QStringLiteral("queueSize"), p.queueSize, 0, 4294967295.0);
    r.getInt(QStringLiteral("publishRequests"), p.publishRequests, 0, 1000);
    r.getInt(QStringLiteral("maxKeepAliveCount"), p.maxKeepAliveCount, 1, 4294967295.0);
    r.getInt(QStringLiteral("lifetimeCount"), p.lifetimeCount, 1, 4294967295.0);
    for (const QJsonValue& node : r.array(QStringLiteral("historyNodes"))) {
        if (node.isString()) p.historyNodes.push_back(node.toString());
        else r.fail(QStringLiteral("historyNodes"), QStringLiteral("not an array of NodeId strings"));
    }
    r.getInt(QStringLiteral("historyValuesPerNode"), p.historyValuesPerNode, 1, 100000);
    r.get(QStringLiteral("historySpanS"), p.historySpanS, 0.001, 1e10);
    r.getInt(QStringLiteral("eventRate"), p.eventRate, 0, 1e6);
    r.getInt(QStringLiteral("eventMinSeverity"), p.eventMinSeverity, 1, 1000);
    r.getInt(QStringLiteral("eventQueueSize"), p.eventQueueSize, 1, 4294967295.0);
    r.getInt(QStringLiteral("serverPid"), p.serverPid, 0, 4294967295.0);
    r.get(QStringLiteral("readServerDiagnostics"), p.readServerDiagnostics);
    if (!r.ok()) {
        if (error) *error = r.error();
        return std::nullopt;
    }
    return p;
}

} // namespace ua::loadtest
