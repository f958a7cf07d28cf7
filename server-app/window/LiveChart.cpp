#include "LiveChart.h"

#include <QLineSeries>
#include <QValueAxis>
#include <cmath>
#include <iterator>

namespace ua::app {

namespace {

// 1, 2, 5, 10, 20, 50, ... at or above v.
double niceCeiling(double v) {
    if (v <= 0) return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= v) return m * p;
    return 10 * p;
}

} // namespace

LiveChart::LiveChart(const QString& title, const QString& unit, qint64 windowMs, QWidget* parent)
    // The view takes the chart at construction: QChartView(parent) would make a default chart of its
    // own that setChart() releases without deleting (LeakSanitizer found 4 per window).
    : QChartView(new QChart, parent), m_windowMs(windowMs) {
    QChart* chart = this->chart();
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setAnimationOptions(QChart::NoAnimation);
    m_x = new QValueAxis;
    m_x->setTitleText(tr("seconds since start"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(0);
    m_x->setTickInterval(double(windowMs) / 1000.0 / 6.0);
    m_y = new QValueAxis;
    m_y->setTitleText(unit);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setTickInterval(m_minimumMax / 5);
    m_y->setRange(0, m_minimumMax);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(240, 220);
    rescale(0);
}

QColor LiveChart::seriesColor(int i) {
    // Tableau 10, then six more of other hues and lightness.
    static const QRgb kColours[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7,
                                    0x9c755f, 0xbab0ac, 0x1f3a93, 0x8cd17d, 0x7b1fa2, 0x00a3a3, 0xd4a6c8, 0x3b3b3b};
    constexpr int n = int(std::size(kColours));
    return QColor(kColours[((i % n) + n) % n]);
}

int LiveChart::addSeries(const QString& name) {
    auto* s = new QLineSeries;
    s->setName(name);
    chart()->addSeries(s);
    s->setColor(seriesColor(int(m_series.size())));  // after addSeries: the chart's theme colours it there
    s->attachAxis(m_x);
    s->attachAxis(m_y);
    m_series.push_back(s);
    return int(m_series.size()) - 1;
}

void LiveChart::append(int i, qint64 timeMs, double value) {
    if (m_originMs < 0) m_originMs = timeMs;
    QLineSeries* s = m_series[std::size_t(i)];
    s->append(double(timeMs - m_originMs) / 1000.0, value);
    int old = 0;
    const double oldest = double(timeMs - m_originMs - m_windowMs) / 1000.0;
    while (old < s->count() && s->at(old).x() < oldest) ++old;
    // Keep one point before the window so the line reaches the left edge.
    if (old > 1) s->removePoints(0, old - 1);
}

void LiveChart::rescale(qint64 nowMs) {
    double top = m_minimumMax;
    for (QLineSeries* s : m_series)
        for (int k = 0; k < s->count(); ++k) top = std::max(top, s->at(k).y());
    top = niceCeiling(top * 1.05);
    if (m_y->max() != top) {
        // The interval first: a range set with the old interval would lay out thousands of tick
        // labels when the range jumps (idle 2 to 20,000 requests/s took the GUI thread 18 s).
        m_y->setTickInterval(top / 5);
        m_y->setRange(0, top);
        m_y->setLabelFormat(top / 5 < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    }
    // The window ends now; before it is full, it starts at the first point.
    const double now = m_originMs < 0 ? 0 : double(nowMs - m_originMs) / 1000.0;
    const double span = double(m_windowMs) / 1000.0;
    m_x->setRange(std::max(0.0, now - span), std::max(span, now));
}

void LiveChart::clear() {
    for (QLineSeries* s : m_series) s->clear();
    m_originMs = -1;
}

} // namespace ua::app
