#include "models/TrendBuffer.h"

#include "models/MonitoredItemsModel.h"

#include <QDateTime>
#include <algorithm>
#include <cmath>

namespace ua::clientapp {

TrendBuffer::TrendBuffer(int capacity, QObject* parent) : QObject(parent), m_capacity(std::max(2, capacity)) {}

void TrendBuffer::setWindowSeconds(int seconds) {
    seconds = std::max(1, seconds);
    if (seconds == m_windowSeconds) return;
    m_windowSeconds = seconds;
    emit windowChanged(seconds);
}

void TrendBuffer::addSeries(uint32_t key, const QString& name) {
    auto [it, added] = m_series.try_emplace(key);
    it->second.name = name;
    if (added) emit seriesAdded(key, name);
}

void TrendBuffer::removeSeries(uint32_t key) {
    if (m_series.erase(key)) emit seriesRemoved(key);
}

void TrendBuffer::clear() {
    std::vector<uint32_t> k = keys();
    m_series.clear();
    for (uint32_t key : k) emit seriesRemoved(key);
}

std::vector<uint32_t> TrendBuffer::keys() const {
    std::vector<uint32_t> out;
    out.reserve(m_series.size());
    for (const auto& [k, s] : m_series) out.push_back(k);
    return out;
}

QString TrendBuffer::name(uint32_t key) const {
    auto it = m_series.find(key);
    return it == m_series.end() ? QString() : it->second.name;
}

std::optional<double> TrendBuffer::numericValue(const Variant& v) {
    if (!v.isScalar()) return std::nullopt;
    if (auto p = v.get<double>()) return *p;
    if (auto p = v.get<float>()) return double(*p);
    if (auto p = v.get<int32_t>()) return double(*p);
    if (auto p = v.get<uint32_t>()) return double(*p);
    if (auto p = v.get<int16_t>()) return double(*p);
    if (auto p = v.get<uint16_t>()) return double(*p);
    if (auto p = v.get<int8_t>()) return double(*p);
    if (auto p = v.get<uint8_t>()) return double(*p);
    if (auto p = v.get<int64_t>()) return double(*p);
    if (auto p = v.get<uint64_t>()) return double(*p);
    if (auto p = v.get<bool>()) return *p ? 1.0 : 0.0;
    return std::nullopt;
}

bool TrendBuffer::append(uint32_t key, const DataValue& value) {
    if (value.hasStatus && value.status.isBad()) return false;
    const std::optional<double> y = numericValue(value.value);
    if (!y || !std::isfinite(*y)) return false;
    auto unixMs = [](const DateTime& t) { return qint64((t.ticks - DateTime::kUnixEpochTicks) / DateTime::kTicksPerMs); };
    qint64 ms;
    if (value.hasSourceTimestamp && value.sourceTimestamp.ticks > 0) ms = unixMs(value.sourceTimestamp);
    else if (value.hasServerTimestamp && value.serverTimestamp.ticks > 0) ms = unixMs(value.serverTimestamp);
    else ms = QDateTime::currentMSecsSinceEpoch();
    return append(key, ms, *y);
}

bool TrendBuffer::append(uint32_t key, qint64 msSinceEpoch, double value) {
    auto it = m_series.find(key);
    if (it == m_series.end()) return false;
    std::deque<QPointF>& pts = it->second.points;
    pts.emplace_back(double(msSinceEpoch), value);
    // Out of order (a server's timestamps jumped back): keep the series sorted by x.
    if (pts.size() > 1 && pts[pts.size() - 2].x() > pts.back().x()) {
        const QPointF p = pts.back();
        pts.pop_back();
        auto pos = std::upper_bound(pts.begin(), pts.end(), p.x(), [](double x, const QPointF& q) { return x < q.x(); });
        pts.insert(pos, p);
    }
    while (int(pts.size()) > m_capacity) pts.pop_front();
    emit appended(key);
    return true;
}

int TrendBuffer::pointCount(uint32_t key) const {
    auto it = m_series.find(key);
    return it == m_series.end() ? 0 : int(it->second.points.size());
}

QList<QPointF> TrendBuffer::points(uint32_t key, qint64 nowMs) const {
    QList<QPointF> out;
    auto it = m_series.find(key);
    if (it == m_series.end()) return out;
    const std::deque<QPointF>& pts = it->second.points;
    const double from = double(nowMs) - double(m_windowSeconds) * 1000.0;
    auto first = std::lower_bound(pts.begin(), pts.end(), from, [](const QPointF& q, double x) { return q.x() < x; });
    if (first != pts.begin()) --first;  // the line enters from the left edge
    for (auto p = first; p != pts.end() && p->x() <= double(nowMs); ++p) out.push_back(*p);
    return out;
}

std::optional<std::pair<double, double>> TrendBuffer::valueRange(qint64 nowMs) const {
    std::optional<std::pair<double, double>> range;
    for (const auto& [key, s] : m_series) {
        for (const QPointF& p : points(key, nowMs)) {
            if (!range) range = std::make_pair(p.y(), p.y());
            range->first = std::min(range->first, p.y());
            range->second = std::max(range->second, p.y());
        }
    }
    return range;
}

void TrendBuffer::follow(MonitoredItemsModel* model) {
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->trendAt(row)) addSeries(model->clientHandleAt(row), model->displayNameAt(row));
    connect(model, &MonitoredItemsModel::trendChanged, this, [this](uint32_t handle, bool on, const QString& name) {
        if (on) addSeries(handle, name);
        else removeSeries(handle);
    });
    connect(model, &MonitoredItemsModel::valueChanged, this, [this](int, uint32_t handle, const DataValue& v) {
        if (hasSeries(handle)) append(handle, v);
    });
}

} // namespace ua::clientapp
