// The type selector of the decode fuzzer, shared by the harness (fuzz_decode.cpp) and the seed
// writer (make_corpus.cpp). An input is a little-endian UInt16 selector followed by the bytes to
// decode; selector % typeCount() picks the type:
//   0 .. kBuiltinCount-1   the built-in types below (stable indexes),
//   kBuiltinCount + i      ua::generatedDataTypes()[i] (shifts when the schema gains types; the
//                          seed corpus is then regenerated with fuzz_make_corpus).
#pragma once

#include "ua/encoding/DataTypeInfo.h"

#include <cstddef>
#include <cstdint>

namespace fuzz {

enum class Builtin : uint16_t {
    Variant,
    DataValue,
    ExtensionObject,
    DiagnosticInfo,
    NodeId,
    ExpandedNodeId,
    LocalizedText,
    QualifiedName,
};
inline constexpr std::size_t kBuiltinCount = 8;

inline const char* builtinName(Builtin b) {
    switch (b) {
    case Builtin::Variant: return "Variant";
    case Builtin::DataValue: return "DataValue";
    case Builtin::ExtensionObject: return "ExtensionObject";
    case Builtin::DiagnosticInfo: return "DiagnosticInfo";
    case Builtin::NodeId: return "NodeId";
    case Builtin::ExpandedNodeId: return "ExpandedNodeId";
    case Builtin::LocalizedText: return "LocalizedText";
    case Builtin::QualifiedName: return "QualifiedName";
    }
    return "?";
}

inline std::size_t typeCount() { return kBuiltinCount + ua::generatedDataTypes().size(); }

// The selector of generated type number i (an index into ua::generatedDataTypes()).
inline uint16_t generatedSelector(std::size_t i) { return uint16_t(kBuiltinCount + i); }
inline uint16_t builtinSelector(Builtin b) { return uint16_t(b); }

} // namespace fuzz
