#include "window/ScreenshotTour.h"

#include "core/Connection.h"
#include "models/MethodCallModel.h"
#include "models/MonitoredItemsModel.h"
#include "models/NodeIdMime.h"
#include "window/AddressPanel.h"
#include "window/AlarmsPanel.h"
#include "window/CallDialog.h"
#include "window/ConnectDialog.h"
#include "window/DataAccessPanel.h"
#include "window/EventsPanel.h"
#include "window/HistoryTrendPanel.h"
#include "window/MainWindow.h"
#include "window/NodePanel.h"
#include "models/AlarmsModel.h"
#include "models/AttributesModel.h"
#include "models/HistoryTrendModel.h"
#include "window/HistoryChartView.h"
#include "window/TrendPanel.h"
#include "window/TrustDialog.h"

#include <QApplication>
#include <QLineSeries>
#include <QPointer>
#include <memory>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
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
    // The History tab: the last minute of Sine (historized with ten minutes back-dated) and Counter
    // (since the server started), each on its own axis, and Setpoint, which has no history.
    then(100, [w] {
        w->historyTrend()->setLastMinutes(1, 5);
        std::vector<NodeId> nodes;
        for (const char* id : {"ns=1;s=Demo.Sine", "ns=1;s=Demo.Counter", "ns=1;s=Demo.Setpoint"}) nodes.push_back(*NodeId::parse(id));
        w->addToHistoryTrend(nodes);
    });
    then(3000, [w] {
        // A hovered point, as the label under the settings shows it.
        HistoryTrendPanel* h = w->historyTrend();
        if (h->model()->series().empty()) return;
        if (QLineSeries* line = h->chartView()->lineSeries(h->model()->series().front().key); line && line->count() > 40)
            emit line->hovered(line->at(line->count() - 40), true);
    });
    then(500, [this, w] {
        // The attributes are not what this view is about: the chart and the tables get their width.
        QDockWidget* nodeDock = w->findChild<QDockWidget*>(QStringLiteral("nodeDock"));
        if (nodeDock) w->resizeDocks({nodeDock}, {300}, Qt::Horizontal);
        QApplication::processEvents();
        shoot(w, QStringLiteral("client-10-history-trend"));
        if (nodeDock) w->resizeDocks({nodeDock}, {460}, Qt::Horizontal);
    });
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
    // The context menu of the absent optional Comment ("Add field Comment"), drawn into the shot
    // (a popup is a window of its own).
    auto popup = std::make_shared<QPointer<QMenu>>();
    then(800, [w, popup] {
        NodePanel* panel = w->nodePanel();
        AttributesModel* m = panel->attributes();
        QTreeView* view = panel->attributesView();
        QModelIndex comment;
        for (int r = 0; r < m->rowCount(m->valueIndex()); ++r)
            if (m->index(r, 0, m->valueIndex()).data().toString() == QLatin1String("Comment")) comment = m->index(r, 0, m->valueIndex());
        if (!comment.isValid()) return;
        auto* menu = new QMenu(w);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        panel->fillStructureMenu(menu, comment);
        view->setCurrentIndex(comment);
        const QRect cell = view->visualRect(comment.siblingAtColumn(AttributesModel::ValueColumn));
        menu->popup(view->viewport()->mapToGlobal(cell.topLeft() + QPoint(30, cell.height())));
        *popup = menu;
    });
    then(600, [this, w, popup] {
        const QString path = QStringLiteral("%1/client-9-custom-structure.png").arg(m_dir);
        QPixmap shot = w->grab();
        if (QMenu* menu = *popup) {
            QPainter painter(&shot);
            painter.drawPixmap(w->mapFromGlobal(menu->pos()), menu->grab());
            painter.end();
            menu->close();
        }
        const bool saved = shot.save(path);
        std::printf("screenshot %s %s\n", qPrintable(path), saved ? "saved" : "FAILED");
        std::fflush(stdout);
        m_ok = m_ok && saved;
    });
    next();
}

void ScreenshotTour::startAlarms() {
    QDir().mkpath(m_dir);
    MainWindow* w = m_window;
    then(300, [this, w] {
        ConnectionSettings s;
        s.endpointUrl = m_url;
        s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyNone);
        s.securityMode = MessageSecurityMode::None;
        w->connectTo(s);
    });
    then(3000, [w] { w->centerTabs()->setCurrentWidget(w->alarms()); });
    // BooleanOffNormal goes off normal (the demo's Boolean written false); the Sine and Ramp
    // alarms come and go with their signals meanwhile.
    then(1500, [w] {
        Client* c = w->connection()->client();
        if (!c) return;
        const int ns = c->nodeIdConverter().indexOf("urn:ua-workbench:demo");
        if (ns > 0) c->writeValue(NodeId(uint16_t(ns), "Demo.Scalars.Boolean"), Variant(false), nullptr, {});
    });
    then(15000, [w] {
        AlarmsPanel* a = w->alarms();
        for (int r = 0; r < a->model()->rowCount(); ++r) {
            if (a->model()->conditionAt(r)->conditionName != String("BooleanOffNormal")) continue;
            a->commentEdit()->setText(QStringLiteral("Pump checked, restarting"));
            a->selectRow(r);
            a->act(AlarmMethod::Acknowledge);
        }
    });
    then(2500, [this, w] {
        QDockWidget* nodeDock = w->findChild<QDockWidget*>(QStringLiteral("nodeDock"));
        if (nodeDock) w->resizeDocks({nodeDock}, {280}, Qt::Horizontal);
        if (auto* log = w->findChild<QDockWidget*>(QStringLiteral("logDock"))) w->resizeDocks({log}, {120}, Qt::Vertical);
        w->alarms()->view()->clearSelection();  // the rows in their colours; the result line says what was done
        w->alarms()->view()->resizeColumnsToContents();
        w->alarms()->journalView()->resizeColumnsToContents();
        QApplication::processEvents();
        shoot(w, QStringLiteral("client-11-alarms"));
    });
    next();
}

} // namespace ua::clientapp
