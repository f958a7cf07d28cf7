#include "ServerSettings.h"

#include "SettingLimits.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>
#include <cmath>

namespace ua::app {

namespace {

struct PolicyName {
    SecurityPolicyId id;
    const char* name;
};
constexpr PolicyName kPolicies[] = {
    {SecurityPolicyId::None, "None"},
    {SecurityPolicyId::Basic128Rsa15, "Basic128Rsa15"},
    {SecurityPolicyId::Basic256, "Basic256"},
    {SecurityPolicyId::Basic256Sha256, "Basic256Sha256"},
    {SecurityPolicyId::Aes128Sha256RsaOaep, "Aes128_Sha256_RsaOaep"},
    {SecurityPolicyId::Aes256Sha256RsaPss, "Aes256_Sha256_RsaPss"},
    {SecurityPolicyId::EccNistP256, "ECC_nistP256"},
    {SecurityPolicyId::EccNistP384, "ECC_nistP384"},
};

// Reads json[key] into *out when present; false (and *error) when it has the wrong type or is out
// of [lo, hi].
template <typename T>
bool readNumber(const QJsonObject& json, const char* key, T* out, double lo, double hi, const QString& where, QString* error) {
    const QJsonValue v = json.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || std::isnan(d) || d < lo || d > hi || (std::is_integral_v<T> && d != std::floor(d))) {
        if (error) *error = QStringLiteral("%1.%2: expected a number in [%3, %4]").arg(where, QLatin1String(key)).arg(lo).arg(hi);
        return false;
    }
    *out = T(d);
    return true;
}

bool readBool(const QJsonObject& json, const char* key, bool* out, const QString& where, QString* error) {
    const QJsonValue v = json.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    if (!v.isBool()) {
        if (error) *error = QStringLiteral("%1.%2: expected true or false").arg(where, QLatin1String(key));
        return false;
    }
    *out = v.toBool();
    return true;
}

bool readString(const QJsonObject& json, const char* key, QString* out, const QString& where, QString* error) {
    const QJsonValue v = json.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    if (!v.isString()) {
        if (error) *error = QStringLiteral("%1.%2: expected a string").arg(where, QLatin1String(key));
        return false;
    }
    *out = v.toString();
    return true;
}

bool readObject(const QJsonObject& json, const char* key, QJsonObject* out, QString* error) {
    const QJsonValue v = json.value(QLatin1String(key));
    *out = {};
    if (v.isUndefined()) return true;
    if (!v.isObject()) {
        if (error) *error = QStringLiteral("%1: expected an object").arg(QLatin1String(key));
        return false;
    }
    *out = v.toObject();
    return true;
}

QJsonObject limitsJson(const ServerSettings& s, const std::vector<SettingLimit>& limits) {
    QJsonObject o;
    for (const SettingLimit& l : limits) o.insert(QLatin1String(l.key), l.get(s));
    return o;
}

bool readLimits(const QJsonObject& o, const std::vector<SettingLimit>& limits, ServerSettings& s, const QString& where,
                QString* error) {
    for (const SettingLimit& l : limits) {
        if (l.isCount()) {  // a whole number
            int64_t n = int64_t(l.get(s));
            if (!readNumber(o, l.key, &n, l.lo, l.hi, where, error)) return false;
            l.set(s, double(n));
        } else {
            double v = l.get(s);
            if (!readNumber(o, l.key, &v, l.lo, l.hi, where, error)) return false;
            l.set(s, v);
        }
    }
    return true;
}

} // namespace

QString policyName(SecurityPolicyId id) {
    for (const auto& p : kPolicies)
        if (p.id == id) return QLatin1String(p.name);
    return {};
}

std::optional<SecurityPolicyId> policyFromName(const QString& name) {
    for (const auto& p : kPolicies)
        if (name == QLatin1String(p.name)) return p.id;
    return std::nullopt;
}

QString modeName(MessageSecurityMode mode) {
    switch (mode) {
    case MessageSecurityMode::None: return QStringLiteral("None");
    case MessageSecurityMode::Sign: return QStringLiteral("Sign");
    case MessageSecurityMode::SignAndEncrypt: return QStringLiteral("SignAndEncrypt");
    case MessageSecurityMode::Invalid: break;
    }
    return {};
}

