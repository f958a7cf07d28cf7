// How late a 10 ms timer fires on the GUI thread: the window's responsiveness (issue 7 item 11:
// p99 under 50 ms against a server that accepts the connection and never answers). The lag of one
// tick is the time since the previous tick minus 10 ms (never negative), in ms.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <vector>

namespace ua::clientapp {

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
    void finished(const ua::clientapp::LagFigures& figures);

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    qint64 m_endNs = 0;
    std::vector<double> m_lags;
};

} // namespace ua::clientapp
