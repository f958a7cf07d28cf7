#include "ServerCommandLine.h"

#include "ua/Version.h"

#include <QCommandLineParser>

namespace ua::app {

namespace {

QCommandLineOption hidden(QCommandLineOption o) {
    o.setFlags(QCommandLineOption::HiddenFromHelp);
    return o;
}

} // namespace

ServerCommandLine::Environment ServerCommandLine::currentEnvironment() {
    return {qEnvironmentVariable("DISPLAY"), qEnvironmentVariable("WAYLAND_DISPLAY"),
            qEnvironmentVariable("QT_QPA_PLATFORM")};
}

bool noDisplay(const ServerCommandLine::Environment& env, const QString& platformArgument) {
    const QString platform = (platformArgument.isEmpty() ? env.qpaPlatform : platformArgument).section(QLatin1Char(':'), 0, 0);
    if (platform == QLatin1String("offscreen") || platform == QLatin1String("minimal")) return true;
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    if (platform.isEmpty() || platform == QLatin1String("xcb") || platform.startsWith(QLatin1String("wayland")))
        return env.display.isEmpty() && env.waylandDisplay.isEmpty();
#endif
    return false;
}

ServerCommandLine ServerCommandLine::parse(const QStringList& arguments, const Environment& env) {
    ServerCommandLine r;
    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions); // Qt's own -platform NAME
    p.setApplicationDescription(QStringLiteral("UA Workbench OPC UA server: a window to administer it, or --headless.\n"
                                               "Options override the configuration file (--config)."));
    const QCommandLineOption help = p.addHelpOption();
    const QCommandLineOption version = p.addVersionOption();
    const QCommandLineOption config(QStringLiteral("config"),
                                    QStringLiteral("Configuration file (JSON; default %1).").arg(ServerSettings::defaultPath()),
                                    QStringLiteral("file"));
    const QCommandLineOption headless(QStringLiteral("headless"), QStringLiteral("Run without a window (also when there is no display)."));
    const QCommandLineOption window(QStringLiteral("window"), QStringLiteral("Open the window even when no display was detected."));
    const QCommandLineOption port(QStringLiteral("port"), QStringLiteral("TCP port (default 4840; 0 = any free port)."), QStringLiteral("port"));
    const QCommandLineOption host(QStringLiteral("host"), QStringLiteral("Host name in the endpoint URL."), QStringLiteral("host"));
    const QCommandLineOption threads(QStringLiteral("threads"), QStringLiteral("I/O threads (0: one per core but one, at least one)."), QStringLiteral("n"));
    const QCommandLineOption pki(QStringLiteral("pki"),
                                 QStringLiteral("Certificate store folder (own/, trusted/, issuers/, rejected/); "
                                                "default: the application data folder's pki/."),
                                 QStringLiteral("dir"));
    const QCommandLineOption secure(QStringLiteral("secure"), QStringLiteral("Offer no None endpoint and no anonymous login."));
    const QCommandLineOption demoEvents(QStringLiteral("demo-events-ms"),
                                        QStringLiteral("Period of the demo events raised by the Server object (ms; 0 = none)."),
                                        QStringLiteral("ms"));
    const QCommandLineOption maxSessions(QStringLiteral("max-sessions"), QStringLiteral("Sessions at most (CreateSession beyond: Bad_TooManySessions)."),
                                         QStringLiteral("n"));
    const QCommandLineOption maxChannels(QStringLiteral("max-channels"),
                                         QStringLiteral("Connections at most; keep it above --max-sessions (beyond: ERR Bad_TcpServerTooBusy)."),
                                         QStringLiteral("n"));
    const QCommandLineOption maxSubscriptions(QStringLiteral("max-subscriptions"),
                                              QStringLiteral("Subscriptions at most, server-wide (CreateSubscription beyond: "
                                                             "Bad_TooManySubscriptions; 0 = no limit; default 5000)."),
                                              QStringLiteral("n"));
    const QCommandLineOption maxHandshakes(QStringLiteral("max-handshakes"),
                                           QStringLiteral("Channels in their handshake at once (Hello until a Session is activated); "
                                                          "a Hello beyond: ERR Bad_TcpServerTooBusy (0 = no bound; -1, the default: 8 per I/O thread)."),
                                           QStringLiteral("n"));
    const QCommandLineOption maxPending(QStringLiteral("max-pending-sessions"),
                                        QStringLiteral("Sessions created and not yet activated at once; CreateSession beyond: "
                                                       "Bad_ServerTooBusy (0 = no bound; -1, the default: as --max-handshakes)."),
                                        QStringLiteral("n"));
    const QCommandLineOption helloTimeout(QStringLiteral("hello-timeout"),
                                          QStringLiteral("A connection without a complete Hello this long after it was accepted gets "
                                                         "ERR Bad_Timeout and is closed (ms, 1..120000; default 10000)."),
                                          QStringLiteral("ms"));
    const QCommandLineOption maxQueued(QStringLiteral("max-queued-responses"),
                                       QStringLiteral("A connection stops reading while more of its responses are unwritten "
                                                      "(resumes at half; 0 = never; default 100)."),
                                       QStringLiteral("n"));
    const QCommandLineOption shutdownDelay(QStringLiteral("shutdown-delay"),
                                           QStringLiteral("Seconds between SIGINT/SIGTERM (or Stop) and closing the Sessions, "
                                                          "while ServerState is Shutdown (default 2)."),
                                           QStringLiteral("seconds"));
    const QCommandLineOption lag = hidden({QStringLiteral("gui-lag-report"),
                                           QStringLiteral("Measure the GUI thread's 10 ms timer lag for SECONDS, print p50/p99/max, exit."),
                                           QStringLiteral("seconds")});
    const QCommandLineOption shots = hidden({QStringLiteral("screenshots"), QStringLiteral("Save one PNG per page into DIR, exit."),
                                             QStringLiteral("dir")});
    const QCommandLineOption shotsAfter = hidden({QStringLiteral("screenshots-after"),
                                                  QStringLiteral("Seconds of live data before --screenshots (default 10)."),
                                                  QStringLiteral("seconds")});
    const QCommandLineOption page = hidden({QStringLiteral("page"), QStringLiteral("The page shown first (sessions, diagnostics, ...)."),
                                            QStringLiteral("name")});
    const QCommandLineOption sessionsFilter = hidden({QStringLiteral("sessions-filter"),
                                                      QStringLiteral("The Sessions page's filter text."), QStringLiteral("text")});
    const QCommandLineOption sessionsSort = hidden({QStringLiteral("sessions-sort"),
                                                    QStringLiteral("Sort the Sessions page by a column (Name, Requests, ...; "
                                                                   "-COLUMN descending)."),
                                                    QStringLiteral("column")});
    const QCommandLineOption nodeSet(QStringLiteral("nodeset"),
                                     QStringLiteral("Load a NodeSet2 file (OPC 10000-6 Annex F) at start; repeat for several, "
                                                    "in any order (they load in the order of their RequiredModels)."),
                                     QStringLiteral("file"));
    const QCommandLineOption reverseConnect(QStringLiteral("reverse-connect"),
                                            QStringLiteral("Reverse Connect (OPC 10000-6 7.1.3): dial this client listener "
                                                           "(opc.tcp://host:port) and keep a spare connection open to it; "
                                                           "repeat for several."),
                                            QStringLiteral("url"));
    const QCommandLineOption platform = hidden({QStringLiteral("platform"), QStringLiteral("Qt platform plugin."), QStringLiteral("name")});
    for (const auto& o : {config, headless, window, port, host, threads, pki, secure, demoEvents, maxSessions, maxChannels,
                          maxSubscriptions, maxHandshakes, maxPending, helloTimeout, maxQueued, shutdownDelay, lag, shots, shotsAfter, page,
                          sessionsFilter, sessionsSort, nodeSet, reverseConnect, platform})
        p.addOption(o);

