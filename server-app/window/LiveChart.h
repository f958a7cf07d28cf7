// A line chart of the last windowMs of live values (Qt Charts): a time axis in seconds since the
// first point, a value axis from 0 that grows with the data, and named series. Points are appended and the ones older than the
// window trimmed; series are never rebuilt.
#pragma once

#include <QChartView>
#include <QColor>
#include <QString>
#include <vector>

class QLineSeries;
class QValueAxis;

namespace ua::app {

class LiveChart : public QChartView {
    Q_OBJECT
public:
    LiveChart(const QString& title, const QString& unit, qint64 windowMs, QWidget* parent = nullptr);
    // A new series (drawn in the order added), in the i-th colour of seriesColor; returns its index.
    int addSeries(const QString& name);
    // 16 colours that tell apart (Qt's theme repeats after 5, and the Diagnostics page's requests
    // chart has up to 14 series); they repeat after 16.
    static QColor seriesColor(int i);
    int seriesCount() const { return int(m_series.size()); }
    // Appends (timeMs, any monotonic ms clock, value) to series i and drops the points older than the window.
    void append(int i, qint64 timeMs, double value);
    // Sets the axes to [now - window, now] and [0, the largest value shown (at least minimumMax)].
    void rescale(qint64 nowMs);
    void setMinimumMax(double v) { m_minimumMax = v; }
    void clear();
    QLineSeries* series(int i) const { return m_series[std::size_t(i)]; }

private:
    QValueAxis* m_x;
    qint64 m_originMs = -1;    // the first point's time: x = seconds since then
    QValueAxis* m_y;
    std::vector<QLineSeries*> m_series;
    qint64 m_windowMs;
    double m_minimumMax = 1;
};

} // namespace ua::app
