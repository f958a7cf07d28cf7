#include "window/WindowMain.h"

#include "cli/CommandLine.h"
#include "core/Connection.h"
#include "CommandInvocation.h"
#include "GuiLagProbe.h"
#include "window/MainWindow.h"
#include "window/ScreenshotTour.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

namespace ua::clientapp {

using app::GuiLagProbe;
using app::LagFigures;

int runWindow(int argc, char** argv) {
    if (!app::haveDisplay()) return app::explainNoDisplay("ua-client", runCommandLine);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ua-client"));
    QApplication::setOrganizationName(QStringLiteral("ua-workbench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("UA Workbench client: the window (see ua-client --help for the command line)"));
    parser.addHelpOption();
    const QCommandLineOption connectOption(QStringLiteral("connect"), QStringLiteral("Connect to this endpoint URL at start."), QStringLiteral("url"));
    const QCommandLineOption projectOption(QStringLiteral("project"), QStringLiteral("Open this project file at start."), QStringLiteral("file"));
    const QCommandLineOption pkiOption(QStringLiteral("pki"), QStringLiteral("The client's certificate store."), QStringLiteral("dir"));
    QCommandLineOption shotsOption(QStringLiteral("screenshots"), QStringLiteral("Take screenshots of every view into dir and exit (needs --connect to a demo server)."), QStringLiteral("dir"));
    shotsOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption nodeShotOption(QStringLiteral("screenshot-node"), QStringLiteral("With --screenshots: only the attributes of this node, its Value expanded (a custom structure)."), QStringLiteral("node"));
    nodeShotOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption alarmsShotOption(QStringLiteral("screenshot-alarms"), QStringLiteral("With --screenshots: only the Alarms tab (against ua-server's demo alarms)."));
    alarmsShotOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption lagOption(QStringLiteral("gui-lag-report"), QStringLiteral("Print the GUI timer lag after this many seconds and exit."), QStringLiteral("seconds"));
    lagOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({connectOption, projectOption, pkiOption, shotsOption, nodeShotOption, alarmsShotOption, lagOption});
    parser.process(app);

    WindowOptions options;
    options.pkiDir = parser.value(pkiOption);
    MainWindow window(options);
    window.show();
    const bool tour = parser.isSet(shotsOption) && parser.isSet(connectOption);
    if (tour) {
        // The tour connects by itself (through the Connect dialog).
    } else if (parser.isSet(projectOption)) {
        QString error;
        if (!window.openProject(parser.value(projectOption), &error))
            std::fprintf(stderr, "ua-client: %s\n", qPrintable(error));
    } else if (parser.isSet(connectOption)) {
        ConnectionSettings s;
        s.endpointUrl = parser.value(connectOption);
        window.connectTo(s);
    }

    GuiLagProbe probe;
    if (parser.isSet(lagOption)) {
        QObject::connect(&probe, &GuiLagProbe::finished, &window, [](const LagFigures& f) {
            std::printf("gui-lag: %zu ticks of 10 ms: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", f.samples, f.p50Ms, f.p99Ms, f.maxMs);
            std::fflush(stdout);
            QApplication::exit(0);
        });
        probe.start(parser.value(lagOption).toInt() * 1000);
    }
    if (tour) {
        auto* shots = new ScreenshotTour(&window, parser.value(connectOption), parser.value(shotsOption), &window);
        QObject::connect(shots, &ScreenshotTour::finished, &app, [](bool ok) { QApplication::exit(ok ? 0 : 1); });
        if (parser.isSet(nodeShotOption)) {
            shots->startNode(parser.value(nodeShotOption));
        } else if (parser.isSet(alarmsShotOption)) {
            shots->startAlarms();
        } else {
            shots->start();
        }
    }
    return QApplication::exec();
}

} // namespace ua::clientapp
