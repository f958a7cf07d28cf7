// Variant (OPC 10000-6 5.2.2.16) and DataValue (5.2.2.17).
// A Variant holds nothing (Null), a scalar of one of the 25 built-in types, or an array of one,
// optionally with ArrayDimensions (a matrix); the product of the dimensions equals the length.
// A scalar Variant inside a Variant is not allowed by 5.2.2.16 (only arrays of Variant).
#pragma once

#include "ua/types/Common.h"
#include "ua/types/DateTime.h"
#include "ua/types/DiagnosticInfo.h"
#include "ua/types/ExtensionObject.h"
#include "ua/types/Guid.h"
#include "ua/types/NodeId.h"
#include "ua/types/StatusCode.h"
#include "ua/types/Strings.h"
#include "ua/types/Text.h"

#include <cstdint>
#include <type_traits>
#include <utility>
#include <variant>

namespace ua {

// The built-in type ids of OPC 10000-6 5.1.2 (the Variant encoding mask uses these).
enum class BuiltInType : uint8_t {
    Null = 0, Boolean = 1, SByte = 2, Byte = 3, Int16 = 4, UInt16 = 5, Int32 = 6, UInt32 = 7,
    Int64 = 8, UInt64 = 9, Float = 10, Double = 11, String = 12, DateTime = 13, Guid = 14,
    ByteString = 15, XmlElement = 16, NodeId = 17, ExpandedNodeId = 18, StatusCode = 19,
    QualifiedName = 20, LocalizedText = 21, ExtensionObject = 22, DataValue = 23, Variant = 24,
    DiagnosticInfo = 25,
};
const char* builtInTypeName(BuiltInType t);

struct DataValue;
class Variant;
struct NoScalarVariant {  // placeholder: a Variant never holds a scalar Variant
    friend bool operator==(NoScalarVariant, NoScalarVariant) { return true; }
};

// The scalars larger than a String (NodeId 56 bytes, ExpandedNodeId 104, QualifiedName 48,
// LocalizedText 80, ExtensionObject 120, DiagnosticInfo 96) are held in a Box (one pointer), and so
// are the ArrayDimensions: a Variant is 64 bytes instead of 160 (its largest inline alternative is
// Array<bool>, 48) and a DataValue 104 instead of 200.
// Every stored Value, Read result and queued notification carries one; the numbers, Strings and
// arrays that most values are stay inline. get<T>(), holds<T>(), visit() and Alternative<I> show
// these scalars as their own types; only storage() shows the Box.
template <class T>
inline constexpr bool kVariantBoxed =
    std::is_same_v<T, NodeId> || std::is_same_v<T, ExpandedNodeId> || std::is_same_v<T, QualifiedName> ||
    std::is_same_v<T, LocalizedText> || std::is_same_v<T, ExtensionObject> || std::is_same_v<T, DiagnosticInfo>;

namespace detail {
template <class S>
struct VariantUnboxed {
    using type = S;
};
template <class T>
    requires kVariantBoxed<T>
struct VariantUnboxed<Box<T>> {
    using type = T;
};
// A boxed scalar's value (a Box is never empty in a Variant; a default value if it were).
template <class T>
const T& unboxed(const Box<T>& b) {
    static const T kDefault{};
    return b ? *b : kDefault;
}
} // namespace detail

class Variant {
public:
    // Alternative i (1..25) is a scalar of BuiltInType i; alternative 25+i is an Array of it.
    using Storage = std::variant<
        std::monostate, bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t,
        uint64_t, float, double, String, DateTime, Guid, ByteString, XmlElement, Box<NodeId>,
        Box<ExpandedNodeId>, StatusCode, Box<QualifiedName>, Box<LocalizedText>, Box<ExtensionObject>,
        Box<DataValue>, NoScalarVariant, Box<DiagnosticInfo>,
        Array<bool>, Array<int8_t>, Array<uint8_t>, Array<int16_t>, Array<uint16_t>, Array<int32_t>,
        Array<uint32_t>, Array<int64_t>, Array<uint64_t>, Array<float>, Array<double>, Array<String>,
        Array<DateTime>, Array<Guid>, Array<ByteString>, Array<XmlElement>, Array<NodeId>,
        Array<ExpandedNodeId>, Array<StatusCode>, Array<QualifiedName>, Array<LocalizedText>,
        Array<ExtensionObject>, Array<DataValue>, Array<Variant>, Array<DiagnosticInfo>>;
    // The type alternative I stands for: the boxed scalars unboxed (DataValue stays a Box<DataValue>).
    template <std::size_t I>
    using Alternative = typename detail::VariantUnboxed<std::variant_alternative_t<I, Storage>>::type;
    // How T is stored: Box<T> for the boxed scalars, T otherwise.
    template <class T>
    using Slot = std::conditional_t<kVariantBoxed<T>, Box<T>, T>;
    // The index of T's alternative (T as get<T>() names it); not one: std::variant_npos.
    template <class T>
    static constexpr std::size_t indexOf() {
        return indexOfSlot<Slot<T>>(std::make_index_sequence<std::variant_size_v<Storage>>());
    }

