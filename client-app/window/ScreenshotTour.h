// Screenshots of every view of the window with live data (scripts/client-screenshots.sh, behind the
// hidden option --screenshots DIR together with --connect URL of tests/clientapp/node_demo_server.js):
// the Connect dialog with the discovered endpoints, the trust dialog, the tree with the attributes
// of Demo.Setpoint (written in place), Data access with live values, the Trend, the Events, the
// History trend (Sine, Counter and Setpoint without history), the Call dialog after a call of
// Demo.Add, and the Log. Saved as DIR/client-<n>-<view>.png. Shorter tours: a custom structure's
// attributes (startNode) and the Alarms tab against ua-server's demo alarms (startAlarms).
#pragma once

#include <QObject>
#include <QString>
#include <deque>
#include <functional>

class QWidget;

namespace ua::clientapp {

class MainWindow;

class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    ScreenshotTour(MainWindow* window, QString url, QString dir, QObject* parent = nullptr);
    void start();
    // The short tour of --screenshot-node: connects to the URL (SecurityPolicy None), goes to node,
    // expands the attributes, opens the context menu of the absent optional field Comment and saves
    // DIR/client-9-custom-structure.png.
    void startNode(const QString& node);
    // The short tour of --screenshot-alarms, against ua-server with its demo alarms: connects (None),
    // opens the Alarms tab (subscribed, ConditionRefresh), acknowledges BooleanOffNormal with a
    // comment once its row is there and saves DIR/client-11-alarms.png.
    void startAlarms();

signals:
    void finished(bool ok);

private:
    void then(int delayMs, std::function<void()> step);
    void next();
    void shoot(QWidget* widget, const QString& name);

    MainWindow* m_window;
    QString m_url;
    QString m_dir;
    std::deque<std::pair<int, std::function<void()>>> m_steps;
    bool m_ok = true;
};

} // namespace ua::clientapp
