#include "window/HistoryChartView.h"

#include "ValueText.h"
#include "core/HistoryText.h"
#include "models/HistoryTrendModel.h"
#include "models/TrendBuffer.h"

#include <QChart>
#include <QCursor>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMimeData>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace ua::clientapp {

namespace {

struct HistoryAxisRange {
    double min, max;
    int ticks;
};

// A value axis over [lo, hi] with ticks at round values (1, 2, 2.5 or 5 times a power of ten), about
// six of them: QValueAxis::applyNiceNumbers() often doubles the range (a Sine of +-100 on -200 .. 200).
HistoryAxisRange historyAxisRange(double lo, double hi) {
    if (!(hi > lo)) {
        const double pad = std::max(1.0, std::abs(hi) * 0.1);
        lo -= pad;
        hi += pad;
    }
    const double raw = (hi - lo) / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (magnitude * m >= raw) {
            step = magnitude * m;
            break;
        }
    const double min = std::floor(lo / step) * step, max = std::ceil(hi / step) * step;
    return {min, max, int(std::lround((max - min) / step)) + 1};
}

} // namespace

HistoryChartView::HistoryChartView(HistoryTrendModel* model, QWidget* parent)
    : QChartView(new QChart, parent), m_model(model), m_x(new QDateTimeAxis) {
    setObjectName(QStringLiteral("historyChart"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(240, 200);  // the chart's own minimum would squeeze the docks (and widen the window)
    setAcceptDrops(true);
    QChart* c = chart();
    c->legend()->setAlignment(Qt::AlignBottom);
    c->setMargins(QMargins(4, 4, 4, 4));
    m_x->setFormat(QStringLiteral("HH:mm:ss"));
    m_x->setTitleText(tr("time (local)"));
    m_x->setTickCount(7);
    c->addAxis(m_x, Qt::AlignBottom);
    connect(model, &HistoryTrendModel::valuesChanged, this, &HistoryChartView::redraw);
    redraw();
}

QLineSeries* HistoryChartView::lineSeries(quint64 key) const {
    auto it = m_plots.find(key);
    return it == m_plots.end() ? nullptr : it->second.series;
}

QValueAxis* HistoryChartView::valueAxis(quint64 key) const {
    auto it = m_plots.find(key);
    return it == m_plots.end() ? nullptr : it->second.axis;
}

void HistoryChartView::redraw() {
    QChart* c = chart();
    // Rebuilt whole: the axes alternate sides in the order of the series, and a cyclic read every
    // few seconds is cheap next to the server's answer.
    for (auto& [key, plot] : m_plots) {
        c->removeSeries(plot.series);
        delete plot.series;
        if (plot.axis) {
            c->removeAxis(plot.axis);
            delete plot.axis;
        }
    }
    m_plots.clear();
    m_keys.clear();

    qint64 from = m_model->readStartMs(), to = m_model->readEndMs();
    if (from == 0 && to == 0) {
        to = QDateTime::currentMSecsSinceEpoch();
        from = to - 600000;
    }
    m_x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(to));
    // Wider ranges need dates on the axis.
    m_x->setFormat(to - from > 20 * 3600 * 1000 ? QStringLiteral("MM-dd HH:mm") : QStringLiteral("HH:mm:ss"));

    int side = 0;
    for (const HistorySeries& s : m_model->series()) {
        Plot plot;
        plot.series = new QLineSeries;
        QList<QPointF> points;
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            const DataValue& dv = s.values[i];
            if (!dv.hasValue || dv.status.isBad()) continue;
            const DateTime t = historyValueTime(dv);
            const std::optional<double> y = TrendBuffer::numericValue(dv.value);
            if (t.isMin() || !y || !std::isfinite(*y)) continue;
            points.append(QPointF(double(t.toQDateTime().toMSecsSinceEpoch()), *y));
            plot.valueIndex.push_back(int(i));
            lo = std::min(lo, *y);
            hi = std::max(hi, *y);
        }
        QString name = s.name;
        if (s.read && s.status.isBad()) name += QStringLiteral(": ") + app::statusName(s.status);
        else if (s.read && points.isEmpty()) name += tr(": no values");
        plot.series->setName(name);
        QPen pen(s.color);
        pen.setWidthF(2);
        plot.series->setPen(pen);
        plot.series->replace(points);
        plot.series->setPointsVisible(!points.isEmpty() && points.size() <= 120);  // the samples, when they can be told apart
        c->addSeries(plot.series);
        plot.series->attachAxis(m_x);
        if (s.read && s.status.isBad())  // the failed series' legend entry in red, as its status in the table
            for (QLegendMarker* marker : c->legend()->markers(plot.series)) marker->setLabelBrush(QColor(0xb0, 0x00, 0x20));
        if (!points.isEmpty()) {
            plot.axis = new QValueAxis;
            const HistoryAxisRange range = historyAxisRange(lo, hi);
            plot.axis->setRange(range.min, range.max);
            plot.axis->setTickCount(range.ticks);
            plot.axis->setLabelFormat(QStringLiteral("%.6g"));
            plot.axis->setTitleText(s.name);
            plot.axis->setTitleBrush(s.color);
            plot.axis->setLabelsColor(s.color);
            plot.axis->setLinePenColor(s.color);
            plot.axis->setGridLineVisible(side == 0);  // one grid: several would cross each other
            c->addAxis(plot.axis, side % 2 == 0 ? Qt::AlignLeft : Qt::AlignRight);
            plot.series->attachAxis(plot.axis);
            ++side;
        }
        const quint64 key = s.key;
        connect(plot.series, &QLineSeries::hovered, this, [this, key](const QPointF& p, bool state) { hovered(key, p, state); });
        m_plots[key] = std::move(plot);
        m_keys.push_back(key);
    }
    fitTimeTicks();
}

