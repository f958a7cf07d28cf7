// Screenshots of the load tester's window with live data (scripts/loadtest-screenshots.sh, behind
// the hidden option --screenshots DIR): a sweep of read-1 (sessions 1,2,5,10,20 x outstanding 1,10,
// 3 s steps after a 1 s warm-up, p99 stop rule at 100x) against target A, shot while its later steps run
// (DIR/loadtest-sweep.png: live charts, per-step charts, results table); then the same sweep
// against target B (another server, or the same one with two client I/O threads when no B is
// given), and the Compare window of A and B (DIR/loadtest-compare.png).
#pragma once

#include "engine/StepResult.h"

#include <QObject>
#include <QString>

class QWidget;

namespace ua::loadtest {

class MainWindow;

struct TourTarget {
    QString endpointUrl;
    qint64 serverPid = 0;
    QString label;
};

class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    ScreenshotTour(MainWindow* window, TourTarget a, TourTarget b, QString dir, QObject* parent = nullptr);
    void start();

signals:
    void finished(bool ok);

private:
    void startSweep(const TourTarget& target, int ioThreads);
    void shoot(QWidget* widget, const QString& name);
    void sweepFinished(const RunResult& run);

    MainWindow* m_window;
    TourTarget m_a, m_b;
    QString m_dir;
    int m_sweeps = 0;
    bool m_shotSweep = false;
    RunResult m_runA;
    bool m_ok = true;
};

} // namespace ua::loadtest
