#include "ua/server/common/NumericRange.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <charconv>

namespace ua {

namespace {

using Dimension = NumericRange::Dimension;

template <class T>
struct ArrayTraits {
    static constexpr bool isArray = false;
};
template <class T>
struct ArrayTraits<Array<T>> {
    static constexpr bool isArray = true;
    using Element = T;
};

bool parseIndex(std::string_view s, uint32_t& v) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size();
}

// Byte offsets [begin, end) of code points [first, last] of UTF-8 text (bytes for ByteString);
// false when first is past the end. With clamp, last past the end stops at the end; without, it fails.
bool unitSpan(std::string_view s, bool utf8, Dimension d, bool clamp, std::size_t& begin, std::size_t& end) {
    std::vector<std::size_t> starts;  // byte offset of each unit
    if (utf8) {
        for (std::size_t i = 0; i < s.size(); ++i)
            if ((uint8_t(s[i]) & 0xC0) != 0x80) starts.push_back(i);
    } else {
        starts.resize(s.size());
        for (std::size_t i = 0; i < s.size(); ++i) starts[i] = i;
    }
    if (d.first >= starts.size()) return false;
    if (d.last >= starts.size() && !clamp) return false;
    const std::size_t last = std::min<std::size_t>(d.last, starts.size() - 1);
    begin = starts[d.first];
    end = last + 1 < starts.size() ? starts[last + 1] : s.size();
    return true;
}

template <class S>
bool substring(const S& s, Dimension d, S& out) {
    if (s.isNull()) return false;
    std::size_t b = 0, e = 0;
    if (!unitSpan(s.view(), std::is_same_v<S, String>, d, true, b, e)) return false;
    out = S(s.data() + b, e - b);
    return true;
}

std::vector<uint32_t> shapeOf(const Variant& v) {
    const Array<int32_t>& dims = v.arrayDimensions();
    if (dims.empty()) return {uint32_t(v.arrayLength())};
    std::vector<uint32_t> shape;
    for (int32_t d : dims) shape.push_back(uint32_t(std::max(d, 0)));
    return shape;
}

// Flat offsets (row-major: the last index varies fastest, OPC 10000-6 5.2.2.16) of the block the
// first shape.size() dimensions of r select. False when a lower bound (or, without clamp, an upper
// bound) is outside the shape.
bool blockOffsets(const std::vector<uint32_t>& shape, const std::vector<Dimension>& r, bool clamp,
                  std::vector<std::size_t>& offsets, std::vector<uint32_t>& blockDims) {
    const std::size_t n = shape.size();
    blockDims.resize(n);
    std::vector<uint32_t> first(n);
    for (std::size_t k = 0; k < n; ++k) {
        if (r[k].first >= shape[k]) return false;
        if (r[k].last >= shape[k] && !clamp) return false;
        first[k] = r[k].first;
        blockDims[k] = std::min(r[k].last, shape[k] - 1) - r[k].first + 1;
    }
    std::vector<std::size_t> stride(n, 1);
    for (std::size_t k = n; k-- > 1;) stride[k - 1] = stride[k] * shape[k];
    std::size_t total = 1;
    for (uint32_t b : blockDims) total *= b;
    offsets.clear();
    offsets.reserve(total);
    std::vector<uint32_t> idx(n, 0);
    for (std::size_t i = 0; i < total; ++i) {
        std::size_t off = 0;
        for (std::size_t k = 0; k < n; ++k) off += (first[k] + idx[k]) * stride[k];
        offsets.push_back(off);
        for (std::size_t k = n; k-- > 0;) {
            if (++idx[k] < blockDims[k]) break;
            idx[k] = 0;
        }
    }
    return true;
}

Array<int32_t> toDims(const std::vector<uint32_t>& d) {
    Array<int32_t> a = Array<int32_t>::emptyArray();
    for (uint32_t x : d) a.push_back(int32_t(x));
    return a;
}

} // namespace

StatusCode NumericRange::parse(std::string_view text, NumericRange& out) {
    out.dimensions.clear();
    if (text.empty()) return status::Good;
    std::size_t pos = 0;
    while (true) {
        const std::size_t comma = text.find(',', pos);
        const std::string_view part = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        Dimension d;
        const std::size_t colon = part.find(':');
        if (colon == std::string_view::npos) {
            if (!parseIndex(part, d.first)) return status::BadIndexRangeInvalid;
            d.last = d.first;
        } else {
            if (!parseIndex(part.substr(0, colon), d.first) || !parseIndex(part.substr(colon + 1), d.last) ||
                d.first >= d.last)
                return status::BadIndexRangeInvalid;
        }
        out.dimensions.push_back(d);
        if (comma == std::string_view::npos) break;
        pos = comma + 1;
    }
    return status::Good;
}

