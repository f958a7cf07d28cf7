// The load tester's command line (docs/LoadTesterCli.md):
//   ua-loadtest run   <endpointUrl> | --spawn-server[=PATH]  [options]
//   ua-loadtest sweep <endpointUrl> | --spawn-server[=PATH]  --sessions 1,2,5 --outstanding 1,10  [options]
//   ua-loadtest ab    --a <url|spawn[:PATH]> --b <url|spawn[:PATH]> --rounds N  [options]
//   ua-loadtest compare <a.json> <b.json>
//   ua-loadtest soak  <endpointUrl> | --spawn-server[=PATH]  [--duration S] [--report-every S] [--rate R]
// Options may come before or after the arguments; "--name value" or "--name=value"; "--" ends
// the options. Every LoadParameters field has an option (LoadParameters.h: units are seconds
// unless the option names ms).
#pragma once

#include "engine/LoadParameters.h"
#include "engine/StepResult.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace ua::loadtest {

// The process exit codes of the command line.
enum ExitCode : int {
    ExitOk = 0,
    ExitRunErrors = 1,        // the run ended, but requests failed or timed out, or a connection broke
    ExitUsage = 2,            // unknown command or option, missing or malformed argument
    ExitConnectionFailed = 3, // no step could run: server unreachable, refused, no Session, or the server could not be spawned
};

// A server to drive: an endpoint URL, or our headless server started as a child (spawn).
struct CliTarget {
    QString url;               // empty when spawned
    bool spawn = false;
    QString serverExecutable;  // spawn: the ua-server to start (empty: next to ua-loadtest)
    qint64 pid = 0;            // a URL's server process (--server-pid, --a-pid, --b-pid); 0: unknown
    QString counterNode;       // ab: --a-counter-node / --b-counter-node (empty: the shared --counter-node)
    QString label;             // ab: --a-label / --b-label; run/sweep: --label
};

struct CliOptions {
    QString command;           // run, sweep, ab, compare, soak ("" with --help / --version)
    bool help = false;
    bool version = false;
    bool quiet = false;        // --quiet: no progress lines on stderr
    LoadParameters parameters; // everything but the target (and, in a sweep, sessions x outstanding)
    CliTarget target;          // run, sweep
    CliTarget a, b;            // ab
    int rounds = 3;            // ab
    double reportEveryS = 60;  // soak: seconds between reports (its duration defaults to 1800 s, its read rate to 1000/s)
    SweepPlan plan;            // sweep: --sessions and --outstanding lists, stop rules
    QString jsonFile;          // --json FILE ("-": stdout, instead of the result lines)
    QStringList files;         // compare: the two saved runs
};

// Parses argv (argv[0] is the program). nullopt and *error for a usage error.
std::optional<CliOptions> parseCliOptions(const QStringList& argv, QString* error);
// The full --help text.
QString cliUsage();
// "ua-loadtest 0.1.0 (UA Workbench)".
QString cliVersion();
// run, sweep, ab, compare, soak.
const QStringList& cliCommands();
// "Basic256Sha256" (or the full URI) -> the SecurityPolicy URI; "None" -> ""; nullopt if unknown.
std::optional<QString> securityPolicyFromName(const QString& name);
// A target of ab: "spawn", "spawn:PATH" or an opc.tcp URL; nullopt otherwise.
std::optional<CliTarget> parseTarget(const QString& text);

} // namespace ua::loadtest
