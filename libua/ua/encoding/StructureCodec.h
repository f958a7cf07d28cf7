// Values of structured DataTypes the stack has no C++ type for (imported or a server's own), read
// and written by their DataTypeDefinition: OPC 10000-3 5.8.3 (StructureDefinition, EnumDefinition),
// encoded as OPC 10000-6 5.2.7 says:
//   Structure                      the fields in order;
//   StructureWithOptionalFields    an EncodingMask (UInt32, bit i for the i-th optional field) first,
//                                  then the fields present;
//   Union                          a SwitchField (UInt32; 0 none, i the i-th field), then that field;
//   *WithSubtypedValues            as above; abstract fields carry an ExtensionObject / a Variant;
//   ValueRank 1 (and 0)            an Int32 length (-1 null) then the elements;
//   enumerations                   an Int32 (5.2.4); OptionSets on an unsigned integer as that integer
//                                  (5.2.5), those on the OptionSet structure as that structure.
// A nested structure is written inline (no ExtensionObject of its own); a field of an abstract
// structured type or of Structure is an ExtensionObject, one of BaseDataType / Number / ... a Variant.
//
// The codec only walks: what a DataType is comes from a DataTypeResolver, that of the server's
// address space (server/common/StructureBodyCheck) or of the client's cache of a server's
// definitions (client-app/core/DataTypeCache). The one walker serves the server's Write check, the
// client's display and the client's write.
#pragma once

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/generated/Types.h"

#include <QString>

#include <optional>
#include <vector>

namespace ua {

// What the codec needs to know of one DataType.
struct ResolvedDataType {
    enum class Kind : uint8_t {
        BuiltIn,      // encoded as builtIn (Null or Variant: a Variant; ExtensionObject: an ExtensionObject,
                      // or inline by generated when that is set)
        Enumeration,  // an Int32; enumeration (may be null) names the values
        Structure,    // encoded inline by structure (never null)
    };
    Kind kind = Kind::BuiltIn;
    BuiltInType builtIn = BuiltInType::Null;
    QString name;  // the BrowseName's name, "Setpoint"; "" when unknown
    const StructureDefinition* structure = nullptr;
    // Enumeration: the values' names; BuiltIn of an unsigned integer: an OptionSet's bit names
    // (EnumField.value is the bit number). Null when the server gave none.
    const EnumDefinition* enumeration = nullptr;
    // A structure of the stack's schema (namespace 0, DataTypeInfo.h): encoded inline by its C++
    // type; the value is an ExtensionObject holding it. builtIn is ExtensionObject.
    const DataTypeInfo* generated = nullptr;
};

// Says what a DataType NodeId is. The pointers it returns stay valid while the resolver lives and
// is not changed.
class DataTypeResolver {
public:
    virtual ~DataTypeResolver() = default;
    // nullopt: the DataType is not known (the codec fails with Bad_DataTypeIdUnknown).
    virtual std::optional<ResolvedDataType> resolve(const NodeId& dataType) const = 0;
};

// One decoded value of a field (or an array element, or the whole structure).
struct DynamicField;
struct DynamicValue {
    enum class Kind : uint8_t { Scalar, Structure, Array };
    Kind kind = Kind::Scalar;
    NodeId dataType;   // the field's DataType (of the elements, for an Array)
    QString typeName;  // its name ("Setpoint", "Double", "Mode")
    // Scalar: the value (an Int32 for an enumeration, the integer of an OptionSet; a Variant field's
    // content; a null Variant for an absent value).
    Variant scalar;
    // Scalar of an enumeration or OptionSet: the value's name ("Auto", "Read | Write"); "" if none.
    QString valueName;
    // Structure: every field of the definition in order; absent optional fields and the fields a
    // union did not choose have present == false.
    std::vector<DynamicField> fields;
    // Array: the elements; arrayIsNull for length -1.
    std::vector<DynamicValue> elements;
    bool arrayIsNull = false;
    // Structure: its StructureType (Union: at most one field present).
    StructureType structureType = StructureType::Structure;
};

struct DynamicField {
    QString name;
    bool optional = false;  // may be absent (optional, or a field of a union)
    bool present = true;
    DynamicValue value;
};

// Decodes and encodes DynamicValues. Errors: Bad_DecodingError (truncated or malformed; too deep:
// more than maxDepth nested structures), Bad_EncodingLimitsExceeded (an array or string over the
// decoder's limits), Bad_DataTypeIdUnknown (a field's DataType the resolver does not know),
// Bad_EncodingError (encode: a value that does not match the definition). error() says where.
class StructureCodec {
public:
    explicit StructureCodec(const DataTypeResolver& resolver, int maxDepth = 32)
        : m_resolver(resolver), m_maxDepth(maxDepth) {}

    // A value of dataType read from d (any kind: a structure, an enumeration, a built-in type).
    // nullopt on an error (d's status is failed too).
    std::optional<DynamicValue> decode(BinaryDecoder& d, const NodeId& dataType);
    // A whole ExtensionObject body of structured dataType: every byte must be used.
    std::optional<DynamicValue> decodeBody(const ByteString& body, const NodeId& dataType);
    // Writes v (as decode() returned it, possibly edited) to e; false on an error.
    bool encode(BinaryEncoder& e, const DynamicValue& v);
    // The body of an ExtensionObject for v (a Structure); nullopt on an error.
    std::optional<ByteString> encodeBody(const DynamicValue& v);

    StatusCode status() const { return m_status; }
    const QString& error() const { return m_error; }

    // A value of dataType with every field at its default (optional fields absent, union: none,
    // arrays empty), for the write dialog. nullopt for an unknown DataType.
    std::optional<DynamicValue> defaultValue(const NodeId& dataType);

private:
    bool decodeField(BinaryDecoder& d, const StructureField& f, DynamicValue& out, int depth);
    bool decodeValue(BinaryDecoder& d, const NodeId& type, DynamicValue& out, int depth);
    bool decodeStructure(BinaryDecoder& d, const ResolvedDataType& t, DynamicValue& out, int depth);
    bool encodeValue(BinaryEncoder& e, const NodeId& type, const DynamicValue& v, int depth);
    bool encodeStructure(BinaryEncoder& e, const StructureDefinition& def, const DynamicValue& v, int depth);
    bool defaultOf(const NodeId& type, int valueRank, DynamicValue& out, int depth);
    bool fail(StatusCode s, QString message);

    const DataTypeResolver& m_resolver;
    int m_maxDepth;
    StatusCode m_status;
    QString m_error;
    QString m_path;  // the field being decoded, for error(): "Steps[1].Name"
};

// The name of an enumeration value or an OptionSet's set bits ("Auto", "Read | Write"); "" when
// definition is null or names nothing.
QString enumValueName(const EnumDefinition* definition, int64_t value, bool optionSet);

} // namespace ua
