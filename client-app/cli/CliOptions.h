// The command line's options and arguments (docs/ClientApp.md "The command line"):
//   ua-client <command> [options] <args>
// Options may come before, between or after the arguments; "--name value" or "--name=value"; "--"
// ends the options. An argument that looks like a negative number ("-5", "-1.5e3", "-inf") is an
// argument, not an option, so that `write <url> <node> -5` works.
#pragma once

#include "ua/client/common/ClientConfig.h"
#include "ua/types/DateTime.h"
#include "ua/types/NodeId.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace ua::clientapp {

// The process exit codes of the command line.
enum ExitCode : int {
    ExitOk = 0,
    ExitOperationFailed = 1,  // a service or an operation returned a Bad status (e.g. Bad_NodeIdUnknown)
    ExitUsage = 2,            // unknown command or option, missing or malformed argument or value text
    ExitConnectionFailed = 3, // no connection: unreachable, refused, timed out, no matching endpoint, certificate refused
    ExitAccessDenied = 4,     // connected, but the server refused the user (Bad_UserAccessDenied, Bad_IdentityTokenRejected, ...)
};

struct CliOptions {
    QString command;                 // discover, browse, read, write, subscribe, call, history, alarms, ack, ... ("" with --help / --version)
    QStringList args;                // the positional arguments after the command (args[0] is the URL)
    bool help = false;
    bool version = false;
    bool json = false;
    // connection
    MessageSecurityMode securityMode = MessageSecurityMode::Invalid;  // Invalid: the best the server offers
    QString securityPolicyUri;       // empty: the best
    QString userName;
    QString password;                // --password, else the environment variable UA_PASSWORD
    QString userCertificateFile;     // --cert (X509 user identity) with --key
    QString userKeyFile;
    QString pkiDir;                  // empty: QStandardPaths::AppDataLocation/pki
    bool trust = false;              // accept an untrusted server certificate for this run
    uint32_t timeoutMs = 10'000;     // connect and each request
    // Reverse Connect (OPC 10000-6 7.1.3): listen on this TCP port for the server to connect
    // (0: dial the URL as usual); the URL names the server's EndpointUrl in its ReverseHello.
    quint16 reverseListenPort = 0;
    QString serverUri;               // --server-uri: the ServerUri the ReverseHello must carry
    // read
    uint32_t attributeId = 13;       // --attribute (Value)
    // write, add-node
    std::optional<BuiltInType> type; // --type
    // add-node
    QString nodeClass = QStringLiteral("folder");  // --class folder|object|variable
    // subscribe
    double publishingIntervalMs = 500;   // --interval
    double samplingIntervalMs = -1;      // --sampling (-1: the publishing interval)
    double seconds = 0;                  // --seconds (0: until Ctrl+C / SIGTERM)
    int count = 0;                       // --count (0: no limit)
    // history (the times parsed against one "now" taken when the options are read)
    DateTime from;                       // --from (required unless --at)
    DateTime to;                         // --to (default: now)
    std::vector<DateTime> at;            // --at TIME,TIME,... (Read At Time)
    uint64_t maxValues = 0;              // --max (0: every value)
    uint32_t valuesPerRequest = 1000;    // --page: numValuesPerNode of Read Raw / Modified
    bool bounds = false;                 // --bounds: returnBounds
    bool modified = false;               // --modified: Read Modified
    bool events = false;                 // --events: Read Event of a notifier (OPC 10000-11 6.5.2)
    std::optional<NodeId> aggregate;     // --aggregate NAME (Read Processed)
    QString aggregateText;
    double processingIntervalMs = 0;     // --interval of history (0: one interval for the whole range)
    bool csv = false;                    // --csv
    // ack, confirm
    QString comment;                     // --comment: the Method's Comment
};

// Parses argv (argv[0] is the program). nullopt and *error for a usage error.
std::optional<CliOptions> parseCliOptions(const QStringList& argv, QString* error);
// The full --help text.
QString cliUsage();
// "ua-client 0.1.0 (UA Workbench)".
QString cliVersion();
// The commands, for isCommandLineInvocation.
const QStringList& cliCommands();
// "Value" <-> 13 (OPC 10000-6 A.1 AttributeIds); case-insensitive; nullopt for an unknown name.
std::optional<uint32_t> attributeIdFromName(const QString& name);
QString attributeName(uint32_t attributeId);
// "Int32" -> BuiltInType::Int32 (case-insensitive, 1..25); nullopt otherwise.
std::optional<BuiltInType> builtInTypeFromName(const QString& name);

} // namespace ua::clientapp
