#include "cli/CliOptions.h"

#include "ArgumentSplitter.h"

#include "ua/Version.h"
#include "ua/types/NodeId.h"
#include "ua/secure/SecurityPolicy.h"

#include <QProcessEnvironment>
#include <QUrl>
#include <cmath>

namespace ua::loadtest {

namespace {

// NodeId text as the engine takes it: "i=2253", "ns=1;s=Counter", or with a namespace URI
// "nsu=urn:x;s=Counter" (its index is looked up on the server).
bool isNodeIdText(const QString& text) {
    const QString t = text.trimmed();
    if (t.startsWith(QLatin1String("nsu="))) {
        const qsizetype semi = t.indexOf(QLatin1Char(';'));
        return semi > 4 && NodeId::parse(t.mid(semi + 1).toStdString()).has_value();
    }
    return NodeId::parse(t.toStdString()).has_value();
}

enum class Value { None, Required, Optional };  // Optional: only as --name=value

// An option, whether it takes a value, and the commands it applies to.
struct OptionSpec {
    const char* name;
    Value value;
    QStringList commands;
};

const QStringList kLoad = {QStringLiteral("run"), QStringLiteral("sweep"), QStringLiteral("ab")};
const QStringList kRunSweep = {QStringLiteral("run"), QStringLiteral("sweep")};
const QStringList kSessionsShape = {QStringLiteral("run"), QStringLiteral("sweep"), QStringLiteral("ab")};
const QStringList kSweep = {QStringLiteral("sweep")};
const QStringList kAb = {QStringLiteral("ab")};
// Options that also apply to soak (its mix fixes the scenarios and their shapes: SoakRunner.h).
const QStringList kLoadSoak = {QStringLiteral("run"), QStringLiteral("sweep"), QStringLiteral("ab"), QStringLiteral("soak")};
const QStringList kTargetSoak = {QStringLiteral("run"), QStringLiteral("sweep"), QStringLiteral("soak")};
const QStringList kSoak = {QStringLiteral("soak")};

const QList<OptionSpec>& optionSpecs() {
    static const QList<OptionSpec> specs = {
        {"help", Value::None, {}},
        {"version", Value::None, {}},
        {"quiet", Value::None, kLoadSoak},
        {"json", Value::Required, kLoad},
        // the load
        {"scenario", Value::Required, kLoad},
        {"values", Value::Required, kLoad},
        {"sessions", Value::Required, kSessionsShape},
        {"outstanding", Value::Required, kSessionsShape},
        {"duration", Value::Required, kLoadSoak},
        {"warmup", Value::Required, kLoad},
        {"rate", Value::Required, kLoadSoak},
        {"timeout", Value::Required, kLoadSoak},
        {"io-threads", Value::Required, kLoad},
        {"connect-window", Value::Required, kLoad},
        {"reverse-listen", Value::Required, kLoad},
        // the connection
        {"security", Value::Required, kLoadSoak},
        {"mode", Value::Required, kLoadSoak},
        {"user", Value::Required, kLoadSoak},
        {"password", Value::Required, kLoadSoak},
        {"pki", Value::Required, kLoadSoak},
        {"no-trust", Value::None, kLoadSoak},
        // the nodes
        {"namespace-uri", Value::Required, kLoadSoak},
        {"first-id", Value::Required, kLoadSoak},
        {"variables", Value::Required, kLoadSoak},
        {"browse-node", Value::Required, kLoadSoak},
        {"counter-node", Value::Required, kLoadSoak},
        {"history-node", Value::Required, kLoad},
        {"history-values", Value::Required, kLoad},
        {"history-span", Value::Required, kLoad},
        {"event-rate", Value::Required, kLoad},
        {"event-min-severity", Value::Required, kLoad},
        {"event-queue-size", Value::Required, kLoad},
        {"items", Value::Required, kLoad},
        {"sampling", Value::Required, kLoad},
        {"publishing", Value::Required, kLoad},
        {"queue-size", Value::Required, kLoad},
        {"publish-requests", Value::Required, kLoad},
        {"keepalive-count", Value::Required, kLoad},
        {"lifetime-count", Value::Required, kLoad},
        {"no-diagnostics", Value::None, kLoadSoak},
        // the target
        {"spawn-server", Value::Optional, kTargetSoak},
        {"server-pid", Value::Required, kTargetSoak},
        {"label", Value::Required, kRunSweep},
        // sweep
        {"max-errors", Value::Required, kSweep},
        {"max-p99-factor", Value::Required, kSweep},
        {"min-throughput-factor", Value::Required, kSweep},
        {"no-stop", Value::None, kSweep},
        // ab
        {"a", Value::Required, kAb},
        {"b", Value::Required, kAb},
        {"rounds", Value::Required, kAb},
        {"a-pid", Value::Required, kAb},
        {"b-pid", Value::Required, kAb},
        {"a-label", Value::Required, kAb},
        {"b-label", Value::Required, kAb},
        {"a-counter-node", Value::Required, kAb},
        {"b-counter-node", Value::Required, kAb},
        // soak
        {"report-every", Value::Required, kSoak},
    };
    return specs;
}

const OptionSpec* findSpec(const QString& name) {
    for (const OptionSpec& s : optionSpecs())
        if (name == QLatin1String(s.name)) return &s;
    return nullptr;
}

std::optional<double> number(const QString& v, double min, bool minIncluded) {
    bool ok = false;
    const double d = v.toDouble(&ok);
    if (!ok || !std::isfinite(d) || d < min || (!minIncluded && d == min)) return std::nullopt;
    return d;
}

std::optional<int> integer(const QString& v, int min, int max) {
    bool ok = false;
    const int n = v.toInt(&ok);
    if (!ok || n < min || n > max) return std::nullopt;
    return n;
}

bool isEndpointUrl(const QString& text) {
    const QUrl u(text);
    return u.isValid() && u.scheme() == QLatin1String("opc.tcp") && !u.host().isEmpty();
}

} // namespace

const QStringList& cliCommands() {
    static const QStringList commands = {QStringLiteral("run"), QStringLiteral("sweep"), QStringLiteral("ab"),
                                         QStringLiteral("compare"), QStringLiteral("soak")};
    return commands;
}

QString cliVersion() {
    return QStringLiteral("ua-loadtest %1 (UA Workbench)").arg(QStringLiteral(UA_WORKBENCH_VERSION));
}

std::optional<QString> securityPolicyFromName(const QString& name) {
    const QString prefix = QStringLiteral("http://opcfoundation.org/UA/SecurityPolicy#");
    const QString fragment = name.startsWith(prefix) ? name.mid(prefix.size()) : name;
    if (fragment.compare(QLatin1String("None"), Qt::CaseInsensitive) == 0) return QString();
    for (const char* uri : {kSecurityPolicyBasic128Rsa15, kSecurityPolicyBasic256, kSecurityPolicyBasic256Sha256,
                            kSecurityPolicyAes128Sha256RsaOaep, kSecurityPolicyAes256Sha256RsaPss, kSecurityPolicyEccNistP256,
                            kSecurityPolicyEccNistP384}) {
        const QString u = QLatin1String(uri);
        if (u.mid(prefix.size()).compare(fragment, Qt::CaseInsensitive) == 0) return u;
    }
    return std::nullopt;
}

std::optional<CliTarget> parseTarget(const QString& text) {
    CliTarget t;
    if (text == QLatin1String("spawn") || text.startsWith(QLatin1String("spawn:"))) {
        t.spawn = true;
        t.serverExecutable = text.mid(6);
        return t;
    }
    if (!isEndpointUrl(text)) return std::nullopt;
    t.url = text;
    return t;
}

std::optional<CliOptions> parseCliOptions(const QStringList& argv, QString* error) {
    CliOptions o;
    const auto split = app::splitArguments(argv, [](const QString& name) -> std::optional<app::OptionValue> {
        const OptionSpec* spec = findSpec(name);
        if (!spec) return std::nullopt;
        return spec->value == Value::Required ? app::OptionValue::Required
               : spec->value == Value::None   ? app::OptionValue::None
                                              : app::OptionValue::Optional;
    }, error);
    if (!split) return std::nullopt;
    o.command = split->command;
    const QStringList& args = split->args;  // positional arguments after the command
    const std::vector<app::GivenOption>& given = split->options;
    if (!o.command.isEmpty() && !cliCommands().contains(o.command)) {
        *error = QStringLiteral("unknown command \"%1\" (commands: %2)").arg(o.command, cliCommands().join(QStringLiteral(", ")));
        return std::nullopt;
    }

    LoadParameters& p = o.parameters;
    bool passwordGiven = false, modeGiven = false, policyGiven = false, durationGiven = false;
    QString sessionsText, outstandingText;
    for (const app::GivenOption& option : given) {
        const QString& name = option.name;  // not a structured binding: clang 14 cannot capture one
        const QString& value = option.value;
        const OptionSpec* spec = findSpec(name);
        if (!spec->commands.isEmpty() && !o.command.isEmpty() && !spec->commands.contains(o.command)) {
            *error = QStringLiteral("--%1 is an option of %2 only").arg(name, spec->commands.join(QStringLiteral(", ")));
            return std::nullopt;
        }
        auto bad = [&](const QString& why) {
            *error = QStringLiteral("--%1 %2: %3").arg(name, value, why);
            return std::nullopt;
        };
        const QString positive = QStringLiteral("expected a whole number > 0");
        if (name == QLatin1String("help")) o.help = true;
        else if (name == QLatin1String("version")) o.version = true;
        else if (name == QLatin1String("quiet")) o.quiet = true;
        else if (name == QLatin1String("json")) {
            if (value.isEmpty()) return bad(QStringLiteral("expected a file name or - (stdout)"));
            o.jsonFile = value;
        } else if (name == QLatin1String("scenario")) {
            const auto s = scenarioFromName(value.toLower());
            if (!s) return bad(QStringLiteral("expected read, write, browse, subscribe, connect, history-read or events"));
            p.scenario = *s;
        } else if (name == QLatin1String("values")) {
            const auto n = integer(value, 1, 100'000);
            if (!n) return bad(positive);
            p.valuesPerRequest = *n;
        } else if (name == QLatin1String("sessions")) sessionsText = value;
        else if (name == QLatin1String("outstanding")) outstandingText = value;
        else if (name == QLatin1String("duration") || name == QLatin1String("warmup") || name == QLatin1String("rate")) {
            const bool duration = name == QLatin1String("duration");
            const auto d = number(value, 0, !duration);
            if (!d) return bad(duration ? QStringLiteral("expected seconds > 0") : QStringLiteral("expected a number >= 0"));
            if (duration) {
                p.durationS = *d;
                durationGiven = true;
            }
            else if (name == QLatin1String("warmup")) p.warmupS = *d;
            else p.targetRate = *d;
        } else if (name == QLatin1String("reverse-listen")) {
            const auto n = integer(value, 1, 65535);
            if (!n) return bad(QStringLiteral("expected a TCP port, 1..65535"));
            p.reverseListenPort = quint16(*n);
        } else if (name == QLatin1String("timeout")) {
            const auto n = integer(value, 1, 3'600'000);
            if (!n) return bad(QStringLiteral("expected milliseconds > 0"));
            p.requestTimeoutMs = uint32_t(*n);
        } else if (name == QLatin1String("io-threads") || name == QLatin1String("connect-window") || name == QLatin1String("items") ||
                   name == QLatin1String("variables") || name == QLatin1String("queue-size") || name == QLatin1String("rounds")) {
            const auto n = integer(value, 1, 1'000'000);
            if (!n) return bad(positive);
            if (name == QLatin1String("io-threads")) p.ioThreads = *n;
            else if (name == QLatin1String("connect-window")) p.connectWindow = *n;
            else if (name == QLatin1String("items")) p.monitoredItems = *n;
            else if (name == QLatin1String("variables")) p.variableCount = *n;
            else if (name == QLatin1String("queue-size")) p.queueSize = uint32_t(*n);
            else o.rounds = *n;
        } else if (name == QLatin1String("keepalive-count") || name == QLatin1String("lifetime-count")) {
            const auto n = integer(value, 1, 1'000'000);
            if (!n) return bad(QStringLiteral("expected a whole number in [1, 1000000]"));
            (name == QLatin1String("lifetime-count") ? p.lifetimeCount : p.maxKeepAliveCount) = uint32_t(*n);
        } else if (name == QLatin1String("publish-requests")) {
            const auto n = integer(value, 0, 1000);
            if (!n) return bad(QStringLiteral("expected a whole number in [0, 1000]"));
            p.publishRequests = uint32_t(*n);
        } else if (name == QLatin1String("security")) {
            const auto uri = securityPolicyFromName(value);
            if (!uri)
                return bad(QStringLiteral("expected None, Basic256Sha256, Aes128_Sha256_RsaOaep, Aes256_Sha256_RsaPss, "
                                          "ECC_nistP256 or ECC_nistP384"));
            p.securityPolicyUri = *uri;
            policyGiven = true;
        } else if (name == QLatin1String("mode")) {
            const QString v = value.toLower();
            if (v == QLatin1String("none")) p.securityMode = MessageSecurityMode::None;
            else if (v == QLatin1String("sign")) p.securityMode = MessageSecurityMode::Sign;
            else if (v == QLatin1String("signandencrypt")) p.securityMode = MessageSecurityMode::SignAndEncrypt;
            else return bad(QStringLiteral("expected None, Sign or SignAndEncrypt"));
            modeGiven = true;
        } else if (name == QLatin1String("user")) p.userName = value;
        else if (name == QLatin1String("password")) {
            p.password = value;
            passwordGiven = true;
        } else if (name == QLatin1String("pki")) p.pkiDir = value;
        else if (name == QLatin1String("no-trust")) p.trustServer = false;
        else if (name == QLatin1String("namespace-uri")) p.variableNamespaceUri = value;
        else if (name == QLatin1String("first-id")) {
            bool ok = false;
            const uint n = value.toUInt(&ok);
            if (!ok) return bad(QStringLiteral("expected a numeric identifier"));
            p.firstVariableId = n;
        } else if (name == QLatin1String("browse-node") || name == QLatin1String("counter-node") ||
                   name == QLatin1String("a-counter-node") || name == QLatin1String("b-counter-node")) {
            if (!isNodeIdText(value)) return bad(QStringLiteral("not a NodeId (e.g. i=2253, ns=1;s=Counter, nsu=urn:x;s=Counter)"));
            if (name == QLatin1String("browse-node")) p.browseNode = value;
            else if (name == QLatin1String("counter-node")) p.counterNode = value;
            else (name == QLatin1String("a-counter-node") ? o.a : o.b).counterNode = value;
        } else if (name == QLatin1String("history-node")) {
            if (!isNodeIdText(value)) return bad(QStringLiteral("not a NodeId (e.g. ns=2;i=1000, nsu=urn:x;s=Sine)"));
            p.historyNodes.push_back(value);
        } else if (name == QLatin1String("history-values")) {
            const auto n = integer(value, 1, 100'000);
            if (!n) return bad(QStringLiteral("expected a whole number from 1 to 100000"));
            p.historyValuesPerNode = *n;
        } else if (name == QLatin1String("history-span")) {
            const auto d = number(value, 0, false);
            if (!d || *d < 0.001 || *d > 1e10) return bad(QStringLiteral("expected seconds > 0"));
            p.historySpanS = *d;
        }
        else if (name == QLatin1String("event-rate")) {
            const auto n = integer(value, 0, 1'000'000);
            if (!n) return bad(QStringLiteral("expected events a second from 0 to 1000000"));
            p.eventRate = uint32_t(*n);
        } else if (name == QLatin1String("event-min-severity")) {
            const auto n = integer(value, 1, 1000);
            if (!n) return bad(QStringLiteral("expected a Severity from 1 to 1000"));
            p.eventMinSeverity = *n;
        } else if (name == QLatin1String("event-queue-size")) {
            const auto n = integer(value, 1, 1'000'000);
            if (!n) return bad(positive);
            p.eventQueueSize = uint32_t(*n);
        }
        else if (name == QLatin1String("sampling") || name == QLatin1String("publishing")) {
            const auto d = number(value, 0, name == QLatin1String("sampling"));
            if (!d) return bad(QStringLiteral("expected milliseconds"));
            if (name == QLatin1String("sampling")) p.samplingIntervalMs = *d;
            else p.publishingIntervalMs = *d;
        } else if (name == QLatin1String("no-diagnostics")) p.readServerDiagnostics = false;
        else if (name == QLatin1String("spawn-server")) {
            o.target.spawn = true;
            o.target.serverExecutable = value;
        } else if (name == QLatin1String("server-pid") || name == QLatin1String("a-pid") || name == QLatin1String("b-pid")) {
            bool ok = false;
            const qint64 pid = value.toLongLong(&ok);
            if (!ok || pid <= 0) return bad(QStringLiteral("expected a process id"));
            (name == QLatin1String("a-pid") ? o.a : name == QLatin1String("b-pid") ? o.b : o.target).pid = pid;
        } else if (name == QLatin1String("label")) o.target.label = value;
        else if (name == QLatin1String("max-errors")) {
            const auto d = number(value, 0, true);
            if (!d || *d > 100) return bad(QStringLiteral("expected a percentage in [0, 100]"));
            o.plan.stopRules.maxErrorFraction = *d / 100;
        } else if (name == QLatin1String("max-p99-factor") || name == QLatin1String("min-throughput-factor")) {
            const auto d = number(value, 0, false);
            if (!d) return bad(QStringLiteral("expected a number > 0"));
            (name == QLatin1String("max-p99-factor") ? o.plan.stopRules.maxP99Factor : o.plan.stopRules.minThroughputFactor) = *d;
        } else if (name == QLatin1String("no-stop")) {
            o.plan.stopRules.maxErrorFraction = 1;
            o.plan.stopRules.maxP99Factor = 1e12;
            o.plan.stopRules.minThroughputFactor = 0;
            o.plan.stopRules.brokenConnection = false;
        } else if (name == QLatin1String("a") || name == QLatin1String("b")) {
            auto t = parseTarget(value);
            if (!t) return bad(QStringLiteral("expected opc.tcp://host:port, spawn or spawn:PATH"));
            CliTarget& target = name == QLatin1String("a") ? o.a : o.b;
            t->pid = target.pid;
            t->label = target.label;
            t->counterNode = target.counterNode;
            target = *t;
        } else if (name == QLatin1String("report-every")) {
            const auto d = number(value, 1, true);
            if (!d) return bad(QStringLiteral("expected seconds >= 1"));
            o.reportEveryS = *d;
        } else if (name == QLatin1String("a-label")) o.a.label = value;
        else if (name == QLatin1String("b-label")) o.b.label = value;
    }
    if (o.help || o.version) return o;
    if (o.command.isEmpty()) {
        *error = QStringLiteral("no command given");
        return std::nullopt;
    }
    auto usage = [&](const QString& why) {
        *error = why;
        return std::nullopt;
    };

    if (o.command == QLatin1String("soak")) {
        if (!durationGiven) p.durationS = 1800;  // the soak's default: 30 minutes
        if (p.targetRate <= 0) p.targetRate = 1000;  // its read part's rate (requests/s)
    }

    // Security: a policy without a mode signs and encrypts; a mode without a policy is Basic256Sha256.
    if (policyGiven && !p.securityPolicyUri.isEmpty() && !modeGiven) p.securityMode = MessageSecurityMode::SignAndEncrypt;
    if (modeGiven && p.securityMode != MessageSecurityMode::None && !policyGiven)
        p.securityPolicyUri = QLatin1String(kSecurityPolicyBasic256Sha256);
    if (p.securityPolicyUri.isEmpty() != (p.securityMode == MessageSecurityMode::None))
        return usage(QStringLiteral("--security None goes with --mode None only, a secure policy with Sign or SignAndEncrypt"));
    if (passwordGiven && p.userName.isEmpty()) return usage(QStringLiteral("--password needs --user"));
    if (!p.userName.isEmpty() && !passwordGiven) {
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!env.contains(QStringLiteral("UA_PASSWORD")))
            return usage(QStringLiteral("--user needs --password (or the environment variable UA_PASSWORD)"));
        p.password = env.value(QStringLiteral("UA_PASSWORD"));
    }

    if (p.targetRate > 0 && (p.scenario == Scenario::Subscribe || p.scenario == Scenario::Connect || p.scenario == Scenario::Events))
        return usage(QStringLiteral("--rate (the open loop) applies to read, write, browse and history-read (events: --event-rate)"));
    if (QString why; !LoadParameters::fromJson(p.toJson(), &why)) return usage(why);  // the engine's own checks

    // Sessions x outstanding: one number each for run and ab, lists for sweep.
    if (o.command == QLatin1String("sweep")) {
        if (!sessionsText.isEmpty()) {
            const auto l = parseStepList(sessionsText);
            if (!l) return usage(QStringLiteral("--sessions %1: expected whole numbers > 0, e.g. 1,2,5,10").arg(sessionsText));
            o.plan.sessions = *l;
        }
        if (!outstandingText.isEmpty()) {
            const auto l = parseStepList(outstandingText);
            if (!l) return usage(QStringLiteral("--outstanding %1: expected whole numbers > 0, e.g. 1,10,100").arg(outstandingText));
            o.plan.outstanding = *l;
        }
    } else {
        if (!sessionsText.isEmpty()) {
            const auto n = integer(sessionsText, 1, 100'000);
            if (!n) return usage(QStringLiteral("--sessions %1: expected a whole number > 0 (lists are for sweep)").arg(sessionsText));
            p.sessions = *n;
        }
        if (!outstandingText.isEmpty()) {
            const auto n = integer(outstandingText, 1, 100'000);
            if (!n) return usage(QStringLiteral("--outstanding %1: expected a whole number > 0 (lists are for sweep)").arg(outstandingText));
            p.outstanding = *n;
        }
    }

    // The arguments.
    if (o.command == QLatin1String("compare")) {
        if (args.size() != 2) return usage(QStringLiteral("usage: ua-loadtest compare <a.json> <b.json>"));
        o.files = args;
        return o;
    }
    if (o.command == QLatin1String("ab")) {
        if (!args.isEmpty()) return usage(QStringLiteral("ab takes no arguments: the targets are --a and --b"));
        if ((o.a.url.isEmpty() && !o.a.spawn) || (o.b.url.isEmpty() && !o.b.spawn))
            return usage(QStringLiteral("ab needs --a and --b (opc.tcp://host:port, spawn or spawn:PATH)"));
        if ((o.a.spawn && o.a.pid) || (o.b.spawn && o.b.pid))
            return usage(QStringLiteral("--a-pid / --b-pid are for a URL target (a spawned server's pid is known)"));
        if (o.a.label.isEmpty()) o.a.label = o.a.spawn ? QStringLiteral("A (spawned ua-server)") : QStringLiteral("A (%1)").arg(o.a.url);
        if (o.b.label.isEmpty()) o.b.label = o.b.spawn ? QStringLiteral("B (spawned ua-server)") : QStringLiteral("B (%1)").arg(o.b.url);
        return o;
    }
    // run, sweep, soak
    if (o.target.spawn) {
        if (!args.isEmpty()) return usage(QStringLiteral("%1: give an endpoint URL or --spawn-server, not both").arg(o.command));
        if (o.target.pid) return usage(QStringLiteral("--server-pid is for a URL target (a spawned server's pid is known)"));
    } else {
        if (args.size() != 1)
            return usage(QStringLiteral("usage: ua-loadtest %1 <opc.tcp://host:port> [options]  (or --spawn-server)").arg(o.command));
        if (!isEndpointUrl(args[0])) return usage(QStringLiteral("%1: not an opc.tcp://host:port URL").arg(args[0]));
        o.target.url = args[0];
    }
    return o;
}

} // namespace ua::loadtest
