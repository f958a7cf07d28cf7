#include "window/WindowMain.h"

#include "cli/CommandLine.h"
#include "CommandInvocation.h"
#include "GuiLagProbe.h"
#include "window/MainWindow.h"
#include "window/ScreenshotTour.h"
#include "window/SetupPanel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QRadioButton>
#include <QSpinBox>
#include <QTimer>
#include <cstdio>

namespace ua::loadtest {

using app::GuiLagProbe;
using app::LagFigures;

namespace {

QCommandLineOption hidden(const QString& name, const QString& description, const QString& value) {
    QCommandLineOption o(name, description, value);
    o.setFlags(QCommandLineOption::HiddenFromHelp);
    return o;
}

} // namespace

int runWindow(int argc, char** argv) {
    if (!app::haveDisplay()) return app::explainNoDisplay("ua-loadtest", runCommandLine);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ua-loadtest"));
    QApplication::setOrganizationName(QStringLiteral("ua-workbench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("UA Workbench load tester: the window (see ua-loadtest --help for the command line)"));
    parser.addHelpOption();
    const QCommandLineOption endpointOption(QStringLiteral("endpoint"), QStringLiteral("The endpoint URL to load."), QStringLiteral("url"));
    const QCommandLineOption pidOption(QStringLiteral("server-pid"), QStringLiteral("The server's process id (its CPU and RSS are measured)."), QStringLiteral("pid"));
    const QCommandLineOption labelOption(QStringLiteral("label"), QStringLiteral("The run's label."), QStringLiteral("text"));
    const QCommandLineOption openOption(QStringLiteral("open"), QStringLiteral("Open this saved run."), QStringLiteral("file"));
    const QCommandLineOption shotsOption = hidden(QStringLiteral("screenshots"), QStringLiteral("Run two sweeps, take screenshots into dir and exit (needs --endpoint)."), QStringLiteral("dir"));
    const QCommandLineOption compareEndpointOption = hidden(QStringLiteral("compare-endpoint"), QStringLiteral("Screenshots: the endpoint of run B."), QStringLiteral("url"));
    const QCommandLineOption comparePidOption = hidden(QStringLiteral("compare-server-pid"), QStringLiteral("Screenshots: the server pid of run B."), QStringLiteral("pid"));
    const QCommandLineOption compareLabelOption = hidden(QStringLiteral("compare-label"), QStringLiteral("Screenshots: the label of run B."), QStringLiteral("text"));
    const QCommandLineOption lagOption = hidden(QStringLiteral("gui-lag-report"), QStringLiteral("Print the GUI timer lag after this many seconds and exit."), QStringLiteral("seconds"));
    // A sweep set up and started from the command line (measurements of the window at scale, e.g.
    // with --gui-lag-report: docs/Benchmarks.md): the set-up panel's fields, then Start.
    const QCommandLineOption sessionsOption = hidden(QStringLiteral("sessions"), QStringLiteral("The sweep's sessions list."), QStringLiteral("list"));
    const QCommandLineOption outstandingOption = hidden(QStringLiteral("outstanding"), QStringLiteral("The sweep's outstanding list."), QStringLiteral("list"));
    const QCommandLineOption rateOption = hidden(QStringLiteral("rate"), QStringLiteral("Open loop at this many requests/s."), QStringLiteral("r"));
    const QCommandLineOption durationOption = hidden(QStringLiteral("duration"), QStringLiteral("Measured seconds per step."), QStringLiteral("s"));
    const QCommandLineOption timeoutOption = hidden(QStringLiteral("timeout"), QStringLiteral("Request timeout (ms)."), QStringLiteral("ms"));
    QCommandLineOption startOption(QStringLiteral("start"), QStringLiteral("Start the sweep at once."));
    startOption.setFlags(QCommandLineOption::HiddenFromHelp);
    // The window's sweep against the command line's (issue 27 item 14): its run saved, then exit.
    const QCommandLineOption saveQuitOption =
        hidden(QStringLiteral("save-and-quit"), QStringLiteral("When the sweep is done, save the run as JSON to file and exit."), QStringLiteral("file"));
    parser.addPositionalArgument(QStringLiteral("run"), QStringLiteral("A saved run to open (as --open)."), QStringLiteral("[run.json]"));
    parser.addOptions({endpointOption, pidOption, labelOption, openOption, shotsOption, compareEndpointOption, comparePidOption,
                       compareLabelOption, lagOption, sessionsOption, outstandingOption, rateOption, durationOption, timeoutOption,
                       startOption, saveQuitOption});
    parser.process(app);

    MainWindow window;
    if (parser.isSet(endpointOption)) window.setup()->findChild<QLineEdit*>(QStringLiteral("endpointUrl"))->setText(parser.value(endpointOption));
    if (parser.isSet(pidOption)) window.setup()->findChild<QSpinBox*>(QStringLiteral("serverPid"))->setValue(parser.value(pidOption).toInt());
    if (parser.isSet(labelOption)) window.setup()->findChild<QLineEdit*>(QStringLiteral("runLabel"))->setText(parser.value(labelOption));
    QWidget* setup = window.setup();
    if (parser.isSet(sessionsOption)) setup->findChild<QLineEdit*>(QStringLiteral("sessionsList"))->setText(parser.value(sessionsOption));
    if (parser.isSet(outstandingOption))
        setup->findChild<QLineEdit*>(QStringLiteral("outstandingList"))->setText(parser.value(outstandingOption));
    if (parser.isSet(rateOption)) {
        setup->findChild<QRadioButton*>(QStringLiteral("openLoop"))->setChecked(true);
        setup->findChild<QDoubleSpinBox*>(QStringLiteral("targetRate"))->setValue(parser.value(rateOption).toDouble());
    }
    if (parser.isSet(durationOption)) setup->findChild<QDoubleSpinBox*>(QStringLiteral("durationS"))->setValue(parser.value(durationOption).toDouble());
    if (parser.isSet(timeoutOption)) setup->findChild<QSpinBox*>(QStringLiteral("requestTimeoutMs"))->setValue(parser.value(timeoutOption).toInt());
    window.show();
    if (parser.isSet(saveQuitOption)) {
        QObject::connect(&window, &MainWindow::sweepFinished, &app, [&window, path = parser.value(saveQuitOption)] {
            QString error;
            const bool saved = window.saveRun(path, &error);
            if (!saved) std::fprintf(stderr, "ua-loadtest: %s\n", qPrintable(error));
            QApplication::exit(saved ? 0 : 1);
        });
    }
    if (parser.isSet(startOption)) QTimer::singleShot(0, &window, [&window] { window.startSweep(); });
    const QString runFile = parser.isSet(openOption) ? parser.value(openOption) : parser.positionalArguments().value(0);
    if (!runFile.isEmpty()) {
        QString error;
        if (!window.openRun(runFile, &error)) std::fprintf(stderr, "ua-loadtest: %s\n", qPrintable(error));
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
    if (parser.isSet(shotsOption) && parser.isSet(endpointOption)) {
        const TourTarget a{parser.value(endpointOption), parser.value(pidOption).toLongLong(),
                           parser.isSet(labelOption) ? parser.value(labelOption) : QStringLiteral("A")};
        const TourTarget b{parser.value(compareEndpointOption), parser.value(comparePidOption).toLongLong(),
                           parser.isSet(compareLabelOption) ? parser.value(compareLabelOption) : QStringLiteral("B")};
        auto* tour = new ScreenshotTour(&window, a, b, parser.value(shotsOption), &window);
        QObject::connect(tour, &ScreenshotTour::finished, &app, [](bool ok) { QApplication::exit(ok ? 0 : 1); });
        tour->start();
    }
    return QApplication::exec();
}

} // namespace ua::loadtest
