#include "LiveChart.h"

#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QValueAxis>
#include <cmath>

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
    : QChartView(parent), m_windowMs(windowMs) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setAnimationOptions(QChart::NoAnimation);
    m_x = new QDateTimeAxis;
    m_x->setFormat(QStringLiteral("hh:mm:ss"));
    m_x->setTickCount(5);
    m_y = new QValueAxis;
    m_y->setTitleText(unit);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setRange(0, m_minimumMax);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(360, 220);
    rescale(QDateTime::currentMSecsSinceEpoch());
}

int LiveChart::addSeries(const QString& name) {
    auto* s = new QLineSeries;
    s->setName(name);
    chart()->addSeries(s);
    s->attachAxis(m_x);
    s->attachAxis(m_y);
    m_series.push_back(s);
    return int(m_series.size()) - 1;
}

void LiveChart::append(int i, qint64 timeMs, double value) {
    QLineSeries* s = m_series[std::size_t(i)];
    s->append(double(timeMs), value);
    int old = 0;
    const qint64 oldest = timeMs - m_windowMs;
    while (old < s->count() && s->at(old).x() < double(oldest)) ++old;
    // Keep one point before the window so the line reaches the left edge.
    if (old > 1) s->removePoints(0, old - 1);
}

void LiveChart::rescale(qint64 nowMs) {
    double top = m_minimumMax;
    for (QLineSeries* s : m_series)
        for (int k = 0; k < s->count(); ++k) top = std::max(top, s->at(k).y());
    top = niceCeiling(top * 1.05);
    if (m_y->max() != top) {
        m_y->setRange(0, top);
        m_y->setLabelFormat(top < 5 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    }
    m_x->setRange(QDateTime::fromMSecsSinceEpoch(nowMs - m_windowMs), QDateTime::fromMSecsSinceEpoch(nowMs));
}

void LiveChart::clear() {
    for (QLineSeries* s : m_series) s->clear();
}

} // namespace ua::app