StatusCode readRange(const Variant& value, const NumericRange& range, Variant& out) {
    const auto& r = range.dimensions;
    if (r.empty()) { out = value; return status::Good; }
    if (value.isScalar()) {
        if (r.size() != 1) return status::BadIndexRangeNoData;
        if (const auto* s = value.get<String>()) {
            String sub;
            if (!substring(*s, r[0], sub)) return status::BadIndexRangeNoData;
            out = std::move(sub);
            return status::Good;
        }
        if (const auto* b = value.get<ByteString>()) {
            ByteString sub;
            if (!substring(*b, r[0], sub)) return status::BadIndexRangeNoData;
            out = std::move(sub);
            return status::Good;
        }
        return status::BadIndexRangeNoData;
    }
    if (!value.isArray()) return status::BadIndexRangeNoData;
    const std::vector<uint32_t> shape = shapeOf(value);
    const bool strings = value.type() == BuiltInType::String || value.type() == BuiltInType::ByteString;
    const bool sub = strings && r.size() == shape.size() + 1;
    if (r.size() != shape.size() && !sub) return status::BadIndexRangeNoData;
    std::vector<std::size_t> offsets;
    std::vector<uint32_t> blockDims;
    if (!blockOffsets(shape, r, true, offsets, blockDims)) return status::BadIndexRangeNoData;
    StatusCode result = status::Good;
    value.visit([&](const auto& arr) {
            using A = std::decay_t<decltype(arr)>;
            if constexpr (ArrayTraits<A>::isArray) {
                using E = typename ArrayTraits<A>::Element;
                A selected = A::emptyArray();
                selected.reserve(offsets.size());
                for (std::size_t off : offsets) {
                    if (off >= arr.size()) { result = status::BadIndexRangeNoData; return; }
                    if constexpr (std::is_same_v<E, String> || std::is_same_v<E, ByteString>) {
                        if (sub) {
                            E part;
                            if (!substring(static_cast<const E&>(arr[off]), r.back(), part)) {
                                result = status::BadIndexRangeNoData;
                                return;
                            }
                            selected.push_back(std::move(part));
                            continue;
                        }
                    }
                    selected.push_back(arr[off]);
                }
                out = Variant(std::move(selected));
                if (shape.size() > 1) out.setArrayDimensions(toDims(blockDims));
            }
        });
    return result;
}

StatusCode writeRange(Variant& target, const NumericRange& range, const Variant& data) {
    const auto& r = range.dimensions;
    if (r.empty()) { target = data; return status::Good; }
    if (target.isScalar()) {
        if (target.type() != BuiltInType::String && target.type() != BuiltInType::ByteString)
            return status::BadIndexRangeNoData;
        if (r.size() != 1) return status::BadIndexRangeNoData;
        if (data.type() != target.type() || !data.isScalar()) return status::BadTypeMismatch;
        const bool utf8 = target.type() == BuiltInType::String;
        const auto replace = [&](auto& t, const auto& d) -> StatusCode {
            if (t.isNull()) return status::BadIndexRangeNoData;
            std::size_t b = 0, e = 0;
            if (!unitSpan(t.view(), utf8, r[0], false, b, e)) return status::BadIndexRangeNoData;
            std::size_t db = 0, de = 0;
            const Dimension all{0, r[0].last - r[0].first};
            if (!unitSpan(d.view(), utf8, all, false, db, de) || de != d.size())
                return status::BadIndexRangeDataMismatch;
            std::string s = t.str();
            s.replace(b, e - b, d.str());
            t = std::decay_t<decltype(t)>(std::move(s));
            return status::Good;
        };
        if (utf8) return replace(*target.get<String>(), *data.get<String>());
        return replace(*target.get<ByteString>(), *data.get<ByteString>());
    }
    if (!target.isArray()) return status::BadIndexRangeNoData;
    const std::vector<uint32_t> shape = shapeOf(target);
    const bool strings = target.type() == BuiltInType::String || target.type() == BuiltInType::ByteString;
    if (strings && r.size() == shape.size() + 1) return status::BadWriteNotSupported;
    if (r.size() != shape.size()) return status::BadIndexRangeNoData;
    if (!data.isArray() || data.type() != target.type()) return status::BadTypeMismatch;
    std::vector<std::size_t> offsets;
    std::vector<uint32_t> blockDims;
    if (!blockOffsets(shape, r, false, offsets, blockDims)) return status::BadIndexRangeNoData;
    if (data.arrayLength() != offsets.size()) return status::BadIndexRangeDataMismatch;
    if (!data.arrayDimensions().empty() && data.arrayDimensions() != toDims(blockDims))
        return status::BadIndexRangeDataMismatch;
    StatusCode result = status::Good;
    target.visit([&](auto& arr) {
            using A = std::decay_t<decltype(arr)>;
            if constexpr (ArrayTraits<A>::isArray) {
                const A& src = *std::get_if<A>(&data.storage());
                // Offsets ascend; a matrix whose ArrayDimensions overstate its length stops here.
                if (!offsets.empty() && offsets.back() >= arr.size()) { result = status::BadIndexRangeNoData; return; }
                for (std::size_t i = 0; i < offsets.size(); ++i) arr[offsets[i]] = src[i];
            }
        });
    return result;
}

} // namespace ua
