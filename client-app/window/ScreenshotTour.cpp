#include "window/ScreenshotTour.h"

#include "core/Connection.h"
#include "models/MethodCallModel.h"
#include "models/MonitoredItemsModel.h"
#include "models/NodeIdMime.h"
#include "window/AddressPanel.h"
#include "window/CallDialog.h"
#include "window/ConnectDialog.h"
#include "window/DataAccessPanel.h"
#include "window/EventsPanel.h"
#include "window/MainWindow.h"
#include "window/NodePanel.h"
#include "models/AttributesModel.h"
#include "window/TrendPanel.h"
#include "window/TrustDialog.h"

#include <QApplication>
#include <QPointer>
#include <memory>
#include <QDir>
#include <QDockWidget>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeView>
#include <cstdio>

namespace ua::clientapp {

ScreenshotTour::ScreenshotTour(MainWindow* window, QString url, QString dir, QObject* parent)
    : QObject(parent), m_window(window), m_url(std::move(url)), m_dir(std::move(dir)) {}

void ScreenshotTour::then(int delayMs, std::function<void()> step) {
    m_steps.emplace_back(delayMs, std::move(step));
}

void ScreenshotTour::next() {
    if (m_steps.empty()) {
        emit finished(m_ok);
        return;
    }
    auto [delay, step] = std::move(m_steps.front());
    m_steps.pop_front();
    QTimer::singleShot(delay, this, [this, step = std::move(step)] {
        step();
        next();
    });
}

void ScreenshotTour::shoot(QWidget* widget, const QString& name) {
    const QString path = QStringLiteral("%1/%2.png").arg(m_dir, name);
    const bool saved = widget && widget->grab().save(path);
    std::printf("screenshot %s %s\n", qPrintable(path), saved ? "saved" : "FAILED");
    std::fflush(stdout);
    m_ok = m_ok && saved;
}

void ScreenshotTour::start() {
    QDir().mkpath(m_dir);
    MainWindow* w = m_window;
    auto* dialog = new ConnectDialog(w->connection(), w->history(), w);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    then(500, [dialog, this] {
        ConnectionSettings s;
        s.endpointUrl = m_url;
        dialog->setSettings(s);
        dialog->show();
        dialog->discover();
    });
    // The discovered endpoints; then Connect to the best one (Basic256Sha256 SignAndEncrypt): the
    // trust dialog asks about the demo server's self-signed certificate.
    then(4000, [dialog, this] { shoot(dialog, QStringLiteral("client-1-connect")); });
    then(100, [dialog, w] {
        const ConnectionSettings s = dialog->settings();
        dialog->close();
        w->connectTo(s);
    });
    then(3000, [this] {
        for (QWidget* top : QApplication::topLevelWidgets())
            if (auto* trust = qobject_cast<TrustDialog*>(top); trust && trust->isVisible()) {
                shoot(trust, QStringLiteral("client-2-trust"));
                if (auto* once = trust->findChild<QPushButton*>(QStringLiteral("acceptOnce"))) once->click();
            }
    });
    then(3000, [w] { w->addressPanel()->goTo(QStringLiteral("ns=1;s=Demo.Setpoint")); });
    then(2500, [w] { w->nodePanel()->attributes()->writeText(QStringLiteral("42.5")); });
    then(1500, [this, w] { shoot(w, QStringLiteral("client-3-address")); });
    then(100, [w] {
        w->dataAccess()->setPublishingInterval(200);
        for (const char* id : {"ns=1;s=Demo.Counter", "ns=1;s=Demo.Sine", "ns=1;s=Demo.Setpoint", "ns=1;s=Demo.Message"})
            w->monitor(*NodeId::parse(id));
    });
    then(1500, [w] {
        MonitoredItemsModel* items = w->dataAccess()->model();
        for (int r = 0; r < items->rowCount(); ++r)
            if (items->displayNameAt(r) == QLatin1String("Sine") || items->displayNameAt(r) == QLatin1String("Counter")) items->setTrend(r, true);
        w->trend()->setWindowSeconds(60);
    });
    then(4000, [this, w] { shoot(w, QStringLiteral("client-4-data-access")); });
    then(100, [w] { w->centerTabs()->setCurrentWidget(w->events()); });
    then(6000, [this, w] { shoot(w, QStringLiteral("client-6-events")); });
    then(100, [w] { w->centerTabs()->setCurrentWidget(w->trend()); });
    then(18000, [this, w] { shoot(w, QStringLiteral("client-5-trend")); });
    auto call = std::make_shared<QPointer<CallDialog>>();
    then(100, [w, call] { *call = w->showCallDialog(*NodeId::parse("ns=1;s=Demo.Add"), *NodeId::parse("ns=1;s=Demo")); });
    then(2000, [call] {
        if (!*call) return;
        (*call)->model()->setInputText(0, QStringLiteral("2.5"));
        (*call)->model()->setInputText(1, QStringLiteral("4"));
        (*call)->call();
    });
    then(2000, [this, call] {
        shoot(*call, QStringLiteral("client-7-call"));
        if (*call) (*call)->close();
    });
    then(300, [this, w] {
        w->centerTabs()->setCurrentWidget(w->dataAccess());
        if (auto* log = w->findChild<QDockWidget*>(QStringLiteral("logDock"))) {
            w->resizeDocks({log}, {360}, Qt::Vertical);
            QApplication::processEvents();
            shoot(w, QStringLiteral("client-8-log"));
        }
    });
    next();
}

void ScreenshotTour::startNode(const QString& node) {
    QDir().mkpath(m_dir);
    MainWindow* w = m_window;
    then(300, [this, w] {
        ConnectionSettings s;
        s.endpointUrl = m_url;
        s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyNone);
        s.securityMode = MessageSecurityMode::None;
        w->connectTo(s);
    });
    then(3000, [w, node] { w->addressPanel()->goTo(node); });
    then(500, [w, node] {
        // The node in Data access too, with its one-line form.
        if (Client* c = w->connection()->client())
            if (auto id = parseUserNodeId(node, c->nodeIdConverter())) w->monitor(*id);
    });
    then(2500, [w] {
        // The Value's rows, the structure's fields, expanded.
        for (auto* view : w->nodePanel()->findChildren<QTreeView*>()) {
            if (!qobject_cast<AttributesModel*>(view->model())) continue;
            view->expandAll();
            view->resizeColumnToContents(0);
            view->resizeColumnToContents(1);
        }
    });
    then(800, [this, w] { shoot(w, QStringLiteral("client-9-custom-structure")); });
    next();
}

} // namespace ua::clientapp
