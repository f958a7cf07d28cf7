#include "window/SweepChart.h"

#include <QCategoryAxis>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace ua::loadtest {

QColor seriesColor(int n) {
    static const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x5f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                    QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2),
                                    QColor(0x7f, 0x7f, 0x7f), QColor(0x17, 0xbe, 0xcf)};
    return colors[std::size_t(n) % std::size(colors)];
}

std::pair<double, double> logRange(double lo, double hi) {
    double a = std::floor(std::log10(std::max(lo, 1e-9)));
    double b = std::ceil(std::log10(std::max(hi, 1e-9)));
    if (b <= a) b = a + 1;
    // A hair wider than the decades, so that rounding (log10(0.1) = -0.99999...) keeps their labels.
    return {std::pow(10.0, a) * 0.999, std::pow(10.0, b) * 1.001};
}

void fitCountAxis(QValueAxis* axis, double top) {
    axis->setRange(0, top > 0 ? top * 1.1 : 10);
    axis->applyNiceNumbers();
    // As many decimals as the tick interval has (2.5 -> 1, 0.125 -> 3, 2000 -> 0).
    const double interval = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
    int decimals = 0;
    for (double scaled = interval; decimals < 3 && std::abs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, scaled); scaled *= 10)
        ++decimals;
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

SweepChart::SweepChart(const QString& title, const QString& yTitle, bool logY, QWidget* parent)
    : QChartView(new QChart, parent), m_x(new QCategoryAxis), m_logY(logY) {
    QChart* c = chart();
    c->setTitle(title);
    c->legend()->setAlignment(Qt::AlignBottom);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->setAnimationOptions(QChart::NoAnimation);
    // Repaint the whole view on a change: a point's marker is drawn a little outside its series'
    // bounding rectangle, and the partial updates of the default mode can leave a removed run's
    // markers on screen (the likely cause of issue 27 item 11's stray markers; a few charts of a
    // few dozen points cost nothing to repaint).
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    m_x->setTitleText(tr("sessions"));
    m_x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    c->addAxis(m_x, Qt::AlignBottom);
    if (logY) {
        auto* y = new QLogValueAxis;
        y->setBase(10);
        y->setLabelFormat(QStringLiteral("%g"));
        y->setMinorTickCount(8);
        y->setRange(0.1, 10);
        m_y = y;
    } else {
        auto* y = new QValueAxis;
        fitCountAxis(y, 0);
        m_y = y;
    }
    m_y->setTitleText(yTitle);
    c->addAxis(m_y, Qt::AlignLeft);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(260, 180);
    rebuildAxis();
}

void SweepChart::setSessions(std::vector<int> sessions) {
    std::sort(sessions.begin(), sessions.end());
    sessions.erase(std::unique(sessions.begin(), sessions.end()), sessions.end());
    m_sessions = std::move(sessions);
    rebuildAxis();
    replot();
}

void SweepChart::clearSeries() {
    for (auto& [name, s] : m_series) {
        chart()->removeSeries(s.line);
        delete s.line;
    }
    m_series.clear();
    replot();
}

void SweepChart::addPoint(const QString& name, const QPen& pen, int sessions, double y) {
    auto it = m_series.find(name);
    if (it == m_series.end()) {
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(pen);
        line->setPointsVisible(true);
        line->setMarkerSize(7);
        chart()->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        it = m_series.emplace(name, Series{line, {}}).first;
    }
    if (m_logY && y <= 0) return;
    it->second.points.emplace_back(sessions, y);
    std::sort(it->second.points.begin(), it->second.points.end());
    if (std::find(m_sessions.begin(), m_sessions.end(), sessions) == m_sessions.end()) {
        m_sessions.insert(std::upper_bound(m_sessions.begin(), m_sessions.end(), sessions), sessions);
        rebuildAxis();
    }
    replot();
}

void SweepChart::setLegendShown(const QString& name, bool shown) {
    const auto it = m_series.find(name);
    if (it == m_series.end()) return;
    for (QLegendMarker* m : chart()->legend()->markers(it->second.line)) m->setVisible(shown);
}

int SweepChart::pointCount(const QString& name) const {
    auto it = m_series.find(name);
    return it == m_series.end() ? 0 : int(it->second.points.size());
}

int SweepChart::totalPoints() const {
    int n = 0;
    for (const auto& [name, s] : m_series) n += int(s.points.size());
    return n;
}

void SweepChart::rebuildAxis() {
    for (const QString& label : m_x->categoriesLabels()) m_x->remove(label);
    for (std::size_t i = 0; i < m_sessions.size(); ++i) m_x->append(QString::number(m_sessions[i]), double(i));
    // Half a step of margin on each side so the first and last points are not on the frame.
    m_x->setRange(-0.3, std::max(0.3, double(m_sessions.size()) - 0.7));
}

void SweepChart::replot() {
    double lo = 0, hi = 0;
    bool any = false;
    for (auto& [name, s] : m_series) {
        QList<QPointF> pts;
        for (const auto& [sessions, y] : s.points) {
            const auto at = std::lower_bound(m_sessions.begin(), m_sessions.end(), sessions);
            pts.append(QPointF(double(at - m_sessions.begin()), y));
            lo = any ? std::min(lo, y) : y;
            hi = any ? std::max(hi, y) : y;
            any = true;
        }
        s.line->replace(pts);
    }
    if (m_logY) {
        const auto [a, b] = any ? logRange(lo, hi) : std::pair{0.1, 10.0};
        m_y->setRange(a, b);
    } else {
        fitCountAxis(static_cast<QValueAxis*>(m_y), any ? hi : 0);
    }
}

} // namespace ua::loadtest
