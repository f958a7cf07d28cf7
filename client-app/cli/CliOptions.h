// The command line's options and arguments (docs/ClientApp.md "The command line"):
//   ua-client <command> [options] <args>
// Options may come before, between or after the arguments; "--name value" or "--name=value"; "--"
// ends the options. An argument that looks like a negative number ("-5", "-1.5e3", "-inf") is an
// argument, not an option, so that `write <url> <node> -5` works.
#pragma once

#include "ua/client/common/ClientConfig.h"

#include <QString>
#include <QStringList>
#include <optional>

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
    QString command;                 // discover, browse, read, write, subscribe, call ("" with --help / --version)
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
