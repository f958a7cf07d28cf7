#include "cli/CliOptions.h"

#include "ArgumentSplitter.h"
#include "cli/HistoryTime.h"
#include "ValueText.h"

#include "ua/Version.h"
#include "ua/client/history/AggregateNames.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/types/Variant.h"

#include <QProcessEnvironment>
#include <array>
#include <cmath>

namespace ua::clientapp {

namespace {

const std::array<const char*, 28> kAttributeNames = {
    "", "NodeId", "NodeClass", "BrowseName", "DisplayName", "Description", "WriteMask", "UserWriteMask",
    "IsAbstract", "Symmetric", "InverseName", "ContainsNoLoops", "EventNotifier", "Value", "DataType",
    "ValueRank", "ArrayDimensions", "AccessLevel", "UserAccessLevel", "MinimumSamplingInterval", "Historizing",
    "Executable", "UserExecutable", "DataTypeDefinition", "RolePermissions", "UserRolePermissions",
    "AccessRestrictions", "AccessLevelEx"};

// Options that take a value, and the commands each applies to ("" = every command).
struct OptionSpec {
    const char* name;
    bool takesValue;
    QStringList commands;
};

const QList<OptionSpec>& optionSpecs() {
    static const QList<OptionSpec> specs = {
        {"help", false, {}},
        {"version", false, {}},
        {"json", false, {}},
        {"security", true, {}},
        {"policy", true, {}},
        {"user", true, {}},
        {"password", true, {}},
        {"cert", true, {}},
        {"key", true, {}},
        {"pki", true, {}},
        {"trust", false, {}},
        {"timeout", true, {}},
        {"reverse-listen", true, {}},
        {"server-uri", true, {}},
        {"attribute", true, {"read"}},
        {"type", true, {"write", "add-node"}},
        {"class", true, {"add-node"}},
        {"interval", true, {"subscribe", "history"}},
        {"sampling", true, {"subscribe"}},
        {"seconds", true, {"subscribe"}},
        {"count", true, {"subscribe"}},
        {"from", true, {"history"}},
        {"to", true, {"history"}},
        {"at", true, {"history"}},
        {"max", true, {"history"}},
        {"page", true, {"history"}},
        {"bounds", false, {"history"}},
        {"modified", false, {"history"}},
        {"events", false, {"history"}},
        {"aggregate", true, {"history"}},
        {"csv", false, {"history"}},
        {"comment", true, {"ack", "confirm"}},
    };
    return specs;
}

std::optional<double> nonNegative(const QString& v) {
    bool ok = false;
    const double d = v.toDouble(&ok);
    if (!ok || !(d >= 0)) return std::nullopt;
    return d;
}

} // namespace

const QStringList& cliCommands() {
    static const QStringList commands = {QStringLiteral("discover"), QStringLiteral("browse"), QStringLiteral("read"),
                                         QStringLiteral("write"), QStringLiteral("subscribe"), QStringLiteral("call"),
                                         QStringLiteral("add-node"), QStringLiteral("delete-node"), QStringLiteral("export-nodeset"),
                                         QStringLiteral("history"), QStringLiteral("alarms"), QStringLiteral("ack"),
                                         QStringLiteral("confirm")};
    return commands;
}

std::optional<uint32_t> attributeIdFromName(const QString& name) {
    for (std::size_t i = 1; i < kAttributeNames.size(); ++i)
        if (name.compare(QLatin1String(kAttributeNames[i]), Qt::CaseInsensitive) == 0) return uint32_t(i);
    bool ok = false;
    const uint n = name.toUInt(&ok);
    if (ok && n >= 1 && n < kAttributeNames.size()) return n;
    return std::nullopt;
}

QString attributeName(uint32_t attributeId) {
    if (attributeId >= 1 && attributeId < kAttributeNames.size()) return QLatin1String(kAttributeNames[attributeId]);
    return QString::number(attributeId);
}

std::optional<BuiltInType> builtInTypeFromName(const QString& name) {
    for (int i = 1; i <= 25; ++i)
        if (name.compare(QLatin1String(builtInTypeName(BuiltInType(i))), Qt::CaseInsensitive) == 0) return BuiltInType(i);
    return std::nullopt;
}

QString cliVersion() {
    return QStringLiteral("ua-client %1 (UA Workbench)").arg(QStringLiteral(UA_WORKBENCH_VERSION));
}

QString cliUsage() {
    return QStringLiteral(
        "Usage: ua-client <command> [options] <args>\n"
        "       ua-client [--connect URL] [--project FILE] [--pki DIR]   (no command: the window)\n"
        "\n"
        "Commands:\n"
        "  discover  <url>                             FindServers and GetEndpoints\n"
        "  browse    <url> [node]                      the node's forward references (default: Objects, i=85)\n"
        "  read      <url> <node>...                   read an attribute (default Value) of each node\n"
        "  write     <url> <node> <value>              write the Value (type from the node's DataType, or --type)\n"
        "  subscribe <url> <node>...                   print each data change until Ctrl+C / SIGTERM\n"
        "  call      <url> <object> <method> [args...] call a Method (argument types from its InputArguments)\n"
        "  add-node  <url> <parent> <name>             add a folder (or --class object|variable) below parent\n"
        "  delete-node <url> <node>                    delete a node with its references\n"
        "  export-nodeset <url> <namespace-uri> <file> write the nodes of a namespace as a NodeSet2 file\n"
        "  history   <url> <node> --from TIME [--to TIME]   the node's history (HistoryRead), one value a line:\n"
        "                                              raw, --modified, --aggregate NAME, or --at TIME,...\n"
        "  alarms    <url> [notifier]                  the retained conditions (ConditionRefresh), one a line:\n"
        "                                              ConditionId, EventId (hex), severity, time, source, name,\n"
        "                                              state, message (notifier default: the Server object, i=2253)\n"
        "  ack       <url> <condition> <eventid>       Acknowledge a condition's event (EventId in hex, as alarms prints it)\n"
        "  confirm   <url> <condition> <eventid>       Confirm it\n"
        "\n"
        "Nodes: i=85, ns=2;s=Name, nsu=<namespace URI>;s=Name, or a browse path from the Root folder\n"
        "       (OPC 10000-4 A.2 RelativePath): /Objects/Server, /Objects/2:Demo/2:Scalars/2:Int32\n"
        "Values: true, 42, 1.5, text, 2026-11-30T10:00:00Z, [1, 2, 3], [[1, 2], [3, 4]] (docs/ClientApp.md)\n"
        "\n"
        "Options:\n"
        "  --security none|sign|signandencrypt   the MessageSecurityMode (default: the best the server offers)\n"
        "  --policy NAME        Basic256Sha256, Aes128_Sha256_RsaOaep, Aes256_Sha256_RsaPss, ECC_nistP256, None, ...\n"
        "  --user NAME --password PW   user name login (or the password in the environment variable UA_PASSWORD)\n"
        "  --cert FILE --key FILE      X509 user certificate login (PEM or DER certificate, PEM key)\n"
        "  --pki DIR            the client's certificate store (default: ~/.local/share/ua-client/pki)\n"
        "  --trust              accept an untrusted server certificate for this run\n"
        "  --timeout MS         connect and request timeout (default 10000)\n"
        "  --reverse-listen PORT   Reverse Connect: wait on this TCP port for the server to connect (its\n"
        "                       ReverseHello must name URL as its EndpointUrl) instead of dialling URL\n"
        "  --server-uri URI     with --reverse-listen: the ServerUri (ApplicationUri) the server must name\n"
        "  --json               machine-readable output (subscribe: one JSON object per line)\n"
        "  --attribute NAME     read: Value, DisplayName, BrowseName, DataType, NodeClass, ... (default Value)\n"
        "  --type TYPE          write: the built-in type (Boolean ... LocalizedText); add-node: the variable's DataType\n"
        "  --class CLASS        add-node: folder (default), object or variable\n"
        "  --interval MS        subscribe: publishing interval (default 500)\n"
        "  --sampling MS        subscribe: sampling interval (default: the publishing interval)\n"
        "  --seconds N          subscribe: stop after N seconds\n"
        "  --count N            subscribe: stop after N data changes\n"
        "  --from TIME, --to TIME   history: the range, from included to excluded (--to default: now); TIME is\n"
        "                       ISO 8601 (2026-11-30T10:00:00.000Z; no zone = UTC), now, or before now: -30s, -10m, -1h, -2d\n"
        "  --max N              history: at most N values (the rest is left on the server)\n"
        "  --page N             history: values per HistoryRead request (numValuesPerNode, default 1000)\n"
        "  --bounds             history: with the bounding values around the range\n"
        "  --modified           history: the modified values with their ModificationInfo (Read Modified)\n"
        "  --events             history: the events of a notifier (Read Event): Time, Severity, SourceName, EventType,\n"
        "                       Message; --max and --page count events\n"
        "  --aggregate NAME     history: Read Processed with a Part 13 aggregate (Average, Minimum, Maximum,\n"
        "                       Count, Interpolative, TimeAverage, Total, ...) or its NodeId\n"
        "  --interval MS        history: the processing interval of --aggregate (default 0: the whole range)\n"
        "  --at TIME,TIME,...   history: Read At Time, one value per time (interpolated when none is stored)\n"
        "  --csv                history: CSV (sourceTimestamp,value,status) instead of text\n"
        "  --comment TEXT       ack, confirm: the comment sent with the Method\n"
        "  --help, --version\n"
        "\n"
        "Exit codes: 0 success, 1 operation failed (the status name on stderr), 2 usage error,\n"
        "            3 connection failed, 4 the server refused the user\n");
}

std::optional<CliOptions> parseCliOptions(const QStringList& argv, QString* error) {
    CliOptions o;
    const auto split = app::splitArguments(argv, [](const QString& name) -> std::optional<app::OptionValue> {
        for (const OptionSpec& s : optionSpecs())
            if (name == QLatin1String(s.name)) return s.takesValue ? app::OptionValue::Required : app::OptionValue::None;
        return std::nullopt;
    }, error);
    if (!split) return std::nullopt;
    o.command = split->command;  // the first argument is the command
    o.args = split->args;
    const std::vector<app::GivenOption>& given = split->options;
    if (!o.command.isEmpty() && !cliCommands().contains(o.command)) {
        *error = QStringLiteral("unknown command \"%1\" (commands: %2)").arg(o.command, cliCommands().join(QStringLiteral(", ")));
        return std::nullopt;
    }

    QString certFile, keyFile;
    bool passwordGiven = false;
    bool fromGiven = false, toGiven = false, intervalGiven = false, pageGiven = false;
    const DateTime now = DateTime::now();  // one "now" for every relative time
    o.to = now;
    for (const app::GivenOption& option : given) {
        const QString& name = option.name;  // not a structured binding: clang 14 cannot capture one
        const QString& value = option.value;
        for (const OptionSpec& s : optionSpecs()) {
            if (name != QLatin1String(s.name) || s.commands.isEmpty() || o.command.isEmpty() || s.commands.contains(o.command)) continue;
            *error = QStringLiteral("--%1 is an option of %2 only").arg(name, s.commands.join(QStringLiteral(", ")));
            return std::nullopt;
        }
        auto bad = [&](const QString& why) {
            *error = QStringLiteral("--%1 %2: %3").arg(name, value, why);
            return std::nullopt;
        };
        if (name == QLatin1String("help")) o.help = true;
        else if (name == QLatin1String("version")) o.version = true;
        else if (name == QLatin1String("json")) o.json = true;
        else if (name == QLatin1String("trust")) o.trust = true;
        else if (name == QLatin1String("security")) {
            const QString v = value.toLower();
            if (v == QLatin1String("none")) o.securityMode = MessageSecurityMode::None;
            else if (v == QLatin1String("sign")) o.securityMode = MessageSecurityMode::Sign;
            else if (v == QLatin1String("signandencrypt")) o.securityMode = MessageSecurityMode::SignAndEncrypt;
            else return bad(QStringLiteral("expected none, sign or signandencrypt"));
        } else if (name == QLatin1String("policy")) {
            const QString prefix = QStringLiteral("http://opcfoundation.org/UA/SecurityPolicy#");
            const QString fragment = value.startsWith(prefix) ? value.mid(prefix.size()) : value;
            bool found = false;
            for (const char* uri : {kSecurityPolicyNone, kSecurityPolicyBasic128Rsa15, kSecurityPolicyBasic256,
                                    kSecurityPolicyBasic256Sha256, kSecurityPolicyAes128Sha256RsaOaep, kSecurityPolicyAes256Sha256RsaPss,
                                    kSecurityPolicyEccNistP256, kSecurityPolicyEccNistP384}) {
                const QString u = QLatin1String(uri);
                if (u.mid(prefix.size()).compare(fragment, Qt::CaseInsensitive) == 0) {
                    o.securityPolicyUri = u;
                    found = true;
                }
            }
            if (!found)
                return bad(QStringLiteral("unknown SecurityPolicy (None, Basic256Sha256, Aes128_Sha256_RsaOaep, Aes256_Sha256_RsaPss, "
                                          "ECC_nistP256, ECC_nistP384, Basic256, Basic128Rsa15)"));
        } else if (name == QLatin1String("user")) o.userName = value;
        else if (name == QLatin1String("password")) {
            o.password = value;
            passwordGiven = true;
        } else if (name == QLatin1String("cert")) certFile = value;
        else if (name == QLatin1String("key")) keyFile = value;
        else if (name == QLatin1String("pki")) o.pkiDir = value;
        else if (name == QLatin1String("timeout")) {
            bool ok = false;
            const uint v = value.toUInt(&ok);
            if (!ok || v == 0) return bad(QStringLiteral("expected a positive number of milliseconds"));
            o.timeoutMs = v;
        } else if (name == QLatin1String("reverse-listen")) {
            bool ok = false;
            const uint v = value.toUInt(&ok);
            if (!ok || v == 0 || v > 65535) return bad(QStringLiteral("expected a TCP port, 1..65535"));
            o.reverseListenPort = quint16(v);
        } else if (name == QLatin1String("server-uri")) {
            o.serverUri = value;
        } else if (name == QLatin1String("attribute")) {
            const auto id = attributeIdFromName(value);
            if (!id) return bad(QStringLiteral("unknown attribute (Value, DisplayName, BrowseName, NodeClass, DataType, ...)"));
            o.attributeId = *id;
        } else if (name == QLatin1String("class")) {
            if (value != QLatin1String("folder") && value != QLatin1String("object") && value != QLatin1String("variable"))
                return bad(QStringLiteral("expected folder, object or variable"));
            o.nodeClass = value;
        } else if (name == QLatin1String("type")) {
            o.type = builtInTypeFromName(value);
            if (!o.type) return bad(QStringLiteral("not a built-in type (Boolean, SByte, Byte, Int16, ..., String, DateTime, ...)"));
        } else if (name == QLatin1String("interval") && o.command == QLatin1String("history")) {
            bool ok = false;
            const double d = value.toDouble(&ok);
            if (!ok || !std::isfinite(d) || d < 0)
                return bad(QStringLiteral("expected a processing interval in milliseconds >= 0 (0: one interval for the whole range)"));
            o.processingIntervalMs = d;
            intervalGiven = true;
        } else if (name == QLatin1String("interval") || name == QLatin1String("sampling") || name == QLatin1String("seconds")) {
            const auto d = nonNegative(value);
            if (!d) return bad(QStringLiteral("expected a number >= 0"));
            if (name == QLatin1String("seconds") && *d == 0) return bad(QStringLiteral("expected a number > 0 (leave --seconds out to run until stopped)"));
            if (name == QLatin1String("interval")) o.publishingIntervalMs = *d;
            else if (name == QLatin1String("sampling")) o.samplingIntervalMs = *d;
            else o.seconds = *d;
        } else if (name == QLatin1String("from") || name == QLatin1String("to")) {
            QString why;
            const auto t = parseHistoryTime(value, now, &why);
            if (!t) return bad(why);
            (name == QLatin1String("from") ? fromGiven : toGiven) = true;
            (name == QLatin1String("from") ? o.from : o.to) = *t;
        } else if (name == QLatin1String("at")) {
            o.at.clear();
            for (const QString& part : value.split(QLatin1Char(','))) {
                QString why;
                const auto t = parseHistoryTime(part, now, &why);
                if (!t) return bad(part.trimmed().isEmpty() ? QStringLiteral("an empty time in the list") : why);
                o.at.push_back(*t);
            }
        } else if (name == QLatin1String("max") || name == QLatin1String("page")) {
            bool ok = false;
            const qulonglong n = value.toULongLong(&ok);
            const qulonglong limit = name == QLatin1String("page") ? 0xFFFFFFFFull : ~0ull;
            if (!ok || n == 0 || n > limit) {
                return bad(name == QLatin1String("max") ? QStringLiteral("expected a positive number of values (leave --max out for all)")
                                                        : QStringLiteral("expected a number of values from 1 to 4294967295"));
            }
            if (name == QLatin1String("max")) o.maxValues = n;
            else o.valuesPerRequest = uint32_t(n);
            pageGiven = pageGiven || name == QLatin1String("page");
        } else if (name == QLatin1String("bounds")) o.bounds = true;
        else if (name == QLatin1String("modified")) o.modified = true;
        else if (name == QLatin1String("events")) o.events = true;
        else if (name == QLatin1String("csv")) o.csv = true;
        else if (name == QLatin1String("comment")) o.comment = value;
        else if (name == QLatin1String("aggregate")) {
            std::optional<NodeId> id = aggregateFromName(value.trimmed().toStdString());
            if (!id) id = NodeId::parse(value.trimmed().toStdString());
            if (!id) {
                QStringList names;
                for (const AggregateName& a : standardAggregates()) names << QLatin1String(a.name);
                return bad(QStringLiteral("unknown aggregate (OPC 10000-13: %1; or an AggregateFunction's NodeId)")
                               .arg(names.join(QStringLiteral(", "))));
            }
            o.aggregate = *id;
            o.aggregateText = value.trimmed();
        } else if (name == QLatin1String("count")) {
            bool ok = false;
            const int n = value.toInt(&ok);
            if (!ok || n <= 0) return bad(QStringLiteral("expected a positive number"));
            o.count = n;
        }
    }
    if (o.help || o.version) return o;
    if (o.command.isEmpty()) {
        *error = QStringLiteral("no command given");
        return std::nullopt;
    }
    if (o.args.isEmpty()) {
        *error = QStringLiteral("%1: the server URL is missing (opc.tcp://host:port)").arg(o.command);
        return std::nullopt;
    }
    if (o.reverseListenPort && o.command == QLatin1String("discover")) {
        *error = QStringLiteral("--reverse-listen is not an option of discover (it needs a Session's connection)");
        return std::nullopt;
    }
    if (!o.serverUri.isEmpty() && !o.reverseListenPort) {
        *error = QStringLiteral("--server-uri goes with --reverse-listen");
        return std::nullopt;
    }
    if (!certFile.isEmpty() || !keyFile.isEmpty()) {
        if (certFile.isEmpty() || keyFile.isEmpty()) {
            *error = QStringLiteral("--cert and --key go together");
            return std::nullopt;
        }
        if (!o.userName.isEmpty()) {
            *error = QStringLiteral("--user and --cert exclude each other");
            return std::nullopt;
        }
        o.userCertificateFile = certFile;
        o.userKeyFile = keyFile;
    }
    if (passwordGiven && o.userName.isEmpty()) {
        *error = QStringLiteral("--password needs --user");
        return std::nullopt;
    }
    if (!o.userName.isEmpty() && !passwordGiven) {
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!env.contains(QStringLiteral("UA_PASSWORD"))) {
            *error = QStringLiteral("--user needs --password (or the environment variable UA_PASSWORD)");
            return std::nullopt;
        }
        o.password = env.value(QStringLiteral("UA_PASSWORD"));
    }
    const qsizetype n = o.args.size();
    auto needs = [&](qsizetype min, qsizetype max, const char* shape) -> bool {
        if (n >= min && (max < 0 || n <= max)) return true;
        *error = QStringLiteral("usage: ua-client %1 %2").arg(o.command, QLatin1String(shape));
        return false;
    };
    bool ok = true;
    if (o.command == QLatin1String("discover")) ok = needs(1, 1, "<url>");
    else if (o.command == QLatin1String("browse")) ok = needs(1, 2, "<url> [node]");
    else if (o.command == QLatin1String("read")) ok = needs(2, -1, "<url> <node>...");
    else if (o.command == QLatin1String("write")) ok = needs(3, 3, "<url> <node> <value>");
    else if (o.command == QLatin1String("subscribe")) ok = needs(2, -1, "<url> <node>...");
    else if (o.command == QLatin1String("call")) ok = needs(3, -1, "<url> <object> <method> [args...]");
    else if (o.command == QLatin1String("add-node")) ok = needs(3, 3, "<url> <parent> <name>");
    else if (o.command == QLatin1String("delete-node")) ok = needs(2, 2, "<url> <node>");
    else if (o.command == QLatin1String("export-nodeset")) ok = needs(3, 3, "<url> <namespace-uri> <file>");
    else if (o.command == QLatin1String("history")) ok = needs(2, 2, "<url> <node> --from TIME [--to TIME] [--max N] [--bounds] "
                                                                    "[--modified] [--aggregate NAME [--interval MS]] | --at TIME,...");
    else if (o.command == QLatin1String("alarms")) ok = needs(1, 2, "<url> [notifier]");
    else if (o.command == QLatin1String("ack") || o.command == QLatin1String("confirm")) ok = needs(3, 3, "<url> <condition> <eventid> [--comment TEXT]");
    if (!ok) return std::nullopt;
    if (o.command == QLatin1String("history")) {
        auto conflict = [&](const QString& why) {
            *error = why;
            return std::nullopt;
        };
        if (o.json && o.csv) return conflict(QStringLiteral("--json and --csv exclude each other"));
        if (o.events && (!o.at.empty() || o.aggregate || intervalGiven || o.bounds || o.modified))
            return conflict(QStringLiteral("--events reads a notifier's events: leave out --at, --aggregate, --interval, --bounds and --modified"));
        if (!o.at.empty()) {
            if (fromGiven || toGiven || o.aggregate || intervalGiven || o.bounds || o.modified || o.maxValues || pageGiven)
                return conflict(QStringLiteral("--at reads the given times only: leave out --from, --to, --max, --page, --bounds, --modified, "
                                               "--aggregate and --interval"));
            return o;
        }
        if (!fromGiven) return conflict(QStringLiteral("history: --from TIME is missing (or --at TIME,... for Read At Time)"));
        if (!(o.from < o.to))
            return conflict(QStringLiteral("--from %1 is not before --to %2").arg(app::formatVariant(Variant(o.from)), app::formatVariant(Variant(o.to))));
        if (intervalGiven && !o.aggregate) return conflict(QStringLiteral("--interval is the processing interval of --aggregate"));
        if (o.aggregate && (o.bounds || o.modified || pageGiven))
            return conflict(QStringLiteral("--aggregate excludes --bounds, --modified and --page (one value per interval)"));
        if (o.bounds && o.modified) return conflict(QStringLiteral("--bounds and --modified exclude each other (OPC 10000-11 6.5.3.1)"));
    }
    return o;
}

} // namespace ua::clientapp