std::optional<MessageSecurityMode> modeFromName(const QString& name) {
    for (auto m : {MessageSecurityMode::None, MessageSecurityMode::Sign, MessageSecurityMode::SignAndEncrypt})
        if (name == modeName(m)) return m;
    return std::nullopt;
}

UserDatabase ServerSettings::defaultUsers() {
    UserDatabase db;
    db.anonymousRoles |= roleBit(Role::Operator);
    return db;
}

QString ServerSettings::defaultPath() {
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/ua-server.json");
}

QString ServerSettings::defaultPkiDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/pki");
}

void ServerSettings::applySecureProfile() {
    std::erase_if(endpoints, [](const EndpointSecurity& e) { return e.policy == SecurityPolicyId::None; });
    allowAnonymous = false;
}

QJsonObject ServerSettings::toJson() const {
    QJsonArray eps;
    for (const auto& e : endpoints)
        eps.append(QJsonObject{{"policy", policyName(e.policy)}, {"mode", modeName(e.mode)}});
    return QJsonObject{
        {"version", 1},
        {"endpoint", QJsonObject{{"host", hostName}, {"port", int(port)}, {"ioThreads", ioThreads}}},
        {"security", QJsonObject{{"pkiDir", pkiDir},
                                 {"allowDeprecatedPolicies", allowDeprecatedPolicies},
                                 {"trustAllClients", trustAllClients},
                                 {"endpoints", eps},
                                 {"userTokens", QJsonObject{{"anonymous", allowAnonymous},
                                                            {"userName", allowUserName},
                                                            {"certificate", allowX509}}}}},
        {"limits", limitsJson(*this, sessionLimits())},
        {"subscriptions", limitsJson(*this, subscriptionLimits())},
        {"admission", QJsonObject{{"maxHandshakes", admission.maxHandshakes},
                                  {"handshakeTimeoutMs", double(admission.handshakeTimeoutMs)},
                                  {"helloTimeoutMs", double(admission.helloTimeoutMs)},
                                  {"busyDelayMs", double(admission.busyDelayMs)},
                                  {"maxPendingSessions", admission.maxPendingSessions},
                                  {"activationTimeoutMs", double(admission.activationTimeoutMs)}}},
        {"backpressure", QJsonObject{{"maxQueuedResponses", backpressure.maxQueuedResponses},
                                     {"resumeQueuedResponses", backpressure.resumeQueuedResponses},
                                     {"chunkBudgetBytes", double(backpressure.chunkBudgetBytes)},
                                     {"chunkTimeoutMs", double(backpressure.chunkTimeoutMs)}}},
        {"demo", QJsonObject{{"namespace", demoNamespace},
                             {"updateRateMs", double(demoUpdateRateMs)},
                             {"eventsMs", double(demoEventsMs)}}},
        {"shutdownDelaySeconds", double(shutdownDelaySeconds)},
        {"nodeSets", QJsonArray::fromStringList(nodeSetFiles)},
        {"history", history.toJson()},
        {"alarms", alarms.toJson()},
        {"reverseConnect", QJsonObject{{"clientUrls", QJsonArray::fromStringList(reverseConnect.clientUrls)},
                                       {"helloTimeoutMs", double(reverseConnect.helloTimeoutMs)},
                                       {"retryMinMs", double(reverseConnect.retryMinMs)},
                                       {"retryMaxMs", double(reverseConnect.retryMaxMs)}}},
        {"users", users.toJson()},
    };
}

bool validReverseConnectUrl(const QString& text, QString* why) {
    const QUrl url(text.trimmed());
    if (url.isValid() && url.scheme() == QLatin1String("opc.tcp") && !url.host().isEmpty() && url.port(4840) > 0) return true;
    if (why) *why = QStringLiteral("\"%1\" is not an opc.tcp://host:port URL").arg(text);
    return false;
}

