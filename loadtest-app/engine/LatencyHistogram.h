// A latency histogram with logarithmic buckets (µs): each power of two from 1 µs to 2^27 µs
// (~134 s) split into kSubBuckets linear sub-buckets, so a percentile is exact to 1/kSubBuckets
// of its value (about 3 %). Values below 1 µs count as 1 µs, above the last bucket as the last.
// record() is a plain increment (one owner thread); merge() combines per-thread histograms.
// Percentiles use the nearest rank and report the bucket's upper bound (never lower than the
// recorded value), clamped to max().
#pragma once

#include <QJsonObject>
#include <array>
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
    void recordIn(int bucket, double us);
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
    static int bucketIndex(double us);
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
