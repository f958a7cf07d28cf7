#include "window/TimelineCharts.h"

#include "window/SweepChart.h"

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace ua::loadtest {

namespace {

QLineSeries* line(QChart* chart, const QString& name, const QColor& color, qreal width = 2) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->setPen(QPen(color, width));
    // Markers too: a short step has few samples, and a single one draws no line.
    s->setPointsVisible(true);
    s->setMarkerSize(5);
    chart->addSeries(s);
    return s;
}

QLineSeries* marker(QChart* chart) {
    auto* s = new QLineSeries;
    s->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    chart->addSeries(s);
    for (QLegendMarker* m : chart->legend()->markers(s)) m->setVisible(false);
    return s;
}

QChart* newChart(const QString& title) {
    auto* c = new QChart;
    c->setTitle(title);
    c->legend()->setAlignment(Qt::AlignBottom);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->setAnimationOptions(QChart::NoAnimation);
    return c;
}

QValueAxis* timeAxis() {
    auto* t = new QValueAxis;
    t->setTitleText(QObject::tr("seconds (warm-up before 0)"));
    t->setLabelFormat(QStringLiteral("%.0f"));
    return t;
}

void attach(QLineSeries* s, QAbstractAxis* x, QAbstractAxis* y) {
    s->attachAxis(x);
    s->attachAxis(y);
}

} // namespace