    auto fail = [&](const QString& why) {
        r.action = Action::Error;
        r.message = why;
        return r;
    };
    if (!p.parse(arguments)) return fail(p.errorText());
    if (p.isSet(help)) {
        r.action = Action::Help;
        r.message = p.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("ua-server"));
        return r;
    }
    if (p.isSet(version)) {
        r.action = Action::Version;
        r.message = QStringLiteral("ua-server " UA_WORKBENCH_VERSION "\n");
        return r;
    }
    if (!p.positionalArguments().isEmpty()) return fail(QStringLiteral("unexpected argument: ") + p.positionalArguments().first());

    r.configGiven = p.isSet(config);
    r.configPath = r.configGiven ? p.value(config) : ServerSettings::defaultPath();
    QString error;
    if (!r.settings.load(r.configPath, &error, &r.configExisted)) return fail(error);
    // A --config file that does not exist yet runs with the defaults; the window's Save creates it.

    auto number = [&](const QCommandLineOption& o, double lo, double hi, auto* out) {
        if (!p.isSet(o)) return true;
        bool ok = false;
        const double v = p.value(o).toDouble(&ok);
        if (!ok || v < lo || v > hi || v != double(qint64(v))) {
            error = QStringLiteral("--%1: expected a whole number in [%2, %3]").arg(o.names().first()).arg(lo).arg(hi);
            return false;
        }
        *out = std::remove_pointer_t<decltype(out)>(v);
        return true;
    };
    ServerSettings& s = r.settings;
    if (!number(port, 0, 65535, &s.port) || !number(threads, 0, 256, &s.ioThreads) ||
        !number(demoEvents, 0, 3'600'000, &s.demoEventsMs) || !number(maxSessions, 1, 1'000'000, &s.maxSessions) ||
        !number(maxChannels, 1, 1'000'000, &s.maxChannels) ||
        !number(maxSubscriptions, 0, 10'000'000, &s.subscriptions.maxSubscriptions) || !number(shutdownDelay, 0, 3600, &s.shutdownDelaySeconds) ||
        !number(lag, 1, 3600, &r.guiLagReportSeconds) || !number(shotsAfter, 0, 3600, &r.screenshotsAfterSeconds) ||
        !number(maxHandshakes, -1, 1'000'000, &s.admission.maxHandshakes) ||
        !number(maxPending, -1, 1'000'000, &s.admission.maxPendingSessions) ||
        !number(helloTimeout, 1, 120'000, &s.admission.helloTimeoutMs) ||
        !number(maxQueued, 0, 1'000'000, &s.backpressure.maxQueuedResponses))
        return fail(error);
    if (p.isSet(maxQueued)) s.backpressure.resumeQueuedResponses = s.backpressure.maxQueuedResponses / 2;
    if (p.isSet(host)) s.hostName = p.value(host);
    if (p.isSet(pki)) s.pkiDir = p.value(pki);
    if (p.isSet(secure)) s.applySecureProfile();
    for (const QString& file : p.values(nodeSet)) s.nodeSetFiles << file;
    for (const QString& url : p.values(reverseConnect)) {
        QString why;
        if (!validReverseConnectUrl(url, &why)) return fail(QStringLiteral("--reverse-connect: ") + why);
        if (!s.reverseConnect.clientUrls.contains(url.trimmed())) s.reverseConnect.clientUrls << url.trimmed();
    }
    r.screenshotsDir = p.value(shots);
    r.firstPage = p.value(page);
    r.sessionsFilter = p.value(sessionsFilter);
    r.sessionsSort = p.value(sessionsSort);

    const bool wantsWindow = p.isSet(window) || r.guiLagReportSeconds > 0 || !r.screenshotsDir.isEmpty();
    r.headless = p.isSet(headless) || (!wantsWindow && noDisplay(env, p.value(platform)));
    if (r.headless && (r.guiLagReportSeconds > 0 || !r.screenshotsDir.isEmpty()))
        return fail(QStringLiteral("--gui-lag-report and --screenshots need the window (not --headless)"));
    return r;
}

} // namespace ua::app
