// A small type system of custom DataTypes in namespace 1 for the tests of ua/encoding/StructureCodec.h
// (tests/unit/tst_structure_codec.cpp) and its fuzzing (tests/fuzz/fuzz_decode.cpp): the shapes of
// OPC 10000-6 5.2.7, with the ids of tests/interop/data/custom-types.NodeSet2.xml where they exist.
//   3001 Mode         enumeration Off 0, Manual 1, Auto 5
//   3010 Setpoint     Name String, Value Double, Mode Mode, Limits Double[]
//   3020 Recipe       Title String, Comment String (optional), Steps Setpoint[], Batch UInt16 (optional)
//   3030 Measurement  union of Count Int32, Level Double, Label String
//   3040 Access       OptionSet on UInt32: Read (bit 0), Write (1), Execute (2)
//   3050 Tree         Label String, Children Tree[] (recursive)
//   3060 AllBuiltins  one field of each built-in type (Boolean .. DiagnosticInfo; BaseDataType)
//   3070 Wrapper      Inner Setpoint, Choice Measurement, Access Access, Flags Flags, Any Structure
//   3080 Flags        an OptionSet structure subtype: Value and ValidBits ByteStrings, bits Hot, Cold
// A DataType's Default Binary encoding is its id + 1.
#pragma once

#include "ua/encoding/StructureCodec.h"

#include <map>

namespace ua::test {

class SampleStructureTypes final : public DataTypeResolver {
public:
    static constexpr uint32_t kMode = 3001, kSetpoint = 3010, kRecipe = 3020, kMeasurement = 3030, kAccess = 3040,
                              kTree = 3050, kAllBuiltins = 3060, kWrapper = 3070, kFlags = 3080;
    static NodeId id(uint32_t n) { return NodeId(1, n); }
    static const uint32_t* all() {
        static const uint32_t ids[] = {kMode, kSetpoint, kRecipe, kMeasurement, kAccess, kTree, kAllBuiltins, kWrapper, kFlags};
        return ids;
    }
    static constexpr std::size_t kCount = 9;

    SampleStructureTypes() {
        m_enums[kMode] = enumeration({{"Off", 0}, {"Manual", 1}, {"Auto", 5}});
        m_enums[kAccess] = enumeration({{"Read", 0}, {"Write", 1}, {"Execute", 2}});
        m_enums[kFlags] = enumeration({{"Hot", 0}, {"Cold", 1}});
        m_structs[kSetpoint] = structure(StructureType::Structure, {field("Name", 12), field("Value", 11), field("Mode", id(kMode)),
                                                                    field("Limits", 11, 1)});
        m_structs[kRecipe] = structure(StructureType::StructureWithOptionalFields,
                                       {field("Title", 12), field("Comment", 12, -1, true), field("Steps", id(kSetpoint), 1),
                                        field("Batch", 5, -1, true)});
        m_structs[kMeasurement] = structure(StructureType::Union, {field("Count", 6), field("Level", 11), field("Label", 12)});
        m_structs[kTree] = structure(StructureType::Structure, {field("Label", 12), field("Children", id(kTree), 1)});
        std::vector<StructureField> builtins;
        for (uint32_t t = 1; t <= 25; ++t) builtins.push_back(field(builtInTypeName(BuiltInType(t)), t));
        m_structs[kAllBuiltins] = structure(StructureType::Structure, std::move(builtins));
        m_structs[kWrapper] = structure(StructureType::Structure, {field("Inner", id(kSetpoint)), field("Choice", id(kMeasurement)),
                                                                   field("Access", id(kAccess)), field("Flags", id(kFlags)),
                                                                   field("Any", 22)});
        m_structs[kFlags] = structure(StructureType::Structure, {field("Value", 15), field("ValidBits", 15)});
        for (auto& [n, def] : m_structs) def.defaultEncodingId = id(n + 1);
    }

    std::optional<ResolvedDataType> resolve(const NodeId& dataType) const override {
        ResolvedDataType r;
        if (dataType.namespaceIndex() == 0 && dataType.isNumeric()) {
            const uint32_t n = dataType.numeric();
            if (n == 24 || n == 26 || n == 27 || n == 28) {  // BaseDataType, Number, Integer, UInteger
                r.name = QStringLiteral("BaseDataType");
                return r;
            }
            if (n < 1 || n > 25) return std::nullopt;
            r.builtIn = BuiltInType(n);
            r.name = QLatin1String(builtInTypeName(r.builtIn));
            return r;
        }
        if (dataType.namespaceIndex() != 1 || !dataType.isNumeric()) return std::nullopt;
        const uint32_t n = dataType.numeric();
        static const std::map<uint32_t, const char*> names = {
            {kMode, "Mode"}, {kSetpoint, "Setpoint"}, {kRecipe, "Recipe"}, {kMeasurement, "Measurement"}, {kAccess, "Access"},
            {kTree, "Tree"}, {kAllBuiltins, "AllBuiltins"}, {kWrapper, "Wrapper"}, {kFlags, "Flags"}};
        const auto name = names.find(n);
        if (name == names.end()) return std::nullopt;
        r.name = QString::fromLatin1(name->second);
        if (auto e = m_enums.find(n); e != m_enums.end()) r.enumeration = &e->second;
        if (auto s = m_structs.find(n); s != m_structs.end()) {
            r.kind = ResolvedDataType::Kind::Structure;
            r.builtIn = BuiltInType::ExtensionObject;
            r.structure = &s->second;
        } else if (n == kMode) {
            r.kind = ResolvedDataType::Kind::Enumeration;
        } else {
            r.builtIn = BuiltInType::UInt32;  // Access
        }
        return r;
    }

    // The DataType of a Default Binary encoding id (null when unknown).
    static NodeId dataTypeOfEncoding(const NodeId& encoding) {
        if (encoding.namespaceIndex() != 1 || !encoding.isNumeric()) return {};
        for (std::size_t i = 0; i < kCount; ++i)
            if (all()[i] + 1 == encoding.numeric()) return id(all()[i]);
        return {};
    }

private:
    static StructureField field(const char* name, uint32_t ns0Type, int32_t valueRank = -1, bool optional = false) {
        return field(name, NodeId(ns0Type), valueRank, optional);
    }
    static StructureField field(const char* name, NodeId type, int32_t valueRank = -1, bool optional = false) {
        StructureField f;
        f.name = String(name);
        f.dataType = std::move(type);
        f.valueRank = valueRank;
        f.isOptional = optional;
        return f;
    }
    static StructureDefinition structure(StructureType t, std::vector<StructureField> fields) {
        StructureDefinition d;
        d.baseDataType = NodeId(t == StructureType::Union ? 12756u : 22u);
        d.structureType = t;
        d.fields = Array<StructureField>::emptyArray();
        for (auto& f : fields) d.fields.push_back(std::move(f));
        return d;
    }
    static EnumDefinition enumeration(std::initializer_list<std::pair<const char*, int64_t>> values) {
        EnumDefinition d;
        d.fields = Array<EnumField>::emptyArray();
        for (const auto& [name, value] : values) {
            EnumField f;
            f.name = String(name);
            f.value = value;
            d.fields.push_back(std::move(f));
        }
        return d;
    }

    std::map<uint32_t, StructureDefinition> m_structs;
    std::map<uint32_t, EnumDefinition> m_enums;
};

} // namespace ua::test
