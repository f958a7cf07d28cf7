// The command line of ua-server: which configuration file, the options that override it, and the
// start-up mode (window or headless). Parsed before any QCoreApplication/QApplication exists, since
// the mode decides which one to create.
//
// Mode: headless with --headless, and also when there is no display: on Linux neither DISPLAY nor
// WAYLAND_DISPLAY is set, or QT_QPA_PLATFORM (or -platform) names offscreen or minimal. --window
// forces the window (tests under the offscreen platform, screenshots).
#pragma once

#include "ServerSettings.h"

#include <QString>
#include <QStringList>

namespace ua::app {

struct ServerCommandLine {
    enum class Action { Run, Help, Version, Error };
    Action action = Action::Run;
    QString message;            // the help or version text, or the error

    QString configPath;         // --config, or ServerSettings::defaultPath()
    bool configGiven = false;   // --config was given
    ServerSettings settings;    // the file's settings with the command-line overrides applied
    bool configExisted = false; // the file was there
    bool headless = false;      // the decided mode
    // Hidden options for measurements and documentation:
    int guiLagReportSeconds = 0; // --gui-lag-report SECONDS: the GUI thread's timer lag, then exit
    QString screenshotsDir;      // --screenshots DIR: one PNG per page, then exit
    int screenshotsAfterSeconds = 10; // --screenshots-after: seconds of live data first
    QString firstPage;           // --page NAME: the page shown first ("sessions" for sessionsPage)
    QString sessionsFilter;      // --sessions-filter TEXT: the Sessions page's filter text
    QString sessionsSort;        // --sessions-sort COLUMN: sorted by it ("-COLUMN": descending)

    // Parses arguments (argv, the program name first), loads the configuration file and applies the
    // overrides; env decides the mode when neither --headless nor --window is given.
    struct Environment {
        QString display;
        QString waylandDisplay;
        QString qpaPlatform;
    };
    static Environment currentEnvironment();
    static ServerCommandLine parse(const QStringList& arguments, const Environment& env);
};

// True when env (and a -platform argument) leave no display for a window.
bool noDisplay(const ServerCommandLine::Environment& env, const QString& platformArgument);

} // namespace ua::app
