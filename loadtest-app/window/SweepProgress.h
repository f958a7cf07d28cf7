// The sweep's progress line above the charts: a bar over the planned steps ("7 of 10 steps") and
// the current step, its phase (connecting, warming up, measuring 2 of 3 s, ...) and about how long
// the sweep still takes (planned steps x (warm-up + duration); skipped steps make it shorter,
// connecting and draining longer). At the end the bar stands at the total and the line says how
// many steps ran and how many were skipped.
#pragma once

#include "engine/LoadRunner.h"
#include "engine/StepResult.h"

#include <QWidget>

class QLabel;
class QProgressBar;

namespace ua::loadtest {

// "1 session x 10 outstanding", "5 sessions x 1 outstanding".
QString stepTitle(int sessions, int outstanding);
// "1 step", "6 steps".
QString stepsText(int steps);

class SweepProgress : public QWidget {
    Q_OBJECT
public:
    explicit SweepProgress(QWidget* parent = nullptr);

    QProgressBar* bar() const { return m_bar; }
    QString text() const;

    void sweepStarted(int totalSteps, double warmupS, double durationS);
    void stepStarted(int index, int total, int sessions, int outstanding);
    void phaseChanged(LoadRunner::Phase phase);
    void sampleAt(double tS);   // a TimelineSample's tS
    void stepFinished();
    // The end: steps as they ran; those that failed (StepResult::error) are told apart from the
    // planned steps that never ran.
    void sweepFinished(const std::vector<StepResult>& steps);
    // No sweep running yet: the bar over the set-up's planned steps ("0 of 15 steps").
    void setPlanned(int steps);
    // Not running: the bar full and this text (an opened run).
    void showText(const QString& text);

private:
    void update();

    QProgressBar* m_bar;
    QLabel* m_label;
    bool m_running = false;
    bool m_finished = false;  // a sweep ended (or a run was opened): its summary stays until the next
    double m_warmupS = 0, m_durationS = 0, m_lastT = 0;
    int m_index = 0, m_total = 0, m_sessions = 0, m_outstanding = 0;
    LoadRunner::Phase m_phase = LoadRunner::Phase::Idle;
};

} // namespace ua::loadtest
