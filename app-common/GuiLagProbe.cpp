#include "GuiLagProbe.h"

#include <algorithm>
#include <cmath>

namespace ua::app {

namespace {
constexpr int kPeriodMs = 10;
}

LagFigures lagFigures(std::vector<double> lags) {
    LagFigures f;
    f.samples = lags.size();
    if (lags.empty()) return f;
    std::sort(lags.begin(), lags.end());
    auto rank = [&](double p) {
        const auto n = std::size_t(std::ceil(p * double(lags.size())));
        return lags[std::min(lags.size(), std::max<std::size_t>(n, 1)) - 1];
    };
    f.p50Ms = rank(0.50);
    f.p99Ms = rank(0.99);
    f.maxMs = lags.back();
    return f;
}

GuiLagProbe::GuiLagProbe(QObject* parent) : QObject(parent) {
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kPeriodMs);
    connect(&m_timer, &QTimer::timeout, this, &GuiLagProbe::tick);
}

void GuiLagProbe::start(int durationMs) {
    m_lags.clear();
    m_lags.reserve(std::size_t(std::max(durationMs, 10'000) / kPeriodMs + 16));
    m_clock.start();
    m_lastNs = 0;
    m_endNs = durationMs > 0 ? qint64(durationMs) * 1'000'000 : -1;
    m_timer.start();
}

LagFigures GuiLagProbe::stop() {
    m_timer.stop();
    return lagFigures(m_lags);
}

void GuiLagProbe::tick() {
    const qint64 now = m_clock.nsecsElapsed();
    m_lags.push_back(std::max(0.0, double(now - m_lastNs) / 1e6 - kPeriodMs));
    m_lastNs = now;
    if (m_endNs >= 0 && now >= m_endNs) emit finished(stop());
}

} // namespace ua::app
