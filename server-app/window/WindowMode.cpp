#include "WindowMode.h"

#include "AddressSpacePage.h"
#include "GuiLagProbe.h"
#include "MainWindow.h"
#include "SessionsPage.h"
#include "ServerLifecycle.h"
#include "SignalWatcher.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTimer>
#include <csignal>

namespace ua::app {

namespace {

// Saves each page of the window as DIR/<n>-<page objectName>.png.
bool saveScreenshots(MainWindow& window, const QString& dir) {
    QDir().mkpath(dir);
    QTabWidget* tabs = window.pages();
    if (auto* space = window.findChild<AddressSpacePage*>()) {
        tabs->setCurrentWidget(space);
        space->expandPath({QStringLiteral("Objects"), QStringLiteral("Demo"), QStringLiteral("Simulation")});
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 1200) QApplication::processEvents(QEventLoop::AllEvents, 50); // values read
    }
    bool ok = true;
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        for (int k = 0; k < 5; ++k) QApplication::processEvents();
        const QString name = tabs->widget(i)->objectName().remove(QStringLiteral("Page"));
        const QString path = QStringLiteral("%1/%2-%3.png").arg(dir).arg(i + 1).arg(name);
        const bool saved = window.grab().save(path);
        std::printf("screenshot %s %s\n", qPrintable(path), saved ? "saved" : "FAILED");
        ok = ok && saved;
    }
    std::fflush(stdout);
    return ok;
}

} // namespace

int runWindow(const ServerCommandLine& commandLine) {
    MainWindow window(commandLine.settings, commandLine.configPath);
    if (!commandLine.firstPage.isEmpty())
        if (auto* page = window.pages()->findChild<QWidget*>(commandLine.firstPage + QStringLiteral("Page")))
            window.pages()->setCurrentWidget(page);
    if (auto* sessions = window.findChild<SessionsPage*>()) {
        if (!commandLine.sessionsFilter.isEmpty()) sessions->setFilterText(commandLine.sessionsFilter);
        const QString& sort = commandLine.sessionsSort;
        if (!sort.isEmpty() && !sessions->sortBy(sort.startsWith(QLatin1Char('-')) ? sort.mid(1) : sort,
                                                 sort.startsWith(QLatin1Char('-')) ? Qt::DescendingOrder : Qt::AscendingOrder))
            std::fprintf(stderr, "ua-server: --sessions-sort: no column %s\n", qPrintable(sort));
    }
    window.show();
    QString error;
    if (window.startServer(&error))
        printEndpoints(*window.server(), stdout);
    else
        std::fprintf(stderr, "ua-server: %s\n", qPrintable(error));

    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::received, &window, [&window](int number) {
        std::printf("ua-server: %s: shutting down in %u s\n", number == SIGINT ? "SIGINT" : "SIGTERM",
                    window.settings().shutdownDelaySeconds);
        std::fflush(stdout);
        window.stopServer([] { QApplication::exit(0); }, QString::fromLatin1(number == SIGINT ? "signal SIGINT" : "signal SIGTERM"));
    });

    GuiLagProbe probe;
    if (commandLine.guiLagReportSeconds > 0) {
        QObject::connect(&probe, &GuiLagProbe::finished, &window, [](const LagFigures& f) {
            std::printf("gui-lag: %zu ticks of 10 ms: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", f.samples, f.p50Ms, f.p99Ms, f.maxMs);
            std::fflush(stdout);
            QApplication::exit(0);
        });
        probe.start(commandLine.guiLagReportSeconds * 1000);
    }
    if (!commandLine.screenshotsDir.isEmpty()) {
        QTimer::singleShot(commandLine.screenshotsAfterSeconds * 1000, &window, [&window, dir = commandLine.screenshotsDir] {
            QApplication::exit(saveScreenshots(window, dir) ? 0 : 1);
        });
    }
    return QApplication::exec();
}

} // namespace ua::app