void HistoryChartView::fitTimeTicks() {
    // As many time labels as fit without being cut ("HH:mm:ss" is about 60 px; the Y axes take
    // about 70 px each).
    const qreal plot = chart()->plotArea().width() > 0 ? chart()->plotArea().width() : width() - 70.0 * chart()->axes(Qt::Vertical).size();
    const int fit = int(plot / (fontMetrics().horizontalAdvance(QStringLiteral("00:00:00")) * 1.8));
    m_x->setTickCount(std::clamp(fit, 2, 9));
}

void HistoryChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    fitTimeTicks();
}

QString HistoryChartView::nearestPointText(quint64 key, const QPointF& value) const {
    auto it = m_plots.find(key);
    const int row = m_model->rowOfKey(key);
    if (it == m_plots.end() || row < 0 || it->second.series->count() == 0) return {};
    const Plot& plot = it->second;
    // Nearest on the screen: the axes' scales differ by orders of magnitude.
    const QPointF at = chart()->mapToPosition(value, plot.series);
    int best = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int i = 0; i < plot.series->count(); ++i) {
        const QPointF p = chart()->mapToPosition(plot.series->at(i), plot.series);
        const double d = std::hypot(p.x() - at.x(), p.y() - at.y());
        if (d < bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    const HistorySeries& s = m_model->series()[std::size_t(row)];
    const DataValue& dv = s.values[std::size_t(plot.valueIndex[std::size_t(best)])];
    return tr("%1 = %2 at %3 (%4)").arg(s.name, app::formatVariant(dv.value), historyTimeText(historyValueTime(dv)), historyStatusText(dv.hasStatus ? dv.status : StatusCode()));
}

void HistoryChartView::hovered(quint64 key, const QPointF& point, bool state) {
    if (!state) {
        QToolTip::hideText();
        return;
    }
    const QString text = nearestPointText(key, point);
    if (text.isEmpty()) return;
    m_hoverText = text;
    QToolTip::showText(QCursor::pos(), text, this);
    emit hoverChanged(text);
}

void HistoryChartView::dragEnterEvent(QDragEnterEvent* event) {
    if (m_model->canDropMimeData(event->mimeData(), Qt::CopyAction, -1, -1, {})) {
        event->setDropAction(Qt::CopyAction);
        event->accept();
    } else {
        event->ignore();
    }
}

void HistoryChartView::dragMoveEvent(QDragMoveEvent* event) {
    if (m_model->canDropMimeData(event->mimeData(), Qt::CopyAction, -1, -1, {})) {
        event->setDropAction(Qt::CopyAction);
        event->accept();
    } else {
        event->ignore();
    }
}

void HistoryChartView::dropEvent(QDropEvent* event) {
    if (m_model->dropMimeData(event->mimeData(), Qt::CopyAction, -1, -1, {})) {
        event->setDropAction(Qt::CopyAction);
        event->accept();
    } else {
        event->ignore();
    }
}

} // namespace ua::clientapp
