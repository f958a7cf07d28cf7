#include "ua/types/DateTime.h"

namespace ua {

DateTime DateTime::now() {
    return fromUnixMs(QDateTime::currentMSecsSinceEpoch());
}

DateTime DateTime::fromQDateTime(const QDateTime& dt) {
    if (!dt.isValid()) return minValue();
    const int64_t ms = dt.toMSecsSinceEpoch();
    constexpr int64_t minMs = -kUnixEpochTicks / kTicksPerMs;
    constexpr int64_t maxMs = (kMaxTicks - kUnixEpochTicks) / kTicksPerMs;
    if (ms <= minMs) return minValue();
    if (ms >= maxMs) return maxValue();
    return fromUnixMs(ms);
}

QDateTime DateTime::toQDateTime() const {
    if (isMin()) return {};
    const int64_t t = isMax() ? kMaxTicks + 9990000 : ticks;  // MaxValue: 23:59:59.999
    // Floor division so that times before 1970 round towards the past.
    const int64_t rel = t - kUnixEpochTicks;
    int64_t ms = rel / kTicksPerMs;
    if (rel % kTicksPerMs < 0) --ms;
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

} // namespace ua