std::optional<ServerSettings> ServerSettings::fromJson(const QJsonObject& json, QString* error) {
    ServerSettings s;
    QJsonObject o;
    int version = 1;
    if (!readNumber(json, "version", &version, 1, 1, QStringLiteral("(top)"), error)) return std::nullopt;

    if (!readObject(json, "endpoint", &o, error)) return std::nullopt;
    const QString ep = QStringLiteral("endpoint");
    if (!readString(o, "host", &s.hostName, ep, error) || !readNumber(o, "port", &s.port, 0, 65535, ep, error) ||
        !readNumber(o, "ioThreads", &s.ioThreads, 0, 256, ep, error))
        return std::nullopt;

    if (!readObject(json, "security", &o, error)) return std::nullopt;
    const QString sec = QStringLiteral("security");
    if (!readString(o, "pkiDir", &s.pkiDir, sec, error) ||
        !readBool(o, "allowDeprecatedPolicies", &s.allowDeprecatedPolicies, sec, error) ||
        !readBool(o, "trustAllClients", &s.trustAllClients, sec, error))
        return std::nullopt;
    if (o.contains(QLatin1String("endpoints"))) {
        const QJsonValue v = o.value(QLatin1String("endpoints"));
        if (!v.isArray()) {
            if (error) *error = QStringLiteral("security.endpoints: expected an array");
            return std::nullopt;
        }
        s.endpoints.clear();
        for (const QJsonValue& e : v.toArray()) {
            const auto policy = policyFromName(e.toObject().value(QLatin1String("policy")).toString());
            const auto mode = modeFromName(e.toObject().value(QLatin1String("mode")).toString());
            if (!policy || !mode || ((*policy == SecurityPolicyId::None) != (*mode == MessageSecurityMode::None))) {
                if (error)
                    *error = QStringLiteral("security.endpoints: unknown policy or mode, or None mixed with another: %1")
                                 .arg(QString::fromUtf8(QJsonDocument(e.toObject()).toJson(QJsonDocument::Compact)));
                return std::nullopt;
            }
            s.endpoints.push_back({*policy, *mode});
        }
        if (s.endpoints.empty()) {  // a server no client can reach
            if (error) *error = QStringLiteral("security.endpoints: at least one endpoint (policy and mode) is needed");
            return std::nullopt;
        }
    }
    QJsonObject tokens;
    if (!readObject(o, "userTokens", &tokens, error)) return std::nullopt;
    const QString tok = QStringLiteral("security.userTokens");
    if (!readBool(tokens, "anonymous", &s.allowAnonymous, tok, error) ||
        !readBool(tokens, "userName", &s.allowUserName, tok, error) ||
        !readBool(tokens, "certificate", &s.allowX509, tok, error))
        return std::nullopt;
    if (!s.allowAnonymous && !s.allowUserName && !s.allowX509) {  // no Session could be activated
        if (error) *error = QStringLiteral("security.userTokens: at least one of anonymous, userName, certificate must be true");
        return std::nullopt;
    }

    if (!readObject(json, "limits", &o, error)) return std::nullopt;
    const QString lim = QStringLiteral("limits");
    // The older file kept the two server-wide counts here; "subscriptions" below wins.
    if (!readLimits(o, sessionLimits(), s, lim, error) ||
        !readNumber(o, "maxSubscriptions", &s.subscriptions.maxSubscriptions, 0, 10'000'000, lim, error) ||
        !readNumber(o, "maxMonitoredItems", &s.subscriptions.maxMonitoredItems, 0, 100'000'000, lim, error))
        return std::nullopt;
    if (s.minSessionTimeoutMs > s.maxSessionTimeoutMs) {
        if (error) *error = QStringLiteral("limits: minSessionTimeoutMs is larger than maxSessionTimeoutMs");
        return std::nullopt;
    }
    if (!readObject(json, "subscriptions", &o, error) ||
        !readLimits(o, subscriptionLimits(), s, QStringLiteral("subscriptions"), error))
        return std::nullopt;
    {
        const SubscriptionConfig& c = s.subscriptions;
        const char* wrong = c.minPublishingIntervalMs > c.maxPublishingIntervalMs ? "minPublishingIntervalMs is larger than maxPublishingIntervalMs"
                            : c.minSamplingIntervalMs > c.maxSamplingIntervalMs  ? "minSamplingIntervalMs is larger than maxSamplingIntervalMs"
                                                                                 : nullptr;
        if (wrong) {
            if (error) *error = QStringLiteral("subscriptions: %1").arg(QLatin1String(wrong));
            return std::nullopt;
        }
    }

    if (!readObject(json, "admission", &o, error)) return std::nullopt;
    const QString adm = QStringLiteral("admission");
    if (!readNumber(o, "maxHandshakes", &s.admission.maxHandshakes, -1, 1'000'000, adm, error) ||
        !readNumber(o, "handshakeTimeoutMs", &s.admission.handshakeTimeoutMs, 0, 3'600'000, adm, error) ||
        !readNumber(o, "helloTimeoutMs", &s.admission.helloTimeoutMs, 1, 120'000, adm, error) ||
        !readNumber(o, "busyDelayMs", &s.admission.busyDelayMs, 0, 60'000, adm, error) ||
        !readNumber(o, "maxPendingSessions", &s.admission.maxPendingSessions, -1, 1'000'000, adm, error) ||
        !readNumber(o, "activationTimeoutMs", &s.admission.activationTimeoutMs, 0, 3'600'000, adm, error))
        return std::nullopt;
    if (!readObject(json, "backpressure", &o, error)) return std::nullopt;
    const QString bp = QStringLiteral("backpressure");
    if (!readNumber(o, "maxQueuedResponses", &s.backpressure.maxQueuedResponses, 0, 1'000'000, bp, error) ||
        !readNumber(o, "resumeQueuedResponses", &s.backpressure.resumeQueuedResponses, 0, 1'000'000, bp, error) ||
        !readNumber(o, "chunkBudgetBytes", &s.backpressure.chunkBudgetBytes, 0, 1e15, bp, error) ||
        !readNumber(o, "chunkTimeoutMs", &s.backpressure.chunkTimeoutMs, 0, 3'600'000, bp, error))
        return std::nullopt;
    if (s.backpressure.maxQueuedResponses > 0 && s.backpressure.resumeQueuedResponses >= s.backpressure.maxQueuedResponses) {
        if (error) *error = QStringLiteral("backpressure: resumeQueuedResponses must be below maxQueuedResponses");
        return std::nullopt;
    }

    if (!readObject(json, "demo", &o, error)) return std::nullopt;
    const QString demo = QStringLiteral("demo");
    if (!readBool(o, "namespace", &s.demoNamespace, demo, error) ||
        !readNumber(o, "updateRateMs", &s.demoUpdateRateMs, 1, 3'600'000, demo, error) ||
        !readNumber(o, "eventsMs", &s.demoEventsMs, 0, 3'600'000, demo, error))
        return std::nullopt;

    if (!readNumber(json, "shutdownDelaySeconds", &s.shutdownDelaySeconds, 0, 3600, QStringLiteral("(top)"), error))
        return std::nullopt;

    if (const QJsonValue v = json.value(QLatin1String("nodeSets")); !v.isUndefined()) {
        const QJsonArray a = v.toArray();
        const bool strings = v.isArray() && std::all_of(a.begin(), a.end(), [](const QJsonValue& x) { return x.isString(); });
        if (!strings) {
            if (error) *error = QStringLiteral("nodeSets: expected an array of file paths");
            return std::nullopt;
        }
        for (const QJsonValue& x : a) s.nodeSetFiles << x.toString();
    }

    if (!readObject(json, "history", &o, error) || !HistorySettings::fromJson(o, &s.history, error)) return std::nullopt;
    o = {};
    if (!readObject(json, "alarms", &o, error) || !AlarmSettings::fromJson(o, &s.alarms, error)) return std::nullopt;
    o = {};
    if (!readObject(json, "reverseConnect", &o, error)) return std::nullopt;
    {
        const QString where = QStringLiteral("reverseConnect");
        if (const QJsonValue v = o.value(QLatin1String("clientUrls")); !v.isUndefined()) {
            const QJsonArray a = v.toArray();
            const bool strings = v.isArray() && std::all_of(a.begin(), a.end(), [](const QJsonValue& x) { return x.isString(); });
            if (!strings) {
                if (error) *error = QStringLiteral("reverseConnect.clientUrls: expected an array of opc.tcp://host:port URLs");
                return std::nullopt;
            }
            for (const QJsonValue& x : a) {
                QString why;
                if (!validReverseConnectUrl(x.toString(), &why)) {
                    if (error) *error = QStringLiteral("reverseConnect.clientUrls: %1").arg(why);
                    return std::nullopt;
                }
                s.reverseConnect.clientUrls << x.toString().trimmed();
            }
        }
        if (!readNumber(o, "helloTimeoutMs", &s.reverseConnect.helloTimeoutMs, 1, 120'000, where, error) ||
            !readNumber(o, "retryMinMs", &s.reverseConnect.retryMinMs, 1, 3'600'000, where, error) ||
            !readNumber(o, "retryMaxMs", &s.reverseConnect.retryMaxMs, 1, 3'600'000, where, error))
            return std::nullopt;
        if (s.reverseConnect.retryMaxMs < s.reverseConnect.retryMinMs) {
            if (error) *error = QStringLiteral("reverseConnect: retryMaxMs is below retryMinMs");
            return std::nullopt;
        }
    }

    if (json.contains(QLatin1String("users"))) {
        QString usersError;
        auto db = UserDatabase::fromJson(json.value(QLatin1String("users")).toObject(), &usersError);
        if (!db || !json.value(QLatin1String("users")).isObject()) {
            if (error) *error = QStringLiteral("users: ") + usersError;
            return std::nullopt;
        }
        s.users = std::move(*db);
    }
    return s;
}

bool ServerSettings::load(const QString& path, QString* error, bool* existed) {
    QFile f(path);
    if (existed) *existed = f.exists();
    if (!f.exists()) return true;
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = path + QStringLiteral(": ") + f.errorString();
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = QStringLiteral("%1: not a JSON object (%2 at offset %3)")
                         .arg(path, parseError.errorString())
                         .arg(parseError.offset);
        return false;
    }
    QString why;
    auto s = fromJson(doc.object(), &why);
    if (!s) {
        if (error) *error = path + QStringLiteral(": ") + why;
        return false;
    }
    *this = std::move(*s);
    return true;
}

bool ServerSettings::save(const QString& path, QString* error) const {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) ||
        !f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        if (error) *error = path + QStringLiteral(": ") + f.errorString();
        return false;
    }
    f.write(QJsonDocument(toJson()).toJson(QJsonDocument::Indented));
    if (!f.commit()) {
        if (error) *error = path + QStringLiteral(": ") + f.errorString();
        return false;
    }
    return true;
}

