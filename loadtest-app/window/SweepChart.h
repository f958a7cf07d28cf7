// A chart of one figure per step against the sessions of the sweep (Qt Charts): the sessions values
// evenly spaced on a category axis (1, 2, 5, 10, 20, ... read left to right), one line per series
// (one per outstanding value; in the Compare window one per run and outstanding value, run B
// dashed). The y axis is linear from 0, or logarithmic (latency) with bounds at powers of 10.
#pragma once

#include <QChartView>
#include <QPen>
#include <map>
#include <vector>

class QCategoryAxis;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;
class QAbstractAxis;

namespace ua::loadtest {

// The color of the n-th outstanding value (the same in every chart of the window).
QColor seriesColor(int n);
// A log axis range [10^a, 10^b] holding [lo, hi] (both > 0); a decade at least.
std::pair<double, double> logRange(double lo, double hi);
// A linear axis of counts from 0 to a nice number above top (nothing yet, top 0: 0..10), labelled
// with as many decimals as its tick interval needs, so no two ticks read the same (a 0..1 axis
// printed with %.0f read "0, 0, 1, 1, 1": issue 27 item 11).
void fitCountAxis(QValueAxis* axis, double top);

class SweepChart : public QChartView {
    Q_OBJECT
public:
    SweepChart(const QString& title, const QString& yTitle, bool logY, QWidget* parent = nullptr);

    // The sessions values of the x axis (ascending); points of other values are added to it.
    void setSessions(std::vector<int> sessions);
    // Removes every series (the axis keeps its sessions).
    void clearSeries();
    // Adds (sessions, y) to the series named `name` (created with this pen). y <= 0 on a log axis
    // is not plotted.
    void addPoint(const QString& name, const QPen& pen, int sessions, double y);
    // Shows or hides a series' entry in the legend (a series drawn as a variant of a listed one,
    // e.g. dashed, that the title explains). Nothing when the series does not exist yet.
    void setLegendShown(const QString& name, bool shown);
    // Points of a series (0 when it does not exist).
    int pointCount(const QString& name) const;
    int seriesCount() const { return int(m_series.size()); }
    int totalPoints() const;

private:
    struct Series {
        QLineSeries* line;
        std::vector<std::pair<int, double>> points;  // (sessions, y)
    };
    void rebuildAxis();
    void replot();

    QCategoryAxis* m_x;
    QAbstractAxis* m_y;
    bool m_logY;
    std::vector<int> m_sessions;
    std::map<QString, Series> m_series;
};

} // namespace ua::loadtest
