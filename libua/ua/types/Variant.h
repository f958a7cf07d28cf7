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

class Variant {
public:
    // Alternative i (1..25) is a scalar of BuiltInType i; alternative 25+i is an Array of it.
    using Storage = std::variant<
        std::monostate, bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t,
        uint64_t, float, double, String, DateTime, Guid, ByteString, XmlElement, NodeId,
        ExpandedNodeId, StatusCode, QualifiedName, LocalizedText, ExtensionObject, Box<DataValue>,
        NoScalarVariant, DiagnosticInfo,
        Array<bool>, Array<int8_t>, Array<uint8_t>, Array<int16_t>, Array<uint16_t>, Array<int32_t>,
        Array<uint32_t>, Array<int64_t>, Array<uint64_t>, Array<float>, Array<double>, Array<String>,
        Array<DateTime>, Array<Guid>, Array<ByteString>, Array<XmlElement>, Array<NodeId>,
        Array<ExpandedNodeId>, Array<StatusCode>, Array<QualifiedName>, Array<LocalizedText>,
        Array<ExtensionObject>, Array<DataValue>, Array<Variant>, Array<DiagnosticInfo>>;

    Variant() = default;
    template <class T, class = std::enable_if_t<!std::is_same_v<std::decay_t<T>, Variant>>>
    Variant(T&& v) : m_v(std::forward<T>(v)) {}
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

    template <class T> bool holds() const { return std::holds_alternative<T>(m_v); }
    template <class T> const T* get() const { return std::get_if<T>(&m_v); }
    template <class T> T* get() { return std::get_if<T>(&m_v); }
    const DataValue* dataValue() const;

    // ArrayDimensions of a multi-dimensional array (empty for a one-dimensional array).
    const Array<int32_t>& arrayDimensions() const { return m_dims; }
    void setArrayDimensions(Array<int32_t> dims) { m_dims = std::move(dims); }
    // True when the dimensions are absent or their product equals arrayLength().
    bool dimensionsMatch() const;

    const Storage& storage() const { return m_v; }
    Storage& storage() { return m_v; }

    friend bool operator==(const Variant&, const Variant&);

private:
    Storage m_v;
    Array<int32_t> m_dims;
};

// OPC 10000-6 5.2.2.17. A field is encoded exactly when its has* flag is set; the setters set it.
struct DataValue {
    Variant value;
    StatusCode status;
    DateTime sourceTimestamp;
    DateTime serverTimestamp;
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
inline const DataValue* Variant::dataValue() const {
    auto b = std::get_if<Box<DataValue>>(&m_v);
    return b ? b->get() : nullptr;
}

} // namespace ua
