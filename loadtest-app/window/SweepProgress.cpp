#include "window/SweepProgress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <algorithm>
#include <cmath>

namespace ua::loadtest {

namespace {

QString phaseText(LoadRunner::Phase phase) {
    switch (phase) {
    case LoadRunner::Phase::Idle: return QObject::tr("starting");
    case LoadRunner::Phase::Connecting: return QObject::tr("connecting");
    case LoadRunner::Phase::WarmingUp: return QObject::tr("warming up");
    case LoadRunner::Phase::Measuring: return QObject::tr("measuring");
    case LoadRunner::Phase::Draining: return QObject::tr("waiting for the last answers");
    case LoadRunner::Phase::Closing: return QObject::tr("closing sessions");
    }
    return {};
}

QString durationText(double s) {
    if (s < 90) return QObject::tr("%1 s").arg(qRound(s));
    if (s < 5400) return QObject::tr("%1 min").arg(qRound(s / 60));
    return QObject::tr("%1 h %2 min").arg(int(s / 3600)).arg(qRound(std::fmod(s, 3600) / 60));
}

} // namespace

QString stepTitle(int sessions, int outstanding) {
    return (sessions == 1 ? QObject::tr("1 session") : QObject::tr("%1 sessions").arg(sessions)) +
           QObject::tr(" x %1 outstanding").arg(outstanding);
}

QString stepsText(int steps) {
    return steps == 1 ? QObject::tr("1 step") : QObject::tr("%1 steps").arg(steps);
}

SweepProgress::SweepProgress(QWidget* parent) : QWidget(parent), m_bar(new QProgressBar), m_label(new QLabel(tr("No sweep running"))) {
    setObjectName(QStringLiteral("sweepProgressRow"));
    m_bar->setObjectName(QStringLiteral("sweepProgress"));
    m_bar->setFormat(tr("%v of %m steps"));
    m_bar->setRange(0, 1);
    m_bar->setValue(0);
    m_bar->setMinimumWidth(220);
    m_label->setObjectName(QStringLiteral("stepLabel"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_bar, 1);
    row->addWidget(m_label, 2);
}

QString SweepProgress::text() const {
    return m_label->text();
}

void SweepProgress::sweepStarted(int totalSteps, double warmupS, double durationS) {
    m_running = true;
    m_finished = false;
    m_total = totalSteps;
    m_index = 0;
    m_sessions = m_outstanding = 0;
    m_warmupS = warmupS;
    m_durationS = durationS;
    m_lastT = -warmupS;
    m_phase = LoadRunner::Phase::Idle;
    m_bar->setRange(0, std::max(1, totalSteps));
    m_bar->setValue(0);
    m_label->setText(tr("Starting a sweep of %1").arg(stepsText(totalSteps)));
}

void SweepProgress::stepStarted(int index, int total, int sessions, int outstanding) {
    m_index = index;
    m_total = total;
    m_sessions = sessions;
    m_outstanding = outstanding;
    m_lastT = -m_warmupS;
    m_bar->setRange(0, std::max(1, total));
    m_bar->setValue(index);
    update();
}

void SweepProgress::phaseChanged(LoadRunner::Phase phase) {
    m_phase = phase;
    update();
}

void SweepProgress::sampleAt(double tS) {
    m_lastT = tS;
    update();
}

void SweepProgress::stepFinished() {
    m_bar->setValue(std::min(m_index + 1, m_bar->maximum()));
}

void SweepProgress::sweepFinished(const std::vector<StepResult>& steps) {
    m_running = false;
    m_finished = true;
    m_bar->setValue(m_bar->maximum());
    const int stepsRun = int(steps.size());
    const int skipped = m_total - stepsRun;
    int failed = 0;
    QString firstError;
    for (const StepResult& s : steps)
        if (!s.error.isEmpty() && failed++ == 0) firstError = s.error;
    QString text = tr("Sweep finished: %1").arg(stepsText(stepsRun));
    // A failed step is not a beaten server (issue 27 item 12): it says so, with its reason.
    if (failed > 0)
        text += failed < stepsRun ? tr(", %1 failed: %2").arg(QString::number(failed), firstError)
                : stepsRun == 1   ? tr(", it failed: %1").arg(firstError)
                                  : tr(", all failed: %1").arg(firstError);
    if (skipped > 0)
        text += failed > 0 ? tr("; %1 not run").arg(skipped) : tr(", %1 skipped (the server was beaten, or Stop)").arg(skipped);
    m_label->setText(text);
}

void SweepProgress::setPlanned(int steps) {
    if (m_running || m_finished) return;
    m_total = steps;
    m_bar->setRange(0, std::max(1, steps));
    m_bar->setValue(0);
    m_label->setText(steps > 0 ? tr("No sweep running: %1 planned").arg(stepsText(steps))
                               : tr("No sweep running: the set-up's lists are not valid"));
}

void SweepProgress::showText(const QString& text) {
    m_running = false;
    m_finished = true;
    m_bar->setValue(m_bar->maximum());
    m_label->setText(text);
}

void SweepProgress::update() {
    if (!m_running || m_sessions == 0) return;
    QString text = tr("Step %1 of %2: %3, %4").arg(m_index + 1).arg(m_total).arg(stepTitle(m_sessions, m_outstanding), phaseText(m_phase));
    if (m_phase == LoadRunner::Phase::Measuring || m_phase == LoadRunner::Phase::WarmingUp) {
        const double stepS = m_warmupS + m_durationS;
        const double inStep = std::clamp(m_lastT + m_warmupS, 0.0, stepS);
        if (m_phase == LoadRunner::Phase::Measuring)
            text += tr(" %1 of %2 s").arg(std::clamp(m_lastT, 0.0, m_durationS), 0, 'f', 0).arg(m_durationS, 0, 'f', 0);
        const double left = (m_total - m_index - 1) * stepS + (stepS - inStep);
        text += tr(" (about %1 left)").arg(durationText(left));
    }
    m_label->setText(text);
}

} // namespace ua::loadtest
