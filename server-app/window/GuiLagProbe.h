// Measures how late a 10 ms timer fires on the GUI thread (the window's responsiveness, issue 6:
// goal p99 under 50 ms with 1,000 Sessions). Lag of one tick = time since the previous tick - 10 ms
// (never negative). Behind the hidden option --gui-lag-report SECONDS.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <vector>

namespace ua::app {

struct LagFigures {
    std::size_t samples = 0;
    double p50Ms = 0;
    double p99Ms = 0;
    double maxMs = 0;
};

// Percentiles of lags (ms) by nearest rank.
LagFigures lagFigures(std::vector<double> lagsMs);

class GuiLagProbe : public QObject {
    Q_OBJECT
public:
    explicit GuiLagProbe(QObject* parent = nullptr);
    // Runs for durationMs, then emits finished.
    void start(int durationMs);

signals:
    void finished(const ua::app::LagFigures& figures);

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    qint64 m_endNs = 0;
    std::vector<double> m_lags;
};

} // namespace ua::app
