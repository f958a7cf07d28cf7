#include "ua/client/session/ReconnectBackoff.h"

#include <QRandomGenerator>
#include <algorithm>
#include <cmath>

namespace ua {

uint32_t ReconnectBackoff::delayMs(const ReconnectPolicy& p, int attempt, double r) {
    const double base = std::min(double(p.maxDelayMs), double(p.initialDelayMs) * std::pow(std::max(1.0, p.multiplier), attempt));
    const double jitter = std::clamp(p.jitter, 0.0, 1.0);
    const double factor = 1.0 - jitter + 2.0 * jitter * std::clamp(r, 0.0, 1.0);
    return uint32_t(std::max(0.0, std::round(base * factor)));
}

uint32_t ReconnectBackoff::nextDelayMs() {
    const uint32_t d = delayMs(m_policy, m_attempts, QRandomGenerator::global()->generateDouble());
    ++m_attempts;
    return d;
}

} // namespace ua
