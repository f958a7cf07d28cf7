// What every aggregate computation (OPC 10000-13) shares: the AggregateConfiguration of a variable,
// the historian information bits of a StatusCode, and the raw values as the computations read them.
// Times inside are 100-ns ticks (ua::DateTime::ticks); durations handed in or out are milliseconds.
#pragma once

#include "ua/types/StatusCode.h"
#include "ua/types/Variant.h"

#include <cstdint>
#include <span>
#include <vector>

namespace ua::history {

// OPC 10000-13 4.2.1.2 AggregateConfigurationType, plus the Stepped property of the variable's
// HistoricalDataConfiguration (OPC 10000-11 5.2.2). The defaults are the Part 13 defaults.
struct AggregateSettings {
    bool treatUncertainAsBad = true;  // Uncertain raw values count as Bad (regions, counts, bounds)
    uint8_t percentDataBad = 100;     // 0..100: share of Bad data from which a result is Bad
    uint8_t percentDataGood = 100;    // 0..100: share of Good data from which a result is Good
    bool useSlopedExtrapolation = false;  // past the last value: sloped (true) or stepped (false)
    bool stepped = false;                 // SteppedInterpolation between values (else sloped)
};

// The information bits of a StatusCode for historical data (OPC 10000-4 7.39 Table 181,
// OPC 10000-11 6.2, OPC 10000-13 5.3.3): valid when the InfoType (bits 10-11) says DataValue.
namespace historian {
inline constexpr uint32_t kInfoTypeDataValue = 0x00000400u;
inline constexpr uint32_t kCalculated = 0x01u;    // data location (bits 0-1): Raw is 0
inline constexpr uint32_t kInterpolated = 0x02u;
inline constexpr uint32_t kPartial = 0x04u;
inline constexpr uint32_t kExtraData = 0x08u;
inline constexpr uint32_t kMultiValue = 0x10u;
inline constexpr uint32_t kAllBits = 0x1Fu;

// `base` (its info bits cleared) with the historian bits `bits` (a combination of the k* above);
// no bits leaves the code as a Raw value without info bits.
constexpr StatusCode withBits(StatusCode base, uint32_t bits) {
    const uint32_t b = bits & kAllBits;
    return StatusCode((base.code & 0xFFFF0000u) | (b != 0 ? kInfoTypeDataValue | b : 0u));
}
// The historian bits of a code (0 when its InfoType is not DataValue).
constexpr uint32_t bitsOf(StatusCode s) {
    return (s.code & 0x00000C00u) == kInfoTypeDataValue ? s.code & kAllBits : 0u;
}
} // namespace historian

// A raw value as the computations see it. Quality follows the raw StatusCode's severity; a raw
// Bad_NoData marks a gap in the collection (e.g. "point created", OPC 10000-13 A.1), not Bad data.
enum class Quality : uint8_t { Good, Uncertain, Bad, NoData };

struct Sample {
    int64_t t = 0;          // source timestamp, ticks
    double v = 0;           // the value as a double (Boolean: 0/1); meaningful when numeric
    bool numeric = false;   // the value is a scalar of a numeric built-in type or a Boolean
    Quality q = Quality::Bad;
    StatusCode status;      // the raw StatusCode
    std::size_t index = 0;  // position in the caller's raw span
};

// The raw values of one variable, ordered by time, read with one AggregateSettings.
class Series {
public:
    // `raw` must be ordered by sourceTimestamp (equal timestamps keep their order). A value that is
    // not numeric counts as Bad (it cannot enter a calculation).
    Series(std::span<const DataValue> raw, const AggregateSettings& settings);

    const std::vector<Sample>& samples() const { return m_samples; }
    const AggregateSettings& settings() const { return m_settings; }
    // Whether a sample may enter a calculation ("non-Bad" of OPC 10000-13 3.1.8 and 5.4.3.2.1):
    // Good, or Uncertain while TreatUncertainAsBad is false; numeric in both cases.
    bool usable(const Sample& s) const;
    // Bad data (Bad, or Uncertain treated as Bad, or not numeric); a NoData gap is not Bad data.
    bool bad(const Sample& s) const { return s.q != Quality::NoData && !usable(s); }
    // The time the collection covers: from the first value that is not a NoData gap to the last
    // value (OPC 10000-13 5.3.3.2). hasData() is false when there is no such value.
    bool hasData() const { return m_hasData; }
    int64_t dataStart() const { return m_dataStart; }
    int64_t dataEnd() const { return m_dataEnd; }

    // Index of the first sample with t >= ticks (samples().size() when none).
    std::size_t lowerBound(int64_t ticks) const;
    // Index of the first sample with t > ticks.
    std::size_t upperBound(int64_t ticks) const;

private:
    std::vector<Sample> m_samples;
    AggregateSettings m_settings;
    bool m_hasData = false;
    int64_t m_dataStart = 0;
    int64_t m_dataEnd = 0;
};

} // namespace ua::history
