// Structures known to the codec (the generated structured types of namespace 0, decoded from their
// DefaultBinary bodies, OPC 10000-6 5.2.2.15), walked field by field with the field names of
// Opc.Ua.Types.bsd. ValueText formats them with it ("{Name: value, ...}"); the command line's
// --json output makes JSON objects of them.
#pragma once

#include "ua/types/Variant.h"

#include <cstddef>
#include <cstdint>

namespace ua::app {

// Told about one structure in order: beginStructure, then per field field(name) and its value
// (value, enumeration, a nested structure, or beginArray / element+value... / endArray), then
// endStructure.
class StructureVisitor {
public:
    virtual ~StructureVisitor() = default;
    virtual void beginStructure(const char* typeName) = 0;
    virtual void field(const char* name) = 0;
    virtual void endStructure() = 0;
    virtual void beginArray(std::size_t size) = 0;
    // Before element `index` of the current array; false skips it and the rest of the array.
    virtual bool element(std::size_t index) = 0;
    virtual void endArray() = 0;
    // A field of a built-in type (a Variant field as it is).
    virtual void value(const Variant& value) = 0;
    // An enumeration field: its value and name (nullptr when the value has none).
    virtual void enumeration(int64_t value, const char* name) = 0;
};

// Walks body; false (and nothing visited) when its type is not one of the generated types.
bool visitStructure(const ExtensionObjectBody& body, StructureVisitor& visitor);

} // namespace ua::app
