// LoadParameters: scenario names and the JSON form of saved runs and --json (see LoadParameters.h).
#include "LoadParameters.h"

#include "JsonFields.h"

#include <QThread>
#include <algorithm>

namespace ua::loadtest {

namespace {

const char* const kScenarioNames[] = {"read", "write", "browse", "subscribe", "connect"};

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
    for (int i = 0; i < 5; ++i)
        if (name == QLatin1String(kScenarioNames[i])) return Scenario(i);
    return std::nullopt;
}

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
    else r.fail(QStringLiteral("scenario"), QStringLiteral("\"%1\" is not read, write, browse, subscribe or connect").arg(scenario));
    r.getInt(QStringLiteral("valuesPerRequest"), p.valuesPerRequest, 1, 10000);
    r.getInt(QStringLiteral("sessions"), p.sessions, 1, 1e6);
    r.getInt(QStringLiteral("outstanding"), p.outstanding, 1, 1e6);
    r.get(QStringLiteral("durationS"), p.durationS, 0, 1e7);
    r.get(QStringLiteral("warmupS"), p.warmupS, 0, 1e7);
    r.get(QStringLiteral("targetRate"), p.targetRate, 0, 1e9);
    r.getInt(QStringLiteral("requestTimeoutMs"), p.requestTimeoutMs, 1, 4294967295.0);
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
    r.getInt(QStringLiteral("serverPid"), p.serverPid, 0, 4294967295.0);
    r.get(QStringLiteral("readServerDiagnostics"), p.readServerDiagnostics);
    if (!r.ok()) {
        if (error) *error = r.error();
        return std::nullopt;
    }
    return p;
}

} // namespace ua::loadtest
