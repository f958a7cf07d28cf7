#include "WindowMode.h"

#include "AddressSpacePage.h"
#include "HistoryPage.h"
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
#include <QFile>
#include <QTemporaryDir>

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
    if (auto* history = window.findChild<HistoryPage*>()) {
        // The History page refreshes only while shown: a refresh of what was sampled by now.
        tabs->setCurrentWidget(history);
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 2500) QApplication::processEvents(QEventLoop::AllEvents, 50);
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
    if (auto* space = window.findChild<AddressSpacePage*>()) {
        // The errors dialog of Import NodeSet...: a file with an unknown DataType, a Value that is
        // not an Int32 and a reference to a node that does not exist loads nothing and lists each.
        tabs->setCurrentWidget(space);
        QTemporaryDir scratch;
        const QString broken = scratch.filePath(QStringLiteral("Plant.NodeSet2.xml"));
        QFile f(broken);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(R"(<?xml version="1.0" encoding="utf-8"?>
<UANodeSet xmlns="http://opcfoundation.org/UA/2011/03/UANodeSet.xsd">
  <NamespaceUris><Uri>urn:example:plant</Uri></NamespaceUris>
  <Models><Model ModelUri="urn:example:plant" Version="1.0.0" PublicationDate="2026-11-01T00:00:00Z">
    <RequiredModel ModelUri="http://opcfoundation.org/UA/" Version="1.05.02" PublicationDate="2022-11-01T00:00:00Z"/>
  </Model></Models>
  <Aliases><Alias Alias="Int32">i=6</Alias><Alias Alias="HasTypeDefinition">i=40</Alias><Alias Alias="Organizes">i=35</Alias><Alias Alias="HasComponent">i=47</Alias></Aliases>
  <UAObject NodeId="ns=1;i=1" BrowseName="1:Line1" ParentNodeId="i=85">
    <DisplayName>Line1</DisplayName>
    <References><Reference ReferenceType="HasTypeDefinition">i=61</Reference><Reference ReferenceType="Organizes" IsForward="false">i=85</Reference></References>
  </UAObject>
  <UAVariable NodeId="ns=1;i=2" BrowseName="1:Speed" DataType="ns=1;i=3005" ParentNodeId="ns=1;i=1">
    <DisplayName>Speed</DisplayName>
    <References><Reference ReferenceType="HasTypeDefinition">i=63</Reference><Reference ReferenceType="HasComponent" IsForward="false">ns=1;i=1</Reference></References>
  </UAVariable>
  <UAVariable NodeId="ns=1;i=3" BrowseName="1:Count" DataType="Int32" ParentNodeId="ns=1;i=1">
    <DisplayName>Count</DisplayName>
    <References><Reference ReferenceType="HasTypeDefinition">i=63</Reference><Reference ReferenceType="HasComponent" IsForward="false">ns=1;i=1</Reference></References>
    <Value><Int32 xmlns="http://opcfoundation.org/UA/2008/02/Types.xsd">twelve</Int32></Value>
  </UAVariable>
  <UAVariable NodeId="ns=1;i=4" BrowseName="1:Mode" DataType="Int32" ParentNodeId="ns=1;i=1">
    <DisplayName>Mode</DisplayName>
    <References><Reference ReferenceType="HasTypeDefinition">i=63</Reference><Reference ReferenceType="HasComponent" IsForward="false">ns=1;i=99</Reference></References>
  </UAVariable>
</UANodeSet>
)");
            f.close();
            bool done = false;
            QObject::connect(space, &AddressSpacePage::nodeSetsImported, space, [&done] { done = true; });
            space->importNodeSets({broken});
            QElapsedTimer t;
            t.start();
            while (!done && t.elapsed() < 10000) QApplication::processEvents(QEventLoop::AllEvents, 50);
            for (int k = 0; k < 5; ++k) QApplication::processEvents();
            auto* dialog = qobject_cast<QWidget*>(window.findChild<QObject*>(QStringLiteral("nodeSetErrorsDialog")));
            const QString path = QStringLiteral("%1/%2-nodeSetErrors.png").arg(dir).arg(tabs->count() + 1);
            const bool saved = dialog && dialog->grab().save(path);
            std::printf("screenshot %s %s\n", qPrintable(path), saved ? "saved" : "FAILED");
            ok = ok && saved;
            if (dialog) dialog->close();
        }
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
