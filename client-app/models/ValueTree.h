// A value as a tree of rows for the attributes view (issue 7 item 3: "arrays and structures
// expanded"): the elements of an array ("[0]", "[1]", ...; a matrix by its first dimension, then the
// next: "[1][2]"), and the fields of a structure the codec decodes (the generated types of
// Opc.Ua.Types.bsd, ExtensionObjects with a known DefaultBinary encoding: DataTypeInfo.h), by their
// schema names (generated forEachField), nested structures and arrays expanded in turn.
#pragma once

#include "ua/types/Variant.h"

#include <QString>
#include <vector>

namespace ua::clientapp {

struct ValueNode {
    QString name;        // "[3]", a field name ("CurrentTime")
    QString typeName;    // "Int32", "Double[]", "BuildInfo", "ServerState" (enumerations)
    QString text;        // the value as one line (formatVariant; "Running (0)" for an enumeration)
    int elementIndex = -1;  // for an element of the top-level array: its index in the flat array
    std::vector<ValueNode> children;
};

// The child rows of a value (empty for a scalar that is not a decoded structure). Arrays longer than
// maxElements show their first maxElements elements and a last row "..." (0: all).
std::vector<ValueNode> valueChildren(const Variant& value, std::size_t maxElements = 1000);
// The fields of a decoded ExtensionObject (empty for an opaque or Xml body).
std::vector<ValueNode> structureFields(const ExtensionObject& object, std::size_t maxElements = 1000);
// The name of a value's type: "Int32", "Double[]", the structure's name for a decoded
// ExtensionObject ("BuildInfo[]" for an array of them); "" for a null Variant.
QString valueTypeName(const Variant& value);
// A copy of the array `array` with element `index` replaced by the scalar `element` (same built-in
// type); false when the types differ or index is out of range.
bool replaceElement(Variant& array, std::size_t index, const Variant& element);
// Element `index` of an array Variant as a scalar Variant (null when out of range).
Variant elementAt(const Variant& array, std::size_t index);

} // namespace ua::clientapp
