#include "ua/server/subscriptions/MonitoredItem.h"

#include "ua/encoding/BinaryEncoder.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

namespace ua {

namespace {

// The value of a numeric scalar as a double; false for anything else.
bool toDouble(const Variant::Storage& s, std::size_t index, double& out) {
    switch (index) {
    case 2: out = double(std::get<int8_t>(s)); return true;
    case 3: out = double(std::get<uint8_t>(s)); return true;
    case 4: out = double(std::get<int16_t>(s)); return true;
    case 5: out = double(std::get<uint16_t>(s)); return true;
    case 6: out = double(std::get<int32_t>(s)); return true;
    case 7: out = double(std::get<uint32_t>(s)); return true;
    case 8: out = double(std::get<int64_t>(s)); return true;
    case 9: out = double(std::get<uint64_t>(s)); return true;
    case 10: out = double(std::get<float>(s)); return true;
    case 11: out = std::get<double>(s); return true;
    default: return false;
    }
}

// Elements of a numeric array as doubles; false for anything else.
template <class T>
bool arrayToDoubles(const Variant& v, std::vector<double>& out) {
    const Array<T>* a = v.get<Array<T>>();
    if (!a) return false;
    out.assign(a->begin(), a->end());
    return true;
}

bool numericElements(const Variant& v, std::vector<double>& out) {
    return arrayToDoubles<int8_t>(v, out) || arrayToDoubles<uint8_t>(v, out) || arrayToDoubles<int16_t>(v, out) ||
           arrayToDoubles<uint16_t>(v, out) || arrayToDoubles<int32_t>(v, out) || arrayToDoubles<uint32_t>(v, out) ||
           arrayToDoubles<int64_t>(v, out) || arrayToDoubles<uint64_t>(v, out) || arrayToDoubles<float>(v, out) ||
           arrayToDoubles<double>(v, out);
}

template <class T> struct IsArray : std::false_type {};
template <class U> struct IsArray<Array<U>> : std::true_type {};

// One element or scalar compared as 7.10 asks: a NaN equals a NaN, a null String or ByteString
// equals an empty one.
template <class T>
bool sameElement(const T& x, const T& y) {
    if constexpr (std::is_floating_point_v<T>) return x == y || (std::isnan(x) && std::isnan(y));
    else if constexpr (std::is_same_v<T, String> || std::is_same_v<T, ByteString>) return x.view() == y.view();
    else return x == y;
}

// 7.10 STATUS_VALUE: whether two values are the same for reporting a data change. As operator==,
// but a float or double NaN equals NaN (only entering NaN is a change: one notification, not one per
// sample), null and empty arrays of one DataType are equal, and so are null and empty Strings and
// ByteStrings (also as array elements).
// The ArrayDimensions of two values are the same (null and empty: both none).
bool sameDimensions(const Variant& a, const Variant& b) {
    return static_cast<const std::vector<int32_t>&>(a.arrayDimensions()) ==
           static_cast<const std::vector<int32_t>&>(b.arrayDimensions());
}

bool sameForDataChange(const Variant& a, const Variant& b) {
    if (a.storage().index() != b.storage().index()) return false;
    if (!sameDimensions(a, b)) return false;
    return a.visit([&](const auto& x) -> bool {
            using T = std::decay_t<decltype(x)>;
            const T& y = *b.get<T>();
            if constexpr (IsArray<T>::value) {
                if (x.size() != y.size()) return false;  // null and empty: both 0
                for (std::size_t i = 0; i < x.size(); ++i)
                    if (!sameElement(x[i], y[i])) return false;
                return true;
            } else {
                return sameElement(x, y);
            }
        });
}

// 7.22.2 / 7.10: entering or leaving NaN is a change whatever the deadband, NaN to NaN is none
// (leaving NaN is reported: the text asks for entering only and leaves leaving open).
bool deadbandExceeded(double a, double b, double deadband) {
    const bool an = std::isnan(a), bn = std::isnan(b);
    if (an || bn) return an != bn;
    return std::fabs(a - b) > deadband;
}

// 7.22.2: a change is reported when |last - new| exceeds the deadband (for arrays: any element;
// a change of the array's length or of its ArrayDimensions, e.g. {2,3} to {3,2}, is always
// reported).
bool exceedsDeadband(const Variant& last, const Variant& next, double deadband) {
    if (last.isScalar() && next.isScalar()) {
        double a = 0, b = 0;
        if (!toDouble(last.storage(), last.storage().index(), a) || !toDouble(next.storage(), next.storage().index(), b))
            return !sameForDataChange(last, next);
        return deadbandExceeded(a, b, deadband);
    }
    if (!sameDimensions(last, next)) return true;
    std::vector<double> a, b;
    if (!numericElements(last, a) || !numericElements(next, b)) return !sameForDataChange(last, next);
    if (a.size() != b.size()) return true;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (deadbandExceeded(a[i], b[i], deadband)) return true;
    return false;
}

StatusCode withOverflow(StatusCode s) { return StatusCode(s.code | kOverflowInfoBits); }

} // namespace

bool isNumericVariant(const Variant& v) {
    const BuiltInType t = v.type();
    return t >= BuiltInType::SByte && t <= BuiltInType::Double;
}

bool MonitoredItem::passesFilter(const DataValue& v) const {
    if (!m_last) return true;
    const DataValue& last = *m_last;
    const StatusCode ls = last.hasStatus ? last.status : StatusCode();
    const StatusCode ns = v.hasStatus ? v.status : StatusCode();
    if (ls != ns) return true;
    if (filter.trigger == DataChangeTrigger::Status) return false;
    bool valueChanged;
    if (filter.deadbandType == DeadbandType::None) {
        valueChanged = last.hasValue != v.hasValue || !sameForDataChange(last.value, v.value);
    } else {
        valueChanged = last.hasValue != v.hasValue || exceedsDeadband(last.value, v.value, filter.absoluteDeadband);
    }
    if (valueChanged) return true;
    // 7.10: with a deadband, STATUS_VALUE_TIMESTAMP behaves as STATUS_VALUE.
    if (filter.trigger == DataChangeTrigger::StatusValueTimestamp && filter.deadbandType == DeadbandType::None)
        return last.hasSourceTimestamp != v.hasSourceTimestamp || last.sourceTimestamp != v.sourceTimestamp ||
               last.sourcePicoseconds != v.sourcePicoseconds;
    return false;
}

void MonitoredItem::push(const DataValue& v, uint64_t& overflows) {
    DataValue* slot = nullptr;  // where v went
    if (m_queue.size() < queueSize) {
        // Grows by doubling up to what the item has needed (capacity kept when drained), not to
        // queueSize at once: an item that changes once per publishing interval holds one value
        // (a queue of 30 reserved up front was 6 KB per item, 60 KB per Session of 10 items).
        m_queue.push_back(v);
        slot = &m_queue.back();
    } else {
        ++overflows;
        if (queueSize == 1) {  // 5.13.1.5: a queue of one always holds the newest value, no overflow bit
            m_queue.back() = v;
            slot = &m_queue.back();
        } else if (discardOldest) {
            m_queue.erase(m_queue.begin());
            m_queue.push_back(v);
            slot = &m_queue.back();
            DataValue& first = m_queue.front();  // the oldest value left carries the bit
            first.setStatus(withOverflow(first.hasStatus ? first.status : StatusCode()));
        } else {
            slot = &m_queue.back();  // the newest value replaces the last one
            *slot = v;
            slot->setStatus(withOverflow(v.hasStatus ? v.status : StatusCode()));
        }
    }
    // Sampled with its SourceTimestamp (the filter compares it); sent without, as asked.
    if (timestamps == TimestampsToReturn::Server || timestamps == TimestampsToReturn::Neither) {
        slot->hasSourceTimestamp = slot->hasSourcePicoseconds = false;
        slot->sourceTimestamp = {};
        slot->sourcePicoseconds = 0;
    }
}

bool MonitoredItem::offer(const DataValue& v, uint64_t& overflows) {
    if (!passesFilter(v)) return false;
    m_last = v;
    push(v, overflows);
    return true;
}

bool MonitoredItem::requeueLast(uint64_t& overflows) {
    if (!m_queue.empty()) return true;  // what is queued goes out; the last value would be a duplicate
    if (!m_last) return false;
    push(*m_last, overflows);
    return true;
}

std::size_t MonitoredItem::drainEncoded(BinaryEncoder& e, std::size_t max) {
    const std::size_t n = std::min(max, m_queue.size());
    for (std::size_t i = 0; i < n; ++i) {
        encode(e, clientHandle);
        encode(e, m_queue[i]);
    }
    if (n == m_queue.size()) m_queue.clear();  // keeps the capacity
    else m_queue.erase(m_queue.begin(), m_queue.begin() + std::ptrdiff_t(n));
    return n;
}

void MonitoredItem::applyQueueSize(uint64_t& overflows) {
    bool purged = false;
    while (m_queue.size() > queueSize) {
        ++overflows;
        purged = true;
        if (discardOldest) m_queue.erase(m_queue.begin());
        else m_queue.erase(m_queue.end() - 2);  // keep the newest
    }
    // 5.13.1.5 / 7.25.2: values purged from a queue above 1 set the Overflow InfoBits, on the oldest
    // value left (discardOldest) or on the newest, which took the last place (as push() does); a
    // queue of 1 sets none.
    if (purged && queueSize > 1) {
        DataValue& carrier = discardOldest ? m_queue.front() : m_queue.back();
        carrier.setStatus(withOverflow(carrier.hasStatus ? carrier.status : StatusCode()));
    }
}

} // namespace ua