    Variant() = default;
    // Defined below DataValue (clang instantiates the Storage members where they are defined).
    Variant(const Variant&);
    Variant(Variant&&) noexcept;
    Variant& operator=(Variant&&) noexcept;
    // A number, DateTime or StatusCode over one of the same type is assigned in place, without
    // std::variant's visit (a Read copies every stored value over the previous Read's result).
    Variant& operator=(const Variant& o);
    template <class T, class = std::enable_if_t<!std::is_same_v<std::decay_t<T>, Variant>>>
    Variant(T&& v) : m_v(slot(std::forward<T>(v))) {}
    Variant(const char* s);
    Variant(DataValue dv);

    BuiltInType type() const {
        const auto i = m_v.index();
        return BuiltInType(i <= 25 ? i : i - 25);
    }
    bool isNull() const { return m_v.index() == 0; }
    bool isScalar() const { return m_v.index() != 0 && m_v.index() <= 25; }
    bool isArray() const { return m_v.index() > 25; }
    // Number of elements of an array (0 for a scalar or Null).
    std::size_t arrayLength() const;

    template <class T> bool holds() const { return std::holds_alternative<Slot<T>>(m_v); }
    template <class T> const T* get() const {
        if constexpr (kVariantBoxed<T>) {
            const Box<T>* b = std::get_if<Box<T>>(&m_v);
            return b ? &detail::unboxed(*b) : nullptr;
        } else {
            return std::get_if<T>(&m_v);
        }
    }
    template <class T> T* get() {
        if constexpr (kVariantBoxed<T>) {
            Box<T>* b = std::get_if<Box<T>>(&m_v);
            if (!b) return nullptr;
            return *b ? b->get() : &b->emplace();
        } else {
            return std::get_if<T>(&m_v);
        }
    }
    const DataValue* dataValue() const;

    // std::visit over the value with the boxed scalars unboxed: f sees a const NodeId&, not a
    // Box<NodeId> (a Box<DataValue> stays as it is).
    template <class F>
    decltype(auto) visit(F&& f) const {
        return std::visit(
            [&f](const auto& x) -> decltype(auto) {
                using X = std::decay_t<decltype(x)>;
                if constexpr (!std::is_same_v<typename detail::VariantUnboxed<X>::type, X>) return f(detail::unboxed(x));
                else return f(x);
            },
            m_v);
    }
    template <class F>
    decltype(auto) visit(F&& f) {
        return std::visit(
            [&f](auto& x) -> decltype(auto) {
                using X = std::decay_t<decltype(x)>;
                if constexpr (!std::is_same_v<typename detail::VariantUnboxed<X>::type, X>) return f(x ? *x : x.emplace());
                else return f(x);
            },
            m_v);
    }

    // ArrayDimensions of a multi-dimensional array (empty for a one-dimensional array).
    const Array<int32_t>& arrayDimensions() const {
        static const Array<int32_t> kNone;
        return m_dims ? *m_dims : kNone;
    }
    bool hasArrayDimensions() const { return bool(m_dims); }
    void setArrayDimensions(Array<int32_t> dims) {
        if (dims.isNull()) m_dims.reset();
        else m_dims = Box<Array<int32_t>>(std::move(dims));
    }
    // True when the dimensions are absent or their product equals arrayLength().
    bool dimensionsMatch() const;

    // The stored alternatives, the boxed scalars as Box<T> (see Alternative and visit()).
    const Storage& storage() const { return m_v; }
    Storage& storage() { return m_v; }

