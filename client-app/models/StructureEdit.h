// Changes to the shape of a custom structure's value (issue 29 item 3), the one place that does
// them on a DynamicValue (ua/encoding/StructureCodec.h) before AttributesModel encodes and writes
// the whole value: an optional field made present (at its type's default) or absent, a union's
// choice switched (the new field at its default, or none), an element added to (at the default of
// the element type) or removed from an array field. New values come from StructureCodec::
// defaultValue with the resolver that decoded the value (the Connection's DataTypeCache): fields at
// their defaults, optional fields absent, unions empty, arrays empty.
//
// Each returns false, with the reason in *error, and leaves the value unchanged when the change does
// not apply (not an optional field, not a union, an index out of range, a DataType the resolver does
// not know).
#pragma once

#include "ua/encoding/StructureCodec.h"

#include <QString>

namespace ua::clientapp {

// Field `field` of structure made present (a default value; an array field: an empty array) or
// absent. Of a union: present chooses it (the field it held is dropped), absent leaves none.
bool setFieldPresent(DynamicValue& structure, int field, bool present, const DataTypeResolver& types, QString* error = nullptr);
// The field a union holds: `field` (at its default value; the same field again: unchanged), -1 none.
bool setUnionChoice(DynamicValue& unionValue, int field, const DataTypeResolver& types, QString* error = nullptr);
// The field a union holds (-1: none or not a union).
int unionChoice(const DynamicValue& unionValue);
// Whether v is a union (Union or UnionWithSubtypedValues).
bool isUnionValue(const DynamicValue& v);
// A default element of array's type inserted before index `at` (at == size: appended); a null array
// becomes one of one element.
bool insertElement(DynamicValue& array, std::size_t at, const DataTypeResolver& types, QString* error = nullptr);
// Element `at` removed.
bool removeElement(DynamicValue& array, std::size_t at, QString* error = nullptr);
// A value of dataType at its default (as above), nullopt with *error when the resolver does not know it.
std::optional<DynamicValue> defaultValueOf(const NodeId& dataType, const DataTypeResolver& types, QString* error = nullptr);

} // namespace ua::clientapp
