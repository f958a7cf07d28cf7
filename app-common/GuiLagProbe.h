// How late a 10 ms timer fires on the GUI thread: a window's responsiveness (the server app with
// 1,000 Sessions, issue 6; the client app against a server that never answers, issue 7 item 11:
// goal p99 under 50 ms). The lag of one tick is the time since the previous tick minus 10 ms (never
// negative), in ms. Shared by the apps' windows (ua-app-common).
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
    // Measures until stop() (or for durationMs when > 0, then emits finished).
    void start(int durationMs = 0);
    LagFigures stop();
    LagFigures figures() const { return lagFigures(m_lags); }

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
