// A latency histogram with logarithmic buckets (µs): each power of two from 1 µs to 2^27 µs
// (~134 s) split into kSubBuckets linear sub-buckets, so a percentile is exact to 1/kSubBuckets
// of its value (about 3 %). Values below 1 µs count as 1 µs, above the last bucket as the last.
// record() is a plain increment (one owner thread); merge() combines per-thread histograms.
// Percentiles use the nearest rank and report the bucket's upper bound (never lower than the
// recorded value), clamped to max().
#pragma once

#include <QJsonObject>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace ua::loadtest {

class LatencyHistogram {
public:
    static constexpr int kSubBuckets = 32;
    static constexpr int kOctaves = 28;
    static constexpr int kBuckets = kSubBuckets * kOctaves;

    void record(double us) { recordIn(bucketIndex(us), us); }
    // record(us) when bucketIndex(us) is known already (a value recorded in several histograms).
    void recordIn(int bucket, double us) {
        if (!(us >= 0)) us = 0;
        ++m_counts[std::size_t(bucket)];
        if (m_count == 0) {
            m_minUs = m_maxUs = us;
        } else {
            m_minUs = us < m_minUs ? us : m_minUs;
            m_maxUs = us > m_maxUs ? us : m_maxUs;
        }
        ++m_count;
        m_sumUs += us;
    }
    void merge(const LatencyHistogram& other);
    void clear();

    uint64_t count() const { return m_count; }
    double min() const;      // µs; 0 when empty
    double max() const;      // µs; 0 when empty
    double mean() const;     // µs; 0 when empty
    // p in [0, 100]: the smallest bucket bound below or at which p % of the values lie; 0 when empty.
    double percentile(double p) const;

    // The buckets holding values: (lower bound µs, upper bound µs, count), in order.
    struct Bucket {
        double lowerUs;
        double upperUs;
        uint64_t count;
    };
    std::vector<Bucket> nonEmptyBuckets() const;
    // Index of the bucket for a value and its bounds (for tests and the chart).
    // The octave is the value's binary exponent and the sub-bucket the top 5 bits of its mantissa,
    // read from the double's bits (a frexp call per response was 1 % of the load tester's CPU).
    static int bucketIndex(double us) {
        if (!(us >= 1.0)) return 0;  // also NaN
        const uint64_t bits = std::bit_cast<uint64_t>(us);
        const int octave = int(bits >> 52) - 1023;  // us >= 1: positive, normal
        if (octave >= kOctaves) return kBuckets - 1;
        static_assert(kSubBuckets == 32, "the sub-bucket is the top 5 bits of the mantissa");
        return octave * kSubBuckets + int((bits >> 47) & 31);
    }
    static double bucketLower(int index);
    static double bucketUpper(int index);

    // {"buckets": [[index, count], ...], "count", "minUs", "maxUs", "sumUs"}; fromJson(toJson(h)) == h.
    QJsonObject toJson() const;
    static LatencyHistogram fromJson(const QJsonObject& o);
    bool operator==(const LatencyHistogram&) const = default;

private:
    std::array<uint64_t, kBuckets> m_counts{};
    uint64_t m_count = 0;
    double m_sumUs = 0;
    double m_minUs = 0;
    double m_maxUs = 0;
};

} // namespace ua::loadtest