ServerConfig ServerSettings::toServerConfig() const {
    ServerConfig c;
    c.hostName = hostName;
    c.port = port;
    c.ioThreads = ioThreads;
    c.security.pkiDir = pkiDir.isEmpty() ? defaultPkiDir() : pkiDir;
    c.security.endpoints = endpoints;
    c.security.allowDeprecatedPolicies = allowDeprecatedPolicies;
    c.security.allowAnonymous = allowAnonymous;
    c.security.allowUserName = allowUserName;
    c.security.allowX509 = allowX509;
    c.security.trustAllClients = trustAllClients;
    c.security.users = users;
    c.maxSessions = maxSessions;
    c.maxChannels = maxChannels;
    c.admission = admission;
    c.backpressure = backpressure;
    c.maxSessionDiagnosticsObjects = maxSessionDiagnosticsObjects;
    c.minSessionTimeoutMs = minSessionTimeoutMs;
    c.maxSessionTimeoutMs = maxSessionTimeoutMs;
    c.subscriptions = subscriptions;
    c.demoNamespace = demoNamespace;
    c.demoUpdateRateMs = demoUpdateRateMs;
    c.demoEventsMs = demoEventsMs;
    c.nodeSetFiles = nodeSetFiles;
    c.reverseConnect = reverseConnect;
    history.apply(c);
    alarms.apply(c);
    return c;
}

bool operator==(const ServerSettings& a, const ServerSettings& b) {
    return a.toJson() == b.toJson();
}

} // namespace ua::app