    friend bool operator==(const Variant&, const Variant&);

private:
    template <std::size_t I>
    void assignAlternative(const Variant& o) { *std::get_if<I>(&m_v) = *std::get_if<I>(&o.m_v); }
    // For the same index in both: true when it was assigned here.
    bool assignSameNumber(const Variant& o) {
        switch (m_v.index()) {
        case 1: assignAlternative<1>(o); return true;
        case 2: assignAlternative<2>(o); return true;
        case 3: assignAlternative<3>(o); return true;
        case 4: assignAlternative<4>(o); return true;
        case 5: assignAlternative<5>(o); return true;
        case 6: assignAlternative<6>(o); return true;
        case 7: assignAlternative<7>(o); return true;
        case 8: assignAlternative<8>(o); return true;
        case 9: assignAlternative<9>(o); return true;
        case 10: assignAlternative<10>(o); return true;
        case 11: assignAlternative<11>(o); return true;
        case 13: assignAlternative<13>(o); return true;
        case 19: assignAlternative<19>(o); return true;
        default: return false;
        }
    }
    template <class S, std::size_t... I>
    static constexpr std::size_t indexOfSlot(std::index_sequence<I...>) {
        std::size_t found = std::variant_npos;
        ((std::is_same_v<std::variant_alternative_t<I, Storage>, S> ? (found = I, 0) : 0), ...);
        return found;
    }
    // What the constructor stores for v: a boxed scalar in its Box; something that converts to one
    // (an OutOfLine<LocalizedText>, say) converted and boxed; anything else as std::variant takes it.
    template <class T>
    static decltype(auto) slot(T&& v) {
        using D = std::decay_t<T>;
        if constexpr (kVariantBoxed<D>) return Box<D>(std::forward<T>(v));
        else if constexpr (std::is_constructible_v<Storage, T&&>) return std::forward<T>(v);
        else if constexpr (std::is_convertible_v<T&&, NodeId>) return Box<NodeId>(NodeId(std::forward<T>(v)));
        else if constexpr (std::is_convertible_v<T&&, QualifiedName>) return Box<QualifiedName>(QualifiedName(std::forward<T>(v)));
        else if constexpr (std::is_convertible_v<T&&, LocalizedText>) return Box<LocalizedText>(LocalizedText(std::forward<T>(v)));
        else if constexpr (std::is_convertible_v<T&&, ExtensionObject>) return Box<ExtensionObject>(ExtensionObject(std::forward<T>(v)));
        else if constexpr (std::is_convertible_v<T&&, ExpandedNodeId>) return Box<ExpandedNodeId>(ExpandedNodeId(std::forward<T>(v)));
        else if constexpr (std::is_convertible_v<T&&, DiagnosticInfo>) return Box<DiagnosticInfo>(DiagnosticInfo(std::forward<T>(v)));
        else return std::forward<T>(v);  // not convertible: std::variant reports the error
    }

    Storage m_v;
    Box<Array<int32_t>> m_dims;  // null: no ArrayDimensions
};

// OPC 10000-6 5.2.2.17. A field is encoded exactly when its has* flag is set; the setters set it.
struct DataValue {
    Variant value;
    DateTime sourceTimestamp;
    DateTime serverTimestamp;
    StatusCode status;  // after the timestamps: no padding (96 bytes, not 104)
    uint16_t sourcePicoseconds = 0;  // 10-ps units, 0..9999
    uint16_t serverPicoseconds = 0;
    bool hasValue = false;
    bool hasStatus = false;
    bool hasSourceTimestamp = false;
    bool hasServerTimestamp = false;
    bool hasSourcePicoseconds = false;
    bool hasServerPicoseconds = false;

    DataValue() = default;
    DataValue(Variant v) : value(std::move(v)), hasValue(true) {}
    void setValue(Variant v) { value = std::move(v); hasValue = true; }
    void setStatus(StatusCode s) { status = s; hasStatus = true; }
    void setSourceTimestamp(DateTime t) { sourceTimestamp = t; hasSourceTimestamp = true; }
    void setServerTimestamp(DateTime t) { serverTimestamp = t; hasServerTimestamp = true; }
    void setSourcePicoseconds(uint16_t p) { sourcePicoseconds = p; hasSourcePicoseconds = true; }
    void setServerPicoseconds(uint16_t p) { serverPicoseconds = p; hasServerPicoseconds = true; }

    friend bool operator==(const DataValue&, const DataValue&) = default;
};

// Defined here, where DataValue is complete (clang instantiates the Storage members at the
// constructor's definition).
inline Variant::Variant(const char* s) : m_v(String(s)) {}
inline Variant::Variant(DataValue dv) : m_v(Box<DataValue>(std::move(dv))) {}
inline Variant::Variant(const Variant&) = default;
inline Variant::Variant(Variant&&) noexcept = default;
inline Variant& Variant::operator=(Variant&&) noexcept = default;
inline Variant& Variant::operator=(const Variant& o) {
    if (m_v.index() != o.m_v.index() || m_dims || o.m_dims || !assignSameNumber(o)) {
        m_v = o.m_v;
        m_dims = o.m_dims;
    }
    return *this;
}
inline const DataValue* Variant::dataValue() const {
    auto b = std::get_if<Box<DataValue>>(&m_v);
    return b ? b->get() : nullptr;
}

} // namespace ua
