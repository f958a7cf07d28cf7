#include "ua/encoding/StructureCodec.h"

#include "ua/encoding/ScalarBody.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QStringList>

#include <algorithm>
#include <array>
#include <cstdint>

namespace ua {

namespace {

bool isUnion(StructureType t) { return t == StructureType::Union || t == StructureType::UnionWithSubtypedValues; }

bool isUnsignedInteger(BuiltInType t) {
    return t == BuiltInType::Byte || t == BuiltInType::UInt16 || t == BuiltInType::UInt32 || t == BuiltInType::UInt64;
}

std::optional<uint64_t> unsignedValue(const Variant& v) {
    if (auto p = v.get<uint8_t>()) return *p;
    if (auto p = v.get<uint16_t>()) return *p;
    if (auto p = v.get<uint32_t>()) return *p;
    if (auto p = v.get<uint64_t>()) return *p;
    return std::nullopt;
}

// An integer Variant as Int32 (an enumeration's value), nullopt for anything else or out of range.
std::optional<int32_t> enumInteger(const Variant& v) {
    int64_t n = 0;
    if (auto p = v.get<int32_t>()) return *p;
    else if (auto p8 = v.get<int8_t>()) n = *p8;
    else if (auto pu8 = v.get<uint8_t>()) n = *pu8;
    else if (auto p16 = v.get<int16_t>()) n = *p16;
    else if (auto pu16 = v.get<uint16_t>()) n = *pu16;
    else if (auto pu32 = v.get<uint32_t>()) n = *pu32;
    else if (auto p64 = v.get<int64_t>()) n = *p64;
    else if (auto pu64 = v.get<uint64_t>()) n = int64_t(std::min<uint64_t>(*pu64, uint64_t(INT64_MAX)));
    else return std::nullopt;
    if (n < INT32_MIN || n > INT32_MAX) return std::nullopt;
    return int32_t(n);
}

// The default scalar of a built-in type: what its body of zero bytes decodes to (0, "", null
// NodeId, null ExtensionObject, ...).
Variant defaultScalarOf(BuiltInType t) {
    if (t == BuiltInType::Null || t == BuiltInType::Variant) return Variant();
    static const std::array<uint8_t, 32> zeros{};
    BinaryDecoder d(zeros.data(), zeros.size());
    return decodeScalarBody(d, t);
}

// An OptionSet structure's Value (5.2.5: the bytes of the bit field, least significant first).
uint64_t optionBits(const ByteString& bytes) {
    uint64_t bits = 0;
    for (std::size_t i = 0; i < bytes.size() && i < 8; ++i) bits |= uint64_t(uint8_t(bytes.data()[i])) << (8 * i);
    return bits;
}

} // namespace

QString enumValueName(const EnumDefinition* definition, int64_t value, bool optionSet) {
    if (!definition) return {};
    const auto nameOf = [](const EnumField& f) {
        return f.name.isEmpty() ? f.displayName.text.toQString() : f.name.toQString();
    };
    if (!optionSet) {
        for (const EnumField& f : definition->fields)
            if (f.value == value) return nameOf(f);
        return {};
    }
    QStringList names;
    for (const EnumField& f : definition->fields)
        if (f.value >= 0 && f.value < 64 && (uint64_t(value) & (uint64_t(1) << f.value))) names << nameOf(f);
    return names.join(QStringLiteral(" | "));
}

bool StructureCodec::fail(StatusCode s, QString message) {
    if (m_status.isGood()) {
        m_status = s;
        m_error = m_path.isEmpty() ? message : QStringLiteral("%1: %2").arg(m_path, message);
    }
    return false;
}

std::optional<DynamicValue> StructureCodec::decode(BinaryDecoder& d, const NodeId& dataType) {
    m_status = StatusCode();
    m_error.clear();
    m_path.clear();
    DynamicValue out;
    if (!decodeValue(d, dataType, out, 0)) {
        if (d.ok()) d.fail(m_status);
        return std::nullopt;
    }
    return out;
}

std::optional<DynamicValue> StructureCodec::decodeBody(const ByteString& body, const NodeId& dataType) {
    BinaryDecoder d(reinterpret_cast<const uint8_t*>(body.data()), body.size());
    auto v = decode(d, dataType);
    if (v && d.remaining() != 0) {
        fail(status::BadDecodingError, QStringLiteral("%1 bytes left over after the structure").arg(d.remaining()));
        return std::nullopt;
    }
    return v;
}

bool StructureCodec::decodeField(BinaryDecoder& d, const StructureField& f, DynamicValue& out, int depth) {
    if (f.valueRank > 1)
        return fail(status::BadDecodingError, QStringLiteral("ValueRank %1 (matrix) fields are not supported").arg(f.valueRank));
    // -2 (any) and -3 (scalar or one dimension) are read as a scalar, as the server's NodeSet
    // reader writes them (XmlValueDecoder.cpp); 0 (one or more dimensions) as an array.
    if (f.valueRank < 0) return decodeValue(d, f.dataType, out, depth);
    out.kind = DynamicValue::Kind::Array;
    out.dataType = f.dataType;
    const int32_t n = d.readLength(d.limits().maxArrayLength, 1);
    if (!d.ok()) {
        return fail(d.status(), d.status() == status::BadEncodingLimitsExceeded
                                    ? QStringLiteral("array length over the limit of %1").arg(d.limits().maxArrayLength)
                                    : QStringLiteral("array length larger than the bytes left, or truncated"));
    }
    out.arrayIsNull = n < 0;
    const int saved = int(m_path.size());
    for (int32_t i = 0; i < n; ++i) {
        m_path.truncate(saved);
        m_path += QStringLiteral("[%1]").arg(i);
        DynamicValue e;
        if (!decodeValue(d, f.dataType, e, depth)) return false;
        if (out.typeName.isEmpty()) out.typeName = e.typeName;
        out.elements.push_back(std::move(e));
    }
    m_path.truncate(saved);
    if (out.typeName.isEmpty())
        if (auto t = m_resolver.resolve(f.dataType)) out.typeName = t->name;
    return true;
}

bool StructureCodec::decodeValue(BinaryDecoder& d, const NodeId& type, DynamicValue& out, int depth) {
    const std::optional<ResolvedDataType> t = m_resolver.resolve(type);
    if (!t) {
        return fail(status::BadDataTypeIdUnknown,
                    QStringLiteral("DataType %1 is unknown").arg(QString::fromStdString(type.toString())));
    }
    out.dataType = type;
    out.typeName = t->name;
    switch (t->kind) {
    case ResolvedDataType::Kind::Enumeration: {
        const int32_t n = d.readPod<int32_t>();
        if (!d.ok()) return fail(d.status(), QStringLiteral("truncated (an enumeration)"));
        out.scalar = Variant(n);
        out.valueName = enumValueName(t->enumeration, n, false);
        return true;
    }
    case ResolvedDataType::Kind::Structure:
        if (depth >= m_maxDepth) return fail(status::BadDecodingError, QStringLiteral("structures nested deeper than %1").arg(m_maxDepth));
        return decodeStructure(d, *t, out, depth + 1);
    case ResolvedDataType::Kind::BuiltIn:
        break;
    }
    if (t->generated) {
        auto body = t->generated->decodeBody(d);
        if (!d.ok() || !body) return fail(d.ok() ? status::BadDecodingError : d.status(), QStringLiteral("%1 truncated or malformed").arg(QLatin1String(t->generated->name)));
        out.scalar = Variant(ExtensionObject::fromDecoded(std::move(body)));
        return true;
    }
    if (t->builtIn == BuiltInType::Null || t->builtIn == BuiltInType::Variant) {
        ua::decode(d, out.scalar);
    } else if (t->builtIn == BuiltInType::ExtensionObject) {
        ExtensionObject x;
        ua::decode(d, x);
        out.scalar = Variant(std::move(x));
    } else {
        out.scalar = decodeScalarBody(d, t->builtIn);
    }
    if (!d.ok()) {
        return fail(d.status(), QStringLiteral("%1 truncated or malformed")
                                    .arg(QLatin1String(builtInTypeName(t->builtIn == BuiltInType::Null ? BuiltInType::Variant : t->builtIn))));
    }
    if (t->enumeration && isUnsignedInteger(t->builtIn))
        if (auto bits = unsignedValue(out.scalar)) out.valueName = enumValueName(t->enumeration, int64_t(*bits), true);
    return true;
}

bool StructureCodec::decodeStructure(BinaryDecoder& d, const ResolvedDataType& t, DynamicValue& out, int depth) {
    const StructureDefinition& def = *t.structure;
    out.kind = DynamicValue::Kind::Structure;
    out.structureType = def.structureType;
    out.fields.reserve(def.fields.size());
    for (const StructureField& f : def.fields) {
        DynamicField field;
        field.name = f.name.toQString();
        field.optional = isUnion(def.structureType) || (def.structureType == StructureType::StructureWithOptionalFields && f.isOptional);
        field.present = !field.optional;
        field.value.dataType = f.dataType;
        if (f.valueRank >= 0) field.value.kind = DynamicValue::Kind::Array;
        out.fields.push_back(std::move(field));
    }
    uint32_t mask = 0;
    if (def.structureType == StructureType::StructureWithOptionalFields) {
        mask = d.readPod<uint32_t>();
        if (!d.ok()) return fail(d.status(), QStringLiteral("truncated (the EncodingMask)"));
        int bit = 0;
        for (DynamicField& f : out.fields)
            if (f.optional) f.present = (mask >> bit++) & 1u;
    } else if (isUnion(def.structureType)) {
        const uint32_t chosen = d.readPod<uint32_t>();
        if (!d.ok()) return fail(d.status(), QStringLiteral("truncated (the SwitchField)"));
        if (chosen > def.fields.size())
            return fail(status::BadDecodingError, QStringLiteral("SwitchField %1 of a union of %2 fields").arg(chosen).arg(def.fields.size()));
        if (chosen > 0) out.fields[chosen - 1].present = true;
    }
    const int saved = int(m_path.size());
    for (std::size_t i = 0; i < def.fields.size(); ++i) {
        DynamicField& f = out.fields[i];
        m_path.truncate(saved);
        m_path += (saved ? QStringLiteral(".") : QString()) + f.name;
        if (!f.present) {
            if (auto ft = m_resolver.resolve(def.fields[i].dataType)) f.value.typeName = ft->name;
            continue;
        }
        if (!decodeField(d, def.fields[i], f.value, depth)) return false;
    }
    m_path.truncate(saved);
    // An OptionSet structure (Value, ValidBits) of a subtype with bit names.
    if (t.enumeration && out.fields.size() == 2)
        if (const ByteString* bits = out.fields[0].value.scalar.get<ByteString>())
            out.valueName = enumValueName(t.enumeration, int64_t(optionBits(*bits)), true);
    return true;
}

bool StructureCodec::encode(BinaryEncoder& e, const DynamicValue& v) {
    m_status = StatusCode();
    m_error.clear();
    m_path.clear();
    const bool ok = encodeValue(e, v.dataType, v, 0);
    if (ok && !e.ok()) return fail(e.status(), QStringLiteral("the encoder failed"));
    return ok;
}

std::optional<ByteString> StructureCodec::encodeBody(const DynamicValue& v) {
    Buffer bytes;
    BinaryEncoder e(bytes);
    if (!encode(e, v)) return std::nullopt;
    return ByteString(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

bool StructureCodec::encodeValue(BinaryEncoder& e, const NodeId& type, const DynamicValue& v, int depth) {
    if (v.kind == DynamicValue::Kind::Array) {
        if (v.arrayIsNull) { ua::encode(e, int32_t(-1)); return e.ok(); }
        if (v.elements.size() > std::size_t(e.limits().maxArrayLength))
            return fail(status::BadEncodingLimitsExceeded, QStringLiteral("%1 elements").arg(v.elements.size()));
        ua::encode(e, int32_t(v.elements.size()));
        const int saved = int(m_path.size());
        for (std::size_t i = 0; i < v.elements.size(); ++i) {
            m_path.truncate(saved);
            m_path += QStringLiteral("[%1]").arg(i);
            const DynamicValue& element = v.elements[i];
            if (element.kind == DynamicValue::Kind::Array) return fail(status::BadEncodingError, QStringLiteral("an array in an array"));
            if (!encodeValue(e, type, element, depth)) return false;
        }
        m_path.truncate(saved);
        return e.ok();
    }
    const std::optional<ResolvedDataType> t = m_resolver.resolve(type);
    if (!t) {
        return fail(status::BadDataTypeIdUnknown,
                    QStringLiteral("DataType %1 is unknown").arg(QString::fromStdString(type.toString())));
    }
    switch (t->kind) {
    case ResolvedDataType::Kind::Enumeration: {
        const auto n = enumInteger(v.scalar);
        if (!n) return fail(status::BadEncodingError, QStringLiteral("an enumeration needs an Int32 value"));
        ua::encode(e, *n);
        return e.ok();
    }
    case ResolvedDataType::Kind::Structure:
        if (v.kind != DynamicValue::Kind::Structure) return fail(status::BadEncodingError, QStringLiteral("a %1 needs its fields").arg(t->name));
        if (depth >= m_maxDepth) return fail(status::BadEncodingError, QStringLiteral("structures nested deeper than %1").arg(m_maxDepth));
        return encodeStructure(e, *t->structure, v, depth + 1);
    case ResolvedDataType::Kind::BuiltIn:
        break;
    }
    if (t->generated) {
        const ExtensionObject* x = v.scalar.get<ExtensionObject>();
        const ExtensionObjectBody* body = x ? x->decoded() : nullptr;
        if (!x || x->isNull()) {
            t->generated->makeDefault()->encodeBody(e);
        } else if (body && body->typeId() == t->generated->typeId) {
            body->encodeBody(e);
        } else {
            return fail(status::BadEncodingError, QStringLiteral("a %1 field holds another value").arg(QLatin1String(t->generated->name)));
        }
        return e.ok() || fail(e.status(), QStringLiteral("cannot be encoded"));
    }
    if (t->builtIn == BuiltInType::Null || t->builtIn == BuiltInType::Variant) {
        ua::encode(e, v.scalar);
    } else if (t->builtIn == BuiltInType::ExtensionObject) {
        const ExtensionObject* x = v.scalar.get<ExtensionObject>();
        if (!x && !v.scalar.isNull()) return fail(status::BadEncodingError, QStringLiteral("an ExtensionObject field holds a %1").arg(QLatin1String(builtInTypeName(v.scalar.type()))));
        ua::encode(e, x ? *x : ExtensionObject{});
    } else {
        if (!v.scalar.isScalar() || v.scalar.type() != t->builtIn) {
            return fail(status::BadEncodingError, QStringLiteral("a %1 field holds %2")
                                                      .arg(QLatin1String(builtInTypeName(t->builtIn)),
                                                           v.scalar.isNull() ? QStringLiteral("nothing") : QLatin1String(builtInTypeName(v.scalar.type()))));
        }
        encodeScalarBody(e, v.scalar);
    }
    return e.ok() || fail(e.status(), QStringLiteral("cannot be encoded"));
}

bool StructureCodec::encodeStructure(BinaryEncoder& e, const StructureDefinition& def, const DynamicValue& v, int depth) {
    if (v.fields.size() != def.fields.size())
        return fail(status::BadEncodingError, QStringLiteral("%1 fields where the definition has %2").arg(v.fields.size()).arg(def.fields.size()));
    if (def.structureType == StructureType::StructureWithOptionalFields) {
        uint32_t mask = 0;
        int bit = 0;
        for (std::size_t i = 0; i < def.fields.size(); ++i) {
            if (!def.fields[i].isOptional) continue;
            if (v.fields[i].present) mask |= 1u << bit;
            ++bit;
        }
        ua::encode(e, mask);
    } else if (isUnion(def.structureType)) {
        uint32_t chosen = 0;
        for (std::size_t i = 0; i < v.fields.size(); ++i) {
            if (!v.fields[i].present) continue;
            if (chosen) return fail(status::BadEncodingError, QStringLiteral("a union with more than one field"));
            chosen = uint32_t(i + 1);
        }
        ua::encode(e, chosen);
    }
    const int saved = int(m_path.size());
    for (std::size_t i = 0; i < def.fields.size(); ++i) {
        const StructureField& f = def.fields[i];
        const DynamicField& field = v.fields[i];
        const bool mayBeAbsent = isUnion(def.structureType) || (def.structureType == StructureType::StructureWithOptionalFields && f.isOptional);
        if (!field.present && mayBeAbsent) continue;
        m_path.truncate(saved);
        m_path += (saved ? QStringLiteral(".") : QString()) + f.name.toQString();
        if (f.valueRank > 1) return fail(status::BadEncodingError, QStringLiteral("ValueRank %1 (matrix) fields are not supported").arg(f.valueRank));
        if ((f.valueRank < 0) != (field.value.kind != DynamicValue::Kind::Array))
            return fail(status::BadEncodingError, f.valueRank < 0 ? QStringLiteral("an array where a scalar belongs") : QStringLiteral("a scalar where an array belongs"));
        if (!encodeValue(e, f.dataType, field.value, depth)) return false;  // the definition decides the encoding
    }
    m_path.truncate(saved);
    return e.ok();
}

std::optional<DynamicValue> StructureCodec::defaultValue(const NodeId& dataType) {
    m_status = StatusCode();
    m_error.clear();
    m_path.clear();
    DynamicValue out;
    if (!defaultOf(dataType, -1, out, 0)) return std::nullopt;
    return out;
}

bool StructureCodec::defaultOf(const NodeId& type, int valueRank, DynamicValue& out, int depth) {
    const std::optional<ResolvedDataType> t = m_resolver.resolve(type);
    if (!t) return fail(status::BadDataTypeIdUnknown, QStringLiteral("DataType %1 is unknown").arg(QString::fromStdString(type.toString())));
    out.dataType = type;
    out.typeName = t->name;
    if (valueRank >= 0) {
        out.kind = DynamicValue::Kind::Array;
        return true;
    }
    switch (t->kind) {
    case ResolvedDataType::Kind::Enumeration: {
        const int32_t first = t->enumeration && !t->enumeration->fields.empty() ? int32_t(t->enumeration->fields.front().value) : 0;
        out.scalar = Variant(first);
        out.valueName = enumValueName(t->enumeration, first, false);
        return true;
    }
    case ResolvedDataType::Kind::Structure: {
        if (depth >= m_maxDepth) return fail(status::BadDecodingError, QStringLiteral("structures nested deeper than %1").arg(m_maxDepth));
        const StructureDefinition& def = *t->structure;
        out.kind = DynamicValue::Kind::Structure;
        out.structureType = def.structureType;
        for (const StructureField& f : def.fields) {
            DynamicField field;
            field.name = f.name.toQString();
            field.optional = isUnion(def.structureType) || (def.structureType == StructureType::StructureWithOptionalFields && f.isOptional);
            field.present = !field.optional;
            if (field.present) {
                if (!defaultOf(f.dataType, f.valueRank, field.value, depth + 1)) return false;
            } else {
                field.value.dataType = f.dataType;  // filled in when the field is made present
                if (f.valueRank >= 0) field.value.kind = DynamicValue::Kind::Array;
                if (auto ft = m_resolver.resolve(f.dataType)) field.value.typeName = ft->name;
            }
            out.fields.push_back(std::move(field));
        }
        return true;
    }
    case ResolvedDataType::Kind::BuiltIn:
        out.scalar = t->generated ? Variant(ExtensionObject::fromDecoded(t->generated->makeDefault())) : defaultScalarOf(t->builtIn);
        if (t->enumeration && isUnsignedInteger(t->builtIn)) out.valueName = enumValueName(t->enumeration, 0, true);
        return true;
    }
    return false;
}

} // namespace ua