TimelineCharts::TimelineCharts(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timelineCharts"));
    QChart* tc = newChart(tr("Throughput"));
    m_tThroughput = timeAxis();
    m_requestsAxis = new QValueAxis;
    m_requestsAxis->setTitleText(tr("requests/s"));
    m_requestsAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_valuesAxis = new QValueAxis;
    m_valuesAxis->setTitleText(tr("values/s"));
    m_valuesAxis->setLabelFormat(QStringLiteral("%.0f"));
    tc->addAxis(m_tThroughput, Qt::AlignBottom);
    tc->addAxis(m_requestsAxis, Qt::AlignLeft);
    tc->addAxis(m_valuesAxis, Qt::AlignRight);
    m_requests = line(tc, tr("requests/s"), seriesColor(0), 2.5);
    m_values = line(tc, tr("values/s (right)"), seriesColor(1), 1.5);
    m_startThroughput = marker(tc);
    m_target = line(tc, tr("target rate"), QColor(0xb0, 0x00, 0x20), 1.5);
    m_target->setPointsVisible(false);
    m_target->setPen(QPen(QColor(0xb0, 0x00, 0x20), 1.5, Qt::DashLine));
    attach(m_target, m_tThroughput, m_requestsAxis);
    attach(m_requests, m_tThroughput, m_requestsAxis);
    attach(m_values, m_tThroughput, m_valuesAxis);
    attach(m_startThroughput, m_tThroughput, m_requestsAxis);

    QChart* lc = newChart(tr("Latency"));
    m_tLatency = timeAxis();
    m_latencyAxis = new QLogValueAxis;
    m_latencyAxis->setBase(10);
    m_latencyAxis->setLabelFormat(QStringLiteral("%g"));
    m_latencyAxis->setMinorTickCount(8);
    m_latencyAxis->setTitleText(tr("ms (log)"));
    lc->addAxis(m_tLatency, Qt::AlignBottom);
    lc->addAxis(m_latencyAxis, Qt::AlignLeft);
    m_p50 = line(lc, QStringLiteral("p50"), seriesColor(2));
    m_p99 = line(lc, QStringLiteral("p99"), seriesColor(1));
    m_max = line(lc, QStringLiteral("max"), seriesColor(3), 1.5);
    m_startLatency = marker(lc);
    for (QLineSeries* s : {m_p50, m_p99, m_max, m_startLatency}) attach(s, m_tLatency, m_latencyAxis);

    m_throughputView = new QChartView(tc);
    m_throughputView->setObjectName(QStringLiteral("throughputTimeChart"));
    m_latencyView = new QChartView(lc);
    m_latencyView->setObjectName(QStringLiteral("latencyTimeChart"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QChartView* v : {m_throughputView, m_latencyView}) {
        v->setRenderHint(QPainter::Antialiasing);
        v->setMinimumSize(260, 180);
        layout->addWidget(v);
    }
    setTargetRate(0);
    startStep({}, 0, 10);  // before any run: "Throughput" and "Latency" alone
}

void TimelineCharts::setTargetRate(double perS) {
    m_targetRate = perS;
    m_target->setVisible(perS > 0);
    for (QLegendMarker* m : m_throughputView->chart()->legend()->markers(m_target)) m->setVisible(perS > 0);
    fitAxes();
}

void TimelineCharts::startStep(const QString& title, double warmupS, double durationS) {
    for (QLineSeries* s : {m_requests, m_values, m_p50, m_p99, m_max}) s->clear();
    m_warmupS = warmupS;
    m_durationS = durationS;
    m_lastT = 0;
    m_maxRequests = m_maxValues = m_minLatency = m_maxLatency = 0;
    m_throughputView->chart()->setTitle(title.isEmpty() ? tr("Throughput") : tr("Throughput: %1").arg(title));
    m_latencyView->chart()->setTitle(title.isEmpty() ? tr("Latency") : tr("Latency: %1").arg(title));
    fitAxes();
}

void TimelineCharts::addSample(const TimelineSample& s) {
    // A sample covers the second that ends at tS: drawn in its middle, so the warm-up's seconds sit
    // left of 0 and the measured ones right of it.
    const double t = s.tS - 0.5;
    m_lastT = std::max(m_lastT, s.tS);
    m_requests->append(t, s.requestsPerS);
    m_values->append(t, s.valuesPerS);
    m_maxRequests = std::max(m_maxRequests, s.requestsPerS);
    m_maxValues = std::max(m_maxValues, s.valuesPerS);
    // A second without an answer has no latency; a log axis cannot show 0.
    const std::pair<QLineSeries*, double> latencies[] = {{m_p50, s.p50Us}, {m_p99, s.p99Us}, {m_max, s.maxUs}};
    for (const auto& [series, us] : latencies) {
        if (us <= 0) continue;
        const double ms = us / 1000;
        series->append(t, ms);
        m_minLatency = m_minLatency > 0 ? std::min(m_minLatency, ms) : ms;
        m_maxLatency = std::max(m_maxLatency, ms);
    }
    fitAxes();
}

void TimelineCharts::setTimeline(const QString& title, const std::vector<TimelineSample>& samples, double warmupS, double durationS) {
    startStep(title, warmupS, durationS);
    for (const TimelineSample& s : samples) addSample(s);
}

void TimelineCharts::setValuesShown(bool shown) {
    m_values->setVisible(shown);
    m_valuesAxis->setVisible(shown);
    for (QLegendMarker* m : m_throughputView->chart()->legend()->markers(m_values)) m->setVisible(shown);
}

int TimelineCharts::pointCount() const {
    return int(m_requests->count());
}

void TimelineCharts::fitAxes() {
    // Whole seconds, a tick on 0 (the start of the measured period) and on every 1, 2, 5, 10, ... s.
    const double from = std::floor(-m_warmupS);
    const double to = std::ceil(std::max(m_durationS, m_lastT));
    const double span = to - from;
    const double step = span <= 12 ? 1 : span <= 30 ? 2 : span <= 75 ? 5 : span <= 150 ? 10 : span <= 450 ? 30 : 60;
    for (QValueAxis* t : {m_tThroughput, m_tLatency}) {
        t->setRange(from, to);
        t->setTickType(QValueAxis::TicksDynamic);
        t->setTickAnchor(0);
        t->setTickInterval(step);
    }
    const double top = std::max(m_maxRequests, m_targetRate);
    fitCountAxis(m_requestsAxis, top);
    fitCountAxis(m_valuesAxis, m_maxValues);
    const auto [lo, hi] = m_maxLatency > 0 ? logRange(m_minLatency, m_maxLatency) : std::pair{0.1, 10.0};
    m_latencyAxis->setRange(lo, hi);
    m_startThroughput->replace({QPointF(0, 0), QPointF(0, m_requestsAxis->max())});
    m_target->replace({QPointF(from, m_targetRate), QPointF(to, m_targetRate)});
    m_startLatency->replace({QPointF(0, lo), QPointF(0, hi)});
}

} // namespace ua::loadtest
