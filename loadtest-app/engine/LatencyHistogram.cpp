// A log-bucketed latency histogram (see LatencyHistogram.h): bucket = octave * kSubBuckets + sub,
// octave = floor(log2(us)), sub = the linear position of us inside [2^octave, 2^(octave+1)).
#include "LatencyHistogram.h"

#include <QJsonArray>
#include <algorithm>
#include <cmath>

namespace ua::loadtest {

double LatencyHistogram::bucketLower(int index) {
    const int octave = index / kSubBuckets;
    const int sub = index % kSubBuckets;
    return std::ldexp(1.0 + double(sub) / kSubBuckets, octave);
}

double LatencyHistogram::bucketUpper(int index) {
    const int octave = index / kSubBuckets;
    const int sub = index % kSubBuckets;
    return std::ldexp(1.0 + double(sub + 1) / kSubBuckets, octave);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
    if (other.m_count == 0) return;
    for (int i = 0; i < kBuckets; ++i) m_counts[std::size_t(i)] += other.m_counts[std::size_t(i)];
    if (m_count == 0) {
        m_minUs = other.m_minUs;
        m_maxUs = other.m_maxUs;
    } else {
        m_minUs = std::min(m_minUs, other.m_minUs);
        m_maxUs = std::max(m_maxUs, other.m_maxUs);
    }
    m_count += other.m_count;
    m_sumUs += other.m_sumUs;
}

void LatencyHistogram::clear() { *this = LatencyHistogram(); }

double LatencyHistogram::min() const { return m_count ? m_minUs : 0; }
double LatencyHistogram::max() const { return m_count ? m_maxUs : 0; }
double LatencyHistogram::mean() const { return m_count ? m_sumUs / double(m_count) : 0; }

double LatencyHistogram::percentile(double p) const {
    if (m_count == 0) return 0;
    if (p <= 0) return m_minUs;
    // Nearest rank: the smallest value with at least p % of the values at or below it.
    const double exactRank = std::min(p, 100.0) / 100.0 * double(m_count);
    uint64_t rank = uint64_t(std::ceil(exactRank - 1e-9));
    rank = std::clamp<uint64_t>(rank, 1, m_count);
    uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
        seen += m_counts[std::size_t(i)];
        // The last bucket also holds everything beyond it: its bound would be below those values.
        if (seen >= rank) return i == kBuckets - 1 ? m_maxUs : std::min(bucketUpper(i), m_maxUs);
    }
    return m_maxUs;
}

std::vector<LatencyHistogram::Bucket> LatencyHistogram::nonEmptyBuckets() const {
    std::vector<Bucket> out;
    for (int i = 0; i < kBuckets; ++i)
        if (const uint64_t n = m_counts[std::size_t(i)]) out.push_back(Bucket{bucketLower(i), bucketUpper(i), n});
    return out;
}

QJsonObject LatencyHistogram::toJson() const {
    QJsonArray buckets;
    for (int i = 0; i < kBuckets; ++i)
        if (const uint64_t n = m_counts[std::size_t(i)]) buckets.append(QJsonArray{i, double(n)});
    return QJsonObject{{QStringLiteral("buckets"), buckets},
                       {QStringLiteral("count"), double(m_count)},
                       {QStringLiteral("minUs"), m_minUs},
                       {QStringLiteral("maxUs"), m_maxUs},
                       {QStringLiteral("sumUs"), m_sumUs}};
}

LatencyHistogram LatencyHistogram::fromJson(const QJsonObject& o) {
    LatencyHistogram h;
    for (const QJsonValue& v : o.value(QStringLiteral("buckets")).toArray()) {
        const QJsonArray pair = v.toArray();
        if (pair.size() != 2) continue;
        const int index = pair.at(0).toInt(-1);
        const double n = pair.at(1).toDouble(-1);
        if (index < 0 || index >= kBuckets || n < 0) continue;
        h.m_counts[std::size_t(index)] += uint64_t(n);
        h.m_count += uint64_t(n);
    }
    if (h.m_count > 0) {
        h.m_minUs = o.value(QStringLiteral("minUs")).toDouble();
        h.m_maxUs = o.value(QStringLiteral("maxUs")).toDouble();
        h.m_sumUs = o.value(QStringLiteral("sumUs")).toDouble();
    }
    return h;
}

} // namespace ua::loadtest
