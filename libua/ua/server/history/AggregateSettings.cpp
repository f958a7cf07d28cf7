#include "ua/server/history/AggregateSettings.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <algorithm>
#include <cmath>
#include <variant>

namespace ua::history {

namespace {

// The value of a numeric or Boolean scalar as a double; false for anything else (and for NaN).
bool seriesNumber(const Variant& v, double& out) {
    bool ok = false;
    if (const auto* b = v.get<bool>()) {
        out = *b ? 1.0 : 0.0;
        return true;
    }
    v.visit([&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            out = static_cast<double>(x);
            ok = std::isfinite(out);
        }
    });
    return ok;
}

Quality seriesQuality(StatusCode s) {
    if (s.base() == status::BadNoData.base()) return Quality::NoData;
    if (s.isBad()) return Quality::Bad;
    return s.isUncertain() ? Quality::Uncertain : Quality::Good;
}

} // namespace

Series::Series(std::span<const DataValue> raw, const AggregateSettings& settings) : m_settings(settings) {
    m_samples.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const DataValue& dv = raw[i];
        Sample s;
        s.t = dv.sourceTimestamp.ticks;
        s.status = dv.status;
        s.q = seriesQuality(dv.status);
        s.numeric = dv.hasValue && seriesNumber(dv.value, s.v);
        s.index = i;
        m_samples.push_back(s);
    }
    for (const Sample& s : m_samples) {
        if (s.q == Quality::NoData) continue;
        if (!m_hasData) m_dataStart = s.t;
        m_hasData = true;
        m_dataEnd = s.t;
    }
}

bool Series::usable(const Sample& s) const {
    if (!s.numeric) return false;
    return s.q == Quality::Good || (s.q == Quality::Uncertain && !m_settings.treatUncertainAsBad);
}

std::size_t Series::lowerBound(int64_t ticks) const {
    return std::size_t(std::partition_point(m_samples.begin(), m_samples.end(),
                                            [&](const Sample& s) { return s.t < ticks; }) - m_samples.begin());
}

std::size_t Series::upperBound(int64_t ticks) const {
    return std::size_t(std::partition_point(m_samples.begin(), m_samples.end(),
                                            [&](const Sample& s) { return s.t <= ticks; }) - m_samples.begin());
}

} // namespace ua::history
